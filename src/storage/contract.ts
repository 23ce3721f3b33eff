// The behaviour every storage backend must show, as a node:test suite any backend's test file can run:
//   storageContract('sqlite', async () => ({ storage, cleanup }))
// Each test works under its own key prefix and counts revisions relative to its own writes, so a
// backend whose store is shared between tests (etcd) passes too, as long as nobody else writes to it
// while a test runs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  ModRevisionMismatchError,
  type KeyValue,
  type Storage,
  type WatchEvent,
  type WatchHandle,
} from './interface.ts';

export type StorageFactory = () => Promise<{ storage: Storage; cleanup(): Promise<void> }>;

/** Records everything a watch reports. */
export class RecordingListener {
  events: WatchEvent[] = [];
  progress: number[] = [];
  errors: Error[] = [];
  onEvents(events: WatchEvent[]): void {
    this.events.push(...events);
  }
  onProgress(revision: number): void {
    this.progress.push(revision);
  }
  onError(err: Error): void {
    this.errors.push(err);
  }
  revisions(): number[] {
    return this.events.map((e) => e.kv.modRevision);
  }
  /** The newest revision this watcher is known to be current with. */
  reached(): number {
    return Math.max(0, ...this.progress, ...this.revisions());
  }
}

/** Waits (a turn of the event loop at a time) until `done()` holds; fails after `ms`. */
export async function waitUntil(done: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

let prefixCounter = 0;
function freshPrefix(): string {
  prefixCounter += 1;
  return `/contract/${process.pid}-${Date.now().toString(36)}-${prefixCounter}/`;
}

function kv(key: string, value: string, createRevision: number, modRevision: number): KeyValue {
  return { key, value, createRevision, modRevision };
}

export function storageContract(name: string, factory: StorageFactory): void {
  describe(`storage contract: ${name}`, () => {
    /** Runs a test against a fresh store and a fresh key prefix. */
    function test(title: string, body: (s: Storage, p: string) => Promise<void>): void {
      it(title, async () => {
        const { storage, cleanup } = await factory();
        try {
          await body(storage, freshPrefix());
        } finally {
          await cleanup();
        }
      });
    }

    test('ready resolves on an open store', async (s) => {
      await s.ready();
    });

    test('every write advances the revision by exactly one', async (s, p) => {
      const start = await s.currentRevision();
      const created = await s.create(`${p}a`, 'v1');
      assert.deepEqual(created, kv(`${p}a`, 'v1', start + 1, start + 1));
      const updated = await s.update(`${p}a`, 'v2', created.modRevision);
      assert.deepEqual(updated, kv(`${p}a`, 'v2', start + 1, start + 2));
      const deleted = await s.delete(`${p}a`);
      assert.deepEqual(deleted, kv(`${p}a`, 'v2', start + 1, start + 3));
      assert.equal(await s.currentRevision(), start + 3);
    });

    test('writes issued together each get their own revision; a failed one consumes none', async (s, p) => {
      const start = await s.currentRevision();
      const results = await Promise.allSettled([
        s.create(`${p}a`, '1'),
        s.create(`${p}a`, 'again'),
        s.create(`${p}b`, '2'),
        s.update(`${p}missing`, 'x', 1),
        s.create(`${p}c`, '3'),
      ]);
      // Two creates of one key race: exactly one wins (a backend may serve them in either order).
      const winners = [results[0]!, results[1]!].filter((r) => r.status === 'fulfilled');
      const losers = [results[0]!, results[1]!].filter((r) => r.status === 'rejected');
      assert.equal(winners.length, 1);
      assert.ok(losers.length === 1 && losers[0]!.status === 'rejected' && losers[0]!.reason instanceof KeyExistsError);
      assert.equal(results[2]!.status, 'fulfilled');
      assert.ok(results[3]!.status === 'rejected' && results[3].reason instanceof KeyNotFoundError);
      assert.equal(results[4]!.status, 'fulfilled');
      const revisions = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value.modRevision] : []));
      assert.deepEqual(
        revisions.sort((x, y) => x - y),
        [start + 1, start + 2, start + 3],
      );
      assert.equal(await s.currentRevision(), start + 3);
      assert.equal((await s.get(`${p}a`)).kv?.value, results[0]!.status === 'fulfilled' ? '1' : 'again');
    });

    test('create refuses a live key with KeyExistsError and changes nothing', async (s, p) => {
      const first = await s.create(`${p}a`, 'one');
      const before = await s.currentRevision();
      await assert.rejects(s.create(`${p}a`, 'two'), (err: unknown) => {
        assert.ok(err instanceof KeyExistsError);
        assert.equal(err.key, `${p}a`);
        return true;
      });
      assert.equal(await s.currentRevision(), before);
      assert.deepEqual((await s.get(`${p}a`)).kv, first);
    });

    test('create after delete works and starts a new incarnation', async (s, p) => {
      const first = await s.create(`${p}a`, 'one');
      await s.delete(`${p}a`);
      const again = await s.create(`${p}a`, 'two');
      assert.ok(again.createRevision > first.createRevision);
      assert.equal(again.createRevision, again.modRevision);
      assert.deepEqual((await s.get(`${p}a`)).kv, again);
    });

    test('update is a compare-and-swap on the mod revision', async (s, p) => {
      const created = await s.create(`${p}a`, 'one');
      const updated = await s.update(`${p}a`, 'two', created.modRevision);
      assert.equal(updated.createRevision, created.createRevision);
      assert.equal(updated.value, 'two');
      const before = await s.currentRevision();
      await assert.rejects(s.update(`${p}a`, 'stale', created.modRevision), (err: unknown) => {
        assert.ok(err instanceof ModRevisionMismatchError);
        assert.equal(err.key, `${p}a`);
        assert.deepEqual(err.current, updated);
        return true;
      });
      await assert.rejects(s.update(`${p}missing`, 'x', created.modRevision), (err: unknown) => {
        assert.ok(err instanceof KeyNotFoundError);
        assert.equal(err.key, `${p}missing`);
        return true;
      });
      assert.equal(await s.currentRevision(), before);
      assert.deepEqual((await s.get(`${p}a`)).kv, updated);
    });

    test('delete with and without an expected revision', async (s, p) => {
      const a = await s.create(`${p}a`, 'A');
      const b = await s.create(`${p}b`, 'B');
      const updatedB = await s.update(`${p}b`, 'B2', b.modRevision);
      await assert.rejects(s.delete(`${p}b`, b.modRevision), (err: unknown) => {
        assert.ok(err instanceof ModRevisionMismatchError);
        assert.deepEqual(err.current, updatedB);
        return true;
      });
      const deletedB = await s.delete(`${p}b`, updatedB.modRevision);
      assert.deepEqual(deletedB, { ...updatedB, modRevision: updatedB.modRevision + 1 });
      const deletedA = await s.delete(`${p}a`);
      assert.deepEqual(deletedA, { ...a, modRevision: deletedB.modRevision + 1 });
      await assert.rejects(s.delete(`${p}a`), KeyNotFoundError);
      await assert.rejects(s.delete(`${p}a`, a.modRevision), KeyNotFoundError);
      assert.equal((await s.get(`${p}a`)).kv, undefined);
      assert.equal(await s.count(p), 0);
    });

    test('get and range read the present and any past revision', async (s, p) => {
      await s.create(`/elsewhere${p}`, 'so that the revision before a1 is not 0 ("now")');
      const a1 = await s.create(`${p}a`, 'a1');
      const b1 = await s.create(`${p}b`, 'b1');
      const r1 = await s.currentRevision();
      const a2 = await s.update(`${p}a`, 'a2', a1.modRevision);
      await s.delete(`${p}b`);
      const c1 = await s.create(`${p}c`, 'c1');
      const r2 = await s.currentRevision();

      const now = await s.get(`${p}a`);
      assert.deepEqual(now, { kv: a2, revision: r2 });
      assert.deepEqual(await s.get(`${p}a`, { revision: r1 }), { kv: a1, revision: r1 });
      assert.deepEqual(await s.get(`${p}b`, { revision: r1 }), { kv: b1, revision: r1 });
      assert.deepEqual(await s.get(`${p}b`), { kv: undefined, revision: r2 });
      assert.deepEqual(await s.get(`${p}c`, { revision: r1 }), { kv: undefined, revision: r1 });
      assert.deepEqual(await s.get(`${p}a`, { revision: a1.modRevision - 1 }), {
        kv: undefined,
        revision: a1.modRevision - 1,
      });

      assert.deepEqual(await s.range(p), { kvs: [a2, c1], revision: r2, more: false, count: 2 });
      assert.deepEqual(await s.range(p, { revision: r1 }), { kvs: [a1, b1], revision: r1, more: false, count: 2 });
      assert.deepEqual(await s.range(p, { revision: r2 }), { kvs: [a2, c1], revision: r2, more: false, count: 2 });
    });

    test('range honours limit and startKey, with more and count', async (s, p) => {
      const kvs: KeyValue[] = [];
      for (const name of ['a', 'b', 'c', 'd', 'e']) kvs.push(await s.create(`${p}${name}`, name));
      const rev = await s.currentRevision();
      assert.deepEqual(await s.range(p, { limit: 2 }), { kvs: kvs.slice(0, 2), revision: rev, more: true, count: 5 });
      assert.deepEqual(await s.range(p, { limit: 2, startKey: `${p}c` }), {
        kvs: kvs.slice(2, 4),
        revision: rev,
        more: true,
        count: 3,
      });
      assert.deepEqual(await s.range(p, { limit: 2, startKey: `${p}d` }), {
        kvs: kvs.slice(3, 5),
        revision: rev,
        more: false,
        count: 2,
      });
      // A start key between keys starts at the next one.
      assert.deepEqual((await s.range(p, { startKey: `${p}bb` })).kvs, kvs.slice(2));
      assert.deepEqual(await s.range(p, { limit: 5 }), { kvs, revision: rev, more: false, count: 5 });
      assert.deepEqual(await s.range(p, { limit: 10 }), { kvs, revision: rev, more: false, count: 5 });
      assert.deepEqual(await s.range(p, { startKey: `${p}z` }), { kvs: [], revision: rev, more: false, count: 0 });

      // The same at a past revision, after a delete that the past still sees.
      await s.delete(`${p}a`);
      assert.deepEqual(await s.range(p, { revision: rev, limit: 2, startKey: `${p}a` }), {
        kvs: kvs.slice(0, 2),
        revision: rev,
        more: true,
        count: 5,
      });
      assert.deepEqual(await s.range(p, { limit: 2 }), {
        kvs: kvs.slice(1, 3),
        revision: rev + 1,
        more: true,
        count: 4,
      });
    });

    test('a prefix range and count do not include sibling prefixes', async (s, p) => {
      await s.create(`${p}a/b/x`, '1');
      await s.create(`${p}a/bc/y`, '2');
      await s.create(`${p}a/b`, 'no trailing slash');
      await s.create(`${p}a/b0`, '3');
      const { kvs } = await s.range(`${p}a/b/`);
      assert.deepEqual(
        kvs.map((k) => k.key),
        [`${p}a/b/x`],
      );
      assert.equal(await s.count(`${p}a/b/`), 1);
      assert.equal(await s.count(`${p}a/`), 4);
      assert.equal(await s.count(`${p}nothing/`), 0);
    });

    test('reads above the current revision fail with FutureRevisionError', async (s, p) => {
      await s.create(`${p}a`, '1');
      const rev = await s.currentRevision();
      await assert.rejects(s.get(`${p}a`, { revision: rev + 1 }), (err: unknown) => {
        assert.ok(err instanceof FutureRevisionError);
        assert.equal(err.requested, rev + 1);
        assert.equal(err.current, rev);
        return true;
      });
      await assert.rejects(s.range(p, { revision: rev + 5 }), FutureRevisionError);
    });

    test('compaction forgets old history, keeps live keys, and refuses old reads and watches', async (s, p) => {
      const a1 = await s.create(`${p}a`, 'a1');
      const a2 = await s.update(`${p}a`, 'a2', a1.modRevision);
      const b1 = await s.create(`${p}b`, 'b1');
      await s.delete(`${p}b`);
      const c1 = await s.create(`${p}c`, 'c1');
      const compactAt = await s.currentRevision();
      const a3 = await s.update(`${p}a`, 'a3', a2.modRevision);
      const d1 = await s.create(`${p}d`, 'd1');

      await s.compact(compactAt);
      assert.equal(await s.compactedRevision(), compactAt);

      await assert.rejects(s.get(`${p}a`, { revision: compactAt - 1 }), (err: unknown) => {
        assert.ok(err instanceof CompactedError);
        assert.equal(err.requested, compactAt - 1);
        assert.equal(err.compacted, compactAt);
        return true;
      });
      await assert.rejects(s.range(p, { revision: b1.modRevision }), CompactedError);
      // Reading at the compacted revision itself still works, as in etcd.
      assert.deepEqual(await s.range(p, { revision: compactAt }), {
        kvs: [a2, c1],
        revision: compactAt,
        more: false,
        count: 2,
      });
      assert.deepEqual((await s.get(`${p}a`, { revision: compactAt })).kv, a2);
      assert.deepEqual((await s.range(p)).kvs, [a3, c1, d1]);
      assert.equal(await s.count(p), 3);

      // Compacting again at or below the compacted revision, or into the future, is refused.
      await assert.rejects(s.compact(compactAt), CompactedError);
      await assert.rejects(s.compact((await s.currentRevision()) + 1), FutureRevisionError);

      // A watch from before the compacted revision ends with CompactedError (thrown or reported).
      const old = new RecordingListener();
      let handle: WatchHandle | undefined;
      try {
        handle = s.watch(p, compactAt - 2, old);
      } catch (err) {
        old.onError(err as Error);
      }
      await waitUntil(() => old.errors.length > 0, 'the compacted watch to fail');
      assert.ok(old.errors[0] instanceof CompactedError);
      assert.deepEqual(old.events, []);
      handle?.cancel();

      // A watch from the compacted revision sees everything after it.
      const fresh = new RecordingListener();
      const w = s.watch(p, compactAt, fresh);
      try {
        await waitUntil(() => fresh.reached() >= d1.modRevision, 'the replay');
        assert.deepEqual(fresh.revisions(), [a3.modRevision, d1.modRevision]);
        assert.deepEqual(fresh.errors, []);
      } finally {
        w.cancel();
      }
    });

    test('a watch replays history, then streams live events, in order, each once', async (s, p) => {
      const before = await s.create(`${p}before`, 'x');
      const a1 = await s.create(`${p}a`, 'a1');
      const a2 = await s.update(`${p}a`, 'a2', a1.modRevision);
      await s.create('/elsewhere-' + p, 'not watched');
      const rec = new RecordingListener();
      const handle = s.watch(p, before.modRevision, rec);
      try {
        const gone = await s.delete(`${p}a`);
        const b1 = await s.create(`${p}b`, 'b1');
        const b2 = await s.update(`${p}b`, 'b2', b1.modRevision);
        await waitUntil(() => rec.reached() >= b2.modRevision, 'live events');
        assert.deepEqual(rec.errors, []);
        assert.deepEqual(rec.events, [
          { type: 'put', kv: a1 },
          { type: 'put', kv: a2, prevKv: a1 },
          { type: 'delete', kv: gone, prevKv: a2 },
          { type: 'put', kv: b1 },
          { type: 'put', kv: b2, prevKv: b1 },
        ]);
      } finally {
        handle.cancel();
      }
    });

    test('onProgress reports the revision even to watchers whose prefix saw nothing', async (s, p) => {
      const quiet = new RecordingListener();
      const busy = new RecordingListener();
      const start = await s.currentRevision();
      const h1 = s.watch(`${p}quiet/`, start, quiet);
      const h2 = s.watch(`${p}busy/`, start, busy);
      try {
        const written = await s.create(`${p}busy/x`, '1');
        await waitUntil(
          () => quiet.progress.some((r) => r >= written.modRevision) && busy.reached() >= written.modRevision,
          'progress',
        );
        assert.deepEqual(quiet.events, []);
        assert.deepEqual(busy.revisions(), [written.modRevision]);
        assert.ok(quiet.progress.every((r, i) => i === 0 || r >= quiet.progress[i - 1]!));
      } finally {
        h1.cancel();
        h2.cancel();
      }
    });

    test('a watch from a future revision delivers only what comes after it', async (s, p) => {
      const start = await s.currentRevision();
      const rec = new RecordingListener();
      const handle = s.watch(p, start + 2, rec);
      try {
        await s.create(`${p}1`, '1');
        await s.create(`${p}2`, '2');
        const third = await s.create(`${p}3`, '3');
        await waitUntil(() => rec.reached() >= third.modRevision, 'the third event');
        assert.deepEqual(rec.revisions(), [third.modRevision]);
      } finally {
        handle.cancel();
      }
    });

    test('cancel stops delivery', async (s, p) => {
      const cancelled = new RecordingListener();
      const witness = new RecordingListener();
      const start = await s.currentRevision();
      const h1 = s.watch(p, start, cancelled);
      const h2 = s.watch(p, start, witness);
      try {
        const first = await s.create(`${p}a`, '1');
        await waitUntil(() => cancelled.reached() >= first.modRevision, 'the first event');
        h1.cancel();
        const second = await s.create(`${p}b`, '2');
        await waitUntil(() => witness.reached() >= second.modRevision, 'the witness to see the second event');
        assert.deepEqual(cancelled.revisions(), [first.modRevision]);
        assert.ok(cancelled.progress.every((r) => r < second.modRevision));
        assert.deepEqual(witness.revisions(), [first.modRevision, second.modRevision]);
      } finally {
        h1.cancel();
        h2.cancel();
      }
    });

    test('watches started while writes stream see every revision of their prefix exactly once', async (s, p) => {
      const prefixes = [`${p}x/`, `${p}y/`, `${p}z/`];
      const written = new Map<number, string>(); // revision -> key
      const watchers: Array<{ prefix: string; after: number; rec: RecordingListener; handle: WatchHandle }> = [];
      const total = 600;
      let next = 0;
      const writer = async () => {
        while (next < total) {
          const i = next++;
          const key = `${prefixes[i % prefixes.length]}k${i}`;
          const kvc = await s.create(key, String(i));
          written.set(kvc.modRevision, key);
          if (i % 3 === 0) {
            const kvu = await s.update(key, `${i}u`, kvc.modRevision);
            written.set(kvu.modRevision, key);
          }
          if (i % 5 === 0) {
            const kvd = await s.delete(key);
            written.set(kvd.modRevision, key);
          }
        }
      };
      const base = await s.currentRevision();
      const starter = async () => {
        for (let n = 0; n < 40; n += 1) {
          const prefix = prefixes[n % prefixes.length]!;
          // Alternate between "from now" and "from some way back", to cover replay and live joins.
          const nowRev = await s.currentRevision();
          const after = n % 2 === 0 ? nowRev : Math.max(base, nowRev - 25);
          const rec = new RecordingListener();
          watchers.push({ prefix, after, rec, handle: s.watch(prefix, after, rec) });
          await new Promise((resolve) => setImmediate(resolve));
        }
      };
      await Promise.all([writer(), writer(), writer(), writer(), starter()]);
      const last = await s.currentRevision();
      try {
        for (const w of watchers) {
          await waitUntil(() => w.rec.reached() >= last || w.rec.errors.length > 0, 'every watcher to catch up');
          assert.deepEqual(w.rec.errors, []);
          const expected = [...written.keys()]
            .filter((rev) => rev > w.after && written.get(rev)!.startsWith(w.prefix))
            .sort((x, y) => x - y);
          assert.deepEqual(w.rec.revisions(), expected, `watch of ${w.prefix} after ${w.after}`);
          for (const e of w.rec.events) assert.equal(written.get(e.kv.modRevision), e.kv.key);
        }
      } finally {
        for (const w of watchers) w.handle.cancel();
      }
    });

    test('of concurrent compare-and-swaps on one key exactly one wins', async (s, p) => {
      const created = await s.create(`${p}a`, '0');
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => s.update(`${p}a`, `writer ${i}`, created.modRevision)),
      );
      const winners = attempts.filter((r) => r.status === 'fulfilled');
      assert.equal(winners.length, 1);
      for (const r of attempts) {
        if (r.status === 'rejected') assert.ok(r.reason instanceof ModRevisionMismatchError);
      }
      const winner = (winners[0] as PromiseFulfilledResult<KeyValue>).value;
      assert.deepEqual((await s.get(`${p}a`)).kv, winner);

      const creates = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => s.create(`${p}b`, `${i}`)));
      assert.equal(creates.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of creates) {
        if (r.status === 'rejected') assert.ok(r.reason instanceof KeyExistsError);
      }
    });
  });
}
