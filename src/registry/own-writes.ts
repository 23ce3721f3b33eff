// This server's own latest write of each object, until its watch cache has caught up with it. Over etcd the
// cache follows a watch, so it trails a write whose answer the client already holds; a client updating
// what it just wrote (its next PUT or PATCH names the new resourceVersion) would find the cache stale and
// have storage read again before every write. Starting from the write itself saves that read. Storage's
// compare-and-swap still decides: a write made meanwhile elsewhere costs a retry from storage, never a
// wrong answer.
import type { CachedObject, WatchCache } from '../storage/cache.ts';

/** Objects written but not yet seen by the cache, at most this many (a burst of writes to many objects). */
const MAX_REMEMBERED = 10_000;

export class OwnWrites {
  readonly #cache: WatchCache;
  readonly #writes = new Map<string, CachedObject>();

  constructor(cache: WatchCache) {
    this.#cache = cache;
  }

  /** The newest this server knows of `key`: its own write while the cache has not reached it, else the cache's. */
  latest(key: string): CachedObject | undefined {
    const own = this.#writes.get(key);
    if (own === undefined) return this.#cache.get(key);
    if (this.#cache.revision >= own.modRevision) {
      this.#writes.delete(key);
      return this.#cache.get(key);
    }
    return own;
  }

  record(written: CachedObject): void {
    // Writes the cache has reached since are dropped here, oldest first, so they are not held until their
    // key is read again.
    for (const [key, own] of this.#writes) {
      if (own.modRevision > this.#cache.revision) break;
      this.#writes.delete(key);
    }
    if (this.#cache.revision >= written.modRevision) return;
    this.#writes.delete(written.key);
    this.#writes.set(written.key, written);
    if (this.#writes.size > MAX_REMEMBERED) this.#writes.delete(this.#writes.keys().next().value!);
  }

  get size(): number {
    return this.#writes.size;
  }
}
