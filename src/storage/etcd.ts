// The Storage interface on an etcd v3 cluster, through the etcd3 client.
//
// Every method is one etcd request on the hot path: create is a txn "if the key was never created,
// put"; update is "if its mod revision is still the expected one, put (and read back its create
// revision) else get"; delete likewise. Revisions are etcd's, so a write's revision is the txn's header
// revision and they are shared with everything else written to the same etcd.
//
// Failures never hang: each call has a deadline (requestTimeoutMs). Within it, reads are retried on
// another member after any connection or cluster failure; writes only when the failure proves the write
// was not applied (no connection could be made, or etcd dropped the proposal for want of a leader), so a
// write is never applied twice. What is still failing at the deadline becomes StoreUnavailableError.
//
// etcd does not say which revision is compacted. The store remembers what it compacted and what etcd
// revealed (a watch's compact_revision), and compactedRevision() checks that against etcd: a read at
// revision r fails exactly when r is below the compacted revision, so one probe read confirms the
// remembered value, and a binary search finds a newer one.

import { CompareResult, CompareTarget, Etcd3, type ICompare, type IKeyValue, type IOptions, type IRangeRequest } from 'etcd3';
import { etcdRangeEnd, EtcdKeys } from './etcd-keys.ts';
import { isCompactedError, isFutureRevisionError, isTransient, provesNotApplied, toStorageError } from './etcd-errors.ts';
import { EtcdWatch, progressRequestsAreOrdered, type WatchStream } from './etcd-watch.ts';
import {
  CompactedError,
  FutureRevisionError,
  KeyExistsError,
  KeyNotFoundError,
  ModRevisionMismatchError,
  StoreUnavailableError,
  type KeyValue,
  type RangeOptions,
  type RangeResult,
  type Storage,
  type WatchHandle,
  type WatchListener,
} from './interface.ts';

export interface EtcdTlsOptions {
  /** PEM text of the CA that signed the etcd servers' certificates (the system's CAs when absent). */
  ca?: string | Buffer;
  /** PEM text of the client certificate and its key, for etcd's --client-cert-auth. */
  cert?: string | Buffer;
  key?: string | Buffer;
}

