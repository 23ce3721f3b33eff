// Watch with Kubernetes' start semantics: synthetic ADDED events for unset and "0", exact resume for any
// other version (from the cache's window, else from storage history), selector transitions, bookmarks.
import type { Storage, WatchHandle } from '../storage/interface.ts';
import { CompactedError } from '../storage/interface.ts';
import { decodeKv, TooOldResourceVersionError, type CachedObject, type CacheEvent } from '../storage/cache.ts';
import type { ResourceStore } from './store.ts';
import { buildSelection } from './selection.ts';
import { validateListOptions, parseResourceVersion, syncToStorage, FRESHNESS_WAIT_MS, type ListOptions } from './list.ts';
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

/** Starts a watch; resolves once the initial state (if any) has been sent. */
export async function startWatch(store: ResourceStore, storage: Storage, namespace: string, opts: WatchOptions, sink: WatchSink): Promise<ActiveWatch> {
  validateListOptions({ ...opts, watch: true });
  const selection = buildSelection(store.def, namespace, opts.labelSelector, opts.fieldSelector);
  const rvText = opts.resourceVersion ?? '';
  const rv = rvText ? parseResourceVersion(rvText)! : undefined;
  const cache = store.cache;
  const prefix = store.listPrefix(namespace);

  const deliver = (e: CacheEvent) => {
    const now = selection.matches(e.current) && !e.deleted;
    const before = e.previous ? selection.matches(e.previous) : false;
    if (e.deleted) { if (before) sink.event('DELETED', e.current); return; }
    if (now && before) sink.event('MODIFIED', e.current);
    else if (now) sink.event('ADDED', e.current);
    else if (before) sink.event('DELETED', stampedPrevious(e));
  };

  let sentUpTo = 0;
  const watcher = {
    onEvent: (e: CacheEvent) => { if (e.current.key.startsWith(prefix)) deliver(e); sentUpTo = e.revision; },
    onClose: () => sink.end(),
  };

  const initial = rv === undefined || rv === 0 || opts.sendInitialEvents;
  if (initial) {
    if (rv === undefined) await syncToStorage(store, storage);
    else if (rv > 0 && !(await cache.waitFor(rv, FRESHNESS_WAIT_MS))) throw status.tooLargeResourceVersion(rv, cache.revision);
    // Snapshot and registration happen in one turn: no event can fall between them.
    const start = cache.revision;
    for (const obj of cache.list(prefix)) if (selection.matches(obj)) sink.event('ADDED', obj);
    if (opts.sendInitialEvents && opts.allowWatchBookmarks) sink.bookmark(start, true);
    sentUpTo = start;
    const unregister = cache.watch(start, watcher);
    return { revision: () => Math.max(sentUpTo, cache.revision), stop: unregister };
  }

  // Start at exact: events strictly after rv.
  if (rv! > cache.revision && !(await cache.waitFor(rv!, FRESHNESS_WAIT_MS))) throw status.tooLargeResourceVersion(rv!, cache.revision);
  sentUpTo = rv!;
  try {
    const unregister = cache.watch(rv!, watcher);
    return { revision: () => Math.max(sentUpTo, cache.revision), stop: unregister };
  } catch (err) {
    if (!(err instanceof TooOldResourceVersionError)) throw err;
  }
  return watchFromStorage(storage, prefix, rv!, deliver, sink);
}

/** Resume from a revision older than the cache's window: replay storage history, then follow it. */
function watchFromStorage(storage: Storage, prefix: string, rv: number, deliver: (e: CacheEvent) => void, sink: WatchSink): ActiveWatch {
  const last = new Map<string, CachedObject>();
  let sentUpTo = rv;
  let handle: WatchHandle | undefined;
  handle = storage.watch(prefix, rv, {
    onEvents(events) {
      for (const e of events) {
        const previous = last.get(e.kv.key) ?? (e.prevKv ? decodeKv(e.prevKv) : undefined);
        if (e.type === 'put') {
          const current = decodeKv(e.kv);
          last.set(e.kv.key, current);
          deliver({ revision: e.kv.modRevision, current, previous, deleted: false });
        } else {
          last.delete(e.kv.key);
          const prev = previous ?? decodeKv(e.prevKv);
          deliver({ revision: e.kv.modRevision, current: decodeKv({ ...e.prevKv, modRevision: e.kv.modRevision }), previous: prev, deleted: true });
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
  return { revision: () => sentUpTo, stop: () => handle?.cancel() };
}

/** An object that left the selection is reported DELETED with its previous state at the event's revision. */
function stampedPrevious(e: CacheEvent): CachedObject {
  const prev = e.previous!;
  const object = structuredClone(prev.object);
  object.metadata.resourceVersion = String(e.revision);
  return { ...prev, modRevision: e.revision, object, json: JSON.stringify(object) };
}
