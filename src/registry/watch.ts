// Watch with Kubernetes' start semantics: synthetic ADDED events for unset and "0", exact resume for any
// other version (from the cache's window, else from storage history), streaming lists, selector
// transitions, and the revision bookmarks may carry. Live watches of the same selection share one
// follower of the cache (the selection is applied once per event, not once per watcher), and sinks that
// encode alike share a channel (one call per event for all of them).
import type { Storage, WatchHandle } from '../storage/interface.ts';
import { CompactedError } from '../storage/interface.ts';
import { decodeKv, restamp, TooOldResourceVersionError, CacheUnavailableError, type CachedObject, type CacheEvent, type CacheWatcher, type WatchCache } from '../storage/cache.ts';
import type { ResourceStore } from './store.ts';
import { buildSelection, parseSelectors, type Selection } from './selection.ts';
import { validateListOptions, requestedResourceVersion, syncCache, FRESHNESS_WAIT_MS, type ListOptions } from './list.ts';
import * as status from '../machinery/status.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchSink {
  event(type: WatchEventType, obj: CachedObject): void;
  /** All changes up to `resourceVersion` were sent; `initialEventsEnd` marks the end of a streamed list. */
  bookmark(resourceVersion: number, initialEventsEnd: boolean): void;
  /** An ERROR event; the stream ends after it. */
  error(err: status.StatusError): void;
  /** The watch ended from the server side (shutdown, cache failure): the client re-watches. */
  end(): void;
  /**
   * Sinks with the same key that follow the same selection get their live events through one channel,
   * opened for the first of them: `channel.event` is called once per event instead of `event` once per
   * sink. Events before the sink goes live (initial state, a resume's replay) still come to `event`.
   */
  readonly share?: { key: string; open(): WatchChannel };
}

/** Live events for a group of sinks (see WatchSink.share). */
export interface WatchChannel {
  event(type: WatchEventType, obj: CachedObject): void;
  /** `sink` gets this channel's events from now on (after everything it was sent before). */
  add(sink: WatchSink): void;
  /** `sink` gets no more of this channel's events. */
  remove(sink: WatchSink): void;
}

export interface WatchOptions extends ListOptions {
  allowWatchBookmarks?: boolean;
}

export interface ActiveWatch {
  /** The revision everything has been delivered up to (for bookmarks). */
  revision(): number;
  stop(): void;
}

export interface PreparedWatch {
  /**
   * Sends the initial state (if any) and starts following changes. A failure Kubernetes reports inside the
   * stream (a version too old or too new) goes to `sink.error`; one it answers as an HTTP error (the cache
   * re-initialising) is thrown.
   */
  start(sink: WatchSink): Promise<ActiveWatch>;
}

const STOPPED: ActiveWatch = { revision: () => 0, stop: () => {} };

/**
 * Checks a watch request as Kubernetes does before it starts streaming: selector syntax (400), ListOptions
 * (422), field labels and the single-object name (400), the resourceVersion (500 when not a version).
 * `name` is the object a single-object watch addresses in its path.
 */
export function prepareWatch(store: ResourceStore, storage: Storage, namespace: string, opts: WatchOptions, name = ''): PreparedWatch {
  const parsed = parseSelectors(opts.labelSelector, opts.fieldSelector);
  validateListOptions({ ...opts, watch: true });
  const selection = buildSelection(store.def, namespace, parsed, name);
  const rv = requestedResourceVersion(opts.resourceVersion);
  // Watches that select alike (the same selectors as written, the same name) can share a follower.
  const selectionKey = `${opts.labelSelector ?? ''}\n${opts.fieldSelector ?? ''}\n${name}`;
  return {
    start: async (sink) => {
      try {
        return await startWatch(store, storage, namespace, { selection, key: selectionKey }, rv, opts, sink);
      } catch (err) {
        if (err instanceof CacheUnavailableError) throw status.tooManyRequests('storage is (re)initializing', 1);
        if (!(err instanceof status.StatusError)) throw err;
        sink.error(err);
        return STOPPED;
      }
    },
  };
}

/** A selection and the key of what it selects (see Follower). */
interface KeyedSelection { selection: Selection; key: string }

