// A write decided on the cached object may race another writer (a server sharing the store, the cache not
// yet having seen a create): the store then answers 409 (AlreadyExists, Conflict) or 404. Such a write is
// decided again once the cache has seen the next revision, a few times at most.
import { isConflict, isNotFound } from '../machinery/status.ts';
import type { ResourceStore } from './store.ts';

const MAX_ATTEMPTS = 5;
/** How long a retry waits for the cache to see another write. */
const CACHE_WAIT_MS = 200;

export async function retryWhenRaced(store: ResourceStore, attempt: () => Promise<void>): Promise<void> {
  for (let n = 1; ; n++) {
    try {
      await attempt();
      return;
    } catch (err) {
      if (!(isConflict(err) || isNotFound(err)) || n >= MAX_ATTEMPTS) throw err;
      await store.cache.waitFor(store.cache.revision + 1, CACHE_WAIT_MS);
    }
  }
}
