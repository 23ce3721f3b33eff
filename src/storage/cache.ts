// The watch cache of one resource: its current objects (decoded once, encoded once) and a window of recent
// events, kept up to date from a storage watch. Lists, gets and watches are served from here.
import type { Storage, WatchEvent, WatchHandle, KeyValue } from './interface.ts';
import { SortedKeys } from './sorted-keys.ts';
import { LeanObject, metaOf, type CachedMeta } from './cached-object.ts';

export type { CachedMeta } from './cached-object.ts';

/** One object as the cache keeps it: its JSON (with resourceVersion) ready to write, and the object parsed from
 *  it on first read (cached-object.ts). */
export interface CachedObject {
  key: string;
  namespace: string;
  name: string;
  modRevision: number;
  readonly object: Record<string, any>;
  json: string;
  /** The metadata fields read without parsing (labels, owners, deletion); absent on objects made outside
   *  the cache, whose `object` is at hand. */
  meta?: CachedMeta;
}

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
  /** The watcher was dropped (storage failure, shutdown, or its onEvent threw): the watch must end so the
   *  client re-lists. */
  onClose(err?: Error): void;
}

export interface WatchCacheOptions {
  /** How many recent events are kept for watches that resume from a resourceVersion. */
  eventWindow?: number;
  /** Delay before the cache re-lists after its storage watch failed. */
  restartDelayMs?: number;
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

/** The cache is re-listing after its storage watch failed (or was stopped). */
export class CacheUnavailableError extends Error {}

/** Parses a stored value and stamps it with its resourceVersion, once per write. The parsed object is handed
 *  on for this turn's readers (`keepParsed`), not kept: a load of every object keeps only their JSON. */
export function decodeKv(kv: KeyValue, revision = kv.modRevision, keepParsed = true): CachedObject {
  const stored = JSON.parse(kv.value);
  // Kubernetes writes the type and the metadata first; the rest keeps its stored order.
  const { kind, apiVersion, metadata, ...rest } = stored;
  const object = { kind, apiVersion, metadata: orderMetadata(metadata ?? {}, String(revision)), ...rest };
  const namespace = (object.metadata.namespace as string | undefined) ?? '';
  return new LeanObject(kv.key, namespace, revision, JSON.stringify(object), metaOf(object.metadata), keepParsed ? object : undefined);
}

/** An object about to be written, encoded once: the value to store and, from the same text, the object as
 *  reads serve it once storage has given it a revision. */
export interface EncodedObject {
  /** The stored value: Kubernetes' field order, without resourceVersion (decodeKv of it gives `at`'s answer). */
  value: string;
  /** The object as reads serve it, stamped with `revision`; `object` is parsed from the JSON on first use.
   *  The same object for the same key and revision. */
  at(key: string, revision: number): CachedObject;
}

const RV_MEMBER = '"resourceVersion":""';

/**
 * Encodes `obj` (its resourceVersion ignored) once for a write. The JSON is made with an empty
 * resourceVersion, whose member is the first of that text in it (kind and apiVersion are strings, and the
 * metadata fields before it are too: inside a JSON string every quote is escaped, so the text only
 * matches a real member); the stored value leaves the member out, a served revision fills it in.
 */
export function encodeObject(obj: Record<string, any>): EncodedObject {
  const { kind, apiVersion, metadata, ...rest } = obj;
  const ordered = { kind, apiVersion, metadata: orderMetadata(metadata ?? {}, ''), ...rest };
  const json = JSON.stringify(ordered);
  const at = json.indexOf(RV_MEMBER);
  const end = at + RV_MEMBER.length;
  const value = json[end] === ',' ? json.slice(0, at) + json.slice(end + 1)
    : json[at - 1] === ',' ? json.slice(0, at - 1) + json.slice(end)
    : json.slice(0, at) + json.slice(end);
  const namespace = typeof ordered.metadata.namespace === 'string' ? ordered.metadata.namespace : '';
  // The writer keeps its object: the cache keeps copies of the few fields it reads without parsing.
  const meta = metaOf(ordered.metadata, true);
  // The write's answer and the cache's copy are one object (its text made flat once, by whichever is sent first).
  let last: CachedObject | undefined;
  return {
    value,
    at(key, revision) {
      if (last && last.modRevision === revision && last.key === key) return last;
      const served = json.slice(0, end - 1) + revision + json.slice(end - 1);
      last = new LeanObject(key, namespace, revision, served, meta);
      return last;
    },
  };
}

/** ObjectMeta's fields in the order Kubernetes encodes them. */
const METADATA_ORDER = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields'];

/** The metadata in Kubernetes' field order, stamped with its resourceVersion. */
function orderMetadata(metadata: Record<string, unknown>, resourceVersion: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of METADATA_ORDER) {
    if (k === 'resourceVersion') out[k] = resourceVersion;
    else if (metadata[k] !== undefined) out[k] = metadata[k];
  }
  for (const k of Object.keys(metadata)) if (!(k in out)) out[k] = metadata[k];
  return out;
}

