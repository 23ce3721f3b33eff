// Gives memory back to the system when the server falls idle. V8 grows its heap, the young generation most
// of all, to what a burst of work needed (the start, a large list, a burst of writes) and keeps it while
// nothing allocates: the young generation alone stays at several times the live data. A memory-reducing
// full collection once the event loop has been quiet for a moment returns it. Only the process's owner
// (`capstan serve`) does this; an embedding program's heap is its own business.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export type CollectGarbage = (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

export interface MemoryTrimOptions {
  /** How often the loop's load is looked at (default 200 ms). */
  intervalMs?: number;
  /** The collector: `gc` of a process started with --expose-gc (the default). */
  gc?: CollectGarbage;
  /** Less unused heap than this is not worth a full collection (default 2 MiB: at 8 MiB, a start that left
   *  4-8 MiB unused kept it, and the idle server held about 5 MB more in one start of three). */
  minSlackBytes?: number;
  /** Called after each trim with the heap sizes before and after (for logs and tests). */
  onTrim?(before: number, after: number): void;
  /** The heap's sizes (default: V8's heap statistics; tests give their own). */
  heapSizes?: () => HeapSizes;
}

export interface HeapSizes { total: number; used: number }

const v8HeapSizes = (): HeapSizes => {
  const stats = getHeapStatistics();
  return { total: stats.total_heap_size, used: stats.used_heap_size };
};

/** The loop counts as idle below this share of time spent running callbacks. */
const IDLE_UTILIZATION = 0.05;

/** Starts trimming; undefined when no collector is available (the process was not started with --expose-gc). */
export function startMemoryTrim(opts: MemoryTrimOptions = {}): { stop(): void } | undefined {
  const gc = opts.gc ?? (globalThis as { gc?: CollectGarbage }).gc;
  const minSlack = opts.minSlackBytes ?? 2 * 1024 * 1024;
  const heapSizes = opts.heapSizes ?? v8HeapSizes;
  if (typeof gc !== 'function') return undefined;
  // What a collection leaves unused (fragmented pages) it cannot give back; the heap must grow past its
  // size after the last trim before another is worth it. Without this an idle server whose collection left
  // more than minSlack unused collected five times a second, forever.
  let sizeAfterTrim: number | undefined;
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy > IDLE_UTILIZATION) return;
    const before = heapSizes();
    if (before.total - before.used < minSlack) return;
    if (sizeAfterTrim !== undefined) {
      sizeAfterTrim = Math.min(sizeAfterTrim, before.total);
      if (before.total - sizeAfterTrim < Math.max(minSlack, 1)) return;
    }
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    // The collection itself must not count as load at the next look.
    last = performance.eventLoopUtilization();
    sizeAfterTrim = heapSizes().total;
    opts.onTrim?.(before.total, sizeAfterTrim);
  }, opts.intervalMs ?? 200);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
