// List with Kubernetes' resourceVersion semantics and paging. Most lists are served from the watch cache;
// exact-version reads and continuations read storage at the pinned revision, so every page of a list
// comes from one snapshot and an expired token is a 410.
import type { Storage } from '../storage/interface.ts';
import { CompactedError, FutureRevisionError, prefixEnd } from '../storage/interface.ts';
import { decodeKv, type CachedObject } from '../storage/cache.ts';
import type { ResourceStore } from './store.ts';
import { buildSelection, parseSelectors, type Selection } from './selection.ts';
import * as status from '../machinery/status.ts';
import { forbidden as fieldForbidden, notSupported, type FieldError } from '../machinery/field-errors.ts';
import { goJsonKind, goJsonObjectError } from '../machinery/go-json.ts';
import { featureGates } from '../config/feature-gates.ts';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  limit?: number;
  continue?: string;
  watch?: boolean;
  sendInitialEvents?: boolean;
}

export interface ListResult {
  items: CachedObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** How long a read waits for the cache to reach a requested revision before answering 504. */
export const FRESHNESS_WAIT_MS = 3000;
/** How long a consistent list waits for the cache before reading storage. */
const CONSISTENT_LIST_CACHE_WAIT_MS = 100;

/** The group Kubernetes names in ListOptions errors (meta.k8s.io, renamed). */
export const META_GROUP = 'meta.svc.io';
const CONTINUE_VERSION = 'meta.svc.io/v1';

const EXPIRED_LIST = 'The resourceVersion for the provided list is too old.';
const INCONSISTENT_CONTINUE = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** 422 on ListOptions, as Kubernetes validates list and watch options (streaming lists need the WatchList feature). */
export function validateListOptions(opts: ListOptions): void {
  const errs: FieldError[] = [];
  const rvm = opts.resourceVersionMatch ?? '';
  if (opts.watch) {
    if (opts.sendInitialEvents !== undefined) {
      if (rvm !== 'NotOlderThan') errs.push(fieldForbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
      if (!featureGates.enabled('WatchList')) errs.push(fieldForbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
    }
    if (rvm) {
      if (opts.sendInitialEvents === undefined) errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      if (rvm !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', rvm, ['NotOlderThan']));
      if (opts.continue) errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (rvm) {
      if (!opts.resourceVersion) errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (opts.continue) errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (rvm !== 'Exact' && rvm !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', rvm, ['Exact', 'NotOlderThan', '']));
      if (rvm === 'Exact' && opts.resourceVersion === '0') errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
    if (opts.sendInitialEvents !== undefined) errs.push(fieldForbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errs.length) throw status.invalid(META_GROUP, 'ListOptions', '', errs);
}

const MAX_UINT64 = 2n ** 64n - 1n;

/** Why a resourceVersion is not a version, in Go's words (strconv.ParseUint); undefined when it is one. */
function resourceVersionSyntaxError(rv: string): string | undefined {
  if (!/^[0-9]+$/.test(rv)) return `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`;
  if (BigInt(rv) > MAX_UINT64) return `resourceVersion: Invalid value: ${JSON.stringify(rv)}: strconv.ParseUint: parsing ${JSON.stringify(rv)}: value out of range`;
  return undefined;
}

/** A numeric resourceVersion, or undefined when it is not one. */
export function parseResourceVersion(rv: string): number | undefined {
  return resourceVersionSyntaxError(rv) === undefined ? Number(rv) : undefined;
}

/**
 * The resourceVersion a get, list or watch names: undefined when unset, else its number. A value that is not
 * a version fails as Kubernetes' watch cache fails it: a 500 carrying the parse error.
 */
export function requestedResourceVersion(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  const err = resourceVersionSyntaxError(text);
  if (err) throw new status.StatusError(500, '', err);
  return Number(text);
}

export interface ContinueToken {
  /** The revision the first page was read at; 0 means "the latest" (a token handed out with a 410). */
  rv: number;
  /** Where the next page starts, relative to the list's key prefix (ends with NUL). */
  start: string;
}

export function encodeContinue(rv: number, startAfterPrefix: string): string {
  return Buffer.from(JSON.stringify({ v: CONTINUE_VERSION, rv, start: startAfterPrefix })).toString('base64url');
}

function invalidContinue(reason: string): status.StatusError {
  return status.badRequest(`invalid continue token: continue key is not valid: ${reason}`);
}

/** Decodes a continue token; a 400 with Kubernetes' texts when it is not one this server handed out. */
export function decodeContinue(token: string): ContinueToken {
  const bytes = decodeRawBase64Url(token);
  // Go's json.Unmarshal checks the whole document first; `null` leaves the token empty.
  const refused = goJsonObjectError(bytes, 'storage.continueToken');
  if (refused) throw invalidContinue(refused);
  const t = (JSON.parse(bytes.toString('utf8')) ?? {}) as Record<string, unknown>;
  const fieldTypes: [string, 'string' | 'number', string][] = [['v', 'string', 'string'], ['rv', 'number', 'int64'], ['start', 'string', 'string']];
  for (const [field, jsType, goType] of fieldTypes) {
    const value = t[field];
    if (value !== undefined && value !== null && (typeof value !== jsType || (jsType === 'number' && !Number.isInteger(value)))) {
      throw invalidContinue(`json: cannot unmarshal ${goJsonKind(value)} into Go struct field continueToken.${field} of type ${goType}`);
    }
  }
  const version = (t.v as string | undefined) ?? '';
  if (version !== CONTINUE_VERSION && version !== 'meta.k8s.io/v1') throw invalidContinue(`server does not recognize this encoded version ${version}`);
  const rv = (t.rv as number | undefined) ?? 0;
  if (rv === 0) throw invalidContinue(`incorrect encoded start resourceVersion (version ${CONTINUE_VERSION})`);
  const start = (t.start as string | undefined) ?? '';
  if (!start) throw invalidContinue(`encoded start key empty (version ${CONTINUE_VERSION})`);
  // A start that path cleaning would change could reach outside the list's prefix.
  const rooted = start.startsWith('/') ? start : '/' + start;
  if (!isCleanPath(rooted)) throw invalidContinue(start);
  return { rv: rv > 0 ? rv : 0, start: rooted.slice(1) };
}

/** Go's base64.RawURLEncoding.DecodeString: the URL alphabet, no padding; CR and LF are skipped. */
function decodeRawBase64Url(s: string): Buffer {
  let n = 0;
  let lastIndex = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\r' || c === '\n') continue;
    if (!/[A-Za-z0-9_-]/.test(c)) throw invalidContinue(`illegal base64 data at input byte ${i}`);
    n++;
    lastIndex = i;
  }
  if (n % 4 === 1) throw invalidContinue(`illegal base64 data at input byte ${lastIndex}`);
  return Buffer.from(s.replace(/[\r\n]/g, ''), 'base64url');
}

/** True when Go's path.Clean would leave the rooted path as it is. */
function isCleanPath(p: string): boolean {
  if (p === '/') return true;
  if (p.endsWith('/')) return false;
  return p.slice(1).split('/').every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/** A 410 for a continue token whose snapshot is compacted, carrying a token that continues at the latest revision. */
class ExpiredContinueError extends status.StatusError {
  readonly continueToken: string;
  constructor(continueToken: string) {
    super(410, 'Expired', INCONSISTENT_CONTINUE);
    this.continueToken = continueToken;
  }
  override toStatus(): status.Status {
    const s = super.toStatus();
    s.metadata = { continue: this.continueToken };
    return s;
  }
}

/** Brings the cache to the store's current revision (a consistent read); false when it does not get there in time. */
export async function syncCache(store: ResourceStore, storage: Storage, waitMs = FRESHNESS_WAIT_MS, onlyWithProgress = false): Promise<boolean> {
  let rev: number;
  try {
    rev = await storage.currentRevision();
  } catch (err) {
    throw store.storageError(err, 'list', '');
  }
  // A cache whose storage cannot be asked for progress reaches another prefix's newer revision only with
  // an event of its own: whoever can read storage instead need not wait for that.
  if (onlyWithProgress && store.cache.revision < rev && !store.cache.requestProgress()) return false;
  return store.cache.waitFor(rev, waitMs);
}

/** Brings the cache to the store's current revision (a consistent read); 504 when it does not get there in time. */
export async function syncToStorage(store: ResourceStore, storage: Storage): Promise<void> {
  if (!(await syncCache(store, storage))) throw status.tooLargeResourceVersion(await storage.currentRevision(), store.cache.revision);
}

/** Waits until the cache is at least at `rv` ("not older than"); 504 Too large resource version otherwise. */
export async function waitNotOlderThan(store: ResourceStore, rv: number): Promise<void> {
  if (!(await store.cache.waitFor(rv, FRESHNESS_WAIT_MS))) throw status.tooLargeResourceVersion(rv, store.cache.revision);
}

export async function listObjects(store: ResourceStore, storage: Storage, namespace: string, opts: ListOptions): Promise<ListResult> {
  const parsed = parseSelectors(opts.labelSelector, opts.fieldSelector);
  validateListOptions(opts);
  const selection = buildSelection(store.def, namespace, parsed);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
  const rvText = opts.resourceVersion ?? '';
  const prefix = store.listPrefix(namespace);

  // Continuations, exact reads and the legacy "limit with a version" read storage at a pinned revision.
  if (opts.continue) {
    const token = decodeContinue(opts.continue);
    if (rvText !== '' && rvText !== '0') throw status.badRequest('specifying resource version is not allowed when using continue');
    return listFromStorage(store, storage, selection, token.rv, prefix, token.start, limit);
  }
  const exact = opts.resourceVersionMatch === 'Exact' || (limit > 0 && !opts.resourceVersionMatch && rvText !== '' && rvText !== '0');
  if (exact) {
    const syntax = resourceVersionSyntaxError(rvText);
    if (syntax) throw status.badRequest(`invalid resource version: ${syntax}`);
    const rv = Number(rvText);
    // A version the store has not reached yet is waited for, then a 504.
    if (rv > store.cache.revision) await waitNotOlderThan(store, rv);
    return listFromStorage(store, storage, selection, rv, prefix, '', limit);
  }

  const rv = requestedResourceVersion(rvText);
  if (rv === undefined) {
    // Most recent: the cache once it has caught up with storage, else storage itself. On etcd an idle
    // resource's cache learns the current revision from progress reports: asked for where etcd orders them
    // after pending events, else not waited for at all (as Kubernetes reads etcd when it cannot ask).
    if (!(await syncCache(store, storage, CONSISTENT_LIST_CACHE_WAIT_MS, true))) return listFromStorage(store, storage, selection, 0, prefix, '', limit);
  } else if (rv > 0) {
    await waitNotOlderThan(store, rv);
  }
  // The cache serves `resourceVersion=0` lists whole, ignoring limit, as Kubernetes' cacher does.
  return listFromCache(store, selection, namespace, rv === 0 ? 0 : limit);
}

/** A page of the cache's current state; a continuation reads storage at the same revision. */
function listFromCache(store: ResourceStore, selection: Selection, namespace: string, limit: number): ListResult {
  const cache = store.cache;
  const revision = cache.revision;
  const prefix = store.listPrefix(namespace);
  const items: CachedObject[] = [];
  let more = false;
  if (selection.name !== undefined && (!store.def.namespaced || namespace)) {
    // One object asked for by name: no scan.
    const obj = cache.get(store.key(namespace, selection.name));
    if (obj && selection.matches(obj)) items.push(obj);
  } else {
    for (const obj of cache.scan(prefix)) {
      if (!selection.matches(obj)) continue;
      if (limit && items.length === limit) { more = true; break; }
      items.push(obj);
    }
  }
  const result: ListResult = { items, resourceVersion: String(revision) };
  if (more) {
    const start = items[items.length - 1].key.slice(prefix.length) + '\u0000';
    result.continue = encodeContinue(revision, start);
    if (!selection.filtered) result.remainingItemCount = cache.countFrom(prefix, prefix + start);
  }
  return result;
}

/**
 * A page read from storage at `revision` (0: the latest, then pinned), starting at `start` (relative to the
 * prefix). Like Kubernetes' etcd store, it reads batches until `limit` objects match.
 */
async function listFromStorage(store: ResourceStore, storage: Storage, selection: Selection, revision: number, prefix: string, start: string, limit: number): Promise<ListResult> {
  const items: CachedObject[] = [];
  let startKey = start ? prefix + start : undefined;
  const end = prefixEnd(prefix);
  let readAt = revision;
  let more = false;
  let lastKey = '';
  let remaining = 0;
  try {
    for (;;) {
      const want = limit ? limit - items.length : 0;
      const batch = limit ? (selection.filtered ? Math.min(Math.max(want, limit * 2), 10_000) : want) : 0;
      const page = await storage.range(prefix, { revision: readAt || undefined, limit: batch || undefined, startKey });
      readAt = page.revision;
      let stoppedAt = -1;
      for (let i = 0; i < page.kvs.length; i++) {
        const kv = page.kvs[i];
        if (limit && items.length === limit) { stoppedAt = i; break; }
        lastKey = kv.key;
        const cached = store.cache.get(kv.key);
        const obj = cached && cached.modRevision === kv.modRevision ? cached : decodeKv(kv);
        if (selection.matches(obj)) items.push(obj);
      }
      if (stoppedAt >= 0) { more = true; remaining = page.count - stoppedAt; break; }
      if (!page.more) break;
      if (limit && items.length === limit) { more = true; remaining = page.count - page.kvs.length; break; }
      startKey = page.kvs[page.kvs.length - 1].key + '\u0000';
      if (startKey >= end) break;
    }
  } catch (err) {
    if (err instanceof CompactedError) {
      if (start) throw new ExpiredContinueError(encodeContinue(-1, start));
      throw status.expired(EXPIRED_LIST);
    }
    if (err instanceof FutureRevisionError) throw status.tooLargeResourceVersion(revision, err.current);
    throw store.storageError(err, 'list', '');
  }
  const result: ListResult = { items, resourceVersion: String(readAt) };
  if (more) {
    result.continue = encodeContinue(readAt, lastKey.slice(prefix.length) + '\u0000');
    if (!selection.filtered && remaining > 0) result.remainingItemCount = remaining;
  }
  return result;
}
