import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WatchCache, TooOldResourceVersionError, CacheUnavailableError, decodeKv, encodeObject, type CacheEvent } from './cache.ts';
import { SqliteStorage } from './sqlite.ts';
import type { Storage, WatchListener } from './interface.ts';
import { withHeldWatches } from './held-watches.ts';

const P = '/registry/core/configmaps/';
const cm = (ns: string, name: string, data: Record<string, string> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data });

async function started(storage: Storage, opts = {}): Promise<WatchCache> {
  const cache = new WatchCache(storage, P, opts);
  await cache.start();
  return cache;
}

async function settle(cache: WatchCache, storage: Storage): Promise<void> {
  assert.equal(await cache.waitFor(await storage.currentRevision(), 2000), true);
}

describe('decodeKv', () => {
  it('stamps the resourceVersion and writes type and metadata first, in Kubernetes order', () => {
    const obj = decodeKv({ key: P + 'ns/a', value: JSON.stringify({ data: { x: '1' }, metadata: { labels: { a: 'b' }, uid: 'u', name: 'a', namespace: 'ns' }, kind: 'ConfigMap', apiVersion: 'v1' }), createRevision: 3, modRevision: 7 });
    assert.equal(obj.json, '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","uid":"u","resourceVersion":"7","labels":{"a":"b"}},"data":{"x":"1"}}');
    assert.deepEqual([obj.namespace, obj.name, obj.modRevision], ['ns', 'a', 7]);
  });
});

describe('encodeObject', () => {
  const shapes: Record<string, unknown>[] = [
    { data: { x: '1' }, metadata: { labels: { a: 'b' }, uid: 'u', name: 'a', namespace: 'ns', resourceVersion: '3' }, kind: 'ConfigMap', apiVersion: 'v1' },
    // No namespace, no uid, fields Kubernetes does not know, and text that looks like the member it splices.
    { kind: 'Thing', apiVersion: 'x/v1', metadata: { name: 'n', zeta: 1, annotations: { '"resourceVersion":""': '"resourceVersion":""' } }, spec: { resourceVersion: '' } },
    // resourceVersion is the only metadata field, or the last one.
    { kind: 'K', apiVersion: 'v1', metadata: {} },
    { apiVersion: 'v1', metadata: { name: 'n', selfLink: 's', uid: 'u' } },
  ];
  it('stores what decodeKv turns into the same object and JSON it serves at a revision', () => {
    for (const shape of shapes) {
      const enc = encodeObject(shape);
      assert.equal(JSON.parse(enc.value).metadata.resourceVersion, undefined);
      const key = `${P}ns/${(shape.metadata as { name?: string }).name ?? 'x'}`;
      const served = enc.at(key, 42);
      const decoded = decodeKv({ key, value: enc.value, createRevision: 1, modRevision: 42 });
      assert.equal(served.json, decoded.json);
      assert.deepEqual(served.object, JSON.parse(decoded.json));
      assert.deepEqual([served.namespace, served.name, served.modRevision], [decoded.namespace, decoded.name, 42]);
    }
  });

  it('answers one object per key and revision (the write\'s answer and the cache\'s copy)', () => {
    const enc = encodeObject(structuredClone(shapes[0]));
    const at42 = enc.at(`${P}ns/a`, 42);
    assert.equal(enc.at(`${P}ns/a`, 42), at42);
    const at43 = enc.at(`${P}ns/a`, 43);
    assert.notEqual(at43, at42);
    assert.equal(JSON.parse(at43.json).metadata.resourceVersion, '43');
    assert.equal(JSON.parse(enc.at(`${P}ns/a`, 42).json).metadata.resourceVersion, '42');
  });

  it('leaves the object it encodes as it was', () => {
    const obj = structuredClone(shapes[0]);
    encodeObject(obj);
    assert.deepEqual(obj, shapes[0]);
  });
});

