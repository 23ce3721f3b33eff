// The watch cache of one resource: its current objects (decoded once, encoded once) and a window of recent
// events, kept up to date from a storage watch. Lists, gets and watches are served from here.
import type { Storage, WatchEvent, WatchHandle, KeyValue } from './interface.ts';

/** One object as the cache keeps it: parsed, and its JSON (with resourceVersion) ready to write. */
export interface CachedObject {
  key: string;
  namespace: string;
  name: string;
  modRevision: number;
  object: Record<string, any>;
  json: string;
}

export type CacheEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface CacheEvent {
  revision: number;
  /** The object after the event (for a delete: the last state, stamped with the delete's revision). */
  current: CachedObject;
  /** The object before the event (absent for a create). */
  previous: CachedObject | undefined;
  deleted: boolean;
}

export interface CacheWatcher {
  /** Called for every event after the watcher's start revision, in order. */
  onEvent(event: CacheEvent): void;
  /** The cache stopped (storage failure or shutdown): the watch must end so the client re-lists. */
  onClose(err?: Error): void;
}

export interface WatchCacheOptions {
  /** How many recent events are kept for watches that resume from a resourceVersion. */
  eventWindow?: number;
}

export class TooOldResourceVersionError extends Error {
  readonly requested: number;
  readonly oldest: number;
  constructor(requested: number, oldest: number) {
    super(`too old resource version: ${requested} (${oldest})`);
    this.requested = requested;
    this.oldest = oldest;
  }
}

/** Parses a stored value and stamps it with its resourceVersion, once per write. */
export function decodeKv(kv: KeyValue, revision = kv.modRevision): CachedObject {
  const object = JSON.parse(kv.value);
  object.metadata ??= {};
  object.metadata.resourceVersion = String(revision);
  const parts = kv.key.split('/');
  const name = parts[parts.length - 1];
  return { key: kv.key, namespace: object.metadata.namespace ?? '', name, modRevision: revision, object, json: JSON.stringify(object) };
}

/** A copy of `obj` stamped with another resourceVersion (a delete event carries the delete's revision). */
function restamp(obj: CachedObject, revision: number): CachedObject {
  const object = structuredClone(obj.object);
  object.metadata.resourceVersion = String(revision);
  return { ...obj, modRevision: revision, object, json: JSON.stringify(object) };
}

export class WatchCache {
  readonly prefix: string;
  private readonly storage: Storage;
  private readonly objects = new Map<string, CachedObject>();
  private sortedKeys: string[] | undefined = [];
  private readonly events: CacheEvent[] = [];
  private eventStart = 0; // index of the oldest event in `events`
  private readonly eventWindow: number;
  /** Every event with revision <= this has been applied. */
  private rev = 0;
  /** Revision before the oldest event kept: watches from at least this revision can be served. */
  private oldestResumable = 0;
  private readonly watchers = new Set<CacheWatcher>();
  private readonly waiters: { revision: number; resolve: () => void }[] = [];
  private handle: WatchHandle | undefined;
  private failure: Error | undefined;

  constructor(storage: Storage, prefix: string, opts: WatchCacheOptions = {}) {
    this.storage = storage;
    this.prefix = prefix;
    this.eventWindow = opts.eventWindow ?? 10_000;
  }

  get revision(): number {
    return this.rev;
  }

  get size(): number {
    return this.objects.size;
  }

  get failed(): Error | undefined {
    return this.failure;
  }

  /** Loads the current objects and starts following storage. */
  async start(): Promise<void> {
    const snapshot = await this.storage.range(this.prefix);
    for (const kv of snapshot.kvs) this.objects.set(kv.key, decodeKv(kv));
    this.sortedKeys = undefined;
    this.rev = snapshot.revision;
    this.oldestResumable = snapshot.revision;
    this.failure = undefined;
    this.handle = this.storage.watch(this.prefix, snapshot.revision, {
      onEvents: (events) => this.apply(events),
      onProgress: (revision) => this.advance(revision),
      onError: (err) => this.fail(err),
    });
  }

  stop(): void {
    this.handle?.cancel();
    this.handle = undefined;
    this.fail(new Error('watch cache stopped'));
  }

