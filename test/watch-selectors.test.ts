// End-to-end: watches of one object (field selector, the deprecated /watch/ path, GET item with ?watch=1) and
// selective watches, where an object entering the selection is ADDED and one leaving it is DELETED.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { watchHttp1, type WatchStream } from './support/watch-client.ts';

describe('selective watches', () => {
  let s: TestServer;
  const open: WatchStream[] = [];
  const base = '/api/v1/namespaces/ws/configmaps';
  const watch = async (path: string) => {
    const w = await watchHttp1(s, path);
    open.push(w);
    return w;
  };
  const put = async (name: string, labels: Record<string, string> | undefined, data: Record<string, string> = {}) => {
    const current = await s.request('GET', `${base}/${name}`);
    const body = current.status === 404
      ? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data }
      : { ...current.json(), metadata: { ...current.json().metadata, labels }, data };
    const r = current.status === 404 ? await s.request('POST', base, { body: JSON.stringify(body) }) : await s.request('PUT', `${base}/${name}`, { body: JSON.stringify(body) });
    assert.ok(r.status === 200 || r.status === 201, r.body);
    return r.json();
  };
  const remove = async (name: string) => assert.equal((await s.request('DELETE', `${base}/${name}`)).status, 200);
  const listRv = async () => (await s.request('GET', base)).json().metadata.resourceVersion as string;

  before(async () => {
    s = await startTestServer();
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ws' } }) })).status, 201);
  });
  after(async () => {
    for (const w of open) w.close();
    await s.stop();
  });

  it('one object, two ways: fieldSelector=metadata.name and the /watch/ path; GET of the item with ?watch=1 answers the object', async () => {
    const one = await put('one', undefined, { v: '1' });
    await put('two', undefined);
    // Kubernetes' item route is a get whatever `watch` says.
    const got = await s.request('GET', `${base}/one?watch=1&resourceVersion=0`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json(), one);
    const paths = [
      `${base}?watch=1&resourceVersion=0&fieldSelector=metadata.name%3Done`,
      `/api/v1/watch/namespaces/ws/configmaps/one?resourceVersion=0`,
    ];
    const watches = [];
    for (const p of paths) {
      const w = await watch(p);
      assert.equal(w.status, 200, p);
      // kubectl get -w of one object starts with the synthetic ADDED of that object.
      assert.deepEqual(await w.next(), { type: 'ADDED', object: one }, p);
      watches.push(w);
    }
    await put('two', undefined, { other: 'change' });
    const updated = await put('one', undefined, { v: '2' });
    await remove('one');
    for (const [i, w] of watches.entries()) {
      const [modified, deleted] = await w.take(2);
      assert.deepEqual(modified, { type: 'MODIFIED', object: updated }, paths[i]);
      assert.equal(deleted.type, 'DELETED', paths[i]);
      assert.equal(deleted.object.metadata.name, 'one', paths[i]);
      assert.equal(w.events.length, 3, paths[i]);
    }
  });

  it('a single-object path with a field selector for another name is 400', async () => {
    for (const p of [`/api/v1/watch/namespaces/ws/configmaps/one?fieldSelector=metadata.name%3Dtwo`, `/api/v1/watch/namespaces/ws/configmaps/one?fieldSelector=metadata.namespace%3Dws`]) {
      const w = await watch(p);
      await w.ended;
      assert.equal(w.status, 400, p);
      assert.deepEqual(JSON.parse(w.text()), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: "fieldSelector metadata.name doesn't match requested name", reason: 'BadRequest', code: 400 }, p);
    }
  });

  it('a label selector watch: entering is ADDED, staying MODIFIED, leaving DELETED with the previous state at the new version', async () => {
    const rv = await listRv();
    const w = await watch(`${base}?watch=1&resourceVersion=${rv}&labelSelector=app%3Dweb`);
    const a1 = await put('a', { app: 'web' }, { v: '1' });
    await put('b', { app: 'db' });
    const a2 = await put('a', { app: 'web' }, { v: '2' });
    const a3 = await put('a', { app: 'db' }, { v: '2' });
    await put('a', { app: 'db' }, { v: '3' });
    const a5 = await put('a', { app: 'web' }, { v: '3' });
    await remove('a');
    const events = await w.take(5);
    assert.deepEqual(events.map((e) => e.type), ['ADDED', 'MODIFIED', 'DELETED', 'ADDED', 'DELETED']);
    assert.deepEqual(events[0].object, a1);
    assert.deepEqual(events[1].object, a2);
    // Leaving: the object as it was (still matching), stamped with the version of the change that moved it.
    assert.deepEqual(events[2].object, { ...a2, metadata: { ...a2.metadata, resourceVersion: a3.metadata.resourceVersion } });
    assert.deepEqual(events[3].object, a5);
    assert.deepEqual(events[4].object.metadata.labels, { app: 'web' });
    assert.ok(Number(events[4].object.metadata.resourceVersion) > Number(a5.metadata.resourceVersion));
    assert.ok(events.every((e) => e.object.metadata.name === 'a'));
    await remove('b');
  });

  it('set-based and field selector watches select the same way lists do', async () => {
    const rv = await listRv();
    const setBased = await watch(`${base}?watch=1&resourceVersion=${rv}&labelSelector=tier%20in%20(front,back),!legacy`);
    const byField = await watch(`${base}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name!%3Dskip`);
    const both = await watch(`/api/v1/configmaps?watch=1&resourceVersion=${rv}&fieldSelector=metadata.namespace%3Dws&labelSelector=tier`);
    await put('skip', { tier: 'front' });
    await put('c', { tier: 'back', legacy: 'yes' });
    await put('d', { tier: 'front' });
    await put('e', {});
    assert.deepEqual((await setBased.take(2)).map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED skip', 'ADDED d']);
    assert.deepEqual((await byField.take(3)).map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED c', 'ADDED d', 'ADDED e']);
    assert.deepEqual((await both.take(3)).map((e) => `${e.type} ${e.object.metadata.name}`), ['ADDED skip', 'ADDED c', 'ADDED d']);
  });

  it('a field selector on a kind\'s own field: cordoning a node enters spec.unschedulable=true, uncordoning leaves it', async () => {
    const created = await s.request('POST', '/api/v1/nodes', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } }) });
    assert.equal(created.status, 201);
    const w = await watch(`/api/v1/nodes?watch=1&resourceVersion=${created.json().metadata.resourceVersion}&fieldSelector=spec.unschedulable%3Dtrue`);
    const setUnschedulable = async (value: boolean) => {
      const node = (await s.request('GET', '/api/v1/nodes/n1')).json();
      const r = await s.request('PUT', '/api/v1/nodes/n1', { body: JSON.stringify({ ...node, spec: { ...node.spec, unschedulable: value } }) });
      assert.equal(r.status, 200, r.body);
      return r.json();
    };
    const cordoned = await setUnschedulable(true);
    const uncordoned = await setUnschedulable(false);
    const [added, deleted] = await w.take(2);
    assert.deepEqual(added, { type: 'ADDED', object: cordoned });
    assert.equal(deleted.type, 'DELETED');
    assert.equal(deleted.object.spec.unschedulable, true);
    assert.equal(deleted.object.metadata.resourceVersion, uncordoned.metadata.resourceVersion);
    const bad = await watch('/api/v1/nodes?watch=1&fieldSelector=spec.foo%3Dx');
    await bad.ended;
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.text()).message, 'field label not supported: spec.foo');
  });
});
