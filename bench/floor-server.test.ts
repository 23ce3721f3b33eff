import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:http2';
import { generateServingCert } from './lib/tls.ts';
import { H1Connection } from './loadgen/h1-client.ts';

test('the floor answers a fixed object, echoes bodies, rejects bad JSON, over HTTP/1.1 and HTTP/2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'floor-test-'));
  const { cert, key } = generateServingCert();
  writeFileSync(join(dir, 'cert.pem'), cert);
  writeFileSync(join(dir, 'key.pem'), key);
  const child = fork(join(import.meta.dirname, 'floor-server.ts'), ['--cert', join(dir, 'cert.pem'), '--key', join(dir, 'key.pem')], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const port = await new Promise<number>((resolve) => child.once('message', (m: { port: number }) => resolve(m.port)));
    const url = `https://127.0.0.1:${port}`;
    const h1 = new H1Connection({ url });
    const got = await h1.request('GET', '/api/v1/namespaces/x/configmaps/y');
    assert.equal(got.status, 200);
    assert.equal(JSON.parse(got.body.toString()).kind, 'ConfigMap');
    const created = await h1.request('POST', '/any', { 'content-type': 'application/json' }, '{ "a" : [1, 2] }');
    assert.equal(created.status, 201);
    assert.equal(created.body.toString(), '{"a":[1,2]}');
    assert.equal((await h1.request('PUT', '/any', {}, '{"b":1}')).status, 200);
    assert.equal((await h1.request('PATCH', '/any', {}, 'not json')).status, 400);
    h1.close();

    const session = connect(url, { rejectUnauthorized: false });
    const status = await new Promise<number>((resolve, reject) => {
      const s = session.request({ ':method': 'GET', ':path': '/' });
      s.on('response', (h) => resolve(Number(h[':status'])));
      s.on('error', reject);
      s.resume();
      s.end();
    });
    assert.equal(status, 200);
    session.close();
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});