  get(key: string): CachedObject | undefined {
    return this.objects.get(key);
  }

  /** Current objects under `keyPrefix` (the whole resource, or one namespace), in key order. */
  list(keyPrefix = this.prefix): CachedObject[] {
    const keys = this.keysInOrder();
    let lo = keyPrefix === this.prefix ? 0 : lowerBound(keys, keyPrefix);
    const out: CachedObject[] = [];
    for (; lo < keys.length && keys[lo].startsWith(keyPrefix); lo++) out.push(this.objects.get(keys[lo])!);
    return out;
  }

  /** Resolves true once the cache has seen `revision`, false after `timeoutMs`. */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.rev >= revision) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { revision, resolve: () => { clearTimeout(timer); resolve(true); } };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Registers a watcher for events after `afterRevision`, replaying the kept ones first.
   *  Throws TooOldResourceVersionError when events after that revision are no longer kept. */
  watch(afterRevision: number, watcher: CacheWatcher): () => void {
    if (this.failure) throw this.failure;
    if (afterRevision < this.oldestResumable) throw new TooOldResourceVersionError(afterRevision, this.oldestResumable);
    for (let i = this.eventStart; i < this.events.length; i++) {
      if (this.events[i].revision > afterRevision) watcher.onEvent(this.events[i]);
    }
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Oldest revision a watch can resume from without going to storage. */
  get oldestRevision(): number {
    return this.oldestResumable;
  }

  private keysInOrder(): string[] {
    if (!this.sortedKeys) this.sortedKeys = [...this.objects.keys()].sort(compareKeys);
    return this.sortedKeys;
  }

  private apply(batch: WatchEvent[]): void {
    for (const e of batch) {
      const previous = this.objects.get(e.kv.key);
      let event: CacheEvent;
      if (e.type === 'put') {
        const current = decodeKv(e.kv);
        this.objects.set(e.kv.key, current);
        if (!previous && this.sortedKeys) insertSorted(this.sortedKeys, e.kv.key);
        event = { revision: e.kv.modRevision, current, previous, deleted: false };
      } else {
        this.objects.delete(e.kv.key);
        if (previous && this.sortedKeys) removeSorted(this.sortedKeys, e.kv.key);
        const last = previous ?? decodeKv(e.prevKv);
        event = { revision: e.kv.modRevision, current: restampLazy(last, e.kv.modRevision), previous: last, deleted: true };
      }
      this.rev = event.revision;
      this.record(event);
      for (const w of this.watchers) w.onEvent(event);
    }
    this.wake();
  }

  private record(event: CacheEvent): void {
    this.events.push(event);
    if (this.events.length - this.eventStart > this.eventWindow) {
      this.oldestResumable = this.events[this.eventStart].revision;
      this.eventStart++;
      if (this.eventStart > 4096 && this.eventStart * 2 > this.events.length) {
        this.events.splice(0, this.eventStart);
        this.eventStart = 0;
      }
    }
  }

  private advance(revision: number): void {
    if (revision > this.rev) this.rev = revision;
    this.wake();
  }

  private wake(): void {
    if (!this.waiters.length) return;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].revision <= this.rev) this.waiters.splice(i, 1)[0].resolve();
    }
  }

  private fail(err: Error): void {
    this.failure = err;
    const watchers = [...this.watchers];
    this.watchers.clear();
    for (const w of watchers) w.onClose(err);
  }
}

/** A delete event's object is the last state stamped with the delete's revision, computed on first use. */
function restampLazy(last: CachedObject, revision: number): CachedObject {
  let done: CachedObject | undefined;
  const get = () => (done ??= restamp(last, revision));
  return {
    key: last.key,
    namespace: last.namespace,
    name: last.name,
    modRevision: revision,
    get object() { return get().object; },
    get json() { return get().json; },
  };
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(keys: string[], key: string): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

function insertSorted(keys: string[], key: string): void {
  const i = lowerBound(keys, key);
  if (keys[i] !== key) keys.splice(i, 0, key);
}

function removeSorted(keys: string[], key: string): void {
  const i = lowerBound(keys, key);
  if (keys[i] === key) keys.splice(i, 1);
}
