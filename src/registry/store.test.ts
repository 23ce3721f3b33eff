// The generic registry over a real in-memory SQLite store, with a small kind that tracks generation and
// has a status: generation rules, reset fields, a cache that trails storage, concurrent writers, deletes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { KindDefinition, RequestContext } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { S } from '../apis/meta/schema.ts';
import { ObjectMeta } from '../apis/meta/v1.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import type { Storage } from '../storage/interface.ts';
import { WatchCache } from '../storage/cache.ts';
import { StatusError } from '../machinery/status.ts';
import { openTestStore } from './test-store.ts';
import { ResourceStore, type UpdateOptions } from './store.ts';

const WidgetSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: ObjectMeta,
  spec: S.object({ size: S.int32(), color: S.string(), locked: S.string() }),
  status: S.object({ ready: S.bool() }),
});

const widgets: KindDefinition = {
  group: 'example.svc.io',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  namespaced: true,
  versions: [{ name: 'v1', stability: 'stable', schema: WidgetSchema }],
  storageVersion: 'v1',
  status: { mainResetsFields: ['status', 'spec.locked'] },
};

const ctx = (subresource = ''): RequestContext => ({ user: { username: 'test', groups: [] }, version: 'v1', subresource, dryRun: false, warnings: [] });
const updateOpts = (name: string, subresource = '', extra: Partial<UpdateOptions> = {}): UpdateOptions => ({ ctx: ctx(subresource), dryRun: false, subresource, allowCreate: false, name, ...extra });

let storage: SqliteStorage;
let store: ResourceStore;
let close: () => Promise<void>;
before(async () => { ({ storage, store, close } = await openTestStore(widgets)); });
after(() => close());

const widget = (name: string, spec: object = {}, extra: object = {}): ApiObject => ({ apiVersion: 'example.svc.io/v1', kind: 'Widget', metadata: { name }, spec, ...extra });
const settle = async () => { await store.cache.waitFor(await storage.currentRevision(), 1000); };

async function statusError(p: Promise<unknown>): Promise<StatusError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  assert.fail('the write was accepted');
}

test('create: generation 1 for a kind that tracks it; the answer is in the served field order', async () => {
  const r = await store.create('ns', widget('g1', { size: 1 }, { metadata: { name: 'g1', generation: 7 } }), { ctx: ctx(), dryRun: false });
  assert.equal(r.object.metadata.generation, 1);
  assert.deepEqual(Object.keys(r.object), ['kind', 'apiVersion', 'metadata', 'spec']);
  assert.deepEqual(Object.keys(r.object.metadata), ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp']);
  assert.equal(r.json, JSON.stringify(r.object));
});

test('generation moves only when something but metadata and status changes', async () => {
  await settle();
  const write = async (mutate: (o: ApiObject) => void, sub = '') => {
    await settle();
    return (await store.update('ns', (cur) => { const o = structuredClone(cur!); mutate(o); return o; }, updateOpts('g1', sub))).object;
  };
  assert.equal((await write((o) => { o.metadata.labels = { a: 'b' }; })).metadata.generation, 1);
  assert.equal((await write((o) => { o.status = { ready: true }; }, 'status')).metadata.generation, 1);
  assert.equal((await write((o) => { (o.spec as { size: number }).size = 2; })).metadata.generation, 2);
  assert.equal((await write((o) => { o.metadata.generation = 99; (o.spec as { color: string }).color = 'red'; })).metadata.generation, 3);
});

test('the main resource keeps the reset fields; /status writes only status, labels and annotations', async () => {
  await store.create('ns', widget('r1', { size: 1, locked: 'orig' }, { status: { ready: false } }), { ctx: ctx(), dryRun: false });
  await settle();
  const main = await store.update('ns', (cur) => ({ ...cur!, spec: { size: 5, locked: 'changed' }, status: { ready: true } }), updateOpts('r1'));
  assert.deepEqual(main.object.spec, { size: 5, locked: 'orig' });
  assert.deepEqual(main.object.status, { ready: false });
  await settle();
  const st = await store.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels: { x: 'y' }, finalizers: ['example.com/f'] }, spec: { size: 9 }, status: { ready: true } }), updateOpts('r1', 'status'));
  assert.deepEqual(st.object.spec, { size: 5, locked: 'orig' });
  assert.deepEqual(st.object.status, { ready: true });
  assert.deepEqual(st.object.metadata.labels, { x: 'y' });
  assert.equal(st.object.metadata.finalizers, undefined);
});

