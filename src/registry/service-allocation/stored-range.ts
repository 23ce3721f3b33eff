// A range's allocation bitmap kept in storage under a key of its own, as Kubernetes keeps a RangeAllocation
// at /registry/ranges/serviceips and /registry/ranges/servicenodeports. Every change is a
// compare-and-swap on the key's revision, so servers sharing one etcd never hand out the same value twice.
import { type KeyValue, type Storage, KeyExistsError, KeyNotFoundError, ModRevisionMismatchError } from '../../storage/interface.ts';

export const SERVICE_IPS_KEY = '/registry/ranges/serviceips';
export const SERVICE_NODE_PORTS_KEY = '/registry/ranges/servicenodeports';

/** Which offsets of a range are taken. */
export class Bitmap {
  readonly size: number;
  private readonly bytes: Uint8Array;
  /** Whether set or clear changed anything since the bitmap was read. */
  changed = false;

  constructor(size: number, bytes?: Uint8Array) {
    this.size = size;
    this.bytes = new Uint8Array(Math.ceil(size / 8));
    if (bytes) this.bytes.set(bytes.subarray(0, this.bytes.length));
  }

  has(offset: number): boolean {
    return offset >= 0 && offset < this.size && (this.bytes[offset >> 3] & (1 << (offset & 7))) !== 0;
  }

  set(offset: number): void {
    if (this.has(offset) || offset < 0 || offset >= this.size) return;
    this.bytes[offset >> 3] |= 1 << (offset & 7);
    this.changed = true;
  }

  clear(offset: number): void {
    if (!this.has(offset)) return;
    this.bytes[offset >> 3] &= ~(1 << (offset & 7));
    this.changed = true;
  }

  count(): number {
    let n = 0;
    for (let i = 0; i < this.size; i++) if (this.has(i)) n++;
    return n;
  }

  copy(): Bitmap {
    return new Bitmap(this.size, this.bytes);
  }

  /** The big-endian bytes of the integer whose bit i is offset i (Go's big.Int.Bytes, as Kubernetes stores it). */
  toData(): string {
    let last = this.bytes.length - 1;
    while (last >= 0 && this.bytes[last] === 0) last--;
    const out = new Uint8Array(last + 1);
    for (let i = 0; i <= last; i++) out[i] = this.bytes[last - i];
    return Buffer.from(out).toString('base64');
  }

  static fromData(size: number, data: string): Bitmap {
    const be = Buffer.from(data, 'base64');
    const le = new Uint8Array(be.length);
    for (let i = 0; i < be.length; i++) le[i] = be[be.length - 1 - i];
    return new Bitmap(size, le);
  }
}

/** The stored RangeAllocation object. */
interface RangeAllocation {
  kind: 'RangeAllocation';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  range: string;
  data: string;
}

export class StoredRange {
  readonly key: string;
  /** The range as the stored object names it (`10.0.0.0/24`, `30000-32767`). */
  readonly range: string;
  readonly size: number;
  private readonly storage: Storage;
  /** Changes made by this process run one at a time: they would only lose swaps to each other. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(storage: Storage, key: string, range: string, size: number) {
    this.storage = storage;
    this.key = key;
    this.range = range;
    this.size = size;
  }

  /** The bitmap as stored now (empty when absent, or when it was written for another range). */
  async read(): Promise<Bitmap> {
    return this.decode((await this.storage.get(this.key)).kv).bitmap;
  }

  /** Whether the stored object describes this range (false when absent or written for another one). */
  async matchesRange(): Promise<boolean> {
    return this.decode((await this.storage.get(this.key)).kv).matches;
  }

  /**
   * Runs `change` on the stored bitmap and writes it back when it changed, starting over from the stored one
   * when another writer got there first. `change` may throw to leave the bitmap as it was; it may run more
   * than once, each time on a fresh bitmap. With `rebuild`, change starts from an empty bitmap.
   */
  update<T>(change: (bits: Bitmap) => T, rebuild = false): Promise<T> {
    const run = this.queue.then(() => this.swap(change, rebuild));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async swap<T>(change: (bits: Bitmap) => T, rebuild: boolean): Promise<T> {
    for (;;) {
      const { kv } = await this.storage.get(this.key);
      const decoded = this.decode(kv);
      const bits = rebuild ? new Bitmap(this.size) : decoded.bitmap;
      const result = change(bits);
      if (!bits.changed && !rebuild && decoded.matches) return result;
      const value = JSON.stringify(this.encode(bits));
      try {
        if (kv) await this.storage.update(this.key, value, kv.modRevision);
        else await this.storage.create(this.key, value);
        return result;
      } catch (err) {
        if (err instanceof ModRevisionMismatchError || err instanceof KeyExistsError || err instanceof KeyNotFoundError) continue;
        throw err;
      }
    }
  }

  private decode(kv: KeyValue | undefined): { bitmap: Bitmap; matches: boolean } {
    if (!kv) return { bitmap: new Bitmap(this.size), matches: false };
    const stored = JSON.parse(kv.value) as Partial<RangeAllocation>;
    if (stored.range !== this.range) return { bitmap: new Bitmap(this.size), matches: false };
    return { bitmap: Bitmap.fromData(this.size, stored.data ?? ''), matches: true };
  }

  private encode(bits: Bitmap): RangeAllocation {
    return { kind: 'RangeAllocation', apiVersion: 'v1', metadata: { creationTimestamp: null }, range: this.range, data: bits.toData() };
  }
}

/**
 * Kubernetes' random scan with an offset: values below `offset` are kept for those who ask for a
 * particular one, so a free value is first looked for above it (from a random start, wrapping), then below.
 */
export function findFree(bits: Bitmap, offset: number, random: () => number = Math.random): number | undefined {
  const scan = (from: number, to: number): number | undefined => {
    const span = to - from;
    if (span <= 0) return undefined;
    const start = Math.floor(random() * span);
    for (let i = 0; i < span; i++) {
      const candidate = from + ((start + i) % span);
      if (!bits.has(candidate)) return candidate;
    }
    return undefined;
  };
  const cut = Math.min(offset, bits.size);
  return scan(cut, bits.size) ?? scan(0, cut);
}

/** The reserved lower band of an IP range: size/16, at least 16, at most 256 (ipallocator). */
export function ipRangeOffset(size: number): number {
  return size <= 16 ? 0 : Math.max(16, Math.min(256, Math.floor(size / 16)));
}

/** The reserved lower band of a port range: size/32, at least 16, at most 128 (portallocator). */
export function portRangeOffset(size: number): number {
  return size <= 16 ? 0 : Math.max(16, Math.min(128, Math.floor(size / 32)));
}
