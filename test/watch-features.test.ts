// End-to-end: bookmarks, streaming lists (sendInitialEvents), their ListOptions errors, and the event
// objects a watch can carry instead of the object: one-row Tables (kubectl get -w) and metadata only.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { watchHttp1, type WatchStream } from './support/watch-client.ts';

// The tests use namespaces of their own and run side by side (two of them wait out a timeout).
describe('watch features', { concurrency: true }, () => {
  let s: TestServer;
  const open: WatchStream[] = [];
  const base = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
  const watch = async (path: string, headers?: Record<string, string>) => {
    const w = await watchHttp1(s, path, headers);
    open.push(w);
    return w;
  };
  const create = async (ns: string, name: string) => {
    const r = await s.request('POST', base(ns), { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: name } }) });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const namespace = async (name: string) => assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) })).status, 201);
  const listRv = async (ns: string) => (await s.request('GET', base(ns))).json().metadata.resourceVersion as string;

  before(async () => { s = await startTestServer(); });
  after(async () => {
    for (const w of open) w.close();
    await s.stop();
  });

  it('allowWatchBookmarks: a BOOKMARK (the kind, only metadata.resourceVersion) before the timeout ends the stream', async () => {
    await namespace('b1');
    const rv = await listRv('b1');
    const w = await watch(`${base('b1')}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=3`);
    const plain = await watch(`${base('b1')}?watch=1&resourceVersion=${rv}&timeoutSeconds=3`);
    const obj = await create('b1', 'x');
    assert.deepEqual(await w.next(), { type: 'ADDED', object: obj });
    assert.equal(await w.ended, 'end');
    const bookmarks = w.events.filter((e) => e.type === 'BOOKMARK');
    assert.ok(bookmarks.length >= 1);
    for (const b of bookmarks) {
      assert.deepEqual(Object.keys(b.object), ['kind', 'apiVersion', 'metadata']);
      assert.equal(b.object.kind, 'ConfigMap');
      assert.equal(b.object.apiVersion, 'v1');
      assert.deepEqual(Object.keys(b.object.metadata), ['resourceVersion']);
      // Everything up to the bookmark's version was sent.
      assert.ok(Number(b.object.metadata.resourceVersion) >= Number(obj.metadata.resourceVersion));
    }
    assert.equal(await plain.ended, 'end');
    assert.deepEqual(plain.events.map((e) => e.type), ['ADDED']);
  });

  it('a streaming list: initial ADDED events, a BOOKMARK marking their end, then live changes', async () => {
    await namespace('b2');
    const a = await create('b2', 'a');
    const b = await create('b2', 'b');
    for (const rv of ['', '0', a.metadata.resourceVersion]) {
      const q = `watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true${rv ? `&resourceVersion=${rv}` : ''}`;
      // List items leave out kind and apiVersion; events carry them.
      const items = (await s.request('GET', base('b2'))).json().items.map((item: any) => ({ kind: 'ConfigMap', apiVersion: 'v1', ...item }));
      assert.deepEqual(items.slice(0, 2), [a, b]);
      const w = await watch(`${base('b2')}?${q}`);
      assert.equal(w.status, 200, q);
      const initial = await w.take(items.length);
      assert.deepEqual(initial, items.map((object: any) => ({ type: 'ADDED', object })), q);
      const end = await w.next();
      assert.equal(end.type, 'BOOKMARK', q);
      assert.deepEqual(end.object.kind, 'ConfigMap', q);
      assert.deepEqual(end.object.metadata.annotations, { 'svc.io/initial-events-end': 'true' }, q);
      assert.ok(Number(end.object.metadata.resourceVersion) >= Number(b.metadata.resourceVersion), q);
      const c = await create('b2', `c${rv}`);
      assert.deepEqual(await w.next(), { type: 'ADDED', object: c }, q);
      w.close();
    }
  });

  it('a streaming list without bookmarks sends the initial events only; sendInitialEvents=false starts from now', async () => {
    await namespace('b3');
    const a = await create('b3', 'a');
    const noBookmark = await watch(`${base('b3')}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
    assert.deepEqual(await noBookmark.next(), { type: 'ADDED', object: a });
    const fromNow = await watch(`${base('b3')}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
    const fromNowAny = await watch(`${base('b3')}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&resourceVersion=0`);
    const b = await create('b3', 'b');
    assert.deepEqual(await noBookmark.next(), { type: 'ADDED', object: b });
    assert.deepEqual(await fromNow.next(), { type: 'ADDED', object: b });
    assert.deepEqual(await fromNowAny.next(), { type: 'ADDED', object: b });
  });

  it('a streaming list from a version the store has not reached: an ERROR event with the 504', async () => {
    await namespace('b4');
    const future = Number(await listRv('b4')) + 10_000;
    const w = await watch(`${base('b4')}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=${future}`);
    assert.equal(w.status, 200);
    const e = await w.next(6000);
    assert.equal(e.type, 'ERROR');
    assert.equal(e.object.code, 504);
    assert.equal(e.object.reason, 'Timeout');
    assert.match(e.object.message, new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`));
    assert.equal(await w.ended, 'end');
  });

  it('watch ListOptions errors are 422 with Kubernetes\' texts', async () => {
    const cases: [string, string][] = [
      ['sendInitialEvents=true', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
      ['sendInitialEvents=false', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'],
      ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'],
      ['sendInitialEvents=true&resourceVersionMatch=Exact&resourceVersion=5', '[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]'],
    ];
    for (const [q, text] of cases) {
      const w = await watch(`${base('default')}?watch=1&${q}`);
      await w.ended;
      assert.equal(w.status, 422, q);
      const st = JSON.parse(w.text());
      assert.equal(st.reason, 'Invalid', q);
      assert.equal(st.message, `ListOptions.meta.svc.io "" is invalid: ${text}`, q);
    }
  });

  it('kubectl get -w as Tables: a one-row Table per event, column definitions on the first event only', async () => {
    await namespace('b5');
    const a = await create('b5', 'a');
    const accept = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    const w = await watch(`${base('b5')}?watch=1&resourceVersion=0`, { accept });
    assert.equal(w.status, 200);
    const first = await w.next();
    assert.equal(first.type, 'ADDED');
    assert.equal(first.object.kind, 'Table');
    assert.equal(first.object.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(first.object.columnDefinitions.map((c: any) => c.name), ['Name', 'Data', 'Age']);
    assert.deepEqual(first.object.metadata, { resourceVersion: a.metadata.resourceVersion });
    assert.equal(first.object.rows.length, 1);
    assert.deepEqual(first.object.rows[0].cells.slice(0, 2), ['a', 1]);
    assert.deepEqual(first.object.rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: a.metadata });
    const b = await create('b5', 'b');
    const second = await w.next();
    assert.equal(second.object.kind, 'Table');
    assert.equal(second.object.columnDefinitions, undefined);
    assert.deepEqual(second.object.rows[0].cells.slice(0, 2), ['b', 1]);
    assert.equal(second.object.metadata.resourceVersion, b.metadata.resourceVersion);
    const full = await watch(`${base('b5')}?watch=1&resourceVersion=0&includeObject=Object`, { accept: 'application/json;as=Table;v=v1;g=meta.svc.io' });
    const e = await full.next();
    assert.equal(e.object.apiVersion, 'meta.svc.io/v1');
    assert.deepEqual(e.object.rows[0].object, a);
  });

  it('a metadata-only watch carries PartialObjectMetadata objects', async () => {
    await namespace('b6');
    const a = await create('b6', 'a');
    const w = await watch(`${base('b6')}?watch=1&resourceVersion=0`, { accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json' });
    assert.deepEqual(await w.next(), { type: 'ADDED', object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: a.metadata } });
  });
});
