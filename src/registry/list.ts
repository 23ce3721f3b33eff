// List with Kubernetes' resourceVersion semantics and paging. Most lists are served from the watch cache;
// exact-version reads and continuations read storage at the pinned revision, so every page of a list
// comes from one snapshot and an expired token is a 410.
import type { Storage } from '../storage/interface.ts';
import { CompactedError, FutureRevisionError, prefixEnd } from '../storage/interface.ts';
import { decodeKv, type CachedObject } from '../storage/cache.ts';
import type { ResourceStore } from './store.ts';
import { buildSelection, type Selection } from './selection.ts';
import * as status from '../machinery/status.ts';
import { invalid as fieldInvalid, forbidden as fieldForbidden, notSupported, type FieldError } from '../machinery/field-errors.ts';

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

/** 422 on ListOptions, as Kubernetes validates list and watch options. */
export function validateListOptions(opts: ListOptions): void {
  const errs: FieldError[] = [];
  const rvm = opts.resourceVersionMatch;
  if (rvm !== undefined && rvm !== '') {
    if (opts.watch) {
      if (!opts.sendInitialEvents) errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      else if (rvm !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', rvm, ['NotOlderThan']));
    } else {
      if (!opts.resourceVersion) errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (opts.continue) errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (rvm !== 'Exact' && rvm !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', rvm, ['Exact', 'NotOlderThan']));
      if (rvm === 'Exact' && opts.resourceVersion === '0') errs.push(fieldForbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (opts.sendInitialEvents !== undefined) {
    if (!opts.watch) errs.push(fieldForbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    else if (rvm !== 'NotOlderThan') errs.push(fieldForbidden('resourceVersionMatch', "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
  }
  if (opts.resourceVersion !== undefined && opts.resourceVersion !== '' && parseResourceVersion(opts.resourceVersion) === undefined) {
    throw status.badRequest(`Invalid value for resourceVersion: ${JSON.stringify(opts.resourceVersion)}`);
  }
  if (errs.length) throw status.invalid('meta.k8s.io', 'ListOptions', '', errs);
}

export function parseResourceVersion(rv: string): number | undefined {
  if (!/^[0-9]+$/.test(rv)) return undefined;
  const n = Number(rv);
  return Number.isSafeInteger(n) ? n : undefined;
}

interface ContinueToken {
  rv: number;
  start: string;
}

export function encodeContinue(rv: number, lastKeyAfterPrefix: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.svc.io/v1', rv, start: lastKeyAfterPrefix + '\u0000' })).toString('base64url');
}

export function decodeContinue(token: string): ContinueToken {
  let parsed: { v?: string; rv?: number; start?: string };
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw status.badRequest('continue key is not valid: invalid continue token');
  }
  if (!parsed || typeof parsed !== 'object' || (parsed.v !== 'meta.svc.io/v1' && parsed.v !== 'meta.k8s.io/v1')) {
    throw status.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.svc.io/v1)');
  }
  if (typeof parsed.rv !== 'number' || parsed.rv <= 0 || typeof parsed.start !== 'string' || !parsed.start) {
    throw status.badRequest('continue key is not valid: invalid continue token');
  }
  const clean = parsed.start.replace(/\u0000$/, '');
  if (clean.split('/').some((seg) => seg === '.' || seg === '..')) throw status.badRequest('continue key is not valid: invalid continue token');
  return { rv: parsed.rv, start: parsed.start };
}

/** Brings the cache to the store's current revision (a consistent read). */
export async function syncToStorage(store: ResourceStore, storage: Storage): Promise<void> {
  const rev = await storage.currentRevision();
  if (!(await store.cache.waitFor(rev, FRESHNESS_WAIT_MS))) throw status.tooLargeResourceVersion(rev, store.cache.revision);
}

/** Waits until the cache is at least at `rv` ("not older than"); 504 Too large resource version otherwise. */
export async function waitNotOlderThan(store: ResourceStore, rv: number): Promise<void> {
  if (!(await store.cache.waitFor(rv, FRESHNESS_WAIT_MS))) throw status.tooLargeResourceVersion(rv, store.cache.revision);
}

export async function listObjects(store: ResourceStore, storage: Storage, namespace: string, opts: ListOptions): Promise<ListResult> {
  validateListOptions(opts);
  const selection = buildSelection(store.def, namespace, opts.labelSelector, opts.fieldSelector);
  const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
  const rvText = opts.resourceVersion ?? '';
  const rv = rvText ? parseResourceVersion(rvText)! : undefined;

  if (opts.continue) {
    if (rv) throw status.badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(opts.continue);
    return listFromStorage(store, storage, selection, token.rv, store.listPrefix(namespace) + '', token.start, limit);
  }
  if (opts.resourceVersionMatch === 'Exact' || (limit && rv && !opts.resourceVersionMatch)) {
    return listFromStorage(store, storage, selection, rv!, store.listPrefix(namespace), '', limit);
  }
  if (rv === undefined) await syncToStorage(store, storage);
  else if (rv > 0) await waitNotOlderThan(store, rv);
  const revision = store.cache.revision;
  const all = store.cache.list(store.listPrefix(namespace));
  // The cache serves `resourceVersion=0` lists whole, ignoring limit, as Kubernetes' cacher does.
  const pageLimit = rv === 0 ? 0 : limit;
  const items: CachedObject[] = [];
  let i = 0;
  for (; i < all.length; i++) {
    if (!selection.matches(all[i])) continue;
    if (pageLimit && items.length === pageLimit) break;
    items.push(all[i]);
  }
  const result: ListResult = { items, resourceVersion: String(revision) };
  if (pageLimit && i < all.length) {
    const last = items[items.length - 1];
    const remaining = all.length - i;
    result.continue = encodeContinue(revision, last.key.slice(store.listPrefix(namespace).length));
    if (!selection.filtered) result.remainingItemCount = remaining;
  }
  return result;
}

async function listFromStorage(store: ResourceStore, storage: Storage, selection: Selection, revision: number, prefix: string, start: string, limit: number): Promise<ListResult> {
  const items: CachedObject[] = [];
  let startKey = start ? prefix + start : undefined;
  const end = prefixEnd(prefix);
  let more = false;
  let lastKey = '';
  let remaining = 0;
  try {
    for (;;) {
      const pageSize = limit ? Math.max(limit - items.length, selection.filtered ? Math.min(limit * 2, 10_000) : 0) : 0;
      const page = await storage.range(prefix, { revision, limit: pageSize || undefined, startKey });
      for (let i = 0; i < page.kvs.length; i++) {
        const kv = page.kvs[i];
        const cached = store.cache.get(kv.key);
        const obj = cached && cached.modRevision === kv.modRevision ? cached : decodeKv(kv);
        if (limit && items.length === limit) { more = true; remaining = page.count - i; break; }
        lastKey = kv.key;
        if (selection.matches(obj)) items.push(obj);
      }
      if (more || !page.more) {
        if (!more && page.more) more = true;
        break;
      }
      if (limit && items.length === limit) { more = true; remaining = page.count - page.kvs.length; break; }
      startKey = page.kvs[page.kvs.length - 1].key + '\u0000';
      if (startKey >= end) break;
    }
  } catch (err) {
    if (err instanceof CompactedError) {
      if (start) throw status.expired('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.');
      throw status.expired(`The resourceVersion for the provided list is too old.`);
    }
    if (err instanceof FutureRevisionError) throw status.tooLargeResourceVersion(revision, err.current);
    throw store.storageError(err, 'list', '');
  }
  const result: ListResult = { items, resourceVersion: String(revision) };
  if (more && limit) {
    result.continue = encodeContinue(revision, lastKey.slice(prefix.length));
    if (!selection.filtered && remaining > 0) result.remainingItemCount = remaining;
  }
  return result;
}
