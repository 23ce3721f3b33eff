// Periodic compaction: keeps at least `retentionMs` of history and forgets the rest.
// Every interval it notes the current revision and compacts to the newest revision it noted at least one
// retention ago, so any revision younger than the retention is still readable and watchable.

import type { Storage } from './interface.ts';

export interface CompactorOptions {
  /** How much history to keep (Kubernetes' default compaction interval is 5 minutes). */
  retentionMs: number;
  /** How often to compact; defaults to the retention, but never less than a second. */
  intervalMs?: number;
  /** Told about a failed compaction; the compactor carries on at the next interval. */
  onError?: (err: Error) => void;
  /** Told after each successful compaction. */
  onCompacted?: (revision: number) => void;
}

export interface Compactor {
  stop(): void;
}

interface Sample {
  at: number;
  revision: number;
}

/** The interval used: the one asked for, else the retention but at least a second. */
export function compactorIntervalMs(opts: Pick<CompactorOptions, 'retentionMs' | 'intervalMs'>): number {
  return opts.intervalMs ?? Math.max(opts.retentionMs, 1000);
}

export function startCompactor(storage: Storage, opts: CompactorOptions): Compactor {
  const intervalMs = compactorIntervalMs(opts);
  const samples: Sample[] = [];
  let running = false;
  let stopped = false;

  const report = (err: unknown) => {
    if (!stopped) opts.onError?.(err as Error);
  };

  async function tick(): Promise<void> {
    if (running || stopped) return;
    running = true;
    try {
      const now = Date.now();
      samples.push({ at: now, revision: await storage.currentRevision() });
      // The newest sample old enough to be forgotten; drop the ones before it.
      let due: Sample | undefined;
      while (samples.length > 0 && samples[0]!.at <= now - opts.retentionMs) due = samples.shift();
      if (!due) return;
      if (due.revision > (await storage.compactedRevision()) && !stopped) {
        await storage.compact(due.revision);
        opts.onCompacted?.(due.revision);
      }
    } catch (err) {
      report(err);
    } finally {
      running = false;
    }
  }

  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  // The compactor alone never keeps the process alive.
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
