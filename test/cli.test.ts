// End-to-end: `capstan serve` as a user runs it — first start, clean stop on SIGTERM, restart on the same data
// directory, and SIGKILL in the middle of a stream of writes losing no acknowledged write.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:https';
import YAML from 'yaml';
import { serveProcess as serve } from './support/serve-process.ts';

interface Credentials { ca: string; cert: string; key: string }

async function credentials(dataDir: string): Promise<Credentials> {
  const config = YAML.parse(await readFile(join(dataDir, 'admin.kubeconfig'), 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  return { ca: b64(config.clusters[0].cluster['certificate-authority-data']), cert: b64(config.users[0].user['client-certificate-data']), key: b64(config.users[0].user['client-key-data']) };
}

function call(url: string, creds: Credentials, method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, url);
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, ...creds, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let data = '';
      res.on('data', (d) => { data += d; });
      res.on('end', () => resolve({ status: res.statusCode!, body: data }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) req.write(JSON.stringify(body));
    req.end();
  });
}

describe('capstan serve', () => {
  let dataDir: string;
  before(async () => { dataDir = await mkdtemp(join(tmpdir(), 'capstan-cli-')); });
  after(async () => { await rm(dataDir, { recursive: true, force: true }); });

  it('starts, keeps its state and PKI in the data directory, and stops cleanly on SIGTERM', async () => {
    const first = await serve(dataDir);
    const creds = await credentials(dataDir);
    assert.equal((await call(first.url, creds, 'GET', '/readyz')).status, 200);
    for (const f of ['capstan.db', 'admin.kubeconfig', 'pki/ca.crt', 'pki/ca.key', 'pki/apiserver.crt', 'pki/admin.crt']) await stat(join(dataDir, f));
    assert.equal((await stat(join(dataDir, 'pki/ca.key'))).mode & 0o077, 0, 'the CA key is private');
    assert.equal((await call(first.url, creds, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'kept' } })).status, 201);
    // A watch open at shutdown ends; the process exits 0.
    const watchEnded = new Promise<void>((resolve) => {
      const u = new URL('/api/v1/namespaces/default/configmaps?watch=1', first.url);
      request({ host: u.hostname, port: u.port, path: u.pathname + u.search, ...creds }, (res) => { res.resume(); res.on('end', resolve); res.on('close', resolve); }).end();
    });
    await new Promise((r) => setTimeout(r, 200));
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    await watchEnded;

    const second = await serve(dataDir);
    assert.equal(await readFile(join(dataDir, 'pki/ca.crt'), 'utf8'), creds.ca, 'the CA is reused');
    const got = await call(second.url, creds, 'GET', '/api/v1/namespaces/default/configmaps/kept');
    assert.equal(got.status, 200);
    const namespaces = JSON.parse((await call(second.url, creds, 'GET', '/api/v1/namespaces')).body).items.map((n: { metadata: { name: string } }) => n.metadata.name);
    assert.deepEqual(namespaces.sort(), ['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    second.child.kill('SIGINT');
    assert.equal(await second.exited, 0);
  });

  it('loses no acknowledged write when killed with SIGKILL mid-stream', async () => {
    const server = await serve(dataDir);
    const creds = await credentials(dataDir);
    const acknowledged: string[] = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const name = `w${w}-${i}`;
        try {
          const r = await call(server.url, creds, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name }, data: { i: String(i) } });
          if (r.status === 201) acknowledged.push(name);
        } catch {
          return; // the connection died with the server
        }
        if (acknowledged.length >= 300 && !killed) { killed = true; server.child.kill('SIGKILL'); }
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, w) => writer(w)));
    await server.exited;
    assert.ok(acknowledged.length >= 300);

    const again = await serve(dataDir);
    const items: { metadata: { name: string } }[] = JSON.parse((await call(again.url, creds, 'GET', '/api/v1/namespaces/default/configmaps')).body).items;
    const present = new Set(items.map((i) => i.metadata.name));
    const lost = acknowledged.filter((n) => !present.has(n));
    assert.deepEqual(lost, [], 'acknowledged writes lost');
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  });
});
