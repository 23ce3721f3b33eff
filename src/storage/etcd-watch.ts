// One storage watch on one etcd watch stream.
//
// The stream watches the prefix's key range from afterRevision+1 with previous values. When the stream
// is lost (member stopped, connection cut) it is opened again, on any member, from the revision after
// the last one delivered, so nothing is missed or repeated; if that does not work within the resume
// timeout, or etcd has compacted that revision away, the watch ends through onError and the caller
// re-lists.
//
// Progress: after each batch of events the revision of its last event is reported. Idle watchers learn
// progress from etcd's progress notifications, which etcd sends for a watcher only once it has sent all
// of its events up to the notified revision. Periodic ones come at the server's
// --experimental-watch-progress-notify-interval; requested ones (every second while idle) are used only
// on etcd versions whose answers to progress requests are ordered after pending events (see
// `progressRequestsAreOrdered`). The header revision of an event batch is never used: for a watcher
// still catching up it is ahead of the events sent so far.

import type { IDuplexStream, IWatchRequest, IWatchResponse, IEvent, IKeyValue } from 'etcd3';
import { CompactedError, StoreUnavailableError, type KeyValue, type WatchEvent, type WatchHandle, type WatchListener } from './interface.ts';

export type WatchStream = IDuplexStream<IWatchRequest, IWatchResponse>;

export interface EtcdWatchOptions {
  /** The caller's prefix, and the etcd key range it maps to. */
  prefix: string;
  etcdPrefix: Buffer;
  etcdRangeEnd: Buffer;
  afterRevision: number;
  listener: WatchListener;
  openStream(): Promise<WatchStream>;
  /** How long a lost stream may take to come back before the watch ends. */
  resumeTimeoutMs: number;
  /** Whether asking for progress is safe on the connected etcd (read at each idle tick). */
  progressRequestsSafe(): boolean;
  /** Tells the store about a compacted revision etcd revealed. */
  onCompacted(revision: number): void;
  onEnd(watch: EtcdWatch): void;
}

const IDLE_PROGRESS_MS = 1000;
/** Progress requests for waiting readers are at least this far apart. */
const PROGRESS_REQUEST_SPACING_MS = 20;
const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 1000;

export class EtcdWatch implements WatchHandle {
  readonly #o: EtcdWatchOptions;
  /** Every event at or below this revision has been delivered. */
  #delivered: number;
  /** The last revision given to onProgress. */
  #reported: number;
  #stream: WatchStream | undefined;
  #done = false;
  #lostSince: number | undefined;
  #retryMs = FIRST_RETRY_MS;
  #retryTimer: NodeJS.Timeout | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #lastResponseAt = 0;
  #progressAskedAt = 0;

  constructor(options: EtcdWatchOptions) {
    this.#o = options;
    this.#delivered = options.afterRevision;
    this.#reported = options.afterRevision;
  }

  start(): void {
    this.#connect();
    this.#idleTimer = setInterval(() => this.#askForProgress(), IDLE_PROGRESS_MS);
    this.#idleTimer.unref();
  }

  cancel(): void {
    this.#finish();
  }

  requestProgress(): boolean {
    if (this.#done || !this.#o.progressRequestsSafe()) return false;
    // Readers waiting together are answered by one report.
    const now = Date.now();
    if (now - this.#progressAskedAt >= PROGRESS_REQUEST_SPACING_MS) {
      this.#progressAskedAt = now;
      this.#stream?.write({ progress_request: {} });
    }
    return true;
  }

  /** Ends the watch with an error for the listener. */
  fail(err: Error): void {
    if (this.#done) return;
    this.#finish();
    this.#o.listener.onError(err);
  }

  #finish(): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#idleTimer);
    this.#closeStream();
    this.#o.onEnd(this);
  }

  #closeStream(): void {
    const stream = this.#stream;
    this.#stream = undefined;
    // A half-close ends the call cleanly on the server; cancelling it instead would make the client
    // library reset every connection to that member.
    if (stream) stream.end();
  }

