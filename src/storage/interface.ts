// The etcd-shaped storage interface every backend implements (SQLite by default, etcd when asked).
// Keys are strings such as `/registry/core/configmaps/default/a`; values are the object's JSON text.
// A revision is a global counter that grows by one with every write (create, update or delete).

export interface KeyValue {
  key: string;
  value: string;
  /** Revision of the write that created this incarnation of the key. */
  createRevision: number;
  /** Revision of the last write to the key: the object's resourceVersion. */
  modRevision: number;
}

export interface RangeOptions {
  /** Read as of this revision (must not be compacted, must not be in the future); 0 or absent means now. */
  revision?: number;
  /** Maximum number of keys to return; 0 or absent means no limit. */
  limit?: number;
  /** Start from this key (inclusive) instead of the beginning of the prefix. */
  startKey?: string;
}

export interface RangeResult {
  /** Live keys under the prefix at the read revision, in key order. */
  kvs: KeyValue[];
  /** The revision the range was read at (the store's current revision when none was asked). */
  revision: number;
  /** True when the limit cut the result short. */
  more: boolean;
  /** Number of keys from startKey (or the prefix start) to the end of the prefix at that revision. */
  count: number;
}

export type WatchEvent =
  | { type: 'put'; kv: KeyValue; prevKv?: KeyValue }
  | { type: 'delete'; kv: KeyValue; prevKv: KeyValue };
// For a delete, kv.modRevision is the delete's revision and kv.value is the last value (prevKv.value).

export interface WatchListener {
  /** Events in revision order, each revision once. */
  onEvents(events: WatchEvent[]): void;
  /** Every change up to and including `revision` has been delivered (sent after each batch of writes). */
  onProgress(revision: number): void;
  /** The watch ended because of an error (compaction, lost connection); no more calls follow. */
  onError(err: Error): void;
}

export interface WatchHandle {
  cancel(): void;
  /**
   * Asks for a progress report now, for a reader that waits to see the store's current revision.
   * Absent: the store reports progress after every write by itself. True: asked, onProgress follows once
   * every earlier event is delivered. False: this store cannot be asked (an etcd whose answers may overtake
   * events), so an idle prefix's watch learns of newer revisions only from etcd's periodic reports.
   */
  requestProgress?(): boolean;
}

export interface Storage {
  /** The revision of the newest write (0 for an empty store). */
  currentRevision(): Promise<number>;
  /** The newest compacted revision: reads below it, and watches from below it, fail with CompactedError. */
  compactedRevision(): Promise<number>;
  get(key: string, opts?: { revision?: number }): Promise<{ kv: KeyValue | undefined; revision: number }>;
  /** Keys starting with `prefix` (the caller includes the trailing slash). */
  range(prefix: string, opts?: RangeOptions): Promise<RangeResult>;
  /** Number of live keys under the prefix now. */
  count(prefix: string): Promise<number>;
  /** Create if absent; throws KeyExistsError when the key is live. */
  create(key: string, value: string): Promise<KeyValue>;
  /** Compare-and-swap on the key's mod revision; throws ModRevisionMismatchError (carrying the current kv) or KeyNotFoundError. */
  update(key: string, value: string, expectedModRevision: number): Promise<KeyValue>;
  /** Delete, only if the mod revision still matches when one is given. Returns the deleted kv with modRevision set to the delete's revision. */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue>;
  /** Stream every change under `prefix` with a revision greater than `afterRevision`, with no gap and no duplicate.
   *  Throws (or reports through onError) CompactedError when afterRevision is below the compacted revision. */
  watch(prefix: string, afterRevision: number, listener: WatchListener): WatchHandle;
  /** Forget history at or below `revision` (the current value of every live key is kept). */
  compact(revision: number): Promise<void>;
  /** Resolves when the store can serve; rejects with StoreUnavailableError otherwise. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export class StorageError extends Error {}

export class KeyExistsError extends StorageError {
  readonly key: string;
  constructor(key: string) {
    super(`key exists: ${key}`);
    this.key = key;
  }
}

export class KeyNotFoundError extends StorageError {
  readonly key: string;
  constructor(key: string) {
    super(`key not found: ${key}`);
    this.key = key;
  }
}

export class ModRevisionMismatchError extends StorageError {
  readonly key: string;
  readonly current: KeyValue | undefined;
  constructor(key: string, current: KeyValue | undefined) {
    super(`mod revision mismatch: ${key}`);
    this.key = key;
    this.current = current;
  }
}

export class CompactedError extends StorageError {
  readonly requested: number;
  readonly compacted: number;
  constructor(requested: number, compacted: number) {
    super(`required revision ${requested} has been compacted (compacted revision ${compacted})`);
    this.requested = requested;
    this.compacted = compacted;
  }
}

export class FutureRevisionError extends StorageError {
  readonly requested: number;
  readonly current: number;
  constructor(requested: number, current: number) {
    super(`required revision ${requested} is a future revision (current ${current})`);
    this.requested = requested;
    this.current = current;
  }
}

export class StoreUnavailableError extends StorageError {}

/** The first key after every key that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
