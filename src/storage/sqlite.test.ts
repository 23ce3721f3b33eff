import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, it } from 'node:test';
import { RecordingListener, storageContract, waitUntil } from './contract.ts';
import { CompactedError, FutureRevisionError, KeyNotFoundError, StoreUnavailableError, type KeyValue } from './interface.ts';
import type { KeyIndex } from './key-index.ts';
import { SqliteStorage, type SqliteDiskStep } from './sqlite.ts';

/** Compaction transactions that started while a checkpoint (its database flush included) was under way. */
function compactionsDuringCheckpoints(steps: SqliteDiskStep[]): number {
  let checkpointing = false;
  let inside = 0;
  for (const step of steps) {
    if (step === 'checkpoint-started') checkpointing = true;
    else if (step === 'checkpoint-ended') checkpointing = false;
    else if (checkpointing) inside += 1;
  }
  return inside;
}

async function tempDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-sqlite-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

storageContract('sqlite :memory:', async () => {
  const storage = SqliteStorage.open(':memory:');
  return { storage, cleanup: () => storage.close() };
});

storageContract('sqlite file', async () => {
  const { dir, remove } = await tempDir();
  const storage = SqliteStorage.open(join(dir, 'state.db'));
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await remove();
    },
  };
});

describe('SqliteStorage', () => {
  it('keeps everything across a reopen', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    try {
      const first = SqliteStorage.open(path);
      const a = await first.create('/r/a', '{"a":1}');
      const b = await first.create('/r/b', 'b');
      const a2 = await first.update('/r/a', '{"a":2}', a.modRevision);
      await first.delete('/r/b');
      const c = await first.create('/r/c', 'c');
      await first.compact(a2.modRevision);
      await first.close();

      const second = SqliteStorage.open(path);
      try {
        assert.equal(await second.currentRevision(), c.modRevision);
        assert.equal(await second.compactedRevision(), a2.modRevision);
        assert.deepEqual((await second.range('/r/')).kvs, [a2, c]);
        assert.deepEqual((await second.get('/r/b', { revision: b.modRevision + 1 })).kv, b);
        const d = await second.create('/r/d', 'd');
        assert.equal(d.modRevision, c.modRevision + 1);
      } finally {
        await second.close();
      }
    } finally {
      await remove();
    }
  });

  it('opens a database of earlier versions, indexed by key, and keeps its log without the key indexes', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    try {
      const old = new DatabaseSync(path);
      old.exec(`
        CREATE TABLE log (id INTEGER PRIMARY KEY, key TEXT NOT NULL, value TEXT NOT NULL, created INTEGER NOT NULL,
          deleted INTEGER NOT NULL, create_revision INTEGER NOT NULL, prev_revision INTEGER NOT NULL, UNIQUE (key, prev_revision));
        CREATE INDEX log_key_id ON log (key, id);
        CREATE TABLE current (key TEXT PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO meta VALUES ('compacted', 0), ('compact_cursor', 0);
        INSERT INTO log VALUES (1, '/r/a', 'a1', 1, 0, 1, 0), (2, '/r/b', 'b1', 1, 0, 2, 0), (3, '/r/a', 'a2', 0, 0, 1, 1),
          (4, '/r/b', 'b1', 0, 1, 2, 2), (5, '/r/b', 'b2', 1, 0, 5, 4);
        INSERT INTO current VALUES ('/r/a', 3), ('/r/b', 5);`);
      old.close();

      const opened = SqliteStorage.open(path);
      try {
        assert.equal(await opened.currentRevision(), 5);
        assert.deepEqual((await opened.range('/r/')).kvs, [
          { key: '/r/a', value: 'a2', createRevision: 1, modRevision: 3 },
          { key: '/r/b', value: 'b2', createRevision: 5, modRevision: 5 },
        ]);
        assert.deepEqual((await opened.range('/r/', { revision: 4 })).kvs, [{ key: '/r/a', value: 'a2', createRevision: 1, modRevision: 3 }]);
        assert.deepEqual((await opened.get('/r/b', { revision: 2 })).kv, { key: '/r/b', value: 'b1', createRevision: 2, modRevision: 2 });
        const a3 = await opened.update('/r/a', 'a3', 3);
        assert.equal(a3.modRevision, 6);
      } finally {
        await opened.close();
      }
      const check = new DatabaseSync(path);
      try {
        const left = check.prepare("SELECT type, name FROM sqlite_master WHERE name <> 'meta' ORDER BY name").all();
        assert.deepEqual(left.map((r) => `${r.type} ${r.name}`), ['table log']);
        assert.equal((check.prepare('SELECT COUNT(*) AS n FROM log').get() as { n: number }).n, 6);
      } finally {
        check.close();
      }
    } finally {
      await remove();
    }
  });

  it('reads any retained revision after a reopen: the key index is rebuilt from the log', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    try {
      const first = SqliteStorage.open(path);
      const a1 = await first.create('/r/a', 'a1');
      const a2 = await first.update('/r/a', 'a2', a1.modRevision);
      const gone = await first.delete('/r/a');
      await first.close();

      const second = SqliteStorage.open(path);
      try {
        assert.deepEqual((await second.get('/r/a', { revision: a1.modRevision })).kv, a1);
        assert.deepEqual((await second.get('/r/a', { revision: a2.modRevision })).kv, a2);
        assert.equal((await second.get('/r/a')).kv, undefined);
        await assert.rejects(second.update('/r/a', 'x', a2.modRevision), KeyNotFoundError);
        const again = await second.create('/r/a', 'a3');
        assert.equal(again.createRevision, gone.modRevision + 1);
        assert.deepEqual((await second.range('/r/', { revision: gone.modRevision })).kvs, []);
        assert.deepEqual((await second.range('/r/')).kvs, [again]);
      } finally {
        await second.close();
      }
    } finally {
      await remove();
    }
  });

  it('does not reuse a revision whose tombstone compaction removed', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    try {
      const first = SqliteStorage.open(path);
      await first.create('/r/a', 'a');
      const gone = await first.delete('/r/a');
      await first.compact(gone.modRevision);
      await first.close();
      const second = SqliteStorage.open(path);
      try {
        assert.equal(await second.currentRevision(), gone.modRevision);
        assert.equal((await second.create('/r/a', 'again')).modRevision, gone.modRevision + 1);
      } finally {
        await second.close();
      }
    } finally {
      await remove();
    }
  });

  it('compaction takes the rows it removes out of the in-memory key index', async () => {
    const s = SqliteStorage.open(':memory:');
    try {
      // Reads below the compacted revision are refused, so only the index itself shows what it still holds.
      const index = (s as unknown as { index: KeyIndex }).index;
      const a1 = await s.create('/r/a', 'a1');
      const a2 = await s.update('/r/a', 'a2', a1.modRevision);
      const a3 = await s.update('/r/a', 'a3', a2.modRevision);
      await s.create('/r/b', 'b');
      const bGone = await s.delete('/r/b');
      assert.equal(index.at('/r/a', a1.modRevision), a1.modRevision);
      assert.equal(index.newest('/r/b'), -bGone.modRevision);
      await s.compact(bGone.modRevision);
      // a1 and a2 are superseded at the compacted revision; b's row and its tombstone are needed by nobody.
      assert.equal(index.at('/r/a', a2.modRevision), 0);
      assert.equal(index.at('/r/a', bGone.modRevision), a3.modRevision);
      assert.equal(index.newest('/r/b'), 0);
      assert.deepEqual([...index.liveIn('/r/', '/r0', bGone.modRevision)], [['/r/a', a3.modRevision]]);
    } finally {
      await s.close();
    }
  });

  it('takes back the key index entries of a transaction that failed as a whole', async () => {
    const s = SqliteStorage.open(':memory:');
    try {
      // One batch: the second write breaks the log's NOT NULL constraint after the first was appended.
      const results = await Promise.allSettled([s.create('/r/a', 'a'), s.create('/r/b', null as unknown as string)]);
      assert.deepEqual(results.map((r) => r.status), ['rejected', 'rejected']);
      const before = await s.currentRevision();
      const a = await s.create('/r/a', 'a');
      assert.equal(a.modRevision, before + 1);
      assert.deepEqual((await s.get('/r/a')).kv, a);
      assert.deepEqual((await s.range('/r/')).kvs, [a]);
    } finally {
      await s.close();
    }
  });

  it('refuses a second opener of the same file while the first has it', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    const first = SqliteStorage.open(path);
    try {
      assert.throws(() => SqliteStorage.open(path), StoreUnavailableError);
    } finally {
      await first.close();
      await remove();
    }
  });

  it('commits writes of one event-loop turn together: one progress report for the batch', async () => {
    const s = SqliteStorage.open(':memory:');
    try {
      const rec = new RecordingListener();
      const handle = s.watch('/b/', 0, rec);
      await waitUntil(() => rec.progress.length === 1, 'the watch to go live');
      const written = await Promise.all(Array.from({ length: 100 }, (_, i) => s.create(`/b/${i}`, `${i}`)));
      assert.deepEqual(
        written.map((kv) => kv.modRevision),
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      assert.deepEqual(rec.progress, [0, 100]);
      assert.equal(rec.events.length, 100);
      handle.cancel();
    } finally {
      await s.close();
    }
  });

  it('answers a write, and shows it to readers and watchers, only once its transaction is on disk', async () => {
    const { dir, remove } = await tempDir();
    const s = SqliteStorage.open(join(dir, 'state.db'));
    try {
      const rec = new RecordingListener();
      s.watch('/d/', 0, rec);
      await waitUntil(() => rec.progress.length === 1, 'the watch to go live');
      const answered: number[] = [];
      const first = s.create('/d/a', 'a').then((kv) => { answered.push(kv.modRevision); return kv; });
      // One turn later the transaction is committed and its WAL flush is on the thread pool.
      await new Promise((resolve) => setImmediate(resolve));
      const second = s.create('/d/b', 'b').then((kv) => { answered.push(kv.modRevision); return kv; });
      assert.deepEqual(answered, []);
      assert.equal((await s.get('/d/a')).kv, undefined);
      assert.equal(await s.currentRevision(), 0);
      assert.deepEqual((await s.range('/d/')).kvs, []);
      assert.equal(await s.count('/d/'), 0);
      await assert.rejects(s.get('/d/a', { revision: 1 }), FutureRevisionError);
      assert.equal(rec.events.length, 0);
      assert.equal((await first).modRevision, 1);
      assert.equal((await s.get('/d/a')).kv?.value, 'a');
      // The write made while the first was being flushed went into the next transaction.
      assert.equal((await second).modRevision, 2);
      assert.deepEqual(answered, [1, 2]);
      assert.deepEqual(rec.revisions(), [1, 2]);
      assert.deepEqual((await s.range('/d/')).kvs.map((kv) => kv.value), ['a', 'b']);
    } finally {
      await s.close();
      await remove();
    }
  });

  it('keeps every write across its own checkpoints and a reopen, the WAL copied into the database file', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    try {
      const first = SqliteStorage.open(path, { checkpointEvery: 1000 });
      // Enough writes for a few checkpoints, in rounds of various sizes.
      for (let round = 0; round < 30; round++) {
        await Promise.all(Array.from({ length: 100 }, (_, i) => first.create(`/e/${round}/${i}`, `v${round}-${i}`)));
      }
      const last = await first.update('/e/0/0', 'changed', 1);
      // The store's checkpoints have copied most of the WAL into the database file (SQLite's own are off).
      assert.ok(statSync(path).size > 64 * 1024, `database ${statSync(path).size} bytes`);
      await first.close();
      const second = SqliteStorage.open(path);
      try {
        assert.equal(await second.currentRevision(), last.modRevision);
        assert.equal(await second.count('/e/'), 3000);
        assert.equal((await second.get('/e/0/0')).kv?.value, 'changed');
        assert.equal((await second.get('/e/29/99')).kv?.value, 'v29-99');
      } finally {
        await second.close();
      }
    } finally {
      await remove();
    }
  });

  it('compacts while writes checkpoint, leaving an intact database with every write', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    try {
      const steps: SqliteDiskStep[] = [];
      const s = SqliteStorage.open(path, { checkpointEvery: 1000, onDiskStep: (step) => steps.push(step) });
      // A long history: its compaction takes many chunks.
      let live = await Promise.all(Array.from({ length: 4000 }, (_, i) => s.create(`/k/old/${i}`, 'v0')));
      for (const value of ['v1', 'v2']) live = await Promise.all(live.map((kv) => s.update(kv.key, value, kv.modRevision)));
      const at = await s.currentRevision();
      // Compaction chunks run between the transactions of these writes, whose checkpoints come every 1000.
      const compaction = s.compact(at);
      let finished = false;
      void compaction.then(() => (finished = true));
      let round = 0;
      while (!finished || round < 10) {
        await Promise.all(Array.from({ length: 200 }, (_, i) => s.create(`/k/new/${round}/${i}`, 'n')));
        round += 1;
      }
      await compaction;
      await s.close();
      assert.ok(steps.includes('checkpoint-started') && steps.includes('compaction-transaction'));
      assert.equal(compactionsDuringCheckpoints(steps), 0);

      const raw = new DatabaseSync(path);
      try {
        assert.equal((raw.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
      } finally {
        raw.close();
      }
      const again = SqliteStorage.open(path);
      try {
        assert.equal(await again.compactedRevision(), at);
        assert.equal(await again.count('/k/old/'), 4000);
        assert.equal(await again.count('/k/new/'), round * 200);
        assert.deepEqual(new Set((await again.range('/k/old/')).kvs.map((kv) => kv.value)), new Set(['v2']));
      } finally {
        await again.close();
      }
    } finally {
      await remove();
    }
  });

  it('starts no compaction transaction while a checkpoint of writes is under way: it waits for the checkpoint\'s flush', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    try {
      const steps: SqliteDiskStep[] = [];
      let compactAt = 0;
      let compaction: Promise<void> | undefined;
      const s: SqliteStorage = SqliteStorage.open(path, {
        checkpointEvery: 100,
        onDiskStep: (step) => {
          steps.push(step);
          // Compaction asked for as a checkpoint starts: its first transaction is ready before the checkpoint's flush ends.
          if (step === 'checkpoint-started' && compactAt && !compaction) compaction = s.compact(compactAt);
        },
      });
      // 90 writes, below the first checkpoint; 30 of them supersede others, for compaction to remove.
      const created = await Promise.all(Array.from({ length: 60 }, (_, i) => s.create(`/k/${i}`, 'v0')));
      await Promise.all(created.slice(0, 30).map((kv) => s.update(kv.key, 'v1', kv.modRevision)));
      compactAt = await s.currentRevision();
      // These cross checkpointEvery: once they are on disk the checkpoint starts, and with it the compaction.
      await Promise.all(Array.from({ length: 20 }, (_, i) => s.create(`/k/new/${i}`, 'n')));
      assert.ok(compaction, 'a checkpoint started');
      await compaction;
      assert.deepEqual(steps.slice(0, 3), ['checkpoint-started', 'checkpoint-ended', 'compaction-transaction']);
      assert.equal(compactionsDuringCheckpoints(steps), 0);
      assert.equal(await s.compactedRevision(), compactAt);
      assert.deepEqual((await s.range('/k/', { revision: compactAt })).kvs.map((kv) => kv.value).sort(), [...Array(30).fill('v0'), ...Array(30).fill('v1')]);
      await s.close();
    } finally {
      await remove();
    }
  });

  it('reports a compacted watch through onError, never by throwing', async () => {
    const s = SqliteStorage.open(':memory:');
    try {
      for (let i = 0; i < 5; i += 1) await s.create(`/w/${i}`, 'x');
      await s.compact(4);
      const rec = new RecordingListener();
      let errorsAtReturn = -1;
      assert.doesNotThrow(() => {
        s.watch('/w/', 3, rec);
        errorsAtReturn = rec.errors.length;
      });
      assert.equal(errorsAtReturn, 0, 'the error arrives asynchronously');
      await waitUntil(() => rec.errors.length > 0, 'the error');
      assert.ok(rec.errors[0] instanceof CompactedError);
      assert.equal((rec.errors[0] as CompactedError).requested, 3);
      assert.equal((rec.errors[0] as CompactedError).compacted, 4);
    } finally {
      await s.close();
    }
  });

  it('compacts a long history in chunks, keeping every live key and reads at the compacted revision', async () => {
    const { dir, remove } = await tempDir();
    const path = join(dir, 'state.db');
    const s = SqliteStorage.open(path);
    try {
      const live = new Map<string, KeyValue>();
      for (let round = 0; round < 5; round += 1) {
        const writes = Array.from({ length: 1000 }, async (_, i) => {
          const key = `/h/${String(i).padStart(4, '0')}`;
          const prev = live.get(key);
          if (!prev) live.set(key, await s.create(key, `${round}`));
          else if (i % 7 === round) await s.delete(key, prev.modRevision).then(() => live.delete(key));
          else live.set(key, await s.update(key, `${round}`, prev.modRevision));
        });
        await Promise.all(writes);
      }
      const expected = [...live.values()].sort((x, y) => (x.key < y.key ? -1 : 1));
      const at = await s.currentRevision();
      const after = await s.create('/h/after', 'after');

      let finished = false;
      let turns = 0;
      const compaction = s.compact(at).then(() => (finished = true));
      while (!finished) {
        await new Promise((resolve) => setImmediate(resolve));
        turns += 1;
      }
      await compaction;
      assert.ok(turns >= 3, `the event loop ran between compaction chunks (${turns} turns)`);

      assert.deepEqual((await s.range('/h/', { revision: at })).kvs, expected);
      assert.equal((await s.range('/h/')).count, expected.length + 1);
      await assert.rejects(s.range('/h/', { revision: at - 1 }), CompactedError);
      await s.close();

      // Only the newest row of each live key at the compacted revision, and what came after, remain.
      const raw = new DatabaseSync(path);
      try {
        const rows = raw.prepare('SELECT id FROM log ORDER BY id').all().map((r) => r.id);
        assert.deepEqual(rows, [...expected.map((kv) => kv.modRevision).sort((x, y) => x - y), after.modRevision]);
      } finally {
        raw.close();
      }
    } finally {
      await s.close();
      await remove();
    }
  });

  it('replays a history longer than one replay step while writes go on, each revision once', async () => {
    const s = SqliteStorage.open(':memory:');
    try {
      await Promise.all(Array.from({ length: 12_000 }, (_, i) => s.create(`/long/${i}`, `${i}`)));
      const rec = new RecordingListener();
      const handle = s.watch('/long/', 0, rec);
      const more = Array.from({ length: 1000 }, (_, i) => s.create(`/long/more-${i}`, `${i}`));
      await Promise.all(more);
      await waitUntil(() => rec.reached() >= 13_000, 'the watcher to catch up');
      assert.deepEqual(
        rec.revisions(),
        Array.from({ length: 13_000 }, (_, i) => i + 1),
      );
      handle.cancel();
    } finally {
      await s.close();
    }
  });

  it('ends a replay that compaction overtakes with CompactedError, after a gapless prefix', async () => {
    const s = SqliteStorage.open(':memory:');
    try {
      await Promise.all(Array.from({ length: 12_000 }, (_, i) => s.create(`/race/${i}`, `${i}`)));
      const rec = new RecordingListener();
      const onEvents = rec.onEvents.bind(rec);
      let compaction: Promise<void> | undefined;
      rec.onEvents = (events) => {
        onEvents(events);
        // Compact past the replay's position while it is between two steps.
        compaction ??= s.compact(11_000);
      };
      s.watch('/race/', 0, rec);
      await waitUntil(() => rec.errors.length > 0, 'the replay to fail');
      await compaction;
      assert.ok(rec.errors[0] instanceof CompactedError);
      assert.equal((rec.errors[0] as CompactedError).requested, 0);
      assert.equal((rec.errors[0] as CompactedError).compacted, 11_000);
      assert.ok(rec.events.length > 0 && rec.events.length < 11_000);
      assert.deepEqual(
        rec.revisions(),
        Array.from({ length: rec.events.length }, (_, i) => i + 1),
      );
      assert.deepEqual(rec.progress, []);
    } finally {
      await s.close();
    }
  });

  it('close commits queued writes, ends watches, and refuses later calls', async () => {
    const s = SqliteStorage.open(':memory:');
    const rec = new RecordingListener();
    s.watch('/c/', 0, rec);
    const pending = s.create('/c/a', 'a');
    await s.close();
    assert.equal((await pending).modRevision, 1);
    assert.ok(rec.errors[0] instanceof StoreUnavailableError);
    await assert.rejects(s.get('/c/a'), StoreUnavailableError);
    await assert.rejects(s.range('/c/'), StoreUnavailableError);
    await assert.rejects(s.count('/c/'), StoreUnavailableError);
    await assert.rejects(s.create('/c/b', 'b'), StoreUnavailableError);
    await assert.rejects(s.update('/c/a', 'b', 1), StoreUnavailableError);
    await assert.rejects(s.delete('/c/a'), StoreUnavailableError);
    await assert.rejects(s.currentRevision(), StoreUnavailableError);
    await assert.rejects(s.compact(1), StoreUnavailableError);
    await assert.rejects(s.ready(), StoreUnavailableError);
    const late = new RecordingListener();
    s.watch('/c/', 0, late);
    await waitUntil(() => late.errors.length > 0, 'the late watch to fail');
    assert.ok(late.errors[0] instanceof StoreUnavailableError);
    await s.close();
  });

  it('a listener that throws ends only its own watch', async () => {
    const s = SqliteStorage.open(':memory:');
    try {
      const bad = new RecordingListener();
      bad.onEvents = () => {
        throw new Error('listener broke');
      };
      const good = new RecordingListener();
      s.watch('/l/', 0, bad);
      s.watch('/l/', 0, good);
      await s.create('/l/a', 'a');
      const b = await s.create('/l/b', 'b');
      await waitUntil(() => good.reached() >= b.modRevision, 'the good watcher');
      assert.equal(bad.errors[0]?.message, 'listener broke');
      assert.equal(bad.errors.length, 1);
      assert.equal(good.events.length, 2);
    } finally {
      await s.close();
    }
  });
});