/** A copy of `obj` stamped with another resourceVersion (a delete event carries the delete's revision). */
export function restamp(obj: CachedObject, revision: number): CachedObject {
  const object = JSON.parse(obj.json);
  object.metadata.resourceVersion = String(revision);
  return new LeanObject(obj.key, obj.namespace, revision, JSON.stringify(object), obj.meta ?? metaOf(object.metadata), object);
}

/** Inserts placed in the key order however many keys there are (see WatchCache.insertsUnread). */
const MIN_INSERTS_KEPT = 4096;

/** Settled writes whose events are still awaited, at most (beyond that their events are decoded). */
const MAX_EXPECTED = 10_000;

export class WatchCache {
  readonly prefix: string;
  private readonly storage: Storage;
  private objects = new Map<string, CachedObject>();
  /** Keys in order, built on first use after a (re)load and kept sorted as keys come and go. */
  private sortedKeys: SortedKeys | undefined = new SortedKeys();
  /** Keys inserted since the order was last read: past a quarter of the keys, sorting them all again on the
   *  next read costs no more than placing each, so the order is dropped until then. */
  private insertsUnread = 0;
  private events: CacheEvent[] = [];
  private eventStart = 0; // index of the oldest event in `events`
  /** How many recent events are kept (settable until the first event arrives). */
  eventWindow: number;
  private readonly restartDelayMs: number;
  /** Every event with revision <= this has been applied. */
  private rev = 0;
  /** Revision before the oldest event kept: watches from at least this revision can be served. */
  private oldestResumable = 0;
  private readonly watchers = new Set<CacheWatcher>();
  private readonly waiters: { revision: number; resolve: () => void }[] = [];
  /** Writes under way, by key: their events are served from the writer's encoding when the value is the one written. */
  private readonly expected = new Map<string, { encoded: EncodedObject; until: number }>();
  private handle: WatchHandle | undefined;
  private failure: Error | undefined = new CacheUnavailableError('storage is (re)initializing');
  private stopped = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor(storage: Storage, prefix: string, opts: WatchCacheOptions = {}) {
    this.storage = storage;
    this.prefix = prefix;
    this.eventWindow = opts.eventWindow ?? 10_000;
    this.restartDelayMs = opts.restartDelayMs ?? 1000;
  }

  get revision(): number {
    return this.rev;
  }

  get size(): number {
    return this.objects.size;
  }

  /** Why the cache cannot serve watches right now (it is loading, re-listing or stopped). */
  get failed(): Error | undefined {
    return this.failure;
  }

  /** Number of registered watchers. */
  get watcherCount(): number {
    return this.watchers.size;
  }

