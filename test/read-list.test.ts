// End-to-end: lists with every resourceVersion / resourceVersionMatch / limit combination of Kubernetes'
// semantics table, ListOptions validation, lists at a compacted revision, and the collection scopes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';

describe('list', () => {
  let s: TestServer;
  let storage: SqliteStorage;
  const ns = (n: string) => `/api/v1/namespaces/${n}/configmaps`;
  const names = (list: any) => list.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`);
  const create = async (namespace: string, name: string, labels?: Record<string, string>) => {
    const r = await s.request('POST', ns(namespace), { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { n: name } }) });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const get = async (path: string) => {
    const r = await s.request('GET', path);
    return { status: r.status, body: r.json(), headers: r.headers };
  };
  // Revisions of the fixture: after la/a..c (rev1), after la/d and lb/e (rev2).
  let rev1 = 0;
  let rev2 = 0;

  before(async () => {
    storage = SqliteStorage.open(':memory:');
    s = await startTestServer({ storage });
    for (const n of ['la', 'lb']) assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } }) })).status, 201);
    await create('la', 'a');
    await create('la', 'b');
    rev1 = Number((await create('la', 'c')).metadata.resourceVersion);
    await create('la', 'd');
    rev2 = Number((await create('lb', 'e')).metadata.resourceVersion);
  });
  after(async () => { await s.stop(); });

  it('lists a namespace: kind, apiVersion, resourceVersion, items in name order without their own kind and apiVersion', async () => {
    const r = await get(ns('la'));
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'ConfigMapList');
    assert.equal(r.body.apiVersion, 'v1');
    assert.ok(Number(r.body.metadata.resourceVersion) >= rev2);
    assert.deepEqual(Object.keys(r.body.metadata), ['resourceVersion']);
    assert.deepEqual(names(r.body), ['la/a', 'la/b', 'la/c', 'la/d']);
    // As Kubernetes encodes lists of built-in kinds: the list says what its items are.
    for (const item of r.body.items) assert.deepEqual(Object.keys(item), ['metadata', 'data']);
  });

  it('lists a namespaced kind across all namespaces', async () => {
    const r = await get('/api/v1/configmaps');
    assert.equal(r.status, 200);
    const mine = names(r.body).filter((n: string) => n.startsWith('la/') || n.startsWith('lb/'));
    assert.deepEqual(mine, ['la/a', 'la/b', 'la/c', 'la/d', 'lb/e']);
    // Ordered by namespace, then name.
    const all = names(r.body);
    assert.deepEqual(all, [...all].sort());
  });

  it('an empty namespace lists no items', async () => {
    const r = await get(ns('nothing-here'));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.items, []);
  });

  it('resourceVersion unset, no limit: the most recent state', async () => {
    const before = Number((await get(ns('la'))).body.metadata.resourceVersion);
    const added = await create('la', 'e1');
    const r = await get(ns('la'));
    assert.ok(Number(r.body.metadata.resourceVersion) >= Number(added.metadata.resourceVersion));
    assert.ok(Number(added.metadata.resourceVersion) > before);
    assert.ok(names(r.body).includes('la/e1'));
    assert.equal((await s.request('DELETE', `${ns('la')}/e1`)).status, 200);
  });

  it('resourceVersion unset with a limit: a first page of the most recent state', async () => {
    const r = await get(`${ns('la')}?limit=2`);
    assert.deepEqual(names(r.body), ['la/a', 'la/b']);
    assert.equal(r.body.metadata.remainingItemCount, 2);
    assert.ok(r.body.metadata.continue);
    assert.ok(Number(r.body.metadata.resourceVersion) >= rev2);
  });

  it('resourceVersion=0: any state, and the limit is ignored (served whole from the cache)', async () => {
    for (const q of ['resourceVersion=0', 'resourceVersion=0&limit=2', 'resourceVersion=0&resourceVersionMatch=NotOlderThan', 'resourceVersion=0&resourceVersionMatch=NotOlderThan&limit=1']) {
      const r = await get(`${ns('la')}?${q}`);
      assert.equal(r.status, 200, q);
      assert.deepEqual(names(r.body), ['la/a', 'la/b', 'la/c', 'la/d'], q);
      assert.equal(r.body.metadata.continue, undefined, q);
    }
  });

  it('resourceVersion=N without a limit, or NotOlderThan: a state not older than N', async () => {
    for (const q of [`resourceVersion=${rev1}`, `resourceVersion=${rev1}&resourceVersionMatch=NotOlderThan`, `resourceVersion=${rev1}&resourceVersionMatch=NotOlderThan&limit=2`]) {
      const r = await get(`${ns('la')}?${q}`);
      assert.equal(r.status, 200, q);
      assert.ok(Number(r.body.metadata.resourceVersion) >= rev2, q);
      assert.deepEqual(names(r.body).slice(0, 2), ['la/a', 'la/b'], q);
    }
  });

  it('resourceVersion=N with a limit (legacy) or Exact: the state exactly at N', async () => {
    const legacy = await get(`${ns('la')}?resourceVersion=${rev1}&limit=2`);
    assert.equal(legacy.status, 200);
    assert.equal(legacy.body.metadata.resourceVersion, String(rev1));
    assert.deepEqual(names(legacy.body), ['la/a', 'la/b']);
    assert.equal(legacy.body.metadata.remainingItemCount, 1);
    // The continuation stays at N: la/d, created after N, is not there.
    const rest = await get(`${ns('la')}?limit=2&continue=${encodeURIComponent(legacy.body.metadata.continue)}`);
    assert.equal(rest.body.metadata.resourceVersion, String(rev1));
    assert.deepEqual(names(rest.body), ['la/c']);
    assert.equal(rest.body.metadata.continue, undefined);

    for (const q of [`resourceVersion=${rev1}&resourceVersionMatch=Exact`, `resourceVersion=${rev1}&resourceVersionMatch=Exact&limit=10`]) {
      const exact = await get(`${ns('la')}?${q}`);
      assert.equal(exact.status, 200, q);
      assert.equal(exact.body.metadata.resourceVersion, String(rev1), q);
      assert.deepEqual(names(exact.body), ['la/a', 'la/b', 'la/c'], q);
      assert.ok(exact.body.items.every((i: any) => Number(i.metadata.resourceVersion) <= rev1), q);
    }
    const wide = await get(`/api/v1/configmaps?resourceVersion=${rev2}&resourceVersionMatch=Exact`);
    assert.deepEqual(names(wide.body).filter((n: string) => /^l[ab]\//.test(n)), ['la/a', 'la/b', 'la/c', 'la/d', 'lb/e']);
  });

  it('a version the store has not reached: 504 Too large resource version after the wait, for every read that needs it', async () => {
    const future = rev2 + 10_000;
    const queries = [`resourceVersion=${future}`, `resourceVersion=${future}&resourceVersionMatch=Exact`, `resourceVersion=${future}&limit=5`];
    // The three waits run side by side.
    const answers = await Promise.all(queries.map((q) => get(`${ns('la')}?${q}`)));
    for (const [i, q] of queries.entries()) {
      const r = answers[i];
      assert.equal(r.status, 504, q);
      assert.equal(r.headers['retry-after'], '1', q);
      assert.equal(r.body.reason, 'Timeout', q);
      assert.match(r.body.message, new RegExp(`^Timeout: Too large resource version: ${future}, current: \\d+$`), q);
      assert.deepEqual(r.body.details, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 }, q);
    }
  });

  it('ListOptions that Kubernetes refuses are 422 Invalid with its texts', async () => {
    const cases: [string, string, [string, string][]][] = [
      ['resourceVersionMatch=NotOlderThan', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        [['resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']]],
      ['resourceVersion=0&resourceVersionMatch=Exact', 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        [['resourceVersionMatch', 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']]],
      ['resourceVersion=5&resourceVersionMatch=NotOlderThan&continue=abc', 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
        [['resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden when continue is provided']]],
      ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
        [['sendInitialEvents', 'Forbidden: sendInitialEvents is forbidden for list']]],
      ['resourceVersionMatch=Exact&continue=abc', '[resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided]',
        [['resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'], ['resourceVersionMatch', 'Forbidden: resourceVersionMatch is forbidden when continue is provided']]],
    ];
    for (const [q, text, causes] of cases) {
      const r = await get(`${ns('la')}?${q}`);
      assert.equal(r.status, 422, q);
      assert.equal(r.body.reason, 'Invalid', q);
      assert.equal(r.body.message, `ListOptions.meta.svc.io "" is invalid: ${text}`, q);
      assert.equal(r.body.details.kind, 'ListOptions', q);
      assert.equal(r.body.details.group, 'meta.svc.io', q);
      assert.deepEqual(r.body.details.causes.map((c: any) => [c.field, c.message]), causes, q);
      assert.ok(r.body.details.causes.every((c: any) => c.reason === 'FieldValueForbidden'), q);
    }
  });

  it('a resourceVersion that is not a version', async () => {
    const cached = await get(`${ns('la')}?resourceVersion=x1`);
    assert.equal(cached.status, 500);
    assert.equal(cached.body.message, 'resourceVersion: Invalid value: "x1": strconv.ParseUint: parsing "x1": invalid syntax');
    assert.equal(cached.body.reason, undefined);
    // The exact reads (Exact, or a limit with a version) parse it in storage: a 400.
    const exact = await get(`${ns('la')}?resourceVersion=x1&limit=3`);
    assert.equal(exact.status, 400);
    assert.equal(exact.body.message, 'invalid resource version: resourceVersion: Invalid value: "x1": strconv.ParseUint: parsing "x1": invalid syntax');
  });

  it('an exact list at a compacted revision is 410 Expired', async () => {
    const ns3 = 'lc';
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns3 } }) })).status, 201);
    const old = Number((await create(ns3, 'x')).metadata.resourceVersion);
    const newer = Number((await create(ns3, 'y')).metadata.resourceVersion);
    await storage.compact(newer);
    for (const q of [`resourceVersion=${old}&resourceVersionMatch=Exact`, `resourceVersion=${old}&limit=1`]) {
      const r = await get(`${ns(ns3)}?${q}`);
      assert.equal(r.status, 410, q);
      assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'The resourceVersion for the provided list is too old.', reason: 'Expired', code: 410 }, q);
    }
    // The compacted revision itself is still readable, and lists that are not exact are unaffected.
    const atCompaction = await get(`${ns(ns3)}?resourceVersion=${newer}&resourceVersionMatch=Exact`);
    assert.equal(atCompaction.status, 200);
    assert.deepEqual(names(atCompaction.body), ['lc/x', 'lc/y']);
    assert.equal((await get(`${ns(ns3)}?resourceVersion=${old}`)).status, 200);
  });

  it('lists cluster-scoped kinds, with field selectors of their own', async () => {
    const r = await get('/api/v1/namespaces');
    assert.equal(r.body.kind, 'NamespaceList');
    const listed = r.body.items.map((i: any) => i.metadata.name);
    for (const n of ['default', 'kube-system', 'la', 'lb']) assert.ok(listed.includes(n), n);
    const active = await get('/api/v1/namespaces?fieldSelector=status.phase%3DActive');
    assert.ok(active.body.items.every((i: any) => i.status.phase === 'Active'));
    assert.equal(active.body.metadata.remainingItemCount, undefined);
  });
});
