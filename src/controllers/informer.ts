// What a controller watches: the events of some stores' watch caches, a resync of everything on start,
// after a dropped watch (the cache restarted) and every `resyncMs`, as Kubernetes' shared informers give.
import type { ResourceStore } from '../registry/store.ts';
import type { CacheEvent } from '../storage/cache.ts';

export interface InformerOptions {
  stores: ResourceStore[];
  onEvent(store: ResourceStore, event: CacheEvent): void;
  /** Look at every object again: on start, after a watch was dropped, and every resyncMs. */
  resync(): void;
  resyncMs: number;
  log(line: string): void;
  name: string;
}

const RESUBSCRIBE_MS = 500;

export function startInformer(opts: InformerOptions): { stop(): void } {
  let stopped = false;
  const unwatch = new Map<ResourceStore, () => void>();
  const retry = new Set<NodeJS.Timeout>();

  const subscribe = (store: ResourceStore): boolean => {
    try {
      unwatch.set(store, store.cache.watch(store.cache.revision, {
        onEvent: (e) => {
          try {
            opts.onEvent(store, e);
          } catch (err) {
            // A throwing handler would drop the watch: report and go on.
            opts.log(`${opts.name}: ${(err as Error).message}`);
          }
        },
        onClose: () => { unwatch.delete(store); later(store); },
      }));
      return true;
    } catch {
      return false;
    }
  };
  const later = (store: ResourceStore) => {
    if (stopped) return;
    const t = setTimeout(() => {
      retry.delete(t);
      if (stopped) return;
      if (subscribe(store)) safeResync(); else later(store);
    }, RESUBSCRIBE_MS);
    t.unref();
    retry.add(t);
  };
  const safeResync = () => {
    if (stopped) return;
    try { opts.resync(); } catch (err) { opts.log(`${opts.name}: ${(err as Error).message}`); }
  };

  for (const store of opts.stores) if (!subscribe(store)) later(store);
  const timer = setInterval(safeResync, opts.resyncMs);
  timer.unref();
  safeResync();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
      for (const t of retry) clearTimeout(t);
      for (const u of unwatch.values()) u();
      unwatch.clear();
    },
  };
}
