// The embedded storage backend: one SQLite file (node:sqlite), etcd-shaped.
//
// Layout, in the spirit of kine:
// - `log`: one row per revision (id = revision). A create row has created=1; a delete row (tombstone)
//   has deleted=1 and keeps the deleted value, create revision and (in prev_revision) the mod revision
//   of what it deleted, so a delete event and its prevKv come from the row alone. prev_revision of any
//   other row is the revision of the key's row before it (0 for a key's first).
// - `meta`: the compacted revision and how far compaction has got.
// The log has no index but its revision order: which rows each key has lives in memory (key-index.ts),
// rebuilt from the log at open, as etcd keeps its key index. A read finds its row there and reads that
// row by revision; a write appends to the log.
//
// Revision rules (as etcd): a read at a revision below the compacted one fails with CompactedError, a read
// AT the compacted revision works (compaction keeps the newest row at or below it of every live key);
// a read above the current revision fails with FutureRevisionError. A watch delivers revisions greater
// than afterRevision, so it needs afterRevision >= compacted (rows above the compacted revision are
// never removed); below that it ends through onError(CompactedError), asynchronously: watch() never throws.
//
// Group commit: writes arriving in the same event-loop turn are committed in one transaction. A file
// database commits with synchronous=NORMAL (COMMIT only write()s the WAL) and then makes the WAL durable
// with an fdatasync on the thread pool, so the event loop serves requests while the disk flushes; a few
// transactions may be flushing at once (a flush covers everything written before it began, so they are
// answered in order as flushes end). A write is answered, and its events delivered, only once its
// transaction is on disk; until then readers see the store as of the last durable revision (keys that
// transactions still flushing wrote are read at that revision), so nobody observes a write that a power
// loss could still take back. A failed compare is checked before anything is written, so
// it rejects only its own write and consumes no revision.
//
// Checkpoints (copying the WAL into the database file) are the store's too, for the same reason: every
// `checkpointEvery` writes, once the WAL is on disk and before the next transaction, the pages are copied
// without SQLite's own syncs and the database file is then flushed on the thread pool; the next
// transaction, which may start the WAL over, waits for that flush. Compaction's transactions, which are
// answered without a flush of their own, wait for it too, and a checkpoint that would copy one of them
// flushes the WAL first: the database file never holds a page that the WAL could still lose.

import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  ModRevisionMismatchError,
  StorageError,
  StoreUnavailableError,
  prefixEnd,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Storage,
  type WatchEvent,
  type WatchHandle,
  type WatchListener,
} from './interface.ts';
import type { KnowsRevisionNow } from './revision-now.ts';
import { KeyIndex } from './key-index.ts';

export interface SqliteStorageOptions {
  /** Most writes committed in one transaction; the rest go into the next one (default 1000). */
  maxBatch?: number;
  /** Page cache size in KiB (default 65536). */
  cacheSizeKiB?: number;
  /** Writes between checkpoints of a file database (default 10000). */
  checkpointEvery?: number;
  /** Told of the disk work whose order matters, for tests that check that order (never on the write path):
   *  a checkpoint starting and ending (its database flush included), a compaction transaction starting. */
  onDiskStep?: (step: SqliteDiskStep) => void;
}

/** The steps SqliteStorageOptions.onDiskStep is told of. */
export type SqliteDiskStep = 'checkpoint-started' | 'checkpoint-ended' | 'compaction-transaction';

/**
 * Writes between checkpoints of a file database. A checkpoint copies each page once however often the WAL
 * holds it (every commit writes the log's last, partly filled page and the meta page again), so rarer
 * checkpoints copy fewer pages a write; 10,000 writes of objects of a few KB make a WAL of some tens of MB.
 */
const CHECKPOINT_EVERY = 10_000;
/** Transactions of a file database whose WAL flush may be under way at once. */
const MAX_FLUSHING = 2;
/** Log rows examined per compaction transaction; the event loop runs between transactions. */
const COMPACT_CHUNK = 1000;
/** Revisions scanned per step of a watch's history replay; the event loop runs between steps. */
const REPLAY_CHUNK = 5000;