  #connect(): void {
    this.#o.openStream().then(
      (stream) => {
        if (this.#done) {
          stream.on('error', () => {});
          stream.end();
          return;
        }
        this.#stream = stream;
        stream.on('data', (res: IWatchResponse) => this.#onResponse(stream, res));
        stream.on('error', (err: Error) => this.#onLost(stream, err));
        stream.on('end', () => this.#onLost(stream, new Error('the etcd watch stream ended')));
        stream.write({
          create_request: {
            key: this.#o.etcdPrefix,
            range_end: this.#o.etcdRangeEnd,
            start_revision: this.#delivered + 1,
            prev_kv: true,
            progress_notify: true,
          },
        });
      },
      (err: Error) => this.#onLost(undefined, err),
    );
  }

  #onResponse(stream: WatchStream, res: IWatchResponse): void {
    if (this.#done || stream !== this.#stream) return;
    this.#lastResponseAt = Date.now();
    const compacted = Number(res.compact_revision);
    if (compacted > 0) {
      this.#o.onCompacted(compacted);
      this.fail(new CompactedError(this.#delivered + 1, compacted));
      return;
    }
    if (res.canceled) {
      this.#onLost(stream, new Error(`etcd cancelled the watch: ${res.cancel_reason}`));
      return;
    }
    if (res.created) {
      this.#lostSince = undefined;
      this.#retryMs = FIRST_RETRY_MS;
      return;
    }
    const events = res.events ?? [];
    if (events.length > 0) {
      const fresh: WatchEvent[] = [];
      for (const event of events) {
        const revision = Number(event.kv.mod_revision);
        if (revision > this.#delivered) fresh.push(this.#toWatchEvent(event));
      }
      this.#delivered = Math.max(this.#delivered, Number(events[events.length - 1]!.kv.mod_revision));
      if (fresh.length > 0) this.#o.listener.onEvents(fresh);
      if (!this.#done) this.#report(this.#delivered);
      return;
    }
    // No events, not created, not cancelled: a progress notification.
    const revision = Number(res.header.revision);
    if (revision > this.#delivered) this.#delivered = revision;
    this.#report(this.#delivered);
  }

  #report(revision: number): void {
    if (revision <= this.#reported) return;
    this.#reported = revision;
    this.#o.listener.onProgress(revision);
  }

  #askForProgress(): void {
    const stream = this.#stream;
    if (this.#done || !stream || !this.#o.progressRequestsSafe()) return;
    if (Date.now() - this.#lastResponseAt < IDLE_PROGRESS_MS) return;
    stream.write({ progress_request: {} });
  }

  #onLost(stream: WatchStream | undefined, err: Error): void {
    if (this.#done || (stream !== undefined && stream !== this.#stream)) return;
    if (this.#stream) {
      const lost = this.#stream;
      this.#stream = undefined;
      lost.on('error', () => {});
      lost.end();
    }
    const now = Date.now();
    this.#lostSince ??= now;
    if (now - this.#lostSince >= this.#o.resumeTimeoutMs) {
      this.fail(new StoreUnavailableError(`the etcd watch of ${this.#o.prefix} was lost and could not be resumed: ${err.message}`));
      return;
    }
    this.#retryTimer = setTimeout(() => {
      if (!this.#done) this.#connect();
    }, this.#retryMs);
    this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs * 2);
  }

  #toWatchEvent(event: IEvent): WatchEvent {
    const key = this.#keyOf(event.kv);
    const prev = event.prev_kv ? this.#toKeyValue(event.prev_kv, key) : undefined;
    const revision = Number(event.kv.mod_revision);
    if (String(event.type).toUpperCase() === 'DELETE') {
      // etcd's delete event carries only the key and the delete's revision; the interface wants the
      // last value. Without a previous value (compacted away) the value is empty.
      const last = prev ?? { key, value: '', createRevision: 0, modRevision: 0 };
      return { type: 'delete', kv: { ...last, modRevision: revision }, prevKv: last };
    }
    const kv = this.#toKeyValue(event.kv, key);
    return prev ? { type: 'put', kv, prevKv: prev } : { type: 'put', kv };
  }

  #keyOf(kv: IKeyValue): string {
    return this.#o.prefix + kv.key.subarray(this.#o.etcdPrefix.length).toString('utf8');
  }

  #toKeyValue(kv: IKeyValue, key: string): KeyValue {
    return {
      key,
      value: kv.value.toString('utf8'),
      createRevision: Number(kv.create_revision),
      modRevision: Number(kv.mod_revision),
    };
  }
}

/**
 * Whether etcd answers progress requests only after the events they cover: fixed in v3.4.31 and
 * v3.5.13 (etcd-io/etcd#15220, #17557); older versions may answer ahead of pending events.
 */
export function progressRequestsAreOrdered(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const [major, minor, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}
