// The garbage collector end to end: dependents of a ConfigMap owner (ConfigMaps and Secrets) under the
// three propagation policies, over raw HTTP and with kubectl delete --cascade.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { call } from './support/write-helpers.ts';
import { startEtcd } from './support/etcd-process.ts';
import { EtcdStorage } from '../src/storage/etcd.ts';

const NS = 'gc';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const SECRET = `/api/v1/namespaces/${NS}/secrets`;

interface Ref { apiVersion: string; kind: string; name: string; uid: string; blockOwnerDeletion?: boolean }

describe('garbage collector', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: ['*'], controllerResyncMs: 200 });
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: NS } }) })).status, 201);
  });
  after(async () => { await s.stop(); });

  const post = async (path: string, metadata: object) => {
    const r = await s.request('POST', path, { body: JSON.stringify({ metadata }) });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const owner = async (name: string): Promise<Ref> => {
    const o = await post(CM, { name });
    return { apiVersion: 'v1', kind: 'ConfigMap', name, uid: o.metadata.uid };
  };
  const get = (path: string) => s.request('GET', path);
  const gone = (path: string) => until(async () => (await get(path)).status === 404, `${path} to be deleted`);
  const del = (path: string, opts: { query?: string; body?: object } = {}) => call(s, 'DELETE', path + (opts.query ? `?${opts.query}` : ''), opts.body);

  it('background (the default): the owner goes at once, its dependents after it', async () => {
    const ref = await owner('bg-owner');
    await post(CM, { name: 'bg-dep', ownerReferences: [ref] });
    await post(SECRET, { name: 'bg-secret', ownerReferences: [{ ...ref, blockOwnerDeletion: true }] });
    const r = await del(`${CM}/bg-owner`);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().kind, 'Status');
    await gone(`${CM}/bg-dep`);
    await gone(`${SECRET}/bg-secret`);
  });

  it('a dependent whose owners are all gone is deleted; one with a live owner only loses the dead reference', async () => {
    const live = await owner('live-owner');
    const ghost: Ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'live-owner', uid: '00000000-0000-0000-0000-000000000000' };
    const missing: Ref = { apiVersion: 'v1', kind: 'Secret', name: 'never-created', uid: '11111111-1111-1111-1111-111111111111' };
    await post(CM, { name: 'orphaned-at-birth', ownerReferences: [missing] });
    await post(CM, { name: 'two-owners', ownerReferences: [live, missing, ghost] });
    await gone(`${CM}/orphaned-at-birth`);
    await until(async () => (await get(`${CM}/two-owners`)).json().metadata.ownerReferences?.length === 1, 'the dead references to go');
    assert.deepEqual((await get(`${CM}/two-owners`)).json().metadata.ownerReferences, [live]);
    // An owner of a kind the server does not serve is never taken for gone.
    await post(CM, { name: 'unknown-kind', ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '22222222-2222-2222-2222-222222222222' }] });
    await post(CM, { name: 'marker', ownerReferences: [missing] });
    await gone(`${CM}/marker`);
    assert.equal((await get(`${CM}/unknown-kind`)).status, 200);
  });

  it('foreground: the owner waits, marked, until the dependents that block it are gone', async () => {
    const ref = await owner('fg-owner');
    await post(SECRET, { name: 'fg-blocking', ownerReferences: [{ ...ref, blockOwnerDeletion: true }], finalizers: ['example.com/hold'] });
    await post(CM, { name: 'fg-plain', ownerReferences: [ref] });
    const r = await del(`${CM}/fg-owner`, { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().metadata.finalizers, ['foregroundDeletion']);
    assert.ok(r.json().metadata.deletionTimestamp);
    await gone(`${CM}/fg-plain`);
    await until(async () => !!(await get(`${SECRET}/fg-blocking`)).json().metadata.deletionTimestamp, 'the blocking dependent to be deleted');
    // The blocking dependent is held by its own finalizer, so the owner is still there.
    const held = (await get(`${CM}/fg-owner`)).json();
    assert.deepEqual(held.metadata.finalizers, ['foregroundDeletion']);
    const release = await s.request('PATCH', `${SECRET}/fg-blocking`, { body: JSON.stringify({ metadata: { finalizers: null } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(release.status, 200, release.body);
    await gone(`${SECRET}/fg-blocking`);
    await gone(`${CM}/fg-owner`);
  });

  it('foreground goes down the tree: a dependent with dependents of its own is deleted in the foreground too', async () => {
    const top = await owner('tree-top');
    const mid = await post(CM, { name: 'tree-mid', ownerReferences: [{ ...top, blockOwnerDeletion: true }] });
    await post(SECRET, { name: 'tree-leaf', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'tree-mid', uid: mid.metadata.uid, blockOwnerDeletion: true }], finalizers: ['example.com/hold'] });
    assert.equal((await del(`${CM}/tree-top`, { query: 'propagationPolicy=Foreground' })).status, 200);
    await until(async () => !!(await get(`${SECRET}/tree-leaf`)).json().metadata.deletionTimestamp, 'the leaf to be deleted');
    assert.deepEqual((await get(`${CM}/tree-mid`)).json().metadata.finalizers, ['foregroundDeletion']);
    assert.equal((await get(`${CM}/tree-top`)).status, 200);
    await s.request('PATCH', `${SECRET}/tree-leaf`, { body: JSON.stringify({ metadata: { finalizers: null } }), headers: { 'content-type': 'application/merge-patch+json' } });
    await gone(`${CM}/tree-top`);
    await gone(`${CM}/tree-mid`);
  });

  it('orphan: the dependents lose their reference to the owner and stay', async () => {
    const ref = await owner('or-owner');
    const other = await owner('or-other');
    await post(CM, { name: 'or-dep', ownerReferences: [ref] });
    await post(SECRET, { name: 'or-secret', ownerReferences: [{ ...ref, blockOwnerDeletion: true }, other] });
    const r = await del(`${CM}/or-owner`, { body: { propagationPolicy: 'Orphan' } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().metadata.finalizers, ['orphan']);
    await gone(`${CM}/or-owner`);
    assert.equal((await get(`${CM}/or-dep`)).json().metadata.ownerReferences, undefined);
    assert.deepEqual((await get(`${SECRET}/or-secret`)).json().metadata.ownerReferences, [other]);
  });

  it('orphanDependents=true orphans; orphanDependents=false cascades', async () => {
    const a = await owner('od-true');
    await post(CM, { name: 'od-true-dep', ownerReferences: [a] });
    assert.equal((await del(`${CM}/od-true`, { query: 'orphanDependents=true' })).status, 200);
    await gone(`${CM}/od-true`);
    assert.equal((await get(`${CM}/od-true-dep`)).json().metadata.ownerReferences, undefined);
    const b = await owner('od-false');
    await post(CM, { name: 'od-false-dep', ownerReferences: [b] });
    assert.equal((await del(`${CM}/od-false`, { body: { orphanDependents: false } })).status, 200);
    await gone(`${CM}/od-false-dep`);
  });

  it('a second delete may change the policy: Background on a foreground deletion removes the owner now', async () => {
    const ref = await owner('switch-owner');
    await post(SECRET, { name: 'switch-dep', ownerReferences: [{ ...ref, blockOwnerDeletion: true }], finalizers: ['example.com/hold'] });
    assert.equal((await del(`${CM}/switch-owner`, { query: 'propagationPolicy=Foreground' })).status, 200);
    await until(async () => !!(await get(`${SECRET}/switch-dep`)).json().metadata.deletionTimestamp, 'the dependent to be deleted');
    // Deleting again without a policy keeps the foreground deletion going.
    const again = await del(`${CM}/switch-owner`);
    assert.deepEqual(again.json().metadata.finalizers, ['foregroundDeletion']);
    const now = await del(`${CM}/switch-owner`, { query: 'propagationPolicy=Background' });
    assert.equal(now.status, 200, now.body);
    assert.equal(now.json().kind, 'Status');
    assert.equal((await get(`${CM}/switch-owner`)).status, 404);
    await s.request('PATCH', `${SECRET}/switch-dep`, { body: JSON.stringify({ metadata: { finalizers: null } }), headers: { 'content-type': 'application/merge-patch+json' } });
    await gone(`${SECRET}/switch-dep`);
  });

  it('kubectl delete --cascade=foreground|orphan|background', async () => {
    for (const cascade of ['foreground', 'orphan', 'background']) {
      const ref = await owner(`k-${cascade}`);
      await post(CM, { name: `k-${cascade}-dep`, ownerReferences: [{ ...ref, blockOwnerDeletion: true }] });
      await post(SECRET, { name: `k-${cascade}-secret`, ownerReferences: [ref] });
      const r = await s.kubectl(['delete', '-n', NS, 'configmap', `k-${cascade}`, `--cascade=${cascade}`]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `configmap "k-${cascade}" deleted`);
      // kubectl waits for the owner to be gone.
      assert.equal((await get(`${CM}/k-${cascade}`)).status, 404);
      if (cascade === 'orphan') {
        assert.equal((await get(`${CM}/k-${cascade}-dep`)).json().metadata.ownerReferences, undefined);
        assert.equal((await get(`${SECRET}/k-${cascade}-secret`)).json().metadata.ownerReferences, undefined);
      } else {
        // In the foreground the blocking dependent went before the owner.
        if (cascade === 'foreground') assert.equal((await get(`${CM}/k-${cascade}-dep`)).status, 404);
        await gone(`${CM}/k-${cascade}-dep`);
        await gone(`${SECRET}/k-${cascade}-secret`);
      }
    }
  });

  it('a terminating namespace is emptied of dependents and owners alike', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'gc-ns' } }) })).status, 201);
    const o = (await s.request('POST', '/api/v1/namespaces/gc-ns/configmaps', { body: JSON.stringify({ metadata: { name: 'o' } }) })).json();
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: o.metadata.uid, blockOwnerDeletion: true };
    assert.equal((await s.request('POST', '/api/v1/namespaces/gc-ns/secrets', { body: JSON.stringify({ metadata: { name: 'd', ownerReferences: [ref] } }) })).status, 201);
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/gc-ns')).status, 200);
    await gone('/api/v1/namespaces/gc-ns');
  });
});