const LOG_COLUMNS = `
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS log (${LOG_COLUMNS});
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (name, value) VALUES ('compacted', 0), ('compact_cursor', 0);
`;

/**
 * Databases of earlier versions kept a `current` table and indexed the log by key (a UNIQUE constraint,
 * whose index can only go with its table): the log is copied into a table without it.
 */
function dropKeyIndexes(db: DatabaseSync): void {
  db.exec('DROP TABLE IF EXISTS current; DROP INDEX IF EXISTS log_key_id');
  const keyed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = 'log'").get();
  if (!keyed) return;
  db.exec(`CREATE TABLE log_by_revision (${LOG_COLUMNS});
    INSERT INTO log_by_revision SELECT id, key, value, created, deleted, create_revision, prev_revision FROM log;
    DROP TABLE log;
    ALTER TABLE log_by_revision RENAME TO log`);
}

/** key, value, create revision, mod revision: read as arrays, which node:sqlite builds fastest. */
type KvRow = [key: string, value: string, createRevision: number, modRevision: number];

interface LogRow {
  id: number;
  key: string;
  value: string;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  prev_value: string | null;
  prev_create: number | null;
}

type WriteOp =
  | { kind: 'create'; key: string; value: string; done: Settle }
  | { kind: 'update'; key: string; value: string; expected: number; done: Settle }
  | { kind: 'delete'; key: string; expected: number | undefined; done: Settle };

interface Settle {
  resolve(kv: KeyValue): void;
  reject(err: Error): void;
}

/** A committed transaction whose WAL flush is under way: what to answer once it is durable. */
interface PendingRound {
  batch: WriteOp[];
  results: Array<KeyValue | StorageError>;
  events: WatchEvent[];
  revision: number;
}

interface Watcher {
  prefix: string;
  end: string;
  afterRevision: number;
  listener: WatchListener;
  /** Every revision up to here has been looked at for this watcher. */
  cursor: number;
  /** False while history is being replayed from the log; live broadcasts skip it meanwhile. */
  live: boolean;
  done: boolean;
}

function kvOf(row: KvRow): KeyValue {
  return { key: row[0], value: row[1], createRevision: row[2], modRevision: row[3] };
}

/** The exclusive end of a prefix range; the empty prefix means every key. */
function endOf(prefix: string): string {
  return prefix === '' ? String.fromCodePoint(0x10ffff) : prefixEnd(prefix);
}

function eventOf(row: LogRow): WatchEvent {
  const kv: KeyValue = { key: row.key, value: row.value, createRevision: row.create_revision, modRevision: row.id };
  if (row.deleted) {
    return { type: 'delete', kv, prevKv: { ...kv, modRevision: row.prev_revision } };
  }
  if (row.created || row.prev_value === null || row.prev_create === null) return { type: 'put', kv };
  return {
    type: 'put',
    kv,
    prevKv: { key: row.key, value: row.prev_value, createRevision: row.prev_create, modRevision: row.prev_revision },
  };
}

/** A statement whose rows come back as arrays. */
function prepareArrays(db: DatabaseSync, sql: string): StatementSync {
  const statement = db.prepare(sql);
  statement.setReturnArrays(true);
  return statement;
}

