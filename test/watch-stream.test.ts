// End-to-end: the watch stream itself over HTTP/1.1 and HTTP/2: framing, the three start semantics,
// resuming from any retained version (inside and beyond the watch cache's window), the 410 ERROR event for a
// compacted one, timeouts, no events for no-op writes, media types, and shutdown.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientHttp2Session } from 'node:http2';
import { startTestServer, http2Session, type TestServer } from './support/capstan.ts';
import { watchHttp1, watchHttp2, type WatchStream } from './support/watch-client.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import YAML from 'yaml';

describe('watch stream', () => {
  let s: TestServer;
  let storage: SqliteStorage;
  let h2: ClientHttp2Session;
  const open: WatchStream[] = [];
  const base = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
  const watch = async (path: string, headers?: Record<string, string>) => {
    const w = await watchHttp1(s, path, headers);
    open.push(w);
    return w;
  };
  const create = async (ns: string, name: string, data: Record<string, string> = {}) => {
    const r = await s.request('POST', base(ns), { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }) });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const update = async (ns: string, name: string, data: Record<string, string>) => {
    const current = (await s.request('GET', `${base(ns)}/${name}`)).json();
    const r = await s.request('PUT', `${base(ns)}/${name}`, { body: JSON.stringify({ ...current, data }) });
    assert.equal(r.status, 200, r.body);
    return r.json();
  };
  const remove = async (ns: string, name: string) => assert.equal((await s.request('DELETE', `${base(ns)}/${name}`)).status, 200);
  const listRv = async (ns: string) => (await s.request('GET', base(ns))).json().metadata.resourceVersion as string;
  const namespace = async (name: string) => assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) })).status, 201);
  const summary = (events: { type: string; object: any }[]) => events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`);

  before(async () => {
    storage = SqliteStorage.open(':memory:');
    // A small watch cache window: resumes from further back are served from the store's history.
    s = await startTestServer({ storage, watchCacheEventWindow: 5 });
    h2 = http2Session(s);
  });
  after(async () => {
    for (const w of open) w.close();
    h2.close();
    await s.stop();
  });

  it('streams {type, object} documents, chunked on HTTP/1.1, for create, update and delete', async () => {
    await namespace('w1');
    const rv = await listRv('w1');
    const w = await watch(`${base('w1')}?watch=1&resourceVersion=${rv}`);
    assert.equal(w.status, 200);
    assert.equal(w.headers['transfer-encoding'], 'chunked');
    assert.equal(w.headers['content-type'], 'application/json');
    const created = await create('w1', 'a', { v: '1' });
    const updated = await update('w1', 'a', { v: '2' });
    await remove('w1', 'a');
    const [added, modified, deleted] = await w.take(3);
    assert.equal(added.type, 'ADDED');
    assert.deepEqual(added.object, created);
    assert.equal(modified.type, 'MODIFIED');
    assert.deepEqual(modified.object, updated);
    assert.equal(deleted.type, 'DELETED');
    // A delete carries the last state at the delete's revision.
    assert.deepEqual(deleted.object.data, { v: '2' });
    assert.ok(Number(deleted.object.metadata.resourceVersion) > Number(updated.metadata.resourceVersion));
    assert.ok(Number(await listRv('w1')) >= Number(deleted.object.metadata.resourceVersion));
    assert.equal(w.text().split('\n').filter(Boolean).length, 3);
  });

  it('start semantics: unset and "0" begin with synthetic ADDED events; a version N streams only what came after it', async () => {
    await namespace('w2');
    const x = await create('w2', 'x');
    const y = await create('w2', 'y');
    for (const q of ['', '&resourceVersion=0']) {
      const w = await watch(`${base('w2')}?watch=true${q}`);
      const initial = await w.take(2);
      assert.deepEqual(initial, [{ type: 'ADDED', object: x }, { type: 'ADDED', object: y }], q);
    }
    const fromX = await watch(`${base('w2')}?watch=true&resourceVersion=${x.metadata.resourceVersion}`);
    assert.deepEqual(await fromX.next(), { type: 'ADDED', object: y });
    const fromY = await watch(`${base('w2')}?watch=true&resourceVersion=${y.metadata.resourceVersion}`);
    const z = await create('w2', 'z');
    assert.deepEqual(await fromY.next(), { type: 'ADDED', object: z });
    assert.equal(fromY.events.length, 1);
  });

  it('resumes from any retained version, also further back than the watch cache keeps, in order and without gaps', async () => {
    await namespace('w3');
    const written = [await create('w3', 'r', { i: '0' })];
    for (let i = 1; i <= 12; i++) written.push(await update('w3', 'r', { i: String(i) }));
    // From every point (the cache keeps the last 5 events; older points come from the store's history), each
    // watch sees exactly the changes after it.
    const watches: WatchStream[] = [];
    for (const from of [0, 3, 9, 11]) {
      const w = await watch(`${base('w3')}?watch=1&resourceVersion=${written[from].metadata.resourceVersion}`);
      const events = await w.take(12 - from);
      assert.deepEqual(events.map((e) => e.object.metadata.resourceVersion), written.slice(from + 1).map((o) => o.metadata.resourceVersion), `from ${from}`);
      assert.deepEqual(events.map((e) => e.object.data.i), written.slice(from + 1).map((o) => o.data.i), `from ${from}`);
      assert.ok(events.every((e) => e.type === 'MODIFIED'));
      watches.push(w);
    }
    // And then they go on live.
    const next = await update('w3', 'r', { i: 'live' });
    for (const w of watches) assert.deepEqual(await w.next(), { type: 'MODIFIED', object: next });
  });

  it('a compacted version gives a 200 stream with one ERROR event: 410 Expired, too old resource version', async () => {
    await namespace('w4');
    const old = await create('w4', 'c', { i: '0' });
    let last = old;
    for (let i = 1; i <= 8; i++) last = await update('w4', 'c', { i: String(i) });
    await storage.compact(Number(last.metadata.resourceVersion));
    const compacted = Number(last.metadata.resourceVersion);
    for (const w of [await watch(`${base('w4')}?watch=1&resourceVersion=${old.metadata.resourceVersion}`), await watchHttp2(h2, `${base('w4')}?watch=1&resourceVersion=${old.metadata.resourceVersion}`)]) {
      assert.equal(w.status, 200);
      const e = await w.next();
      assert.deepEqual(e, {
        type: 'ERROR',
        object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `too old resource version: ${old.metadata.resourceVersion} (${compacted})`, reason: 'Expired', code: 410 },
      });
      assert.equal(await w.ended, 'end');
      assert.equal(w.events.length, 1);
    }
  });

  it('timeoutSeconds ends the stream cleanly', async () => {
    await namespace('w5');
    const w = await watch(`${base('w5')}?watch=1&timeoutSeconds=1&resourceVersion=${await listRv('w5')}`);
    const w2 = await watchHttp2(h2, `${base('w5')}?watch=1&timeoutSeconds=1`);
    assert.equal(await w.ended, 'end');
    assert.deepEqual(w.events, []);
    assert.equal(await w2.ended, 'end');
  });

  it('an update that changes nothing sends no event', async () => {
    await namespace('w6');
    const a = await create('w6', 'a', { k: 'v' });
    const w = await watch(`${base('w6')}?watch=1&resourceVersion=${a.metadata.resourceVersion}`);
    const same = await s.request('PUT', `${base('w6')}/a`, { body: JSON.stringify(a) });
    assert.equal(same.status, 200);
    assert.equal(same.json().metadata.resourceVersion, a.metadata.resourceVersion);
    const b = await create('w6', 'b');
    assert.deepEqual(await w.next(), { type: 'ADDED', object: b });
  });

  it('a version the store has not reached yet: the watch waits for the changes after it', async () => {
    await namespace('w7');
    const now = Number(await listRv('w7'));
    const w = await watch(`${base('w7')}?watch=1&resourceVersion=${now + 2}`);
    assert.equal(w.status, 200);
    const written = [await create('w7', 'f1'), await create('w7', 'f2'), await create('w7', 'f3')];
    const e = await w.next();
    const expected = written.filter((o) => Number(o.metadata.resourceVersion) > now + 2);
    assert.deepEqual(e.object, expected[0]);
  });

  it('streams over HTTP/2, several watches on one connection', async () => {
    await namespace('w8');
    const rv = await listRv('w8');
    const a = await watchHttp2(h2, `${base('w8')}?watch=1&resourceVersion=${rv}`);
    const b = await watchHttp2(h2, `/api/v1/configmaps?watch=1&resourceVersion=${rv}`);
    assert.equal(a.status, 200);
    assert.equal(a.headers['content-type'], 'application/json');
    const obj = await create('w8', 'h');
    assert.deepEqual(await a.next(), { type: 'ADDED', object: obj });
    assert.deepEqual(await b.next(), { type: 'ADDED', object: obj });
    a.close();
    b.close();
  });

  it('watches are never YAML: 406 with the stream types (the error itself in the type asked for)', async () => {
    await namespace('w9');
    const yamlOnly = await watch(`${base('w9')}?watch=1`, { accept: 'application/yaml' });
    await yamlOnly.ended;
    assert.equal(yamlOnly.status, 406);
    const status = YAML.parse(yamlOnly.text());
    assert.equal(status.reason, 'NotAcceptable');
    assert.equal(status.code, 406);
    assert.match(status.message, /^only the following media types are accepted: application\/json;stream=watch/);
    const json = await watch(`${base('w9')}?watch=1`, { accept: 'application/json' });
    assert.equal(json.status, 200);
    assert.equal(json.headers['content-type'], 'application/json');
  });

  it('a watch of a namespace sees only that namespace; one across all namespaces sees every one', async () => {
    await namespace('w10a');
    await namespace('w10b');
    const rv = await listRv('w10a');
    const one = await watch(`${base('w10a')}?watch=1&resourceVersion=${rv}`);
    const all = await watch(`/api/v1/configmaps?watch=1&resourceVersion=${rv}`);
    const deprecated = await watch(`/api/v1/watch/configmaps?resourceVersion=${rv}`);
    await create('w10b', 'other');
    await create('w10a', 'mine');
    assert.deepEqual(summary([await one.next()]), ['ADDED mine']);
    assert.deepEqual(summary(await all.take(2)), ['ADDED other', 'ADDED mine']);
    assert.deepEqual(summary(await deprecated.take(2)), ['ADDED other', 'ADDED mine']);
  });

  it('watches end when the server stops', async () => {
    const other = await startTestServer();
    const h = http2Session(other);
    try {
      const w1 = await watchHttp1(other, '/api/v1/namespaces?watch=1');
      const w2 = await watchHttp2(h, '/api/v1/configmaps?watch=1');
      await w1.take(4);
      await other.stop();
      assert.equal(await w1.ended, 'end');
      assert.equal(await w2.ended, 'end');
    } finally {
      h.close();
      await other.stop();
    }
  });
});
