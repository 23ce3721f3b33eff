// For tests of what sits on a store: the same store, as a remote one behaves, whose watches deliver only
// when told to, so that a cache on it trails the writes already answered.
import type { Storage, WatchListener } from './interface.ts';

/** `storage` with its watch deliveries held back until `release()`, and no revisionNow (a remote store
 *  cannot tell its caches the revision of its answers). */
export function withHeldWatches(storage: Storage): { store: Storage; release(): void } {
  const held: Array<() => void> = [];
  const store = new Proxy(storage, {
    get: (target, prop) => {
      if (prop === 'revisionNow') return undefined;
      if (prop === 'watch') {
        return (prefix: string, after: number, listener: WatchListener) => target.watch(prefix, after, {
          onEvents: (events) => { held.push(() => listener.onEvents(events)); },
          onProgress: (revision) => { held.push(() => listener.onProgress(revision)); },
          onError: (err) => listener.onError(err),
        });
      }
      const value = (target as unknown as Record<string | symbol, unknown>)[prop];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, release: () => { for (const deliver of held.splice(0)) deliver(); } };
}
