// Helpers for the access control end-to-end tests: requests and kubectl runs as a given identity (a client
// certificate issued by the server's CA, a bearer token, or nothing), and files written for flags.
import { request as httpsRequest } from 'node:https';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { issueClientCertificate } from '../../src/pki/sign.ts';
import { runKubectl, type KubectlResult, type TestServer } from './capstan.ts';

/** Who a request is made as: a client certificate, a bearer token, both, or neither (anonymous). */
export interface Credentials {
  cert?: string;
  key?: string;
  token?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

/** A client certificate for `user` in `groups`, signed by the test server's CA. */
export async function userCertificate(s: TestServer, user: string, groups: string[] = []): Promise<Credentials> {
  const pki = join(s.dataDir, 'pki');
  const [certPem, keyPem] = await Promise.all([readFile(join(pki, 'ca.crt'), 'utf8'), readFile(join(pki, 'ca.key'), 'utf8')]);
  const issued = await issueClientCertificate({ certPem, keyPem }, { commonName: user, organizations: groups });
  return { cert: issued.certPem, key: issued.keyPem };
}

/** One HTTPS/1.1 request as `who`; objects are sent as JSON. */
export function requestAs(s: TestServer, who: Credentials, method: string, path: string, body?: unknown, headers: Record<string, string | string[]> = {}): Promise<Answer> {
  const data = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const url = new URL(path, s.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent: false,
      ca: s.credentials.ca, cert: who.cert, key: who.key,
      headers: {
        ...(data ? { 'content-type': 'application/json', 'content-length': String(data.length) } : {}),
        ...(who.token !== undefined ? { authorization: `Bearer ${who.token}` } : {}),
        ...headers,
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** kubectl with a kubeconfig holding only `who` (and the server's CA); extra flags such as --token go in `args`. */
export async function kubectlAs(s: TestServer, who: Credentials, args: string[], input?: string): Promise<KubectlResult> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-kubectl-'));
  const user: Record<string, string> = {};
  if (who.cert) user['client-certificate-data'] = Buffer.from(who.cert).toString('base64');
  if (who.key) user['client-key-data'] = Buffer.from(who.key).toString('base64');
  if (who.token) user.token = who.token;
  const config = {
    apiVersion: 'v1', kind: 'Config', 'current-context': 'test',
    clusters: [{ name: 'test', cluster: { server: s.url, 'certificate-authority-data': Buffer.from(s.credentials.ca).toString('base64') } }],
    users: [{ name: 'test', user }],
    contexts: [{ name: 'test', context: { cluster: 'test', user: 'test' } }],
  };
  const path = join(dir, 'kubeconfig');
  await writeFile(path, YAML.stringify(config));
  return runKubectl({ kubeconfig: path, home: dir, cacheDir: join(dir, 'cache') }, args, input);
}

/** Writes `content` to a new file in a fresh temporary folder and answers its path. */
export async function tempFile(name: string, content: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-auth-'));
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

/** Polls `check` until it answers true (the config file reload is asynchronous); fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const admin = (s: TestServer): Credentials => ({ cert: s.credentials.cert, key: s.credentials.key });
