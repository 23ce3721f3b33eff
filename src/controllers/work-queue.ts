// A controller's work queue: keys to reconcile, each held once however often it is added, handled by a
// few workers but never by two at once; a key whose handling fails comes back after a growing delay
// (Kubernetes' rate-limited workqueue, in miniature).
export interface WorkQueueOptions {
  /** Name used in log lines. */
  name: string;
  log(line: string): void;
  /** How many keys are handled at the same time (default 1). */
  workers?: number;
  /** First retry delay after a failure (default 50 ms); it doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
}

/** Thrown by a handler to be called again later for the key, without an error logged (a request that
 *  may become acceptable, as Kubernetes' ignorable errors). */
export class Requeue extends Error {}

export class WorkQueue {
  private readonly handler: (key: string) => Promise<void>;
  private readonly opts: WorkQueueOptions;
  private readonly pending = new Set<string>();
  private readonly active = new Set<string>();
  /** Keys added again while being handled: handled once more afterwards. */
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(handler: (key: string) => Promise<void>, opts: WorkQueueOptions) {
    this.handler = handler;
    this.opts = opts;
  }

  add(key: string): void {
    if (this.stopped) return;
    if (this.active.has(key)) { this.dirty.add(key); return; }
    this.pending.add(key);
    this.pump();
  }

  /** Adds `key` after `ms` (a requeue for a later look). */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => { this.timers.delete(timer); this.add(key); }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  get length(): number {
    return this.pending.size + this.active.size;
  }

  /** Resolves once nothing is pending or being handled (retries scheduled for later do not count). */
  idle(): Promise<void> {
    if (this.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
    this.dirty.clear();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wakeIdle();
  }

  private pump(): void {
    const workers = this.opts.workers ?? 1;
    while (!this.stopped && this.active.size < workers && this.pending.size) {
      const [key] = this.pending;
      this.pending.delete(key);
      this.active.add(key);
      void this.run(key);
    }
  }

  private async run(key: string): Promise<void> {
    try {
      await this.handler(key);
      this.failures.delete(key);
    } catch (err) {
      const n = (this.failures.get(key) ?? 0) + 1;
      this.failures.set(key, n);
      if (!(err instanceof Requeue)) this.opts.log(`${this.opts.name}: ${key}: ${(err as Error).message}`);
      const delay = Math.min((this.opts.retryMs ?? 50) * 2 ** (n - 1), this.opts.maxRetryMs ?? 30_000);
      this.addAfter(key, delay);
    } finally {
      this.active.delete(key);
      if (this.dirty.delete(key)) this.pending.add(key);
      this.pump();
      if (this.length === 0) this.wakeIdle();
    }
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
