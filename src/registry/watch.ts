// Watch with Kubernetes' start semantics: synthetic ADDED events for unset and "0", exact resume for any
// other version (from the cache's window, else from storage history), streaming lists, selector
// transitions, and the revision bookmarks may carry.
import type { Storage, WatchHandle } from '../storage/interface.ts';
import { CompactedError } from '../storage/interface.ts';
import { decodeKv, restamp, TooOldResourceVersionError, CacheUnavailableError, type CachedObject, type CacheEvent, type CacheWatcher } from '../storage/cache.ts';
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
  return {
    start: async (sink) => {
      try {
        return await startWatch(store, storage, namespace, selection, rv, opts, sink);
      } catch (err) {
        if (err instanceof CacheUnavailableError) throw status.tooManyRequests('storage is (re)initializing', 1);
        if (!(err instanceof status.StatusError)) throw err;
        sink.error(err);
        return STOPPED;
      }
    },
  };
}

async function startWatch(store: ResourceStore, storage: Storage, namespace: string, selection: Selection, rv: number | undefined, opts: WatchOptions, sink: WatchSink): Promise<ActiveWatch> {
  const cache = store.cache;
  if (cache.failed) throw cache.failed;
  const prefix = store.listPrefix(namespace);
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
    return followCache(store, prefix, start, start, deliver, sink);
  }

  // Start at exact: events strictly after rv.
  if (rv >= cache.oldestRevision || rv > cache.revision) {
    // A version the cache has not reached yet: the watch waits for the changes after it, as Kubernetes' does.
    return followCache(store, prefix, Math.min(rv, cache.revision), rv, deliver, sink);
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
  return (e) => {
    if (selection.name !== undefined && e.current.name !== selection.name) return;
    const before = e.previous ? selection.matches(e.previous) : false;
    if (e.deleted) {
      if (before) sink.event('DELETED', e.current);
      return;
    }
    const now = selection.matches(e.current);
    if (now) sink.event(before ? 'MODIFIED' : 'ADDED', e.current);
    else if (before) sink.event('DELETED', restamp(e.previous!, e.revision));
  };
}
