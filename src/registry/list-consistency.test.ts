// A consistent list ("most recent") is served by the watch cache once it has reached the store's current
// revision, else by storage. Another resource's write moves that revision past an idle cache: the cache
// learns of it from a progress report, which the embedded store sends after every write and an etcd can be
// asked for only where its answers come after pending events (not the etcd 3.4.23 these tests start).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startEtcd, type EtcdCluster } from '../../test/support/etcd-process.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { EtcdStorage } from '../storage/etcd.ts';
import type { Storage } from '../storage/interface.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { listObjects, syncCache } from './list.ts';
import { ResourceStore } from './store.ts';

// With etcd's own 10-minute interval no periodic progress report reaches an idle watch during a test.
let etcd: EtcdCluster;
const etcdStarted = startEtcd({ progressNotifyInterval: '10m' }).then((started) => (etcd = started));
before(() => etcdStarted);
after(() => etcd?.stop());

/** A ConfigMap store over `storage` holding one object, and a write to another resource after it. */
async function idleCacheBehindStorage(storage: Storage): Promise<{ store: ResourceStore; other: number }> {
  const store = new ResourceStore(configMapKind, storage);
  await store.cache.start();
  await storage.create(store.key('default', 'a'), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default', uid: 'u1', creationTimestamp: '2026-01-01T00:00:00Z' } }));
  const other = await storage.create('/registry/core/secrets/default/s', JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' } }));
  return { store, other: other.modRevision };
}

describe('consistent lists', () => {
  // The test's own timeout is the assertion: a store that waited for progress would wait the whole minute.
  it('on an etcd that cannot be asked for progress, read storage at once instead of waiting for the cache', { timeout: 15_000 }, async () => {
    await etcdStarted;
    const storage = await EtcdStorage.connect({ endpoints: etcd.endpoints, prefix: `/t-${randomBytes(6).toString('hex')}/registry` });
    const { store } = await idleCacheBehindStorage(storage);
    try {
      assert.equal(store.cache.requestProgress(), false, 'this etcd orders no progress answers');
      assert.equal(await syncCache(store, storage, 60_000, true), false);
      const listed = await listObjects(store, storage, 'default', {});
      assert.deepEqual(listed.items.map((o) => o.name), ['a']);
      assert.equal(listed.resourceVersion, String(await storage.currentRevision()));
    } finally {
      store.cache.stop();
      await storage.close();
    }
  });

  it('on the embedded store, wait for the cache, which every write brings to the current revision', { timeout: 15_000 }, async () => {
    const storage = SqliteStorage.open(':memory:');
    const { store, other } = await idleCacheBehindStorage(storage);
    try {
      assert.equal(store.cache.requestProgress(), true);
      assert.equal(await syncCache(store, storage, 60_000, true), true);
      assert.ok(store.cache.revision >= other);
    } finally {
      store.cache.stop();
      await storage.close();
    }
  });
});