async function startWatch(store: ResourceStore, storage: Storage, namespace: string, keyed: KeyedSelection, rv: number | undefined, opts: WatchOptions, sink: WatchSink): Promise<ActiveWatch> {
  const cache = store.cache;
  if (cache.failed) throw cache.failed;
  const prefix = store.listPrefix(namespace);
  const selection = keyed.selection;
  const deliver = selectionFilter(selection, sink);
  const initialEvents = opts.sendInitialEvents ?? (rv === undefined || rv === 0);

  if (initialEvents || rv === undefined || rv === 0) {
    // Where the stream starts: the store's current state for unset (a consistent read), any state for "0",
    // a state at least as new as N for a streamed list from N.
    if (rv === undefined) {
      const synced = await syncCache(store, storage);
      if (!synced && opts.sendInitialEvents) throw status.tooLargeResourceVersion(await storage.currentRevision(), cache.revision);
    } else if (rv > 0 && !(await cache.waitFor(rv, FRESHNESS_WAIT_MS))) {
      throw status.tooLargeResourceVersion(rv, cache.revision);
    }
    if (cache.failed) throw cache.failed;
    // The snapshot and the registration happen in one synchronous step: no event falls between them.
    const start = cache.revision;
    if (initialEvents) {
      for (const obj of initialState(store, namespace, selection, prefix)) sink.event('ADDED', obj);
      if (opts.sendInitialEvents && opts.allowWatchBookmarks) sink.bookmark(start, true);
    }
    return joinFollower(cache, prefix, keyed, sink);
  }

  // Start at exact: events strictly after rv.
  if (rv > cache.revision) {
    // A version the cache has not reached yet: the watch waits for the changes after it, as Kubernetes' does.
    return followCache(store, prefix, cache.revision, rv, deliver, sink);
  }
  if (rv >= cache.oldestRevision) {
    // The kept events after rv first, then live with the others that select alike.
    replayCache(cache, prefix, rv, deliver);
    return joinFollower(cache, prefix, keyed, sink);
  }
  return followStorage(storage, prefix, rv, deliver, sink);
}

/** The objects a watch starts with, in key order. */
function* initialState(store: ResourceStore, namespace: string, selection: Selection, prefix: string): Generator<CachedObject> {
  if (selection.name !== undefined && (!store.def.namespaced || namespace)) {
    const obj = store.cache.get(store.key(namespace, selection.name));
    if (obj && selection.matches(obj)) yield obj;
    return;
  }
  for (const obj of store.cache.scan(prefix)) if (selection.matches(obj)) yield obj;
}

/** Sends the kept events after `after` (up to the cache's revision), without registering. */
function replayCache(cache: WatchCache, prefix: string, after: number, deliver: (e: CacheEvent) => void): void {
  try {
    const unregister = cache.watch(after, { onEvent: (e) => { if (e.current.key.startsWith(prefix)) deliver(e); }, onClose: () => {} });
    unregister();
  } catch (err) {
    if (err instanceof TooOldResourceVersionError) throw status.expired(err.message);
    throw err;
  }
}

/** Live from the cache's current revision with the other watches of the same selection. */
function joinFollower(cache: WatchCache, prefix: string, keyed: KeyedSelection, sink: WatchSink): ActiveWatch {
  let byKey = followers.get(cache);
  if (!byKey) followers.set(cache, byKey = new Map());
  const key = `${prefix}\n${keyed.key}`;
  let follower = byKey.get(key);
  if (!follower) {
    const created = new Follower(cache, prefix, keyed.selection, () => { if (byKey.get(key) === created) byKey.delete(key); });
    byKey.set(key, follower = created);
  }
  const joined = follower;
  joined.add(sink);
  // The follower has had every event up to the cache's revision (the cache dispatches as it applies).
  return { revision: () => cache.revision, stop: () => joined.remove(sink) };
}

/** The followers of each cache, by prefix and selection. */
const followers = new WeakMap<WatchCache, Map<string, Follower>>();

/**
 * The live watches of one cache with the same prefix and selection, registered with the cache as one watcher
 * from the revision it was created at: each event is matched against the selection once, then handed to
 * each channel once and to each sink without a channel. A sink or channel that throws is dropped (its
 * watches end) and the others go on, as the cache does with its own watchers.
 */
class Follower {
  private readonly channels = new Map<string, { channel: WatchChannel; sinks: Set<WatchSink> }>();
  private readonly lone = new Set<WatchSink>();
  private readonly unregister: () => void;
  private readonly prefix: string;
  private readonly selection: Selection;
  private readonly onEmpty: () => void;

  constructor(cache: WatchCache, prefix: string, selection: Selection, onEmpty: () => void) {
    this.prefix = prefix;
    this.selection = selection;
    this.onEmpty = onEmpty;
    this.unregister = cache.watch(cache.revision, { onEvent: (e) => this.onEvent(e), onClose: () => this.close() });
  }

  add(sink: WatchSink): void {
    if (!sink.share) { this.lone.add(sink); return; }
    let entry = this.channels.get(sink.share.key);
    if (!entry) this.channels.set(sink.share.key, entry = { channel: sink.share.open(), sinks: new Set() });
    entry.sinks.add(sink);
    entry.channel.add(sink);
  }

