// Watches over a real in-memory SQLite store and its cache: live watches of one selection share a follower
// (one cache registration) and sinks of one share key a channel (one call per event for all of them),
// resumes replay what they missed before going live, and the order each sink sees is exact.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { KindDefinition, RequestContext } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { S } from '../apis/meta/schema.ts';
import { ObjectMeta } from '../apis/meta/v1.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import type { CachedObject } from '../storage/cache.ts';
import { openTestStore } from './test-store.ts';
import { ResourceStore } from './store.ts';
import { prepareWatch, type ActiveWatch, type WatchChannel, type WatchEventType, type WatchSink } from './watch.ts';

const GadgetSchema = S.object({ apiVersion: S.string(), kind: S.string(), metadata: ObjectMeta, spec: S.object({ size: S.int32() }) });
const gadgets: KindDefinition = {
  group: 'example.svc.io', kind: 'Gadget', plural: 'gadgets', singular: 'gadget', namespaced: true,
  versions: [{ name: 'v1', stability: 'stable', schema: GadgetSchema }], storageVersion: 'v1',
};
const ctx: RequestContext = { user: { username: 'test', groups: [] }, version: 'v1', subresource: '', dryRun: false, warnings: [] };

let storage: SqliteStorage;
let store: ResourceStore;
let close: () => Promise<void>;
before(async () => { ({ storage, store, close } = await openTestStore(gadgets)); });
after(() => close());

const gadget = (name: string, size: number, labels?: Record<string, string>): ApiObject => ({ apiVersion: 'example.svc.io/v1', kind: 'Gadget', metadata: { name, ...(labels ? { labels } : {}) }, spec: { size } });
const settle = async () => { await store.cache.waitFor(await storage.currentRevision(), 1000); };
const create = async (ns: string, name: string, size: number, labels?: Record<string, string>) => Number((await store.create(ns, gadget(name, size, labels), { ctx, dryRun: false })).object.metadata.resourceVersion);
const update = async (ns: string, name: string, size: number, labels?: Record<string, string>) => Number((await store.update(ns, (cur) => ({ ...cur!, metadata: { ...cur!.metadata, labels }, spec: { size } }), { ctx, dryRun: false, subresource: '', allowCreate: false, name })).object.metadata.resourceVersion);

type Seen = Array<{ via: 'sink' | 'channel'; type: string; name: string; rv: number }>;
const seenOf = (via: 'sink' | 'channel', type: string, obj: CachedObject) => ({ via, type, name: obj.name, rv: obj.modRevision });

/** A sink that records what reaches it, directly or (when it shares) through its channel. */
class RecordingSink implements WatchSink {
  readonly seen: Seen = [];
  ended = 0;
  readonly share?: { key: string; open(): WatchChannel };
  constructor(channels?: RecordingChannels, key = 'k') {
    if (channels) this.share = { key, open: () => channels.open() };
  }
  event(type: WatchEventType, obj: CachedObject): void { this.seen.push(seenOf('sink', type, obj)); }
  bookmark(): void {}
  error(): void {}
  end(): void { this.ended++; }
}

/** Channels that hand each event to their sinks, counting the calls they get. */
class RecordingChannels {
  readonly opened: Array<{ calls: number; sinks: Set<RecordingSink> }> = [];
  throwOnEvent = false;
  open(): WatchChannel {
    const state = { calls: 0, sinks: new Set<RecordingSink>() };
    this.opened.push(state);
    return {
      event: (type, obj) => {
        state.calls++;
        if (this.throwOnEvent) throw new Error('encoding failed');
        for (const s of state.sinks) s.seen.push(seenOf('channel', type, obj));
      },
      add: (sink) => { state.sinks.add(sink as RecordingSink); },
      remove: (sink) => { state.sinks.delete(sink as RecordingSink); },
    };
  }
}

async function watch(ns: string, sink: WatchSink, opts: { resourceVersion?: string; labelSelector?: string } = {}): Promise<ActiveWatch> {
  return prepareWatch(store, storage, ns, { resourceVersion: opts.resourceVersion ?? String(store.cache.revision), labelSelector: opts.labelSelector }).start(sink);
}

