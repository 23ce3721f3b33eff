// End-to-end: reading one object with each resourceVersion semantic (unset, "0", not older than N, too
// large), HEAD, and the errors, over HTTP/1.1 and HTTP/2.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, http2Session, type TestServer } from './support/capstan.ts';
import { watchHttp2 } from './support/watch-client.ts';
import type { ClientHttp2Session } from 'node:http2';

describe('get', () => {
  let s: TestServer;
  let h2: ClientHttp2Session;
  const base = '/api/v1/namespaces/default/configmaps';
  const put = async (name: string, data: Record<string, string>) => {
    const current = await s.request('GET', `${base}/${name}`);
    if (current.status === 404) return s.request('POST', base, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }) });
    return s.request('PUT', `${base}/${name}`, { body: JSON.stringify({ ...current.json(), data }) });
  };
  const currentRevision = async () => Number((await s.request('GET', '/api/v1/namespaces')).json().metadata.resourceVersion);

  before(async () => {
    s = await startTestServer();
    h2 = http2Session(s);
  });
  after(async () => {
    h2.close();
    await s.stop();
  });

  it('without a resourceVersion reads the most recent state', async () => {
    const created = (await put('g1', { v: '1' })).json();
    const updated = (await put('g1', { v: '2' })).json();
    assert.ok(Number(updated.metadata.resourceVersion) > Number(created.metadata.resourceVersion));
    const r = await s.request('GET', `${base}/g1`);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-type'], 'application/json');
    const obj = r.json();
    assert.equal(obj.kind, 'ConfigMap');
    assert.equal(obj.apiVersion, 'v1');
    assert.deepEqual(obj.data, { v: '2' });
    assert.equal(obj.metadata.resourceVersion, updated.metadata.resourceVersion);
  });

  it('with resourceVersion=0 answers from any state, and with N from one not older than N', async () => {
    const obj = (await put('g2', { v: '1' })).json();
    const any = await s.request('GET', `${base}/g2?resourceVersion=0`);
    assert.equal(any.status, 200);
    assert.equal(any.json().metadata.name, 'g2');
    const atLeast = await s.request('GET', `${base}/g2?resourceVersion=${obj.metadata.resourceVersion}`);
    assert.equal(atLeast.status, 200);
    assert.equal(atLeast.json().metadata.resourceVersion, obj.metadata.resourceVersion);
    // An older N is satisfied by the current state.
    const older = await s.request('GET', `${base}/g2?resourceVersion=1`);
    assert.equal(older.json().metadata.resourceVersion, obj.metadata.resourceVersion);
  });

  it('with a version the store has not reached waits, then answers 504 Too large resource version with Retry-After', async () => {
    await put('g3', { v: '1' });
    const current = await currentRevision();
    const future = current + 1000;
    const r = await s.request('GET', `${base}/g3?resourceVersion=${future}`);
    assert.equal(r.status, 504);
    assert.equal(r.headers['retry-after'], '1');
    const { message, ...rest } = r.json();
    assert.deepEqual(rest, {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      code: 504,
    });
    // The current revision is the store's when the wait ended (background writers may have moved it on).
    const m = /^Timeout: Too large resource version: (\d+), current: (\d+)$/.exec(message);
    assert.ok(m, message);
    assert.equal(Number(m[1]), future);
    assert.ok(Number(m[2]) >= current && Number(m[2]) < future);
  });

  it('with a version reached while it waits answers as soon as the store gets there', async () => {
    await put('g4', { v: '1' });
    const next = (await currentRevision()) + 1;
    const pending = s.request('GET', `${base}/g4?resourceVersion=${next}`);
    await new Promise((r) => setTimeout(r, 200));
    const written = (await put('g4', { v: '2' })).json();
    const r = await pending;
    assert.equal(r.status, 200);
    // Normally our write is what brings the store to `next`; a background write may get there first.
    assert.ok([written.metadata.resourceVersion, String(next - 1)].includes(r.json().metadata.resourceVersion) || Number(r.json().metadata.resourceVersion) <= next);
  });

  it('a resourceVersion that is not a version fails as Kubernetes fails it', async () => {
    await put('g5', { v: '1' });
    const r = await s.request('GET', `${base}/g5?resourceVersion=abc`);
    assert.equal(r.status, 500);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax', code: 500 });
    const negative = await s.request('GET', `${base}/g5?resourceVersion=-1`);
    assert.equal(negative.json().message, 'resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax');
    const huge = await s.request('GET', `${base}/g5?resourceVersion=18446744073709551616`);
    assert.equal(huge.json().message, 'resourceVersion: Invalid value: "18446744073709551616": strconv.ParseUint: parsing "18446744073709551616": value out of range');
  });

  it('a missing object is 404 NotFound', async () => {
    const r = await s.request('GET', `${base}/nope`);
    assert.equal(r.status, 404);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "nope" not found', reason: 'NotFound', details: { name: 'nope', kind: 'configmaps' }, code: 404 });
  });

  it('HEAD answers the headers of a get without a body', async () => {
    await put('g6', { v: '1' });
    const r = await s.request('HEAD', `${base}/g6`);
    assert.equal(r.status, 200);
    assert.equal(r.body, '');
    assert.equal(r.headers['content-type'], 'application/json');
    const missing = await s.request('HEAD', `${base}/nope`);
    assert.equal(missing.status, 404);
    assert.equal(missing.body, '');
    const list = await s.request('HEAD', base);
    assert.equal(list.status, 200);
    assert.equal(list.body, '');
  });

  it('HTTP/2 serves the same answers, HEAD included', async () => {
    const obj = (await put('g7', { v: '1' })).json();
    const r = await watchHttp2(h2, `${base}/g7`);
    await r.ended;
    assert.equal(r.status, 200);
    assert.equal(JSON.parse(r.text()).metadata.resourceVersion, obj.metadata.resourceVersion);
    const head = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = h2.request({ ':method': 'HEAD', ':path': `${base}/g7` });
      let status = 0;
      let body = '';
      req.on('response', (h) => { status = Number(h[':status']); });
      req.on('data', (c) => { body += c; });
      req.on('end', () => resolve({ status, body }));
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(head, { status: 200, body: '' });
    const future = (await currentRevision()) + 50;
    const tooLarge = await watchHttp2(h2, `${base}/g7?resourceVersion=${future}`);
    await tooLarge.ended;
    assert.equal(tooLarge.status, 504);
    assert.equal(tooLarge.headers['retry-after'], '1');
    assert.equal(JSON.parse(tooLarge.text()).details.causes[0].reason, 'ResourceVersionTooLarge');
  });

  it('a cluster-scoped object is read by name', async () => {
    const r = await s.request('GET', '/api/v1/namespaces/default');
    assert.equal(r.status, 200);
    assert.equal(r.json().kind, 'Namespace');
    assert.equal(r.json().status.phase, 'Active');
  });
});
