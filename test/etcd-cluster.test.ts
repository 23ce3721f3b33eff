// The etcd storage on a three-member cluster while members fail: one member down changes nothing; a
// majority down makes calls fail with StoreUnavailableError (they do not hang) and ready() reject;
// once the members are back everything works, no acknowledged write is lost, and every watch either
// continued without a gap or ended through onError.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RecordingListener, waitUntil } from '../src/storage/contract.ts';
import { EtcdStorage, type EtcdStorageOptions } from '../src/storage/etcd.ts';
import { StoreUnavailableError, type KeyValue } from '../src/storage/interface.ts';
import { startEtcdCluster, type EtcdCluster } from './support/etcd-process.ts';

const PREFIX = '/registry/things/';

describe('etcd storage on a three-member cluster', () => {
  let cluster: EtcdCluster;
  const stores: EtcdStorage[] = [];

  before(async () => {
    cluster = await startEtcdCluster(3);
  });
  after(async () => {
    for (const s of stores) await s.close();
    await cluster?.stop();
  });

  async function open(endpoints: string[], options: Partial<EtcdStorageOptions> = {}): Promise<EtcdStorage> {
    const storage = await EtcdStorage.connect({
      endpoints,
      prefix: '/cluster-test/registry',
      requestTimeoutMs: 1500,
      readyTimeoutMs: 750,
      ...options,
    });
    stores.push(storage);
    return storage;
  }

  it('survives a minority failure, fails cleanly without a majority, and recovers without losing writes', async () => {
    const [m0, m1] = cluster.members as [EtcdCluster['members'][0], EtcdCluster['members'][0]];
    const storage = await open(cluster.endpoints);
    // A watch whose only member goes away first and comes back last: it must resume where it was.
    const pinned = await open([m0.clientUrl], { watchResumeTimeoutMs: 120_000 });
    const start = await storage.currentRevision();

    const acknowledged = new Map<string, KeyValue>();
    let n = 0;
    const write = async (): Promise<KeyValue> => {
      const key = `${PREFIX}k${n++}`;
      const kv = await storage.create(key, `v${n}`);
      acknowledged.set(key, kv);
      return kv;
    };

    const everywhere = new RecordingListener();
    const everywhereWatch = storage.watch(PREFIX, start, everywhere);
    const onM0 = new RecordingListener();
    const onM0Watch = pinned.watch(PREFIX, start, onM0);

    for (let i = 0; i < 5; i += 1) await write();
    let last = [...acknowledged.values()].at(-1)!;
    await waitUntil(() => onM0.reached() >= last.modRevision, 'the pinned watch to see the first writes');

    // One member down: nothing a client sees changes.
    await m0.stop();
    await storage.ready();
    for (let i = 0; i < 5; i += 1) await write();
    const updated = await storage.update(`${PREFIX}k0`, 'changed', acknowledged.get(`${PREFIX}k0`)!.modRevision);
    acknowledged.set(`${PREFIX}k0`, updated);
    assert.deepEqual((await storage.get(`${PREFIX}k0`)).kv, updated);
    assert.equal(await storage.count(PREFIX), 10);

    // Majority down: calls fail with StoreUnavailableError instead of hanging; ready() rejects.
    await m1.stop();
    await assert.rejects(storage.create(`${PREFIX}during-outage`, 'x'), StoreUnavailableError);
    await assert.rejects(storage.update(`${PREFIX}k1`, 'x', acknowledged.get(`${PREFIX}k1`)!.modRevision), StoreUnavailableError);
    await assert.rejects(storage.get(`${PREFIX}k1`), StoreUnavailableError);
    await assert.rejects(storage.ready(), StoreUnavailableError);

    // Members back: everything works again.
    await m1.start();
    await m0.start();
    await cluster.waitHealthy();
    await retryUntilReady(storage);
    for (let i = 0; i < 5; i += 1) await write();
    last = [...acknowledged.values()].at(-1)!;

    // No acknowledged write is lost. The writes refused during the outage timed out with their outcome
    // unknown (etcd may commit the proposal once the majority is back), but each is whole or absent.
    const { kvs } = await storage.range(PREFIX);
    const stored = new Map(kvs.map((kv) => [kv.key, kv]));
    for (const [key, kv] of acknowledged) {
      const now = stored.get(key);
      if (key === `${PREFIX}k1` && now?.value === 'x') assert.ok(now.modRevision > kv.modRevision, key);
      else assert.deepEqual(now, kv, key);
    }
    const duringOutage = stored.get(`${PREFIX}during-outage`);
    if (duringOutage) assert.equal(duringOutage.value, 'x');

    // The authoritative history, replayed by a fresh watch.
    const replay = new RecordingListener();
    const replayWatch = storage.watch(PREFIX, start, replay);
    const current = await storage.currentRevision();
    await waitUntil(() => replay.reached() >= current, 'the replay');
    replayWatch.cancel();
    const history = replay.revisions();
    for (const kv of acknowledged.values()) assert.ok(history.includes(kv.modRevision), `revision ${kv.modRevision} in history`);

    // Every watch continued without gap or duplicate, or ended so that its owner re-lists.
    for (const [name, rec] of [
      ['watch on all members', everywhere],
      ['watch on the member that was down longest', onM0],
    ] as const) {
      if (rec.errors.length === 0) {
        await waitUntil(() => rec.reached() >= current || rec.errors.length > 0, `${name} to catch up`);
      }
      const seen = rec.revisions();
      if (rec.errors.length === 0) assert.deepEqual(seen, history, name);
      else assert.deepEqual(seen, history.slice(0, seen.length), `${name}, until it ended`);
    }
    // The pinned watch had two minutes to get its member back, so it must have resumed.
    assert.deepEqual(onM0.errors, []);
    everywhereWatch.cancel();
    onM0Watch.cancel();
  });
});

/** Right after a restart the members may still be electing a leader. */
async function retryUntilReady(storage: EtcdStorage): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await storage.ready();
      return;
    } catch (err) {
      if (attempt >= 20) throw err;
    }
  }
}