test('live watches of one selection share one cache registration and, with one share key, one channel call per event', async () => {
  await settle();
  const registered = store.cache.watcherCount;
  const channels = new RecordingChannels();
  const shared = [new RecordingSink(channels), new RecordingSink(channels), new RecordingSink(channels)];
  const lone = new RecordingSink();
  const watches = [];
  for (const s of [...shared, lone]) watches.push(await watch('share', s));
  assert.equal(store.cache.watcherCount, registered + 1);
  assert.equal(channels.opened.length, 1);

  const rv1 = await create('share', 'a', 1);
  const rv2 = await update('share', 'a', 2);
  await create('elsewhere', 'b', 1);
  await settle();
  assert.equal(channels.opened[0].calls, 2);
  for (const s of shared) assert.deepEqual(s.seen, [{ via: 'channel', type: 'ADDED', name: 'a', rv: rv1 }, { via: 'channel', type: 'MODIFIED', name: 'a', rv: rv2 }]);
  assert.deepEqual(lone.seen, [{ via: 'sink', type: 'ADDED', name: 'a', rv: rv1 }, { via: 'sink', type: 'MODIFIED', name: 'a', rv: rv2 }]);
  assert.ok(watches[0].revision() >= rv2);

  // A stopped watch gets nothing more; when the last one stops, the registration goes.
  watches[0].stop();
  const rv3 = await update('share', 'a', 3);
  await settle();
  assert.equal(shared[0].seen.length, 2);
  assert.deepEqual(shared[1].seen.at(-1), { via: 'channel', type: 'MODIFIED', name: 'a', rv: rv3 });
  for (const w of watches) w.stop();
  assert.equal(store.cache.watcherCount, registered);
});

test('a resume replays what it missed to the sink, then goes live through the channel, in order and without a gap', async () => {
  const channels = new RecordingChannels();
  const early = new RecordingSink(channels);
  const first = await watch('resume', early);
  const rvs = [await create('resume', 'x', 1), await create('resume', 'y', 1), await update('resume', 'x', 2)];
  await settle();
  const late = new RecordingSink(channels);
  const second = await watch('resume', late, { resourceVersion: String(rvs[0]) });
  assert.deepEqual(late.seen.map((e) => `${e.via} ${e.type} ${e.name} ${e.rv}`), [`sink ADDED y ${rvs[1]}`, `sink MODIFIED x ${rvs[2]}`]);
  const rv4 = await update('resume', 'y', 5);
  await settle();
  assert.deepEqual(late.seen.at(-1), { via: 'channel', type: 'MODIFIED', name: 'y', rv: rv4 });
  assert.deepEqual(early.seen.map((e) => e.rv), [...rvs, rv4]);
  assert.equal(channels.opened.length, 1);
  first.stop();
  second.stop();
});

test('different selections follow apart: each sees its own transitions', async () => {
  const channels = new RecordingChannels();
  const blue = new RecordingSink(channels);
  const all = new RecordingSink(channels);
  const watches = [await watch('sel', blue, { labelSelector: 'color=blue' }), await watch('sel', all)];
  assert.equal(channels.opened.length, 2);
  const rv1 = await create('sel', 'p', 1, { color: 'blue' });
  const rv2 = await update('sel', 'p', 1, { color: 'red' });
  await settle();
  assert.deepEqual(blue.seen.map((e) => `${e.type} ${e.rv}`), [`ADDED ${rv1}`, `DELETED ${rv2}`]);
  assert.deepEqual(all.seen.map((e) => `${e.type} ${e.rv}`), [`ADDED ${rv1}`, `MODIFIED ${rv2}`]);
  for (const w of watches) w.stop();
});

test('a channel that throws ends its watches, the others go on; a stopped cache ends every watch', async () => {
  const failing = new RecordingChannels();
  const healthy = new RecordingChannels();
  const broken = [new RecordingSink(failing, 'broken'), new RecordingSink(failing, 'broken')];
  const fine = new RecordingSink(healthy, 'fine');
  const lone = new RecordingSink();
  const watches = [];
  for (const s of [...broken, fine, lone]) watches.push(await watch('fail', s));
  failing.throwOnEvent = true;
  const rv = await create('fail', 'q', 1);
  await settle();
  assert.deepEqual(broken.map((s) => s.ended), [1, 1]);
  assert.deepEqual(fine.seen.map((e) => e.rv), [rv]);
  assert.deepEqual(lone.seen.map((e) => e.rv), [rv]);
  assert.equal(fine.ended, 0);

  const other = new ResourceStore(gadgets, storage);
  await other.cache.start();
  const gone = new RecordingSink(new RecordingChannels());
  const w = await prepareWatch(other, storage, 'fail', {}).start(gone);
  other.cache.stop();
  assert.equal(gone.ended, 1);
  w.stop();
  for (const x of watches) x.stop();
});
