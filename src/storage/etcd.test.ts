import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { startEtcd, type EtcdCluster } from '../../test/support/etcd-process.ts';
import { RecordingListener, storageContract, waitUntil } from './contract.ts';
import { EtcdStorage, type EtcdStorageOptions } from './etcd.ts';
import { etcdRangeEnd, EtcdKeys } from './etcd-keys.ts';
import { EtcdWatch, progressRequestsAreOrdered, type WatchStream } from './etcd-watch.ts';
import { CompactedError, KeyExistsError, StoreUnavailableError } from './interface.ts';

// One etcd for the file; every store gets a prefix of its own.
let etcd: EtcdCluster;
const etcdStarted = startEtcd().then((started) => (etcd = started));
before(() => etcdStarted);
after(() => etcd?.stop());

function freshPrefix(): string {
  return `/t-${randomBytes(6).toString('hex')}/registry`;
}

async function open(options: Partial<EtcdStorageOptions> = {}): Promise<EtcdStorage> {
  await etcdStarted;
  return EtcdStorage.connect({ endpoints: etcd.endpoints, prefix: freshPrefix(), ...options });
}

storageContract('etcd', async () => {
  const storage = await open();
  return { storage, cleanup: () => storage.close() };
});

describe('EtcdKeys', () => {
  it('maps the /registry root to the prefix and other keys to its parent', () => {
    const keys = new EtcdKeys('/tenant/registry/');
    assert.equal(keys.prefix, '/tenant/registry');
    assert.equal(keys.toEtcd('/registry/core/configmaps/default/a'), '/tenant/registry/core/configmaps/default/a');
    assert.equal(keys.toEtcd('/registry/'), '/tenant/registry/');
    assert.equal(keys.toEtcd('/contract/x'), '/tenant/contract/x');
    assert.equal(keys.toEtcd('/registryish/x'), '/tenant/registryish/x');
  });

  it('leaves keys alone with the default prefix and replaces the root with any other', () => {
    assert.equal(new EtcdKeys().toEtcd('/registry/pods/a/b'), '/registry/pods/a/b');
    assert.equal(new EtcdKeys().toEtcd('/other/x'), '/other/x');
    assert.equal(new EtcdKeys('/custom').toEtcd('/registry/pods/a/b'), '/custom/pods/a/b');
    assert.throws(() => new EtcdKeys('registry'), /must start with "\/"/);
  });

  it('ends a range at the next key byte-wise', () => {
    assert.deepEqual(etcdRangeEnd(Buffer.from('/a/')), Buffer.from('/a0'));
    assert.deepEqual(etcdRangeEnd(Buffer.from([0x61, 0xff])), Buffer.from([0x62]));
    assert.deepEqual(etcdRangeEnd(Buffer.from([0xff])), Buffer.from([0]));
  });
});

describe('progressRequestsAreOrdered', () => {
  it('trusts progress requests only on etcd versions with the ordering fix', () => {
    for (const v of ['3.4.23', '3.4.30', '3.5.0', '3.5.12', '3.3.27', 'unknown']) assert.equal(progressRequestsAreOrdered(v), false, v);
    for (const v of ['3.4.31', '3.4.37', '3.5.13', '3.5.21', '3.6.0', '4.0.0']) assert.equal(progressRequestsAreOrdered(v), true, v);
  });
});

