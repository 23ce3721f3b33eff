// Median, min and max of repeated runs, and percentiles of a millisecond histogram.

export interface Summary { median: number; min: number; max: number; n: number }

export function summarize(values: number[]): Summary {
  if (values.length === 0) throw new Error('summarize: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

/** Histogram with one bucket per millisecond; the last bucket holds everything at or above it. */
export class MsHistogram {
  readonly buckets: Uint32Array;
  count = 0;
  constructor(maxMs = 60_000) { this.buckets = new Uint32Array(maxMs + 1); }

  record(ms: number): void {
    const i = ms < 0 ? 0 : ms >= this.buckets.length ? this.buckets.length - 1 : Math.floor(ms);
    this.buckets[i]++;
    this.count++;
  }

  /** Sparse form [ms, count][] for sending between processes. */
  toSparse(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < this.buckets.length; i++) if (this.buckets[i] > 0) out.push([i, this.buckets[i]]);
    return out;
  }

  addSparse(sparse: Array<[number, number]>): void {
    for (const [ms, n] of sparse) { this.buckets[Math.min(ms, this.buckets.length - 1)] += n; this.count += n; }
  }

  /** The smallest ms such that at least p (0..1) of the samples are at or below it. */
  percentile(p: number): number | null {
    if (this.count === 0) return null;
    const rank = Math.ceil(p * this.count);
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i];
      if (seen >= rank && seen > 0) return i;
    }
    return this.buckets.length - 1;
  }
}