function prepareAll(db: DatabaseSync) {
  return {
    begin: db.prepare('BEGIN'),
    commit: db.prepare('COMMIT'),
    rollback: db.prepare('ROLLBACK'),
    ping: db.prepare('SELECT 1'),
    checkpoint: db.prepare('PRAGMA wal_checkpoint(PASSIVE)'),
    maxId: db.prepare('SELECT MAX(id) AS id FROM log'),
    metaGet: db.prepare('SELECT value FROM meta WHERE name = ?'),
    metaSet: db.prepare('UPDATE meta SET value = ? WHERE name = ?'),
    row: prepareArrays(db, 'SELECT key, value, create_revision, id FROM log WHERE id = ?'),
    // The rows of a range, by revision (a JSON array of them), read in one statement.
    rows: prepareArrays(db, 'SELECT key, value, create_revision, id FROM log WHERE id IN (SELECT value FROM json_each(?))'),
    // What the key index is built from, in revision order.
    keyRows: prepareArrays(db, 'SELECT id, key, deleted FROM log ORDER BY id'),
    insertLog: db.prepare(
      'INSERT INTO log (id, key, value, created, deleted, create_revision, prev_revision) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    // NOT INDEXED: walk the log by revision (the rowid), which is what a watch from a recent revision wants.
    replay: db.prepare(
      `SELECT l.id AS id, l.key AS key, l.value AS value, l.created AS created, l.deleted AS deleted,
              l.create_revision AS create_revision, l.prev_revision AS prev_revision,
              p.value AS prev_value, p.create_revision AS prev_create
       FROM log AS l NOT INDEXED
       LEFT JOIN log AS p ON p.id = l.prev_revision AND l.created = 0 AND l.deleted = 0
       WHERE l.id > ? AND l.id <= ? AND l.key >= ? AND l.key < ? ORDER BY l.id`,
    ),
    compactScan: db.prepare('SELECT id, key, deleted, prev_revision FROM log WHERE id > ? AND id <= ?'),
    deleteLog: db.prepare('DELETE FROM log WHERE id = ?'),
  } satisfies Record<string, StatementSync>;
}

export class SqliteStorage implements Storage, KnowsRevisionNow {
  /** Opens (creating if needed) the database at `path`, or a private in-memory one for ':memory:'.
   *  A file is locked for this process alone (locking_mode=EXCLUSIVE): the revision counter lives here. */
  static open(path: string, opts: SqliteStorageOptions = {}): SqliteStorage {
    const db = new DatabaseSync(path);
    const inMemory = path === ':memory:' || path === '';
    let walFd: number | undefined;
    let dbFd: number | undefined;
    try {
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('PRAGMA journal_mode = WAL');
      // The store flushes the WAL itself after each commit (see above); SQLite still syncs around checkpoints.
      db.exec(`PRAGMA synchronous = ${inMemory ? 'FULL' : 'NORMAL'}`);
      if (!inMemory) db.exec('PRAGMA wal_autocheckpoint = 0');
      db.exec(`PRAGMA cache_size = -${opts.cacheSizeKiB ?? 65536}`);
      db.exec('PRAGMA temp_store = MEMORY');
      // A write transaction takes the exclusive lock now, so a second opener fails here and not later.
      db.exec('BEGIN IMMEDIATE');
      db.exec(SCHEMA);
      dropKeyIndexes(db);
      db.exec('COMMIT');
      // With the exclusive lock the WAL file lives (the same file, truncated at most) until the database closes.
      if (!inMemory) {
        walFd = openSync(`${path}-wal`, 'r+');
        fdatasyncSync(walFd);
        dbFd = openSync(path, 'r+');
      }
      return new SqliteStorage(db, opts, walFd === undefined || dbFd === undefined ? undefined : { wal: walFd, db: dbFd });
    } catch (err) {
      if (walFd !== undefined) closeSync(walFd);
      if (dbFd !== undefined) closeSync(dbFd);
      db.close();
      throw new StoreUnavailableError(`cannot open ${path}: ${(err as Error).message}`, { cause: err });
    }
  }

  private readonly db: DatabaseSync;
  private readonly sql: ReturnType<typeof prepareAll>;
  private readonly maxBatch: number;
  private readonly checkpointEvery: number;
  private readonly onDiskStep: ((step: SqliteDiskStep) => void) | undefined;
  /** The WAL file, flushed after each commit; absent for an in-memory database. */
  private readonly walFd: number | undefined;
  /** The database file, flushed after each checkpoint. */
  private readonly dbFd: number | undefined;
  /** Writes since the last checkpoint. */
  private sinceCheckpoint = 0;
  /** A checkpoint's database flush is under way: no transaction starts (it could start the WAL over). */
  private checkpointing = false;
  /** Compaction chunks waiting for the checkpoint under way to end. */
  private afterCheckpoint: Array<() => void> = [];
  /** A transaction that no flush covers was committed (a compaction chunk): a checkpoint flushes the WAL first. */
  private walDirty = false;
  /** Called when nothing is flushing any more (close waits for that). */
  private onIdle: Array<() => void> = [];
  /** Revision of the newest committed transaction (the next write gets rev + 1). */
  private rev: number;
  /** Every revision up to here is on disk: what reads, watches and currentRevision() see. */
  private durable: number;
  /** Committed transactions whose WAL flush is under way, oldest first. */
  private flushing: PendingRound[] = [];
  /** Which rows each key has in the log (committed ones too: reads find the newest at their revision). */
  private readonly index = new KeyIndex();
  /** Why the store stopped (its WAL could not be flushed). */
  private broken: Error | undefined;
  private compacted: number;
  private compactCursor: number;
  private closed = false;
  private queue: WriteOp[] = [];
  private flushScheduled = false;
  private readonly watchers = new Set<Watcher>();
  /** Compactions run one after another. */
  private compactions: Promise<void> = Promise.resolve();

  private constructor(db: DatabaseSync, opts: SqliteStorageOptions, files: { wal: number; db: number } | undefined) {
    this.db = db;
    this.sql = prepareAll(db);
    this.maxBatch = Math.max(1, opts.maxBatch ?? 1000);
    this.checkpointEvery = Math.max(1, opts.checkpointEvery ?? CHECKPOINT_EVERY);
    this.onDiskStep = opts.onDiskStep;
    this.walFd = files?.wal;
    this.dbFd = files?.db;
    this.compacted = this.metaGet('compacted');
    this.compactCursor = this.metaGet('compact_cursor');
    // Compaction may have removed the newest rows (tombstones), never a row above the compacted revision.
    const maxId = (this.sql.maxId.get() as { id: number | null }).id ?? 0;
    this.rev = Math.max(maxId, this.compacted);
    this.durable = this.rev;
    for (const [id, key, deleted] of this.sql.keyRows.iterate() as Iterable<[number, string, number]>) this.index.append(key, id, deleted !== 0);
  }

  private metaGet(name: string): number {
    return (this.sql.metaGet.get(name) as { value: number }).value;
  }

  private unavailable(): StoreUnavailableError {
    return new StoreUnavailableError(this.broken ? `storage failed: ${this.broken.message}` : 'storage is closed');
  }

  /** Runs a synchronous read, turning "closed" and revision checks into rejections. */
  private read<T>(fn: () => T): Promise<T> {
    if (this.closed || this.broken) return Promise.reject(this.unavailable());
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** The revision to read at: now for 0/absent, else checked against compaction and the present. */
  private readRevision(revision: number | undefined): number {
    if (!revision || revision <= 0) return this.durable;
    if (revision > this.durable) throw new FutureRevisionError(revision, this.durable);
    if (revision < this.compacted) throw new CompactedError(revision, this.compacted);
    return revision;
  }

  currentRevision(): Promise<number> {
    return this.read(() => this.durable);
  }

  /** The revision reads see now (see revision-now.ts); the watch caches of this store reach it as it is made. */
  revisionNow(): number {
    return this.durable;
  }

  compactedRevision(): Promise<number> {
    return this.read(() => this.compacted);
  }

  ready(): Promise<void> {
    return this.read(() => {
      this.sql.ping.get();
    });
  }

  get(key: string, opts: { revision?: number } = {}): Promise<{ kv: KeyValue | undefined; revision: number }> {
    return this.read(() => {
      const revision = this.readRevision(opts.revision);
      const id = this.index.at(key, revision);
      return { kv: id > 0 ? this.rowOf(id) : undefined, revision };
    });
  }

  range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    return this.read(() => {
      const revision = this.readRevision(opts.revision);
      const end = endOf(prefix);
      const start = opts.startKey !== undefined && opts.startKey > prefix ? opts.startKey : prefix;
      const limit = opts.limit && opts.limit > 0 ? opts.limit : Infinity;
      const ids: number[] = [];
      let count = 0;
      for (const [, id] of this.index.liveIn(start, end, revision)) {
        if (ids.length < limit) ids.push(id);
        count++;
      }
      return { kvs: this.rowsOf(ids), revision, more: count > ids.length, count };
    });
  }

  count(prefix: string): Promise<number> {
    return this.read(() => {
      let n = 0;
      for (const _ of this.index.liveIn(prefix, endOf(prefix), this.durable)) n++;
      return n;
    });
  }

  /** The row written at revision `id`, which the key index says the log holds. */
  private rowOf(id: number): KeyValue {
    const row = this.sql.row.get(id) as unknown as KvRow | undefined;
    if (!row) throw new StorageError(`the log has no row at revision ${id}`);
    return kvOf(row);
  }

  /** The rows written at revisions `ids`, in that order. */
  private rowsOf(ids: number[]): KeyValue[] {
    if (ids.length === 0) return [];
    if (ids.length === 1) return [this.rowOf(ids[0])];
    const byId = new Map<number, KvRow>();
    for (const row of this.sql.rows.all(JSON.stringify(ids)) as unknown as KvRow[]) byId.set(row[3], row);
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw new StorageError(`the log has no row at revision ${id}`);
      return kvOf(row);
    });
  }

  create(key: string, value: string): Promise<KeyValue> {
    return this.enqueue((done) => ({ kind: 'create', key, value, done }));
  }

  update(key: string, value: string, expectedModRevision: number): Promise<KeyValue> {
    return this.enqueue((done) => ({ kind: 'update', key, value, expected: expectedModRevision, done }));
  }

  delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    return this.enqueue((done) => ({ kind: 'delete', key, expected: expectedModRevision, done }));
  }

  private enqueue(make: (done: Settle) => WriteOp): Promise<KeyValue> {
    if (this.closed || this.broken) return Promise.reject(this.unavailable());
    return new Promise<KeyValue>((resolve, reject) => {
      this.queue.push(make({ resolve, reject }));
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled || !this.canCommit()) return;
    this.flushScheduled = true;
    setImmediate(() => this.flushQueue());
  }

  /** Whether a transaction may start now: not while a checkpoint is due or flushing, nor too many flushes. */
  private canCommit(): boolean {
    if (this.walFd === undefined) return true;
    return !this.checkpointing && this.sinceCheckpoint < this.checkpointEvery && this.flushing.length < MAX_FLUSHING;
  }

  /** Commits queued writes, one transaction per turn of the event loop; an in-memory one is answered at once. */
  private flushQueue(): void {
    this.flushScheduled = false;
    // close() commits what is left itself.
    if (!this.canCommit() || this.queue.length === 0 || this.closed) return;
    const round = this.commitBatch(this.queue.splice(0, this.maxBatch));
    if (round) {
      if (this.walFd === undefined) this.settle(round);
      else this.flushWal(round);
    }
    if (this.queue.length > 0) this.scheduleFlush();
  }

  /** Flushes the WAL on the thread pool; the round (and any before it) is answered once that is done. */
  private flushWal(round: PendingRound): void {
    // This flush covers everything committed so far.
    this.walDirty = false;
    this.flushing.push(round);
    this.sinceCheckpoint += round.events.length;
    fdatasync(this.walFd!, (err) => {
      if (err) {
        if (!this.broken) this.fail(err);
      } else {
        // Everything written before this flush began is on disk: this round and the ones before it.
        while (this.flushing.length > 0 && this.flushing[0].revision <= round.revision) this.settle(this.flushing.shift()!);
      }
      this.afterDiskWork();
    });
  }

  /** A flush ended: checkpoint once nothing flushes and one is due, or go on committing. */
  private afterDiskWork(): void {
    if (this.flushing.length === 0 && !this.checkpointing) {
      if (this.sinceCheckpoint >= this.checkpointEvery && !this.broken && !this.closed) {
        this.checkpoint();
        return;
      }
      for (const resolve of this.onIdle.splice(0)) resolve();
    }
    if (this.queue.length > 0 && !this.broken && !this.closed) this.scheduleFlush();
  }

  /** Copies the WAL into the database file, then flushes that on the thread pool; a WAL that holds a
   *  transaction no flush covered (compaction's) is flushed first. */
  private checkpoint(): void {
    this.sinceCheckpoint = 0;
    this.checkpointing = true;
    this.onDiskStep?.('checkpoint-started');
    if (!this.walDirty) {
      this.copyWalIntoDatabase();
      return;
    }
    this.walDirty = false;
    fdatasync(this.walFd!, (err) => {
      if (err) this.checkpointEnded(err);
      else this.copyWalIntoDatabase();
    });
  }

  /** The checkpoint proper, with every page of the WAL on disk. */
  private copyWalIntoDatabase(): void {
    try {
      // SQLite would flush the WAL (already on disk) and then the database file, blocking the event loop.
      this.db.exec('PRAGMA synchronous = OFF');
      this.sql.checkpoint.get();
    } catch {
      // A checkpoint that did not run leaves its pages to the next one.
    } finally {
      this.db.exec('PRAGMA synchronous = NORMAL');
    }
    fdatasync(this.dbFd!, (err) => this.checkpointEnded(err));
  }

  private checkpointEnded(err: Error | null): void {
    this.checkpointing = false;
    this.onDiskStep?.('checkpoint-ended');
    if (err && !this.broken) this.fail(err);
    for (const resume of this.afterCheckpoint.splice(0)) resume();
    this.afterDiskWork();
  }

  /** Resolves once no flush or checkpoint is under way. */
  private idle(): Promise<void> {
    if (this.flushing.length === 0 && !this.checkpointing) return Promise.resolve();
    return new Promise((resolve) => this.onIdle.push(resolve));
  }

  /** The disk could not be flushed: nothing not yet answered is known to be on disk, and the store stops. */
  private fail(err: Error, round?: PendingRound): void {
    this.broken = err;
    const failure = this.unavailable();
    const unanswered = [...(round?.batch ?? [])];
    while (this.flushing.length > 0) unanswered.push(...this.flushing.shift()!.batch);
    for (const op of [...unanswered, ...this.queue.splice(0)]) op.done.reject(failure);
    for (const w of [...this.watchers]) this.endWatch(w, failure);
  }

  /** Answers a durable round and tells the watchers. */
  private settle(round: PendingRound): void {
    this.durable = round.revision;
    round.batch.forEach((op, i) => {
      const result = round.results[i];
      if (result instanceof StorageError) op.done.reject(result);
      else op.done.resolve(result!);
    });
    if (round.events.length > 0) this.broadcast(round.events, round.revision);
  }

  /** Applies a batch of writes in one transaction; undefined when it failed as a whole (its writes are rejected). */
  private commitBatch(batch: WriteOp[]): PendingRound | undefined {
    let rev = this.rev;
    const results: Array<KeyValue | StorageError> = [];
    const events: WatchEvent[] = [];
    try {
      this.sql.begin.run();
      for (const op of batch) {
        const outcome = this.apply(op, rev + 1);
        if (outcome instanceof StorageError) {
          results.push(outcome);
        } else {
          rev += 1;
          results.push(outcome.kv);
          events.push(outcome.event);
        }
      }
      this.sql.commit.run();
    } catch (err) {
      // Something other than a failed compare (disk full, I/O error): nothing of the batch happened.
      try {
        if (this.db.isTransaction) this.sql.rollback.run();
      } catch {
        // The rollback failing leaves nothing more to undo here.
      }
      // Each event is one row the index was given: take them back, newest first.
      for (const e of events.reverse()) this.index.dropNewest(e.kv.key);
      for (const op of batch) op.done.reject(err as Error);
      return undefined;
    }
    this.rev = rev;
    return { batch, results, events, revision: rev };
  }

  /** One write inside the open transaction; a failed compare is returned before anything is written. */
  private apply(op: WriteOp, rev: number): { kv: KeyValue; event: WatchEvent } | StorageError {
    const newest = this.index.newest(op.key);
    const current = newest > 0 ? this.rowOf(newest) : undefined;
    if (op.kind === 'create') {
      if (current) return new KeyExistsError(op.key);
      this.sql.insertLog.run(rev, op.key, op.value, 1, 0, rev, Math.abs(newest));
      this.index.append(op.key, rev, false);
      const kv = { key: op.key, value: op.value, createRevision: rev, modRevision: rev };
      return { kv, event: { type: 'put', kv } };
    }
    if (!current) return new KeyNotFoundError(op.key);
    if (op.expected !== undefined && op.expected !== current.modRevision) {
      return new ModRevisionMismatchError(op.key, current);
    }
    if (op.kind === 'update') {
      this.sql.insertLog.run(rev, op.key, op.value, 0, 0, current.createRevision, current.modRevision);
      this.index.append(op.key, rev, false);
      const kv = { key: op.key, value: op.value, createRevision: current.createRevision, modRevision: rev };
      return { kv, event: { type: 'put', kv, prevKv: current } };
    }
    this.sql.insertLog.run(rev, op.key, current.value, 0, 1, current.createRevision, current.modRevision);
    this.index.append(op.key, rev, true);
    const kv = { ...current, modRevision: rev };
    return { kv, event: { type: 'delete', kv, prevKv: current } };
  }

  // ---- watch ----

  watch(prefix: string, afterRevision: number, listener: WatchListener): WatchHandle {
    const start = Math.max(0, afterRevision);
    const watcher: Watcher = {
      prefix,
      end: endOf(prefix),
      afterRevision: start,
      listener,
      cursor: start,
      live: false,
      done: false,
    };
    if (this.closed || this.broken) {
      watcher.done = true;
      setImmediate(() => listener.onError(this.unavailable()));
    } else {
      // Subscribe first: the replay then reads the log until it reaches the present, and only
      // then (in the same synchronous step) does the watcher turn live, so nothing falls between.
      this.watchers.add(watcher);
      setImmediate(() => this.replayStep(watcher));
    }
    return {
      cancel: () => {
        watcher.done = true;
        this.watchers.delete(watcher);
      },
    };
  }

  private replayStep(w: Watcher): void {
    if (w.done) return;
    if (w.cursor < this.compacted) {
      this.endWatch(w, new CompactedError(w.afterRevision, this.compacted));
      return;
    }
    if (w.cursor < this.durable) {
      const upTo = Math.min(this.durable, w.cursor + REPLAY_CHUNK);
      let rows: LogRow[];
      try {
        rows = this.sql.replay.all(w.cursor, upTo, w.prefix, w.end) as unknown as LogRow[];
      } catch (err) {
        this.endWatch(w, err as Error);
        return;
      }
      w.cursor = upTo;
      if (rows.length > 0 && !this.deliver(w, () => w.listener.onEvents(rows.map(eventOf)))) return;
      if (w.cursor < this.durable) {
        setImmediate(() => this.replayStep(w));
        return;
      }
    }
    w.live = true;
    this.deliver(w, () => w.listener.onProgress(this.durable));
  }

  /** Fans a committed batch out to every live watcher, then tells each one it is current. */
  private broadcast(events: WatchEvent[], rev: number): void {
    for (const w of this.watchers) {
      if (!w.live || w.done) continue;
      const mine = events.filter((e) => e.kv.modRevision > w.cursor && e.kv.key.startsWith(w.prefix));
      w.cursor = Math.max(w.cursor, rev);
      if (mine.length > 0 && !this.deliver(w, () => w.listener.onEvents(mine))) continue;
      this.deliver(w, () => w.listener.onProgress(rev));
    }
  }

  /** Calls a listener; a listener that throws ends its own watch (with that error), nobody else's. */
  private deliver(w: Watcher, call: () => void): boolean {
    if (w.done) return false;
    try {
      call();
    } catch (err) {
      this.endWatch(w, err as Error);
      return false;
    }
    return !w.done;
  }

  private endWatch(w: Watcher, err: Error): void {
    if (w.done) return;
    w.done = true;
    this.watchers.delete(w);
    try {
      w.listener.onError(err);
    } catch {
      // The watch is over either way.
    }
  }

  // ---- compaction ----

  compact(revision: number): Promise<void> {
    if (this.closed || this.broken) return Promise.reject(this.unavailable());
    const run = this.compactions.then(() => this.runCompaction(revision));
    this.compactions = run.catch(() => undefined);
    return run;
  }

  /** Removes, a chunk of revisions per transaction, every row at or below `revision` that a later row at
   *  or below it supersedes, and every tombstone at or below it. Rows above it are never touched. */
  private async runCompaction(revision: number): Promise<void> {
    if (this.closed) throw this.unavailable();
    if (revision > this.durable) throw new FutureRevisionError(revision, this.durable);
    if (revision <= this.compacted) throw new CompactedError(revision, this.compacted);
    // From here on reads below `revision` are refused, before any row goes.
    this.compacted = revision;
    let first = true;
    while (this.compactCursor < revision) {
      await this.readyForTransaction();
      const upTo = Math.min(revision, this.compactCursor + COMPACT_CHUNK);
      this.onDiskStep?.('compaction-transaction');
      this.sql.begin.run();
      try {
        if (first) this.sql.metaSet.run(revision, 'compacted');
        const rows = this.sql.compactScan.all(this.compactCursor, upTo) as unknown as Array<{
          id: number;
          key: string;
          deleted: number;
          prev_revision: number;
        }>;
        for (const row of rows) {
          // A row's predecessor is superseded by it; a tombstone is needed by nobody at or after `revision`.
          if (row.prev_revision > 0) this.sql.deleteLog.run(row.prev_revision);
          if (row.deleted) this.sql.deleteLog.run(row.id);
        }
        this.sql.metaSet.run(upTo, 'compact_cursor');
        this.sql.commit.run();
        // The index forgets the rows with the transaction that removed them.
        for (const row of rows) {
          if (row.prev_revision > 0) this.index.remove(row.key, row.prev_revision);
          if (row.deleted) this.index.remove(row.key, row.id);
        }
      } catch (err) {
        if (this.db.isTransaction) this.sql.rollback.run();
        throw err;
      }
      this.walDirty = true;
      first = false;
      this.compactCursor = upTo;
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (first) {
      await this.readyForTransaction();
      this.onDiskStep?.('compaction-transaction');
      this.sql.metaSet.run(revision, 'compacted');
      this.walDirty = true;
    }
  }

  /** Waits until a transaction outside the write queue may start: not while a checkpoint's flush is under
   *  way (the transaction could start the WAL over); throws once the store is closed or broken. */
  private async readyForTransaction(): Promise<void> {
    while (this.checkpointing) await new Promise<void>((resume) => this.afterCheckpoint.push(resume));
    if (this.closed || this.broken) throw this.unavailable();
  }

  // ---- lifecycle ----

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Writes already accepted are committed (and flushed) before the file is closed; later ones are refused.
    await this.idle();
    while (this.queue.length > 0 && !this.broken) {
      const round = this.commitBatch(this.queue.splice(0, this.maxBatch));
      if (!round) continue;
      try {
        if (this.walFd !== undefined) fdatasyncSync(this.walFd);
        this.settle(round);
      } catch (err) {
        this.fail(err as Error, round);
      }
    }
    for (const w of [...this.watchers]) this.endWatch(w, this.unavailable());
    await this.compactions;
    this.db.close();
    if (this.walFd !== undefined) closeSync(this.walFd);
    if (this.dbFd !== undefined) closeSync(this.dbFd);
  }
}