test('a cache that trails storage never answers 404, 409 or a no-op for a write that storage would take', async () => {
  // Storage whose watch delivers every event late: the cache trails every write.
  const lagging: Storage = Object.create(storage);
  lagging.watch = (prefix, after, listener) => storage.watch(prefix, after, {
    onEvents: (events) => { setTimeout(() => listener.onEvents(events), 30); },
    onProgress: (revision) => { setTimeout(() => listener.onProgress(revision), 30); },
    onError: (err) => listener.onError(err),
  });
  const slow = new ResourceStore(widgets, storage, new WatchCache(lagging, store.keyRoot));
  await slow.cache.start();
  try {
    const created = await slow.create('ns', widget('fresh', { size: 1 }), { ctx: ctx(), dryRun: false });
    assert.equal(slow.current('ns', 'fresh'), undefined);
    const updated = await slow.update('ns', (cur) => ({ ...cur!, spec: { size: 2 } }), updateOpts('fresh'));
    assert.equal((updated.object.spec as { size: number }).size, 2);
    const pinned = await slow.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, resourceVersion: updated.object.metadata.resourceVersion }, spec: { size: 3 } }), updateOpts('fresh'));
    assert.equal((pinned.object.spec as { size: number }).size, 3);
    // The same content again: a no-op only once the cache has caught up with the last write.
    const same = await slow.update('ns', (cur) => ({ ...cur!, spec: { size: 3 } }), updateOpts('fresh'));
    assert.equal(same.object.metadata.resourceVersion, pinned.object.metadata.resourceVersion);
    const removed = await slow.delete('ns', 'fresh', { ctx: ctx(), dryRun: false });
    assert.equal(removed.removed, true);
    assert.equal(removed.object.metadata.uid, created.object.metadata.uid);
  } finally {
    slow.cache.stop();
  }
});

test('a cache that has not seen the client\'s last writes (and will not soon) neither delays nor refuses them', async () => {
  // Storage whose watch holds every event back until released: the cache sees none of these writes.
  const held: Array<() => void> = [];
  const frozen: Storage = Object.create(storage);
  frozen.watch = (prefix, after, listener) => storage.watch(prefix, after, {
    onEvents: (events) => { held.push(() => listener.onEvents(events)); },
    onProgress: (revision) => { held.push(() => listener.onProgress(revision)); },
    onError: (err) => listener.onError(err),
  });
  const stale = new ResourceStore(widgets, storage, new WatchCache(frozen, store.keyRoot));
  await stale.cache.start();
  try {
    let obj = (await stale.create('ns', widget('frozen', { size: 1 }), { ctx: ctx(), dryRun: false })).object;
    for (let size = 2; size <= 6; size++) {
      const rv = obj.metadata.resourceVersion;
      const written = await stale.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, resourceVersion: rv }, spec: { size } }), updateOpts('frozen'));
      assert.equal((written.object.spec as { size: number }).size, size);
      assert.ok(Number(written.object.metadata.resourceVersion) > Number(rv));
      obj = written.object;
    }
    assert.equal(stale.current('ns', 'frozen'), undefined);
    // A version older than storage's is still a conflict.
    const e = await statusError(stale.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, resourceVersion: '1' } }), updateOpts('frozen')));
    assert.equal(e.code, 409);
    assert.equal((await stale.delete('ns', 'frozen', { ctx: ctx(), dryRun: false })).removed, true);
    assert.ok(held.length > 0);
  } finally {
    stale.cache.stop();
  }
});

