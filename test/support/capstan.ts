// Starts a real Capstan for an end-to-end test and drives it with real clients.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connect, type ClientHttp2Session } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { startServer, type RunningServer, type ServerOptions } from '../../src/index.ts';

const run = promisify(execFile);

export interface TestServer extends RunningServer {
  /** kubectl as the admin; `env` adds environment variables (KUBE_EDITOR). */
  kubectl(args: string[], input?: string, env?: Record<string, string>): Promise<KubectlResult>;
  /** A raw HTTPS/1.1 request with the admin client certificate (or none with `anonymous`). */
  request(method: string, path: string, opts?: { body?: string | Buffer; headers?: Record<string, string>; anonymous?: boolean }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string; json(): any }>;
  credentials: { ca: string; cert: string; key: string };
}

/**
 * The controllers API tests run with unless they name their own: as Kubernetes' integration tests run the
 * API server without the controller manager, the controllers that write objects of their own (default
 * service accounts, kube-root-ca.crt, CSR approval and signing, quota status, garbage collection, tokens of
 * service account token Secrets, a Deployment's ReplicaSets and their pods, an autoscaler's status, volume
 * binding and phases, ephemeral volumes' claims) are off;
 * the tests of those controllers turn them on with `controllers`.
 */
export const API_TEST_CONTROLLERS = ['*', '-garbagecollector', '-serviceaccount', '-root-ca-cert-publisher', '-csrapproving', '-csrsigning', '-resourcequota', '-serviceaccount-token', '-deployment', '-replicaset', '-horizontalpodautoscaling', '-persistentvolume-binder', '-ephemeral-volume'];

export interface KubectlResult { stdout: string; stderr: string; code: number }

/** Runs kubectl with this kubeconfig, home and cache folder, `input` on its stdin; a failure is its exit code, not a throw. */
export async function runKubectl(where: { kubeconfig: string; home: string; cacheDir: string; env?: Record<string, string> }, args: string[], input?: string): Promise<KubectlResult> {
  const child = run('kubectl', ['--kubeconfig', where.kubeconfig, '--cache-dir', where.cacheDir, ...args], { env: { ...process.env, HOME: where.home, ...where.env }, timeout: 60_000 });
  if (input !== undefined) { child.child.stdin!.write(input); child.child.stdin!.end(); }
  try {
    const { stdout, stderr } = await child;
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
  }
}

export async function startTestServer(opts: ServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ inMemory: true, port: 0, controllers: API_TEST_CONTROLLERS, ...opts });
  const credentials = { ca: server.caCertPem, cert: server.adminCertPem, key: server.adminKeyPem };
  const kubectl: TestServer['kubectl'] = (args, input, env) =>
    runKubectl({ kubeconfig: server.kubeconfigPath, home: server.dataDir, cacheDir: `${server.dataDir}/kubectl-cache`, env }, args, input);
  const request: TestServer['request'] = (method, path, o = {}) => new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method,
      ca: credentials.ca, ...(o.anonymous ? {} : { cert: credentials.cert, key: credentials.key }),
      headers: { ...(o.body ? { 'content-type': 'application/json' } : {}), ...o.headers },
      agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body) });
      });
    });
    req.on('error', reject);
    if (o.body) req.write(o.body);
    req.end();
  });
  return { ...server, kubectl, request, credentials };
}

export interface RawResponse { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** A raw HTTPS/1.1 request as the admin whose answer is kept as bytes (protobuf, CBOR, gzip). */
export function rawRequest(s: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: Uint8Array | string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, s.url);
    const req = httpsRequest({
      host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent: false,
      ca: s.credentials.ca, cert: s.credentials.cert, key: s.credentials.key,
      headers: body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** An HTTP/2 session with the admin certificate, for streaming (watch) tests. */
export function http2Session(server: TestServer): ClientHttp2Session {
  return connect(server.url, { ca: server.credentials.ca, cert: server.credentials.cert, key: server.credentials.key });
}