  /** Loads the current objects and starts following storage. */
  async start(): Promise<void> {
    this.stopped = false;
    const snapshot = await this.storage.range(this.prefix);
    if (this.stopped) return;
    const objects = new Map<string, CachedObject>();
    for (const kv of snapshot.kvs) objects.set(kv.key, decodeKv(kv, kv.modRevision, false));
    // The swap is synchronous: a reader sees the old state or the new one, never a mix.
    this.objects = objects;
    this.sortedKeys = undefined;
    // Writes whose events this load replaces will not be seen as events.
    for (const [key, entry] of this.expected) if (entry.until !== Infinity) this.expected.delete(key);
    this.events = [];
    this.eventStart = 0;
    this.rev = Math.max(this.rev, snapshot.revision);
    this.oldestResumable = snapshot.revision;
    this.failure = undefined;
    // Calls from a storage watch this cache has given up on are ignored.
    const generation = ++this.generation;
    const current = () => generation === this.generation && !this.failure;
    this.handle = this.storage.watch(this.prefix, snapshot.revision, {
      onEvents: (events) => { if (current()) this.apply(events); },
      onProgress: (revision) => { if (current()) this.advance(revision); },
      onError: (err) => { if (current()) this.fail(err); },
    });
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    this.handle?.cancel();
    this.handle = undefined;
    this.fail(new CacheUnavailableError('watch cache stopped'));
  }

  get(key: string): CachedObject | undefined {
    return this.objects.get(key);
  }

  /** Announces a write of `encoded`: its event is served from that encoding instead of decoding the stored
   *  value again. Returns the function to call once the write has settled: with the revision it was written
   *  at (the announcement then lasts until the cache has seen that revision of the key), or without one
   *  when it failed. */
  expect(key: string, encoded: EncodedObject): (writtenAt?: number) => void {
    const entry = { encoded, until: Infinity };
    this.expected.set(key, entry);
    return (writtenAt) => {
      if (this.expected.get(key) !== entry) return;
      // A write whose event has not come yet (a remote store's comes after its answer): kept for that event.
      if (writtenAt !== undefined && writtenAt > this.rev && this.expected.size <= MAX_EXPECTED) entry.until = writtenAt;
      else this.expected.delete(key);
    };
  }

  /** Current objects in no particular order: a pass over the whole resource that needs no order (the garbage
   *  collector's resync) would otherwise sort every key put there since the last ordered read. */
  unordered(): IterableIterator<CachedObject> {
    return this.objects.values();
  }

  /** Current objects under `keyPrefix` (the whole resource, or one namespace), in key order. */
  list(keyPrefix = this.prefix): CachedObject[] {
    return [...this.scan(keyPrefix)];
  }

  /** Current objects under `keyPrefix` in key order, from `fromKey` (inclusive) on. Lazy: a page reads only
   *  what it needs. The caller consumes it synchronously (the cache does not change in between). */
  *scan(keyPrefix = this.prefix, fromKey = ''): Generator<CachedObject> {
    const keys = this.keysInOrder();
    const start = fromKey > keyPrefix ? fromKey : keyPrefix;
    for (const key of keys.from(start === this.prefix ? 0 : keys.lowerBound(start))) {
      if (!key.startsWith(keyPrefix)) return;
      yield this.objects.get(key)!;
    }
  }

  /** Number of objects under `keyPrefix` from `fromKey` (inclusive) on. */
  countFrom(keyPrefix: string, fromKey = ''): number {
    const keys = this.keysInOrder();
    const start = fromKey > keyPrefix ? fromKey : keyPrefix;
    return keys.lowerBound(prefixUpperBound(keyPrefix)) - keys.lowerBound(start);
  }