/** The real store with some of its members replaced; calls to the others go to it. */
function overriding(overrides: Record<string, unknown>): Storage {
  return new Proxy(storage, {
    get: (target, prop) => {
      if (typeof prop === 'string' && prop in overrides) return overrides[prop];
      const value = (target as unknown as Record<string | symbol, unknown>)[prop];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

test('over a store that cannot tell its revision (etcd), a client updating what it just wrote starts from that write, not from a storage read', async () => {
  // The real store seen as etcd is: no revisionNow, reads counted, a watch held back so the cache trails.
  let reads = 0;
  const held: Array<() => void> = [];
  const overrides: Partial<Storage> & { revisionNow: undefined } = {
    revisionNow: undefined,
    get: (key, opts) => { reads++; return storage.get(key, opts); },
    watch: (prefix, after, listener) => storage.watch(prefix, after, {
      onEvents: (events) => { held.push(() => listener.onEvents(events)); },
      onProgress: (revision) => { held.push(() => listener.onProgress(revision)); },
      onError: (err) => listener.onError(err),
    }),
  };
  const remote = overriding(overrides);
  const s = new ResourceStore(widgets, remote, new WatchCache(remote, store.keyRoot));
  await s.cache.start();
  try {
    let obj = (await s.create('ns', widget('own', { size: 1 }), { ctx: ctx(), dryRun: false })).object;
    for (let size = 2; size <= 5; size++) {
      const rv = obj.metadata.resourceVersion;
      obj = (await s.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, resourceVersion: rv }, spec: { size } }), updateOpts('own'))).object;
      assert.equal((obj.spec as { size: number }).size, size);
    }
    assert.equal(s.current('ns', 'own'), undefined, 'the cache has seen none of it');
    assert.equal(reads, 0, 'no update read storage first');

    // A write made elsewhere meanwhile: the compare-and-swap fails, and storage's object decides.
    const elsewhere = await store.update('ns', (cur) => ({ ...cur!, spec: { size: 100 } }), updateOpts('own'));
    const e = await statusError(s.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, resourceVersion: obj.metadata.resourceVersion } }), updateOpts('own')));
    assert.equal(e.code, 409);
    const unpinned = await s.update('ns', (cur) => ({ ...cur!, spec: { size: (cur!.spec as { size: number }).size + 1 } }), updateOpts('own'));
    assert.equal((unpinned.object.spec as { size: number }).size, 101);
    assert.ok(Number(unpinned.object.metadata.resourceVersion) > Number(elsewhere.object.metadata.resourceVersion));
    assert.ok(reads > 0);

    // Once the cache has caught up, it answers again.
    for (const release of held.splice(0)) release();
    await s.cache.waitFor(Number(unpinned.object.metadata.resourceVersion), 1000);
    assert.equal(s.current('ns', 'own')?.modRevision, Number(unpinned.object.metadata.resourceVersion));
    assert.equal((await s.delete('ns', 'own', { ctx: ctx(), dryRun: false })).removed, true);
  } finally {
    s.cache.stop();
  }
});

test('reads as of now come from the cache when the in-process store says it is current, else from storage', async () => {
  // The same store, counting its reads, with a watch that can be held back (calls go to the real store).
  let reads = 0;
  const held: Array<() => void> = [];
  let hold = false;
  const overrides: Partial<Storage> = {
    get: (key, opts) => { reads++; return storage.get(key, opts); },
    watch: (prefix, after, listener) => storage.watch(prefix, after, {
      onEvents: (events) => { if (hold) held.push(() => listener.onEvents(events)); else listener.onEvents(events); },
      onProgress: (revision) => { if (hold) held.push(() => listener.onProgress(revision)); else listener.onProgress(revision); },
      onError: (err) => listener.onError(err),
    }),
  };
  const watched = overriding(overrides);
  const s = new ResourceStore(widgets, watched, new WatchCache(watched, store.keyRoot));
  await s.cache.start();
  try {
    const created = await s.create('ns', widget('now', { size: 1 }), { ctx: ctx(), dryRun: false });
    assert.equal((await s.readNow('ns', 'now'))!.json, created.json);
    assert.equal(await s.readNow('ns', 'absent'), undefined);
    assert.equal(reads, 0);
    hold = true;
    const updated = await s.update('ns', (cur) => ({ ...cur!, spec: { size: 2 } }), updateOpts('now'));
    assert.equal((await s.readNow('ns', 'now'))!.json, updated.json);
    assert.equal(reads, 1);
  } finally {
    s.cache.stop();
  }
});

test('concurrent unconditional updates all land; a pinned stale version is a 409', async () => {
  const base = await store.create('ns', widget('busy', { size: 0 }), { ctx: ctx(), dryRun: false });
  await settle();
  await Promise.all(Array.from({ length: 8 }, (_, i) => store.update('ns', (cur) => {
    const o = structuredClone(cur!);
    o.metadata.labels = { ...o.metadata.labels, [`w${i}`]: 'x' };
    delete o.metadata.resourceVersion;
    return o;
  }, updateOpts('busy'))));
  await settle();
  assert.equal(Object.keys(store.current('ns', 'busy')!.object.metadata.labels).length, 8);
  const e = await statusError(store.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, resourceVersion: base.object.metadata.resourceVersion } }), updateOpts('busy')));
  assert.equal(e.code, 409);
  assert.equal(e.message, 'Operation cannot be fulfilled on widgets.example.svc.io "busy": the object has been modified; please apply your changes to the latest version and try again');
});

