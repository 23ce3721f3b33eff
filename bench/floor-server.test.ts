import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:http2';
import { generateServingCert } from './lib/tls.ts';
import { H1Connection } from './loadgen/h1-client.ts';
import { request as httpsRequest } from 'node:https';
import { stampPatchBody } from './lib/configmap.ts';

/** The floor server in a child process, on a fresh self-signed certificate; stop() ends it and removes its files. */
async function startFloor(): Promise<{ url: string; stop(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'floor-test-'));
  const { cert, key } = generateServingCert();
  writeFileSync(join(dir, 'cert.pem'), cert);
  writeFileSync(join(dir, 'key.pem'), key);
  const child = fork(join(import.meta.dirname, 'floor-server.ts'), ['--cert', join(dir, 'cert.pem'), '--key', join(dir, 'key.pem')], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const stop = () => { child.kill(); rmSync(dir, { recursive: true, force: true }); };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m: { port: number }) => resolve(m.port));
      child.once('exit', (code) => reject(new Error(`the floor server exited (${code}) before it listened`)));
    });
    return { url: `https://127.0.0.1:${port}`, stop };
  } catch (err) {
    stop();
    throw err;
  }
}

test('the floor answers a fixed object, echoes bodies, rejects bad JSON, over HTTP/1.1 and HTTP/2', async () => {
  const floor = await startFloor();
  try {
    const url = floor.url;
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
    floor.stop();
  }
});

/** Reads the JSON lines of one HTTP/2 watch stream; `next()` resolves with the next line parsed. */
function watchLines(stream: import('node:http2').ClientHttp2Stream) {
  const lines: unknown[] = [];
  const waiting: Array<(line: unknown) => void> = [];
  let tail = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (tail + chunk).split('\n');
    tail = parts.pop()!;
    for (const p of parts) {
      const line = JSON.parse(p);
      const w = waiting.shift();
      if (w) w(line); else lines.push(line);
    }
  });
  return { next: () => new Promise<any>((resolve) => { if (lines.length > 0) resolve(lines.shift()); else waiting.push(resolve); }) };
}

test('a watch on the floor gets every PATCH in its collection as a watch event with the writer\'s stamp, over HTTP/2 and HTTP/1.1', async () => {
  const floor = await startFloor();
  const session = { current: null as import('node:http2').ClientHttp2Session | null };
  try {
    const url = floor.url;
    session.current = connect(url, { rejectUnauthorized: false });
    const open = async (path: string) => {
      const s = session.current!.request({ ':method': 'GET', ':path': path, accept: 'application/json' });
      const headers = await new Promise<Record<string, unknown>>((resolve, reject) => { s.on('response', resolve); s.on('error', reject); });
      return { stream: s, headers, lines: watchLines(s) };
    };
    const watched = '/api/v1/namespaces/bench-watch/configmaps';
    const a = await open(`${watched}?watch=1&resourceVersion=5`);
    const b = await open(`${watched}?watch=true`);
    const other = await open('/api/v1/namespaces/elsewhere/configmaps?watch=1');
    assert.equal(a.headers[':status'], 200);
    assert.equal(a.headers['content-type'], 'application/json');

    const writer = new H1Connection({ url });
    const patched = await writer.request('PATCH', `${watched}/w-000007`, { 'content-type': 'application/merge-patch+json' }, stampPatchBody(1234));
    assert.equal(patched.status, 200);
    assert.deepEqual(JSON.parse(patched.body.toString()), JSON.parse(stampPatchBody(1234)));
    await writer.request('PATCH', '/api/v1/namespaces/elsewhere/configmaps/x', {}, stampPatchBody(99));

    for (const w of [a, b]) {
      const event = await w.lines.next();
      assert.equal(event.type, 'MODIFIED');
      assert.equal(event.object.kind, 'ConfigMap');
      assert.equal(event.object.metadata.name, 'w-000007');
      assert.equal(event.object.metadata.namespace, 'bench-watch');
      assert.deepEqual(event.object.metadata.annotations, { 'bench/stamp': '1234' });
      assert.equal(Object.keys(event.object.data).length, 8);
    }
    // The other collection's watch saw only its own object's event.
    const elsewhere = await other.lines.next();
    assert.equal(elsewhere.object.metadata.name, 'x');
    assert.equal(elsewhere.object.metadata.annotations['bench/stamp'], '99');

    // A watch that went away is dropped; the others go on, with a newer resourceVersion each time.
    b.stream.close();
    await new Promise((r) => b.stream.once('close', r));
    await writer.request('PATCH', `${watched}/w-000008`, {}, stampPatchBody(1235));
    const first = await a.lines.next();
    assert.equal(first.object.metadata.name, 'w-000008');

    // HTTP/1.1: the same events, chunked.
    const h1 = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      const req = httpsRequest(`${url}${watched}?watch=1`, { rejectUnauthorized: false, agent: false }, resolve);
      req.on('error', reject);
      req.end();
    });
    assert.equal(h1.statusCode, 200);
    const h1line = new Promise<any>((resolve) => {
      let text = '';
      h1.setEncoding('utf8');
      h1.on('data', (d: string) => { text += d; const nl = text.indexOf('\n'); if (nl >= 0) resolve(JSON.parse(text.slice(0, nl))); });
    });
    await writer.request('PATCH', `${watched}/w-000009`, {}, stampPatchBody(1236));
    const [viaH2, viaH1] = await Promise.all([a.lines.next(), h1line]);
    assert.deepEqual(viaH1, viaH2);
    assert.equal(viaH1.object.metadata.name, 'w-000009');
    assert.ok(Number(viaH1.object.metadata.resourceVersion) > Number(first.object.metadata.resourceVersion));
    h1.destroy();
    writer.close();
  } finally {
    session.current?.destroy();
    floor.stop();
  }
});