describe('garbage collector turned off', () => {
  it('--controllers=*,-garbage-collector-controller: foreground and orphan deletions wait, dependents stay', async () => {
    const s = await startTestServer({ controllers: ['*', '-garbage-collector-controller'] });
    try {
      const o = (await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'o' } }) })).json();
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: o.metadata.uid };
      assert.equal((await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'd', ownerReferences: [ref] } }) })).status, 201);
      const r = await s.request('DELETE', '/api/v1/namespaces/default/configmaps/o?propagationPolicy=Orphan');
      assert.deepEqual(r.json().metadata.finalizers, ['orphan']);
      // The default service account shows the other controllers run; the orphan finalizer is still there.
      await until(async () => (await s.request('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200, 'the default service account');
      assert.deepEqual((await s.request('GET', '/api/v1/namespaces/default/configmaps/o')).json().metadata.finalizers, ['orphan']);
      assert.deepEqual((await s.request('GET', '/api/v1/namespaces/default/configmaps/d')).json().metadata.ownerReferences, [ref]);
    } finally {
      await s.stop();
    }
  });
});

describe('garbage collector on etcd', () => {
  it('foreground and orphan deletions complete though most caches are idle (they learn the revision late)', async () => {
    const etcd = await startEtcd();
    const storage = await EtcdStorage.connect({ endpoints: etcd.endpoints, prefix: '/registry' });
    const s = await startTestServer({ storage, controllers: ['*'] });
    try {
      const post = async (path: string, metadata: object) => {
        const r = await s.request('POST', path, { body: JSON.stringify({ metadata }) });
        assert.equal(r.status, 201, r.body);
        return r.json();
      };
      for (const policy of ['Foreground', 'Orphan']) {
        const o = await post('/api/v1/namespaces/default/configmaps', { name: `o-${policy.toLowerCase()}` });
        const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: `o-${policy.toLowerCase()}`, uid: o.metadata.uid, blockOwnerDeletion: true };
        await post('/api/v1/namespaces/default/secrets', { name: `d-${policy.toLowerCase()}`, ownerReferences: [ref] });
        const r = await s.request('DELETE', `/api/v1/namespaces/default/configmaps/o-${policy.toLowerCase()}?propagationPolicy=${policy}`);
        assert.equal(r.status, 200, r.body);
        await until(async () => (await s.request('GET', `/api/v1/namespaces/default/configmaps/o-${policy.toLowerCase()}`)).status === 404, `the ${policy} owner to go`);
        const dep = await s.request('GET', `/api/v1/namespaces/default/secrets/d-${policy.toLowerCase()}`);
        if (policy === 'Foreground') assert.equal(dep.status, 404);
        else assert.equal(dep.json().metadata.ownerReferences, undefined);
      }
    } finally {
      await s.stop();
      await etcd.stop();
    }
  });
});