test('20 writers without a resourceVersion racing on one object all land, none answered 409', async () => {
  await store.create('ns', widget('crowded', { size: 0 }), { ctx: ctx(), dryRun: false });
  await settle();
  // All of them read the same version and meet in the same commits: every round, one wins and the rest
  // start over from what storage answered, as a patch is re-applied to the fresh object.
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.update('ns', (cur) => {
    const o = structuredClone(cur!);
    o.metadata.labels = { ...o.metadata.labels, [`w${i}`]: 'x' };
    return o;
  }, updateOpts('crowded'))));
  assert.equal(new Set(results.map((r) => r.object.metadata.resourceVersion)).size, 20);
  await settle();
  assert.equal(Object.keys(store.current('ns', 'crowded')!.object.metadata.labels).length, 20);
});

test('warnings come from the attempt that succeeded only', async () => {
  await store.create('ns', widget('warn', { size: 0 }), { ctx: ctx(), dryRun: false });
  await settle();
  const c = ctx();
  let attempts = 0;
  let firstRv = '';
  await store.update('ns', async (cur) => {
    attempts++;
    c.warnings.push(`attempt ${attempts}`);
    if (attempts === 1) {
      firstRv = cur!.metadata.resourceVersion!;
      // A concurrent writer gets in between this read and the write.
      await storage.update(store.key('ns', 'warn'), JSON.stringify({ ...cur, spec: { size: 100 } }), Number(firstRv));
    }
    return { ...cur!, spec: { ...(cur!.spec as object), color: 'blue' }, metadata: { ...cur!.metadata, resourceVersion: undefined } } as ApiObject;
  }, { ...updateOpts('warn'), ctx: c });
  assert.equal(attempts, 2);
  assert.deepEqual(c.warnings, ['attempt 2']);
  await settle();
  assert.deepEqual(store.current('ns', 'warn')!.object.spec, { size: 100, color: 'blue' });
});

test('dry runs store nothing; a dry-run create has no resourceVersion', async () => {
  const r = await store.create('ns', widget('dry'), { ctx: ctx(), dryRun: true });
  assert.equal(r.object.metadata.resourceVersion, undefined);
  assert.equal((await storage.get(store.key('ns', 'dry'))).kv, undefined);
  await store.create('ns', widget('dry2', { size: 1 }), { ctx: ctx(), dryRun: false });
  await settle();
  const before = store.current('ns', 'dry2')!.modRevision;
  const u = await store.update('ns', (cur) => ({ ...cur!, spec: { size: 2 } }), { ...updateOpts('dry2'), dryRun: true });
  assert.equal((u.object.spec as { size: number }).size, 2);
  const d = await store.delete('ns', 'dry2', { ctx: ctx(), dryRun: true });
  assert.equal(d.removed, true);
  assert.equal((await storage.get(store.key('ns', 'dry2'))).kv?.modRevision, before);
});

test('delete with finalizers marks the object once (generation bumped), removal by the update that clears them', async () => {
  await store.create('ns', widget('fin', { size: 1 }, { metadata: { name: 'fin', finalizers: ['example.com/f'] } }), { ctx: ctx(), dryRun: false });
  await settle();
  const marked = await store.delete('ns', 'fin', { ctx: ctx(), dryRun: false });
  assert.equal(marked.removed, false);
  assert.equal(marked.object.metadata.generation, 2);
  assert.equal(marked.object.metadata.deletionGracePeriodSeconds, 0);
  await settle();
  const again = await store.delete('ns', 'fin', { ctx: ctx(), dryRun: false });
  assert.equal(again.object.metadata.resourceVersion, marked.object.metadata.resourceVersion);
  const last = await store.update('ns', (cur) => ({ ...cur!, metadata: { ...cur!.metadata, finalizers: [] } }), updateOpts('fin'));
  assert.equal(last.object.metadata.name, 'fin');
  await settle();
  assert.equal(store.current('ns', 'fin'), undefined);
});