  /** Resolves true once the cache has seen `revision`, false after `timeoutMs`. */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.rev >= revision) return Promise.resolve(true);
    this.requestProgress();
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
   *  Throws TooOldResourceVersionError when events after that revision are no longer kept, and the
   *  failure (CacheUnavailableError ...) while the cache cannot serve. */
  watch(afterRevision: number, watcher: CacheWatcher): () => void {
    if (this.failure) throw this.failure;
    if (afterRevision < this.oldestResumable) throw new TooOldResourceVersionError(afterRevision, this.oldestResumable);
    // Replay only what is after the start: a binary search finds the first such event.
    let lo = this.eventStart, hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid].revision <= afterRevision) lo = mid + 1; else hi = mid;
    }
    for (let i = lo; i < this.events.length; i++) watcher.onEvent(this.events[i]);
    this.watchers.add(watcher);
    return () => { this.watchers.delete(watcher); };
  }

  /** Oldest revision a watch can resume from without going to storage. */
  get oldestRevision(): number {
    return this.oldestResumable;
  }

  private keysInOrder(): SortedKeys {
    this.sortedKeys ??= SortedKeys.from(this.objects.keys());
    this.insertsUnread = 0;
    return this.sortedKeys;
  }

  private apply(batch: WatchEvent[]): void {
    const events: CacheEvent[] = [];
    for (const e of batch) {
      const previous = this.objects.get(e.kv.key);
      let event: CacheEvent;
      if (e.type === 'put') {
        const expected = this.expected.size > 0 ? this.expected.get(e.kv.key) : undefined;
        if (expected && e.kv.modRevision >= expected.until) this.expected.delete(e.kv.key);
        const current = expected && expected.encoded.value === e.kv.value ? expected.encoded.at(e.kv.key, e.kv.modRevision) : decodeKv(e.kv);
        this.objects.set(e.kv.key, current);
        if (!previous && this.sortedKeys) {
          if (++this.insertsUnread > Math.max(MIN_INSERTS_KEPT, this.objects.size >>> 2)) this.sortedKeys = undefined;
          else this.sortedKeys.insert(e.kv.key);
        }
        event = { revision: e.kv.modRevision, current, previous, deleted: false };
      } else {
        this.objects.delete(e.kv.key);
        if (previous) this.sortedKeys?.remove(e.kv.key);
        const last = previous ?? decodeKv(e.prevKv);
        event = { revision: e.kv.modRevision, current: restampLazy(last, e.kv.modRevision), previous: last, deleted: true };
      }
      this.rev = event.revision;
      this.record(event);
      events.push(event);
    }
    this.dispatch(events);
    this.wake();
  }

  /** Fans a batch of events out, watcher by watcher (each gets the batch in order while its state is at hand).
   *  A watcher that throws is dropped and told so; the others and the cache go on. */
  private dispatch(events: CacheEvent[]): void {
    for (const w of this.watchers) {
      try {
        for (const event of events) w.onEvent(event);
      } catch (err) {
        this.watchers.delete(w);
        try { w.onClose(err as Error); } catch { /* the watcher is gone either way */ }
      }
    }
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

  /** Asks storage to report progress soon (true also for a store that reports after every write by itself);
   *  false when it cannot be asked, so that only this prefix's own events (and etcd's rare periodic reports)
   *  move the cache on: waiting for another prefix's revision is then in vain. */
  requestProgress(): boolean {
    const handle = this.handle;
    if (!handle?.requestProgress) return true;
    return handle.requestProgress();
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

  /** The storage watch ended: every watcher is closed (its client re-lists), and the cache re-lists too. */
  private fail(err: Error): void {
    this.failure = err;
    this.handle?.cancel();
    this.handle = undefined;
    const watchers = [...this.watchers];
    this.watchers.clear();
    for (const w of watchers) {
      try { w.onClose(err); } catch { /* closing is best effort */ }
    }
    if (!this.stopped) this.scheduleRestart();
  }

  private scheduleRestart(): void {
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.start().catch(() => { if (!this.stopped) this.scheduleRestart(); });
    }, this.restartDelayMs);
    this.restartTimer.unref();
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
    meta: last.meta,
    get object() { return get().object; },
    get json() { return get().json; },
  };
}

/** The first string after every string that starts with `prefix`. */
function prefixUpperBound(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