export interface EtcdStorageOptions {
  /** Client URLs of the members, e.g. `http://127.0.0.1:2379` (`https://` with TLS). */
  endpoints: string[];
  /** Where the `/registry` tree lives in etcd (`--etcd-prefix`); default `/registry`. */
  prefix?: string;
  tls?: EtcdTlsOptions;
  /** How long one storage call may take, retries included, before StoreUnavailableError. Default 5 s. */
  requestTimeoutMs?: number;
  /** The deadline of the readiness check. Default 2 s. */
  readyTimeoutMs?: number;
  /** How long a watch may try to get a lost stream back before it ends with onError. Default 10 s. */
  watchResumeTimeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
const DEFAULT_READY_TIMEOUT_MS = 2_000;
const DEFAULT_WATCH_RESUME_TIMEOUT_MS = 10_000;
const VERSION_TIMEOUT_MS = 1_000;
const FIRST_RETRY_MS = 20;
const MAX_RETRY_MS = 500;
const MIN_ATTEMPT_MS = 250;

type Attempt<T> = (options: { deadline: number }) => Promise<T>;
type FaultPolicy = NonNullable<NonNullable<IOptions['faultHandling']>['global']>;

/** Runs each call once: retries and failover are decided per call by EtcdStorage, because the
 *  client's own policies would resend writes whose outcome is unknown. */
const callOnce = {
  execute: <T>(fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> =>
    Promise.resolve().then(() => fn({ signal: new AbortController().signal })),
} as unknown as FaultPolicy;

export class EtcdStorage implements Storage {
  readonly #client: Etcd3;
  readonly #keys: EtcdKeys;
  readonly #requestTimeoutMs: number;
  readonly #readyTimeoutMs: number;
  readonly #watchResumeTimeoutMs: number;
  readonly #watches = new Set<EtcdWatch>();
  /** Watch calls not yet over, including those a finished watch half-closed: etcd keeps them open. */
  readonly #watchCalls = new Set<WatchStream>();
  #knownCompacted = 0;
  /** The etcd version once a member has told it. */
  #version: string | undefined;
  #progressRequestsSafe = false;
  #closed = false;

  private constructor(client: Etcd3, options: EtcdStorageOptions) {
    this.#client = client;
    this.#keys = new EtcdKeys(options.prefix);
    this.#requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    this.#watchResumeTimeoutMs = options.watchResumeTimeoutMs ?? DEFAULT_WATCH_RESUME_TIMEOUT_MS;
  }

  /** A store on the given members. It does not wait for etcd to be reachable: ready() tells that. */
  static async connect(options: EtcdStorageOptions): Promise<EtcdStorage> {
    if (options.endpoints.length === 0) throw new Error('etcd storage needs at least one endpoint');
    const storage = new EtcdStorage(new Etcd3(clientOptions(options)), options);
    await storage.#learnVersion();
    return storage;
  }

  /** The etcd prefix the `/registry` tree is mapped to. */
  get prefix(): string {
    return this.#keys.prefix;
  }

  // ---- reads ----

  async currentRevision(): Promise<number> {
    const res = await this.#read((o) => this.#client.kv.range(this.#probe(), o));
    return Number(res.header.revision);
  }

  async compactedRevision(): Promise<number> {
    const known = this.#knownCompacted;
    if (await this.#readableAt(Math.max(known, 1))) return known;
    // Reads fail below the compacted revision: find the lowest revision that can be read.
    let unreadable = Math.max(known, 1);
    let readable = await this.currentRevision();
    while (readable - unreadable > 1) {
      const middle = Math.floor((unreadable + readable) / 2);
      if (await this.#readableAt(middle)) readable = middle;
      else unreadable = middle;
    }
    this.#learnCompacted(readable);
    return this.#knownCompacted;
  }

  async get(key: string, opts: { revision?: number } = {}): Promise<{ kv: KeyValue | undefined; revision: number }> {
    const revision = opts.revision ?? 0;
    const res = await this.#readAt(revision, (o) => this.#client.kv.range({ key: this.#keys.encode(key), revision }, o));
    const found = res.kvs[0];
    return { kv: found ? toKeyValue(found, key) : undefined, revision: revision || Number(res.header.revision) };
  }

  async range(prefix: string, opts: RangeOptions = {}): Promise<RangeResult> {
    const revision = opts.revision ?? 0;
    const etcdPrefix = this.#keys.encode(prefix);
    const request: IRangeRequest = {
      key: opts.startKey === undefined ? etcdPrefix : this.#keys.encode(opts.startKey),
      range_end: etcdRangeEnd(etcdPrefix),
      revision,
      limit: opts.limit ?? 0,
    };
    const res = await this.#readAt(revision, (o) => this.#client.kv.range(request, o));
    return {
      kvs: res.kvs.map((kv) => toKeyValue(kv, this.#keys.fromEtcd(kv.key, prefix, etcdPrefix))),
      revision: revision || Number(res.header.revision),
      more: res.more,
      count: Number(res.count),
    };
  }

  async count(prefix: string): Promise<number> {
    const etcdPrefix = this.#keys.encode(prefix);
    const res = await this.#read((o) =>
      this.#client.kv.range({ key: etcdPrefix, range_end: etcdRangeEnd(etcdPrefix), count_only: true }, o),
    );
    return Number(res.count);
  }

  // ---- writes ----

  async create(key: string, value: string): Promise<KeyValue> {
    const k = this.#keys.encode(key);
    const res = await this.#write((o) =>
      this.#client.kv.txn(
        {
          compare: [{ key: k, target: CompareTarget.Create, result: CompareResult.Equal, create_revision: 0 }],
          success: [{ request_put: { key: k, value: Buffer.from(value, 'utf8') } }],
          failure: [],
        },
        o,
      ),
    );
    if (!res.succeeded) throw new KeyExistsError(key);
    const revision = Number(res.header.revision);
    return { key, value, createRevision: revision, modRevision: revision };
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<KeyValue> {
    const k = this.#keys.encode(key);
    const compare: ICompare[] = [
      { key: k, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: expectedModRevision },
    ];
    // "Mod revision 0" also holds for a key that does not exist, which update must not create.
    if (expectedModRevision <= 0) {
      compare.push({ key: k, target: CompareTarget.Create, result: CompareResult.Greater, create_revision: 0 });
    }
    const res = await this.#write((o) =>
      this.#client.kv.txn(
        {
          compare,
          success: [
            { request_put: { key: k, value: Buffer.from(value, 'utf8') } },
            { request_range: { key: k, keys_only: true } },
          ],
          failure: [{ request_range: { key: k } }],
        },
        o,
      ),
    );
    if (!res.succeeded) throw this.#conflict(key, res.responses[0]?.response_range.kvs[0]);
    const written = res.responses[1]!.response_range.kvs[0]!;
    const revision = Number(res.header.revision);
    return { key, value, createRevision: Number(written.create_revision), modRevision: revision };
  }

  async delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    const k = this.#keys.encode(key);
    if (expectedModRevision === undefined) {
      const res = await this.#write((o) => this.#client.kv.deleteRange({ key: k, prev_kv: true }, o));
      return deleted(key, res.prev_kvs[0], Number(res.header.revision));
    }
    const res = await this.#write((o) =>
      this.#client.kv.txn(
        {
          compare: [{ key: k, target: CompareTarget.Mod, result: CompareResult.Equal, mod_revision: expectedModRevision }],
          success: [{ request_delete_range: { key: k, prev_kv: true } }],
          failure: [{ request_range: { key: k } }],
        },
        o,
      ),
    );
    if (!res.succeeded) throw this.#conflict(key, res.responses[0]?.response_range.kvs[0]);
    return deleted(key, res.responses[0]!.response_delete_range.prev_kvs[0], Number(res.header.revision));
  }

  async compact(revision: number): Promise<void> {
    try {
      await this.#call('write', (o) => this.#client.kv.compact({ revision, physical: false }, o));
    } catch (err) {
      throw await this.#revisionError(err, revision);
    }
    this.#learnCompacted(revision);
  }

  // ---- watch ----

  watch(prefix: string, afterRevision: number, listener: WatchListener): WatchHandle {
    const etcdPrefix = this.#keys.encode(prefix);
    const watch = new EtcdWatch({
      prefix,
      etcdPrefix,
      etcdRangeEnd: etcdRangeEnd(etcdPrefix),
      afterRevision: Math.max(0, afterRevision),
      listener,
      openStream: () => this.#openWatchCall(),
      resumeTimeoutMs: this.#watchResumeTimeoutMs,
      progressRequestsSafe: () => this.#progressRequestsSafe,
      onCompacted: (revision) => this.#learnCompacted(revision),
      onEnd: (w) => this.#watches.delete(w),
    });
    if (this.#closed) {
      setImmediate(() => watch.fail(closedError()));
      return watch;
    }
    this.#watches.add(watch);
    // etcd itself still serves a watch that starts at the compacted revision; the interface does not.
    if (afterRevision < this.#knownCompacted) {
      const compacted = this.#knownCompacted;
      setImmediate(() => watch.fail(new CompactedError(afterRevision + 1, compacted)));
      return watch;
    }
    watch.start();
    return watch;
  }

  // ---- lifecycle ----

  async ready(): Promise<void> {
    if (this.#closed) throw closedError();
    try {
      await this.#call('read', (o) => this.#client.kv.range(this.#probe(), o), this.#readyTimeoutMs);
    } catch (err) {
      const failure = toStorageError(err);
      throw failure instanceof StoreUnavailableError ? failure : new StoreUnavailableError(`etcd is not ready: ${failure.message}`);
    }
    if (this.#version === undefined) void this.#learnVersion();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const watch of [...this.#watches]) watch.fail(closedError());
    // The client's connection, and with it the process, lasts as long as any call on it.
    for (const call of this.#watchCalls) {
      call.on('error', () => {});
      call.cancel();
    }
    this.#client.close();
  }

  async #openWatchCall(): Promise<WatchStream> {
    const call = await (this.#client.watchClient.watch() as Promise<WatchStream>);
    this.#watchCalls.add(call);
    const over = () => this.#watchCalls.delete(call);
    call.on('end', over);
    call.on('error', over);
    return call;
  }

  // ---- helpers ----

  #probe(): IRangeRequest {
    return { key: this.#keys.probeKey(), count_only: true };
  }

  /** A read at a revision, with etcd's revision errors turned into the interface's. */
  async #readAt<T>(revision: number, attempt: Attempt<T>): Promise<T> {
    try {
      return await this.#read(attempt);
    } catch (err) {
      throw await this.#revisionError(err, revision);
    }
  }

  async #revisionError(err: unknown, revision: number): Promise<Error> {
    if (isCompactedError(err)) return new CompactedError(revision, await this.compactedRevision());
    if (isFutureRevisionError(err)) return new FutureRevisionError(revision, await this.currentRevision());
    return err instanceof Error ? err : new Error(String(err));
  }

  async #readableAt(revision: number): Promise<boolean> {
    try {
      await this.#read((o) => this.#client.kv.range({ ...this.#probe(), revision }, o));
      return true;
    } catch (err) {
      if (isCompactedError(err)) return false;
      throw err;
    }
  }

  #learnCompacted(revision: number): void {
    if (revision > this.#knownCompacted) this.#knownCompacted = revision;
  }

  /** The error for a failed compare: the key is gone, or it changed (carrying what it is now). */
  #conflict(key: string, current: IKeyValue | undefined): Error {
    return current ? new ModRevisionMismatchError(key, toKeyValue(current, key)) : new KeyNotFoundError(key);
  }

  #read<T>(attempt: Attempt<T>): Promise<T> {
    return this.#call('read', attempt);
  }

  #write<T>(attempt: Attempt<T>): Promise<T> {
    return this.#call('write', attempt);
  }

  /** Runs one etcd call under a deadline, retrying what can safely be retried (see the file comment). */
  async #call<T>(kind: 'read' | 'write', attempt: Attempt<T>, timeoutMs = this.#requestTimeoutMs): Promise<T> {
    if (this.#closed) throw closedError();
    const deadline = Date.now() + timeoutMs;
    // One attempt may not use the whole deadline: a member that just came back can leave its channel
    // connecting for seconds, and the next attempt goes to another member.
    const attemptMs = Math.max(MIN_ATTEMPT_MS, timeoutMs / 2);
    let wait = FIRST_RETRY_MS;
    for (;;) {
      try {
        return await attempt({ deadline: Math.min(deadline, Date.now() + attemptMs) });
      } catch (err) {
        const retry = kind === 'read' ? isTransient(err) : provesNotApplied(err);
        if (!retry || this.#closed || Date.now() + wait >= deadline) throw toStorageError(err);
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait = Math.min(MAX_RETRY_MS, wait * 2);
      }
    }
  }

  /** Reads the etcd version, to know whether progress requests are safe; a failure leaves them off. */
  async #learnVersion(): Promise<void> {
    try {
      const status = await this.#client.maintenance.status({ deadline: Date.now() + VERSION_TIMEOUT_MS });
      this.#version = status.version;
      this.#progressRequestsSafe = progressRequestsAreOrdered(status.version);
    } catch {
      // Unreachable for now: ready() asks again once etcd answers.
    }
  }
}