describe('EtcdStorage', () => {
  it('stores the /registry tree under its prefix, apart from other prefixes', async () => {
    const a = await open();
    const b = await open();
    const raw = new Etcd3({ hosts: etcd.endpoints });
    try {
      const created = await a.create('/registry/core/configmaps/default/x', '{"x":1}');
      assert.equal(await raw.get(`${a.prefix}/core/configmaps/default/x`).string(), '{"x":1}');
      assert.equal((await b.get('/registry/core/configmaps/default/x')).kv, undefined);
      await b.create('/registry/core/configmaps/default/x', '{"x":2}');
      assert.deepEqual((await a.range('/registry/')).kvs, [created]);
      assert.equal(await a.count('/registry/core/'), 1);
    } finally {
      raw.close();
      await a.close();
      await b.close();
    }
  });

  it('finds a compaction made by another client', async () => {
    const compactor = await open();
    const reader = await open();
    try {
      const first = await compactor.create('/registry/a', '1');
      await compactor.update('/registry/a', '2', first.modRevision);
      const compactAt = await compactor.currentRevision();
      await compactor.create('/registry/b', '3');
      await compactor.compact(compactAt);

      assert.equal(await reader.compactedRevision(), compactAt);
      const other = await open();
      try {
        await assert.rejects(other.get('/registry/a', { revision: first.modRevision }), (err: unknown) => {
          assert.ok(err instanceof CompactedError);
          assert.equal(err.requested, first.modRevision);
          assert.equal(err.compacted, compactAt);
          return true;
        });
      } finally {
        await other.close();
      }
    } finally {
      await compactor.close();
      await reader.close();
    }
  });

  it('refuses work after close', async () => {
    const storage = await open();
    await storage.close();
    await assert.rejects(storage.get('/registry/a'), StoreUnavailableError);
    await assert.rejects(storage.ready(), StoreUnavailableError);
    const rec = new RecordingListener();
    storage.watch('/registry/', 0, rec);
    await waitUntil(() => rec.errors.length > 0, 'the watch to fail');
    assert.ok(rec.errors[0] instanceof StoreUnavailableError);
  });

  it('ends its watch calls on etcd when it closes, also those of watches that ended before', async () => {
    const watchStreams = async () => {
      const metrics = await (await fetch(`${etcd.endpoints[0]}/metrics`)).text();
      return Number(/^etcd_debugging_mvcc_watch_stream_total (\d+)$/m.exec(metrics)![1]);
    };
    const before = await watchStreams();
    const storage = await open();
    const rec = new RecordingListener();
    const handle = storage.watch('/registry/', await storage.currentRevision(), rec);
    await storage.create('/registry/a', '1');
    await waitUntil(() => rec.events.length > 0, 'the watch to deliver');
    // As a watch cache stops its watch before the store closes: etcd keeps a half-closed call open.
    handle.cancel();
    assert.ok(await watchStreams() > before);
    await storage.close();
    let left = await watchStreams();
    for (let i = 0; i < 300 && left > before; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      left = await watchStreams();
    }
    assert.equal(left, before, 'no watch call left open on etcd');
  });

  it('ends open watches with StoreUnavailableError on close', async () => {
    const storage = await open();
    const rec = new RecordingListener();
    storage.watch('/registry/', await storage.currentRevision(), rec);
    await storage.close();
    assert.equal(rec.errors.length, 1);
    assert.ok(rec.errors[0] instanceof StoreUnavailableError);
  });

  it('lets a waiting reader ask a watch for progress only where etcd orders the answer after pending events', async () => {
    const storage = await open();
    const client = new Etcd3({ hosts: etcd.endpoints });
    try {
      const { version } = await client.maintenance.status();
      const handle = storage.watch('/registry/idle/', await storage.currentRevision(), new RecordingListener());
      // The store learns etcd's version on its first calls.
      await storage.get('/registry/idle/x');
      await waitUntil(() => handle.requestProgress?.() === progressRequestsAreOrdered(version), 'the version to be known', 5000);
      handle.cancel();
    } finally {
      client.close();
      await storage.close();
    }
  });

  it('reports progress past other prefixes\' writes when asked', async () => {
    const client = new Etcd3({ hosts: etcd.endpoints });
    const prefix = Buffer.from(`${freshPrefix()}/idle/`);
    const rec = new RecordingListener();
    // Safe only while asked: the watch's own idle requests stay off, so the report below answers the request.
    let asking = false;
    const watch = new EtcdWatch({
      prefix: '/registry/idle/', etcdPrefix: prefix, etcdRangeEnd: etcdRangeEnd(prefix),
      afterRevision: Number((await client.get('/').exec()).header.revision), listener: rec,
      openStream: () => client.watchClient.watch() as Promise<WatchStream>, resumeTimeoutMs: 5000,
      progressRequestsSafe: () => asking, onCompacted: () => {}, onEnd: () => {},
    });
    try {
      watch.start();
      const other = await client.put(`${freshPrefix()}/busy`).value('v').exec();
      const revision = Number(other.header.revision);
      assert.equal(watch.requestProgress(), false, 'not asked while unsafe');
      await waitUntil(() => {
        asking = true;
        const asked = watch.requestProgress();
        asking = false;
        assert.equal(asked, true);
        return rec.reached() >= revision;
      }, 'a progress report at the other prefix\'s revision');
      assert.deepEqual(rec.events, []);
      assert.deepEqual(rec.errors, []);
    } finally {
      watch.cancel();
      client.close();
    }
  });
});

describe('EtcdStorage without etcd', () => {
  it('fails calls with StoreUnavailableError while etcd is down, and works again when it is back', async () => {
    const node = await startEtcd();
    const options: EtcdStorageOptions = {
      endpoints: node.endpoints,
      prefix: freshPrefix(),
      requestTimeoutMs: 1000,
      readyTimeoutMs: 500,
      watchResumeTimeoutMs: 60_000,
    };
    const storage = await EtcdStorage.connect(options);
    const impatient = await EtcdStorage.connect({ ...options, watchResumeTimeoutMs: 200 });
    try {
      const a = await storage.create('/registry/a', '1');
      const patient = new RecordingListener();
      storage.watch('/registry/', a.modRevision - 1, patient);
      const gaveUp = new RecordingListener();
      impatient.watch('/registry/', a.modRevision - 1, gaveUp);
      await waitUntil(() => patient.reached() >= a.modRevision && gaveUp.reached() >= a.modRevision, 'the first event');

      await node.members[0]!.stop();
      await assert.rejects(storage.get('/registry/a'), StoreUnavailableError);
      await assert.rejects(storage.create('/registry/b', '2'), StoreUnavailableError);
      await assert.rejects(storage.update('/registry/a', '2', a.modRevision), StoreUnavailableError);
      await assert.rejects(storage.ready(), StoreUnavailableError);
      await waitUntil(() => gaveUp.errors.length > 0, 'the impatient watch to give up');
      assert.ok(gaveUp.errors[0] instanceof StoreUnavailableError);

      await node.members[0]!.start();
      await node.waitHealthy();
      await storage.ready();
      const b = await storage.create('/registry/b', '2');
      await assert.rejects(storage.create('/registry/b', '2'), KeyExistsError);
      await waitUntil(() => patient.reached() >= b.modRevision, 'the watch to resume');
      assert.deepEqual(patient.revisions(), [a.modRevision, b.modRevision]);
      assert.deepEqual(patient.errors, []);
    } finally {
      await storage.close();
      await impatient.close();
      await node.stop();
    }
  });
});
