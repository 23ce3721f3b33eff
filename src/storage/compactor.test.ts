import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactorIntervalMs, startCompactor } from './compactor.ts';
import { waitUntil } from './contract.ts';
import { CompactedError, StoreUnavailableError } from './interface.ts';
import { SqliteStorage } from './sqlite.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startCompactor', () => {
  it('compacts periodically, always keeping at least the retention of history', async () => {
    const storage = SqliteStorage.open(':memory:');
    const retentionMs = 60;
    const compactions: Array<{ revision: number; at: number }> = [];
    const errors: Error[] = [];
    const compactor = startCompactor(storage, {
      retentionMs,
      intervalMs: 10,
      onCompacted: (revision) => compactions.push({ revision, at: Date.now() }),
      onError: (err) => errors.push(err),
    });
    try {
      const writes: Array<{ issuedAt: number; revision: number }> = [];
      let kv = await storage.create('/c/key', '0');
      let stop = false;
      const writer = (async () => {
        for (let i = 1; !stop; i += 1) {
          const issuedAt = Date.now();
          kv = await storage.update('/c/key', String(i), kv.modRevision);
          writes.push({ issuedAt, revision: kv.modRevision });
          await sleep(2);
        }
      })();
      await waitUntil(() => compactions.length >= 3, 'three compactions');
      stop = true;
      await writer;

      assert.deepEqual(errors, []);
      for (const { revision, at } of compactions) {
        // Everything written less than a retention before the compaction finished is still there.
        for (const w of writes) {
          if (w.issuedAt > at - retentionMs) assert.ok(w.revision > revision, `revision ${w.revision} kept`);
        }
      }
      const revisions = compactions.map((c) => c.revision);
      assert.deepEqual(
        revisions,
        [...revisions].sort((x, y) => x - y),
      );
      const compacted = await storage.compactedRevision();
      assert.equal(compacted, revisions.at(-1));
      assert.deepEqual((await storage.get('/c/key')).kv, kv);
      await assert.rejects(storage.get('/c/key', { revision: compacted - 1 }), CompactedError);
    } finally {
      compactor.stop();
      await storage.close();
    }
  });

  it('stops compacting once stopped', async () => {
    const storage = SqliteStorage.open(':memory:');
    let calls = 0;
    const compactor = startCompactor(storage, { retentionMs: 0, intervalMs: 5, onCompacted: () => (calls += 1) });
    try {
      await storage.create('/s/a', 'a');
      await waitUntil(() => calls > 0, 'a compaction');
      compactor.stop();
      const after = calls;
      await storage.create('/s/b', 'b');
      await sleep(50);
      assert.equal(calls, after);
      assert.equal((await storage.get('/s/b')).kv?.value, 'b');
    } finally {
      compactor.stop();
      await storage.close();
    }
  });

  it('reports a failed compaction and carries on', async () => {
    const storage = SqliteStorage.open(':memory:');
    await storage.create('/e/a', 'a');
    await storage.close();
    const errors: Error[] = [];
    const compactor = startCompactor(storage, { retentionMs: 0, intervalMs: 5, onError: (err) => errors.push(err) });
    try {
      await waitUntil(() => errors.length >= 2, 'two reported failures');
      assert.ok(errors.every((err) => err instanceof StoreUnavailableError));
    } finally {
      compactor.stop();
    }
  });

  it('runs every retention by default, but not more often than once a second', () => {
    assert.equal(compactorIntervalMs({ retentionMs: 300_000 }), 300_000);
    assert.equal(compactorIntervalMs({ retentionMs: 10 }), 1000);
    assert.equal(compactorIntervalMs({ retentionMs: 300_000, intervalMs: 50 }), 50);
  });
});