describe('WatchCache expectations', () => {
  it('serves the event of an announced write from its encoding, and decodes any other', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage);
    try {
      const enc = encodeObject(JSON.parse(cm('ns', 'a', { x: '1' })));
      const withdraw = cache.expect(P + 'ns/a', enc);
      const kv = await storage.create(P + 'ns/a', enc.value);
      withdraw();
      await storage.create(P + 'ns/b', cm('ns', 'b'));
      await settle(cache, storage);
      assert.equal(cache.get(P + 'ns/a')!.json, enc.at(P + 'ns/a', kv.modRevision).json);
      assert.equal(cache.get(P + 'ns/a')!.object.metadata.resourceVersion, String(kv.modRevision));
      assert.equal(cache.get(P + 'ns/b')!.object.metadata.name, 'b');
      // A write of another value to an announced key is decoded from what was stored.
      const other = encodeObject(JSON.parse(cm('ns', 'a', { x: 'announced' })));
      const withdrawOther = cache.expect(P + 'ns/a', other);
      await storage.update(P + 'ns/a', cm('ns', 'a', { x: 'stored' }), kv.modRevision);
      withdrawOther();
      await settle(cache, storage);
      assert.deepEqual(cache.get(P + 'ns/a')!.object.data, { x: 'stored' });
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('keeps a settled write\'s encoding for its event when the event comes after the answer (a remote store)', async () => {
    const storage = SqliteStorage.open(':memory:');
    // The same store, its watch's events held back until released.
    const { store: late, release } = withHeldWatches(storage);
    const cache = await started(late);
    try {
      const enc = encodeObject(JSON.parse(cm('ns', 'a', { x: '1' })));
      const at = enc.at;
      let served = 0;
      enc.at = (key, revision) => { served++; return at(key, revision); };
      const settled = cache.expect(P + 'ns/a', enc);
      const kv = await storage.create(P + 'ns/a', enc.value);
      settled(kv.modRevision);
      // The event comes now, after the write was answered: served from the encoding.
      release();
      assert.equal(served, 1);
      assert.equal(cache.get(P + 'ns/a')!.json, at(P + 'ns/a', kv.modRevision).json);
      // Its event seen, the announcement is gone: a later write of the same value is decoded.
      await storage.update(P + 'ns/a', enc.value, kv.modRevision);
      release();
      assert.equal(served, 1);
      assert.equal(cache.get(P + 'ns/a')!.modRevision, kv.modRevision + 1);
    } finally {
      cache.stop();
      await storage.close();
    }
  });
});

describe('WatchCache', () => {
  it('loads the current objects and lists them in key order, per namespace, from a key on', async () => {
    const storage = SqliteStorage.open(':memory:');
    for (const [ns, n] of [['b', 'x'], ['a', 'z'], ['a', 'y'], ['ab', 'w']]) await storage.create(`${P}${ns}/${n}`, cm(ns, n));
    const cache = await started(storage);
    try {
      assert.equal(cache.revision, 4);
      assert.deepEqual(cache.list().map((o) => o.key.slice(P.length)), ['a/y', 'a/z', 'ab/w', 'b/x']);
      assert.deepEqual(cache.list(P + 'a/').map((o) => o.name), ['y', 'z']);
      assert.deepEqual([...cache.scan(P, P + 'a/z')].map((o) => o.name), ['z', 'w', 'x']);
      assert.equal(cache.countFrom(P + 'a/'), 2);
      // The same objects, in whatever order, for passes that need none.
      assert.deepEqual([...cache.unordered()].map((o) => o.key.slice(P.length)).sort(), ['a/y', 'a/z', 'ab/w', 'b/x']);
      assert.equal(cache.countFrom(P, P + 'a/y\u0000'), 3);
      // Keys come and go in order.
      await storage.create(`${P}a/a`, cm('a', 'a'));
      await storage.delete(`${P}a/z`);
      await settle(cache, storage);
      assert.deepEqual(cache.list(P + 'a/').map((o) => o.name), ['a', 'y']);
      assert.equal(cache.get(`${P}a/a`)?.object.metadata.resourceVersion, '5');
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('keeps the key order through a run of creates longer than it places one by one, and removals during it', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage);
    try {
      assert.deepEqual(cache.list(), []);
      const names = Array.from({ length: 5000 }, (_, i) => `n${(i * 7919) % 5000}`);
      await Promise.all(names.map((n) => storage.create(`${P}ns/${n}`, cm('ns', n))));
      await storage.delete(`${P}ns/n4999`);
      await storage.create(`${P}ns/n4999x`, cm('ns', 'n4999x'));
      await settle(cache, storage);
      const expected = [...names.filter((n) => n !== 'n4999'), 'n4999x'].sort();
      assert.deepEqual(cache.list().map((o) => o.name), expected);
      assert.equal(cache.countFrom(P + 'ns/'), 5000);
      await storage.create(`${P}ns/a`, cm('ns', 'a'));
      await settle(cache, storage);
      assert.deepEqual(cache.list(P + 'ns/').slice(0, 2).map((o) => o.name), ['a', 'n0']);
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('replays the kept events after a revision, then streams live ones, in order', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage);
    try {
      const a = await storage.create(`${P}n/a`, cm('n', 'a'));
      const a2 = await storage.update(`${P}n/a`, cm('n', 'a', { k: 'v' }), a.modRevision);
      await settle(cache, storage);
      const seen: CacheEvent[] = [];
      const stop = cache.watch(a.modRevision, { onEvent: (e) => seen.push(e), onClose: () => {} });
      assert.deepEqual(seen.map((e) => e.revision), [a2.modRevision]);
      assert.equal(seen[0].previous?.modRevision, a.modRevision);
      await storage.delete(`${P}n/a`);
      await settle(cache, storage);
      assert.equal(seen.length, 2);
      assert.equal(seen[1].deleted, true);
      // A delete carries the last state at the delete's revision.
      assert.equal(seen[1].current.object.metadata.resourceVersion, String(seen[1].revision));
      assert.deepEqual(seen[1].current.object.data, { k: 'v' });
      stop();
      await storage.create(`${P}n/b`, cm('n', 'b'));
      await settle(cache, storage);
      assert.equal(seen.length, 2);
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('refuses a watch from before its window', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage, { eventWindow: 3 });
    try {
      let kv = await storage.create(`${P}n/a`, cm('n', 'a'));
      for (let i = 0; i < 5; i++) kv = await storage.update(`${P}n/a`, cm('n', 'a', { i: String(i) }), kv.modRevision);
      await settle(cache, storage);
      // Revisions 1..6 happened; the last three events (4, 5, 6) are kept, so 3 is the oldest resumable.
      assert.equal(cache.oldestRevision, 3);
      assert.throws(() => cache.watch(2, { onEvent: () => {}, onClose: () => {} }), (err: unknown) => err instanceof TooOldResourceVersionError && err.message === 'too old resource version: 2 (3)');
      const seen: number[] = [];
      cache.watch(3, { onEvent: (e) => seen.push(e.revision), onClose: () => {} });
      assert.deepEqual(seen, [4, 5, 6]);
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('drops a watcher that throws and keeps serving the others', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage);
    try {
      let closedWith: Error | undefined;
      const good: number[] = [];
      cache.watch(cache.revision, { onEvent: () => { throw new Error('broken pipe'); }, onClose: (err) => { closedWith = err; } });
      cache.watch(cache.revision, { onEvent: (e) => good.push(e.revision), onClose: () => {} });
      await storage.create(`${P}n/a`, cm('n', 'a'));
      await storage.create(`${P}n/b`, cm('n', 'b'));
      await settle(cache, storage);
      assert.equal(closedWith?.message, 'broken pipe');
      assert.deepEqual(good, [1, 2]);
      assert.equal(cache.watcherCount, 1);
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('hands a committed batch to each watcher in order; one that throws mid-batch gets no more of it', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage);
    try {
      const seen: number[][] = [[], []];
      let closed = 0;
      cache.watch(cache.revision, { onEvent: (e) => { seen[0].push(e.revision); if (seen[0].length === 2) throw new Error('gone'); }, onClose: () => { closed++; } });
      cache.watch(cache.revision, { onEvent: (e) => seen[1].push(e.revision), onClose: () => {} });
      // Writes of one turn share a commit: one batch of events.
      await Promise.all(['a', 'b', 'c'].map((n) => storage.create(`${P}n/${n}`, cm('n', n))));
      await settle(cache, storage);
      assert.deepEqual(seen, [[1, 2], [1, 2, 3]]);
      assert.equal(closed, 1);
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('waits for a revision, or gives up after the timeout', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage);
    try {
      const waiting = cache.waitFor(1, 5000);
      await storage.create(`${P}n/a`, cm('n', 'a'));
      assert.equal(await waiting, true);
      assert.equal(await cache.waitFor(99, 20), false);
      // Progress on other prefixes moves the cache along too.
      await storage.create('/registry/core/secrets/n/s', '{}');
      assert.equal(await cache.waitFor(2, 2000), true);
    } finally {
      cache.stop();
      await storage.close();
    }
  });

  it('closes its watchers when stopped, and refuses new ones', async () => {
    const storage = SqliteStorage.open(':memory:');
    const cache = await started(storage);
    let closed = 0;
    cache.watch(0, { onEvent: () => {}, onClose: () => { closed++; } });
    cache.stop();
    assert.equal(closed, 1);
    assert.throws(() => cache.watch(0, { onEvent: () => {}, onClose: () => {} }), CacheUnavailableError);
    await storage.close();
  });

  it('re-lists after its storage watch fails, closing the watchers so their clients re-list too', async () => {
    const storage = SqliteStorage.open(':memory:');
    // The real store, with a switch that ends its watches the way a lost connection would.
    const listeners: WatchListener[] = [];
    const failing: Storage = Object.assign(Object.create(storage) as Storage, {
      watch: (prefix: string, after: number, listener: WatchListener) => { listeners.push(listener); return storage.watch(prefix, after, listener); },
    });
    const cache = await started(failing, { restartDelayMs: 10 });
    try {
      await storage.create(`${P}n/a`, cm('n', 'a'));
      await settle(cache, storage);
      let closed = 0;
      cache.watch(cache.revision, { onEvent: () => {}, onClose: () => { closed++; } });
      listeners[0].onError(new Error('connection lost'));
      assert.equal(closed, 1);
      assert.ok(cache.failed);
      await storage.create(`${P}n/b`, cm('n', 'b'));
      for (let i = 0; i < 100 && (cache.failed || cache.size < 2); i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(cache.failed, undefined);
      assert.deepEqual(cache.list().map((o) => o.name), ['a', 'b']);
      assert.equal(listeners.length, 2);
    } finally {
      cache.stop();
      await storage.close();
    }
  });
});
