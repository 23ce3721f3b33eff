// Keys in sorted order, kept as a list of sorted chunks so that an insert or a removal moves at most one
// chunk's worth of entries (a single sorted array moves half the keys on every insert, which made creates
// slower the more objects a resource held). Inserts wait in a set until the order is next read, so a run
// of creates that nobody lists costs nothing here.

const MAX_CHUNK = 1024;

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Index of the first entry of `keys` that is >= key. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0, hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

export class SortedKeys {
  /** Non-empty sorted chunks, each after the one before it (empty list when there is no key). */
  private chunks: string[][] = [];
  private count = 0;
  /** Keys inserted since the order was last read (some may be in the chunks already). */
  private readonly pending = new Set<string>();

  /** The keys of `keys` (in any order, without duplicates) in order. */
  static from(keys: Iterable<string>): SortedKeys {
    const all = [...keys].sort(compare);
    const s = new SortedKeys();
    for (let i = 0; i < all.length; i += MAX_CHUNK / 2) s.chunks.push(all.slice(i, i + MAX_CHUNK / 2));
    s.count = all.length;
    return s;
  }

  get size(): number {
    this.settle();
    return this.count;
  }

  /** Adds `key` unless it is there already. */
  insert(key: string): void {
    this.pending.add(key);
  }

  /** Puts the pending keys in their places. */
  private settle(): void {
    if (this.pending.size === 0) return;
    const keys = [...this.pending].sort(compare);
    this.pending.clear();
    for (const key of keys) this.place(key);
  }

  private place(key: string): void {
    const c = this.chunkFor(key);
    if (c < 0) {
      this.chunks.push([key]);
      this.count++;
      return;
    }
    const chunk = this.chunks[c];
    const i = lowerBound(chunk, key);
    if (chunk[i] === key) return;
    chunk.splice(i, 0, key);
    this.count++;
    if (chunk.length > MAX_CHUNK) this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  /** Removes `key` if it is there. */
  remove(key: string): void {
    this.pending.delete(key);
    const c = this.chunkFor(key);
    if (c < 0) return;
    const chunk = this.chunks[c];
    const i = lowerBound(chunk, key);
    if (chunk[i] !== key) return;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(c, 1);
  }

  /** Position (0-based, over all keys) of the first key >= `key`; `size` when there is none. */
  lowerBound(key: string): number {
    this.settle();
    const c = this.chunkFor(key);
    if (c < 0) return this.count;
    let before = 0;
    for (let i = 0; i < c; i++) before += this.chunks[i].length;
    return before + lowerBound(this.chunks[c], key);
  }

  /** The keys from position `index` on, in order. Lazy; the caller must not change the set meanwhile. */
  *from(index: number): Generator<string> {
    this.settle();
    let c = 0;
    while (c < this.chunks.length && index >= this.chunks[c].length) index -= this.chunks[c++].length;
    for (; c < this.chunks.length; c++, index = 0) {
      const chunk = this.chunks[c];
      for (let i = index; i < chunk.length; i++) yield chunk[i];
    }
  }

  /** The chunk `key` belongs in: the first whose last key is >= key (the last chunk for a key after all), -1 when empty. */
  private chunkFor(key: string): number {
    const n = this.chunks.length;
    if (n === 0) return -1;
    let lo = 0, hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (chunk[chunk.length - 1] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
  }
}