  remove(sink: WatchSink): void {
    const entry = sink.share && this.channels.get(sink.share.key);
    if (entry?.sinks.delete(sink)) {
      entry.channel.remove(sink);
      if (entry.sinks.size === 0) this.channels.delete(sink.share!.key);
    } else {
      this.lone.delete(sink);
    }
    if (this.channels.size === 0 && this.lone.size === 0) {
      this.unregister();
      this.onEmpty();
    }
  }

  private onEvent(e: CacheEvent): void {
    if (e.current.key.startsWith(this.prefix)) selectEvent(this.selection, e, this.emit);
  }

  private readonly emit = (type: WatchEventType, obj: CachedObject): void => {
    for (const { channel, sinks } of this.channels.values()) {
      try {
        channel.event(type, obj);
      } catch {
        for (const sink of [...sinks]) this.drop(sink);
      }
    }
    for (const sink of this.lone) {
      try {
        sink.event(type, obj);
      } catch {
        this.drop(sink);
      }
    }
  };

  private drop(sink: WatchSink): void {
    this.remove(sink);
    try { sink.end(); } catch { /* the watch is gone either way */ }
  }

  /** The cache dropped its watchers (storage failure, shutdown): every watch ends, its client re-watches. */
  private close(): void {
    const sinks = [...this.lone, ...[...this.channels.values()].flatMap((c) => [...c.sinks])];
    this.lone.clear();
    this.channels.clear();
    this.onEmpty();
    for (const sink of sinks) {
      try { sink.end(); } catch { /* closing is best effort */ }
    }
  }
}

/** Registers with the cache from `from`, delivering only events after `after`. */
function followCache(store: ResourceStore, prefix: string, from: number, after: number, deliver: (e: CacheEvent) => void, sink: WatchSink): ActiveWatch {
  const cache = store.cache;
  let sentUpTo = after;
  const watcher: CacheWatcher = {
    onEvent(e) {
      if (e.revision <= after) return;
      if (e.current.key.startsWith(prefix)) deliver(e);
      sentUpTo = e.revision;
    },
    onClose: () => sink.end(),
  };
  try {
    const unregister = cache.watch(from, watcher);
    return { revision: () => Math.max(sentUpTo, cache.revision), stop: unregister };
  } catch (err) {
    if (err instanceof TooOldResourceVersionError) throw status.expired(err.message);
    throw err;
  }
}

/** Resume from a revision older than the cache's window: replay storage history, then follow it. */
function followStorage(storage: Storage, prefix: string, rv: number, deliver: (e: CacheEvent) => void, sink: WatchSink): ActiveWatch {
  let sentUpTo = rv;
  const handle: WatchHandle = storage.watch(prefix, rv, {
    onEvents(events) {
      for (const e of events) {
        if (e.type === 'put') {
          const current = decodeKv(e.kv);
          const previous = e.prevKv ? decodeKv(e.prevKv) : undefined;
          deliver({ revision: e.kv.modRevision, current, previous, deleted: false });
        } else {
          const previous = decodeKv(e.prevKv);
          deliver({ revision: e.kv.modRevision, current: restamp(previous, e.kv.modRevision), previous, deleted: true });
        }
        sentUpTo = e.kv.modRevision;
      }
    },
    onProgress(revision) { if (revision > sentUpTo) sentUpTo = revision; },
    onError(err) {
      if (err instanceof CompactedError) sink.error(status.expired(`too old resource version: ${rv} (${err.compacted})`));
      else sink.end();
    },
  });
  return { revision: () => sentUpTo, stop: () => handle.cancel() };
}

/**
 * Turns cache events into what a selective watcher sees: entering the selection is ADDED, staying is
 * MODIFIED, leaving is DELETED with the previous state at the event's revision, a real delete is DELETED.
 */
function selectionFilter(selection: Selection, sink: WatchSink): (e: CacheEvent) => void {
  const emit = (type: WatchEventType, obj: CachedObject) => sink.event(type, obj);
  return (e) => selectEvent(selection, e, emit);
}

function selectEvent(selection: Selection, e: CacheEvent, emit: (type: WatchEventType, obj: CachedObject) => void): void {
  if (selection.name !== undefined && e.current.name !== selection.name) return;
  const before = e.previous ? selection.matches(e.previous) : false;
  if (e.deleted) {
    if (before) emit('DELETED', e.current);
    return;
  }
  const now = selection.matches(e.current);
  if (now) emit(before ? 'MODIFIED' : 'ADDED', e.current);
  else if (before) emit('DELETED', restamp(e.previous!, e.revision));
}