test('delete validation (admission) runs after the preconditions and can refuse', async () => {
  const w = await store.create('ns', widget('guarded'), { ctx: ctx(), dryRun: false });
  await settle();
  const seen: string[] = [];
  const refuse = (obj: ApiObject) => { seen.push(obj.metadata.name!); throw new StatusError(403, 'Forbidden', 'no'); };
  const pre = await statusError(store.delete('ns', 'guarded', { ctx: ctx(), dryRun: false, preconditions: { uid: 'x' }, validate: refuse }));
  assert.equal(pre.code, 409);
  assert.equal(pre.message, `Operation cannot be fulfilled on Widget.example.svc.io "guarded": the UID in the precondition (x) does not match the UID in record (${w.object.metadata.uid}). The object might have been deleted and then recreated`);
  assert.deepEqual(seen, []);
  assert.equal((await statusError(store.delete('ns', 'guarded', { ctx: ctx(), dryRun: false, validate: refuse }))).code, 403);
  assert.ok(seen.length >= 1);
  assert.ok(store.current('ns', 'guarded'));
});

test('create on update for kinds that allow it; a status write never creates', async () => {
  const r = await store.update('ns', () => widget('made', { size: 4 }), updateOpts('made', '', { allowCreate: true }));
  assert.equal(r.created, true);
  assert.equal(r.object.metadata.generation, 1);
  const e = await statusError(store.update('ns', () => widget('made-status'), updateOpts('made-status', 'status', { allowCreate: true })));
  assert.equal(e.code, 404);
  assert.equal(e.message, 'widgets.example.svc.io "made-status" not found');
});

test('a generated name clashing with an existing object, when the client also named it, is the generateName 409', async () => {
  await store.create('ns', widget('taken'), { ctx: ctx(), dryRun: false });
  const e = await statusError(store.create('ns', widget('taken', {}, { metadata: { name: 'taken', generateName: 'tak' } }), { ctx: ctx(), dryRun: false }));
  assert.equal(e.code, 409);
  assert.equal(e.message, 'widgets.example.svc.io "taken" already exists, the server was not able to generate a unique name for the object');
  assert.equal(e.details?.retryAfterSeconds, 1);
});

test('a transform that hands the same object to a retry still gets the 409 for its pinned version', async () => {
  const gadgets = new ResourceStore({ ...widgets, kind: 'Gadget', plural: 'gadgets', singular: 'gadget', allowUnconditionalUpdate: false }, storage);
  await gadgets.cache.start();
  try {
    const created = await gadgets.create('ns', { ...widget('g'), kind: 'Gadget' }, { ctx: ctx(), dryRun: false });
    await gadgets.cache.waitFor(await storage.currentRevision(), 1000);
    const next = structuredClone(created.object);
    (next.spec as { size: number }).size = 5;
    let attempts = 0;
    const e = await statusError(gadgets.update('ns', async () => {
      if (++attempts === 1) await storage.update(gadgets.key('ns', 'g'), JSON.stringify({ ...created.object, spec: { size: 1 } }), Number(created.object.metadata.resourceVersion));
      return next;
    }, updateOpts('g')));
    assert.equal(e.code, 409);
    assert.equal(e.reason, 'Conflict');
  } finally {
    gadgets.cache.stop();
  }
});

test('a client\'s create carrying a resourceVersion is a reasonless 500 and writes nothing, unless the version does not parse as one', async () => {
  const withVersion = (name: string, resourceVersion: string) => widget(name, {}, { metadata: { name, resourceVersion } });
  const refused = await statusError(store.create('ns', withVersion('rv1', '5'), { ctx: ctx(), dryRun: false, refuseResourceVersion: true }));
  assert.deepEqual(refused.toStatus(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion should not be set on objects to be created', code: 500 });
  assert.equal(store.current('ns', 'rv1'), undefined);
  assert.equal((await storage.get(store.key('ns', 'rv1'))).kv, undefined);
  // strconv.ParseUint fails or answers 0: the version is dropped and the create goes through.
  for (const [name, rv] of [['rv2', '0'], ['rv3', '-1'], ['rv4', 'abc'], ['rv5', '+7'], ['rv6', '']]) {
    const r = await store.create('ns', withVersion(name, rv), { ctx: ctx(), dryRun: false, refuseResourceVersion: true });
    assert.notEqual(r.object.metadata.resourceVersion, rv);
  }
  // A dry run never reaches storage's check; callers inside the server are not refused.
  assert.equal((await store.create('ns', withVersion('rv7', '5'), { ctx: ctx(), dryRun: true, refuseResourceVersion: true })).object.metadata.resourceVersion, undefined);
  assert.ok((await store.create('ns', withVersion('rv8', '5'), { ctx: ctx(), dryRun: false })).object.metadata.resourceVersion);
});