function clientOptions(options: EtcdStorageOptions): IOptions {
  const tls = options.tls;
  return {
    hosts: options.endpoints,
    credentials: tls
      ? {
          rootCertificate: (tls.ca === undefined ? null : Buffer.from(tls.ca)) as Buffer,
          privateKey: tls.key === undefined ? undefined : Buffer.from(tls.key),
          certChain: tls.cert === undefined ? undefined : Buffer.from(tls.cert),
        }
      : undefined,
    faultHandling: { global: callOnce, host: () => callOnce },
    grpcOptions: {
      'grpc.max_receive_message_length': 2 ** 31 - 1,
      'grpc.keepalive_time_ms': 10_000,
      'grpc.keepalive_timeout_ms': 5_000,
      // A restarted member is reconnected to within a second, not after gRPC's default backoff of up to 2 minutes.
      'grpc.initial_reconnect_backoff_ms': 100,
      'grpc.max_reconnect_backoff_ms': 1_000,
    },
  };
}

function toKeyValue(kv: IKeyValue, key: string): KeyValue {
  return {
    key,
    value: kv.value.toString('utf8'),
    createRevision: Number(kv.create_revision),
    modRevision: Number(kv.mod_revision),
  };
}

/** The interface's answer to a delete: the last value, stamped with the delete's revision. */
function deleted(key: string, previous: IKeyValue | undefined, revision: number): KeyValue {
  if (!previous) throw new KeyNotFoundError(key);
  return { ...toKeyValue(previous, key), modRevision: revision };
}

function closedError(): StoreUnavailableError {
  return new StoreUnavailableError('storage is closed');
}
