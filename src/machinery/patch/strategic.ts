// Strategic merge patch as Kubernetes v1.32 applies it (apimachinery strategicpatch), driven only by the
// schema's patch strategy and merge key markers (never by the list type):
// - maps merge recursively and `null` deletes a key;
// - lists without the `merge` strategy are replaced; `merge` lists of objects merge item by item on the
//   merge key (new items go first), `merge` lists of scalars are a union without duplicates;
// - directives: `$patch: replace | delete` in a map or as a list item, `$retainKeys`,
//   `$deleteFromPrimitiveList/<field>`, `$setElementOrder/<field>`.
import type { TSchema } from '@sinclair/typebox';
import { StatusError, badRequest } from '../status.ts';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, type RefScope, scopeOf } from '../schema/schema-kind.ts';
import { JsonSyntaxError, parseJsonStrict } from '../schema/json-parse.ts';
import { strictDecodingErrors } from '../schema/decode-errors.ts';
import { deepClone, isPlainObject } from '../schema/walk.ts';
import type { FieldValidation } from './patch-errors.ts';
import { goSprintV } from '../go-value.ts';

const DIRECTIVE = '$patch';
const REPLACE = 'replace';
const DELETE = 'delete';
const MERGE = 'merge';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

export const ERR_BAD_JSON_DOC = 'invalid JSON document';
export const ERR_NO_LIST_OF_LISTS = 'lists of lists are not supported';
export const ERR_BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
export const ERR_BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
export const ERR_BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
export const ERR_RETAIN_KEYS_MISMATCH = "patch content doesn't match retainKeys list";
export const ERR_UNSUPPORTED = 'strategic merge patch format is not supported';

const BAD_REQUEST = new Set([ERR_BAD_JSON_DOC, ERR_BAD_PRIMITIVE_LIST, ERR_BAD_RETAIN_KEYS, ERR_BAD_SET_ELEMENT_ORDER, ERR_UNSUPPORTED]);
const UNPROCESSABLE = new Set([ERR_NO_LIST_OF_LISTS, ERR_RETAIN_KEYS_MISMATCH]);

/** A patch that cannot be applied; `toStatus` gives the answer Kubernetes sends for it. */
export class StrategicPatchError extends Error {
  toStatus(): StatusError {
    // Lists of lists and retainKeys mismatches are 422 without detail, as Kubernetes' generic response.
    if (UNPROCESSABLE.has(this.message)) return new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
    // Format errors are 400; Kubernetes answers the others with a bare 500, which a client's patch never
    // deserves here: they are 400 with the same text.
    return badRequest(this.message);
  }
}

function fail(message: string): never {
  throw new StrategicPatchError(message);
}

/** Where a value sits in the schema; undefined for free-form values (no strategies, maps merge). */
type SchemaPos = { schema: TSchema; scope: RefScope } | undefined;

interface FieldMeta {
  pos: SchemaPos;
  strategy: string;
  mergeKey: string;
  retainKeys: boolean;
}

function resolved(pos: SchemaPos): { schema: TSchema; scope: RefScope } | undefined {
  if (!pos) return undefined;
  const schema = deref(pos.schema, pos.scope);
  return { schema, scope: scopeOf(schema, pos.scope) };
}

/** The schema and patch markers of field `key` of the map at `pos`. */
function fieldMeta(pos: SchemaPos, key: string): FieldMeta {
  const r = resolved(pos);
  let child: SchemaPos;
  if (r) {
    const k = kindOf(r.schema);
    if (k === 'object') {
      const p = asSchema(r.schema).properties?.[key];
      child = p ? { schema: p, scope: r.scope } : undefined;
    } else if (k === 'map') {
      const v = mapValueSchema(r.schema);
      child = v ? { schema: v, scope: r.scope } : undefined;
    }
  }
  const s = child ? (asSchema(deref(child.schema, child.scope)) as { 'x-platform-patch-strategy'?: string; 'x-platform-patch-merge-key'?: string }) : {};
  const strategies = (s['x-platform-patch-strategy'] ?? '').split(',').filter(Boolean);
  let strategy = '';
  let retainKeys = false;
  for (const st of strategies) {
    if (st === 'retainKeys') retainKeys = true;
    else strategy = st;
  }
  return { pos: child, strategy, mergeKey: s['x-platform-patch-merge-key'] ?? '', retainKeys };
}

function itemPos(pos: SchemaPos): SchemaPos {
  const r = resolved(pos);
  if (!r || kindOf(r.schema) !== 'array') return undefined;
  const item = itemSchema(r.schema);
  return item ? { schema: item, scope: r.scope } : undefined;
}

export interface DecodedStrategicPatch {
  patch: Record<string, unknown>;
  /** Under fieldValidation Strict or Warn: `duplicate field "metadata.labels.a"` for keys repeated in the patch. */
  strictErrors: string[];
}

/** Reads a strategic merge patch body (a JSON object). Throws StatusError 400. */
export function decodeStrategicPatch(text: string, fieldValidation: FieldValidation = 'Ignore'): DecodedStrategicPatch {
  let parsed;
  try {
    parsed = parseJsonStrict(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw badRequest(e.message);
    throw e;
  }
  const v = parsed.value;
  if (!isPlainObject(v)) {
    const kind = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
    if (kind === 'null') return { patch: {}, strictErrors: [] };
    throw badRequest(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  const strict = fieldValidation !== 'Ignore';
  return { patch: v, strictErrors: strict ? strictDecodingErrors([], parsed.duplicates, parsed.positions) : [] };
}

/**
 * Applies `patch` to `original` (an object of the kind whose schema is `schema`; without a schema every
 * list is replaced and every map merged); neither input is modified. Throws StrategicPatchError.
 */
export function strategicMergePatch(original: Record<string, unknown>, patch: Record<string, unknown>, schema?: TSchema): Record<string, unknown> {
  return mergeMap(deepClone(original), deepClone(patch), schema ? { schema, scope: EMPTY_SCOPE } : undefined);
}

function mergeMap(original: Record<string, unknown> | undefined, patch: Record<string, unknown>, pos: SchemaPos): Record<string, unknown> {
  if (Object.hasOwn(patch, DIRECTIVE)) {
    const d = patch[DIRECTIVE];
    if (d === REPLACE) {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (d === DELETE) return {};
    fail(`unknown patch type: ${goSprintV(d)} in map: ${goSprintV(patch)}`);
  }
  const orig = original ?? {};
  applyRetainKeys(orig, patch);
  mergeSetElementOrder(orig, patch, pos);
  for (const rawKey of Object.keys(patch)) {
    let key = rawKey;
    const patchV = patch[rawKey];
    let isDeleteList = false;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      key = extractKey(rawKey, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete orig[key];
      continue;
    }
    if (!Object.hasOwn(orig, key) || orig[key] === undefined) {
      if (!isDeleteList) setKey(orig, key, takeNew(patchV, fieldMeta(pos, key)));
      continue;
    }
    const cur = orig[key];
    const bothMaps = isPlainObject(cur) && isPlainObject(patchV);
    const bothLists = Array.isArray(cur) && Array.isArray(patchV);
    if (!bothMaps && !bothLists) {
      if (!isDeleteList) setKey(orig, key, discardNulls(patchV));
      continue;
    }
    const meta = fieldMeta(pos, key);
    if (bothMaps) {
      setKey(orig, key, meta.strategy === REPLACE ? patchV : mergeMap(cur as Record<string, unknown>, patchV as Record<string, unknown>, meta.pos));
    } else {
      setKey(orig, key, mergeListField(cur as unknown[], patchV as unknown[], meta, isDeleteList));
    }
  }
  return orig;
}

function setKey(o: Record<string, unknown>, key: string, v: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true });
  else o[key] = v;
}

/** A value for a key the original lacks: taken as is without its nulls; directives in a new map still apply. */
function takeNew(v: unknown, meta: FieldMeta): unknown {
  if (isPlainObject(v)) return mergeMap(undefined, v, meta.pos);
  return discardNulls(v);
}

function discardNulls(v: unknown): unknown {
  if (Array.isArray(v)) { for (const item of v) discardNulls(item); }
  else if (isPlainObject(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNulls(v[k]);
    }
  }
  return v;
}

function mergeListField(original: unknown[], patch: unknown[], meta: FieldMeta, isDeleteList: boolean): unknown[] {
  if (meta.strategy === MERGE || isDeleteList) return mergeList(original, patch, itemPos(meta.pos), meta.mergeKey, isDeleteList);
  return patch;
}

type ElemKind = 'map' | 'scalar';

/** The kind of the items of the lists; all must agree, and lists of lists are refused. */
function elementKind(...lists: unknown[][]): ElemKind {
  let kind: string | undefined;
  for (const l of lists) {
    for (const v of l) {
      const k = Array.isArray(v) ? 'list' : isPlainObject(v) ? 'map' : v === null ? 'null' : typeof v;
      if (kind === undefined) {
        kind = k;
        if (k === 'list') fail(ERR_NO_LIST_OF_LISTS);
      } else if (kind !== k) fail(`list element types are not identical: ${goSprintV(lists)}`);
    }
  }
  if (kind === undefined) fail('no elements in any of the given slices');
  return kind === 'map' ? 'map' : 'scalar';
}

function mergeList(original: unknown[], patch: unknown[], item: SchemaPos, mergeKey: string, isDeleteList: boolean): unknown[] {
  if (!original.length && !patch.length) return original;
  const kind = elementKind(original, patch);
  let merged: unknown[];
  let orig = original;
  let pat = patch;
  if (kind === 'scalar') {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => d === v));
    merged = dedupe([...original, ...patch]);
  } else {
    if (!mergeKey) fail('cannot merge lists without merge key for type map');
    const [o, p] = mergeSpecialElements(original as Record<string, unknown>[], patch as Record<string, unknown>[], mergeKey);
    orig = o;
    pat = p;
    merged = mergeWithoutSpecialElements([...o], p, mergeKey, item);
  }
  const [patchItems, serverOnly] = mergeKey ? partitionMaps(merged, pat, mergeKey) : partitionPrimitives(merged, pat);
  return normalizeElementOrder(patchItems, serverOnly, pat, orig, mergeKey, kind);
}

function dedupe(values: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) if (!out.some((o) => o === v)) out.push(v);
  return out;
}

/** Handles `$patch` items: delete removes the items with that key, replace makes the patch the list. */
function mergeSpecialElements(original: Record<string, unknown>[], patch: Record<string, unknown>[], mergeKey: string): [Record<string, unknown>[], Record<string, unknown>[]] {
  const plain: Record<string, unknown>[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    if (!Object.hasOwn(v, DIRECTIVE)) { plain.push(v); continue; }
    const d = v[DIRECTIVE];
    if (d === DELETE) {
      if (!Object.hasOwn(v, mergeKey)) fail(noMergeKey(v, mergeKey));
      orig = orig.filter((o) => !(isPlainObject(o) && Object.hasOwn(o, mergeKey) && o[mergeKey] === v[mergeKey]));
    } else if (d === REPLACE) replace = true;
    else if (d === MERGE) fail('merging lists cannot yet be specified in the patch');
    else fail(`unknown patch type: ${goSprintV(d)} in map: ${goSprintV(v)}`);
  }
  return replace ? [plain, []] : [orig, plain];
}

function findByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (!isPlainObject(v)) fail(`value for key ${i} is not a map.`);
    if (Object.hasOwn(v, key) && v[key] === value) return i;
  }
  return -1;
}

function mergeWithoutSpecialElements(original: unknown[], patch: Record<string, unknown>[], mergeKey: string, item: SchemaPos): unknown[] {
  for (const v of patch) {
    if (!Object.hasOwn(v, mergeKey)) fail(noMergeKey(v, mergeKey));
    const i = findByKey(original, mergeKey, v[mergeKey]);
    if (i >= 0) original[i] = mergeMap(original[i] as Record<string, unknown>, v, item);
    else original.push(v);
  }
  return original;
}

function partitionPrimitives(list: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const inPatch: unknown[] = [], serverOnly: unknown[] = [];
  for (const v of list) (by.some((b) => b === v) ? inPatch : serverOnly).push(v);
  return [inPatch, serverOnly];
}

function partitionMaps(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inPatch: unknown[] = [], serverOnly: unknown[] = [];
  for (const v of list) {
    if (!isPlainObject(v)) fail(badArgType('map', v));
    if (!Object.hasOwn(v, mergeKey)) fail(noMergeKey(v, mergeKey));
    (findByKey(by, mergeKey, v[mergeKey]) >= 0 ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

function indexIn(list: unknown[], v: unknown, mergeKey: string, kind: ElemKind): number {
  const key = (x: unknown) => (kind === 'map' ? (isPlainObject(x) ? x[mergeKey] : undefined) : x);
  const k = key(v);
  for (let i = 0; i < list.length; i++) if (key(list[i]) === k) return i;
  return -1;
}

/**
 * Orders the patch items as the patch (or $setElementOrder) orders them and the server-only items as the
 * live list does, then interleaves the two: a server-only item goes before a patch item only when both are
 * in the live list and it came first there.
 */
function normalizeElementOrder(patch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElemKind): unknown[] {
  const p = sortByOrder(patch, patchOrder, mergeKey, kind);
  const s = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  const out: unknown[] = [];
  let i = 0, j = 0;
  while (i < s.length || j < p.length) {
    if (i >= s.length) out.push(p[j++]);
    else if (j >= p.length) out.push(s[i++]);
    else {
      const li = indexIn(serverOrder, s[i], mergeKey, kind), ri = indexIn(serverOrder, p[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(s[i++]);
      else out.push(p[j++]);
    }
  }
  return out;
}

function sortByOrder(items: unknown[], order: unknown[], mergeKey: string, kind: ElemKind): unknown[] {
  let list = items;
  if (kind === 'map') {
    for (const v of [...items, ...order]) {
      if (!isPlainObject(v)) fail(badArgType('map', v));
      if (!Object.hasOwn(v, mergeKey)) fail(noMergeKey(v, mergeKey));
    }
    const toDelete = order.filter((o) => isPlainObject(o) && o[DIRECTIVE] === DELETE) as Record<string, unknown>[];
    for (const d of toDelete) list = list.filter((v) => (v as Record<string, unknown>)[mergeKey] !== d[mergeKey]);
  }
  return list
    .map((v, n) => ({ v, n, at: indexIn(order, v, mergeKey, kind) }))
    .sort((a, b) => (a.at >= 0 && b.at >= 0 ? a.at - b.at : a.at < 0 && b.at < 0 ? a.n - b.n : a.at < 0 ? -1 : 1) || a.n - b.n)
    .map((e) => e.v);
}

/** `$retainKeys: [..]`: every other key of the original map goes; the patch may only set listed keys. */
function applyRetainKeys(original: Record<string, unknown>, patch: Record<string, unknown>): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) fail(ERR_BAD_RETAIN_KEYS);
  const keep = new Set(list);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) fail(ERR_RETAIN_KEYS_MISMATCH);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash < 0 || s.slice(0, slash) !== prefix) fail(prefix === DELETE_FROM_PRIMITIVE_LIST ? ERR_BAD_PRIMITIVE_LIST : ERR_BAD_SET_ELEMENT_ORDER);
  return s.slice(slash + 1);
}

/** `$setElementOrder/<field>`: merges that list now and puts its items in the given order. */
function mergeSetElementOrder(original: Record<string, unknown>, patch: Record<string, unknown>, pos: SchemaPos): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) fail(badArgType('slice', order));
    const field = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = Object.hasOwn(original, field) && original[field] !== undefined;
    const foundPatch = Object.hasOwn(patch, field) && patch[field] !== undefined;
    const originalList = foundOriginal ? original[field] : undefined;
    const patchList = foundPatch ? patch[field] : undefined;
    if (foundOriginal && !Array.isArray(originalList)) fail(badArgType('slice', originalList));
    if (foundPatch && !Array.isArray(patchList)) fail(badArgType('slice', patchList));
    const meta = fieldMeta(pos, field);
    validateAgainstOrder((patchList as unknown[] | undefined) ?? [], order, meta.mergeKey);
    let merged: unknown[];
    if (foundOriginal && !foundPatch) merged = originalList as unknown[];
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList as unknown[]);
    else if (foundOriginal && foundPatch) merged = mergeListField(originalList as unknown[], patchList as unknown[], meta, false);
    else continue;
    const [patchItems, serverOnly] = meta.mergeKey ? partitionMaps(merged, order, meta.mergeKey) : partitionPrimitives(merged, order);
    const kind = elementKind((originalList as unknown[] | undefined) ?? [], (patchList as unknown[] | undefined) ?? []);
    original[field] = normalizeElementOrder(patchItems, serverOnly, order, (originalList as unknown[] | undefined) ?? [], meta.mergeKey, kind);
    delete patch[field];
  }
}

function removeDirectives(list: unknown[]): unknown[] {
  return list.filter((v) => !(isPlainObject(v) && Object.hasOwn(v, DIRECTIVE))).map((v) => (isPlainObject(v) ? stripDirectiveKeys(v) : v));
}

function stripDirectiveKeys(m: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (k === DIRECTIVE || k === RETAIN_KEYS || k.startsWith(SET_ELEMENT_ORDER) || k.startsWith(DELETE_FROM_PRIMITIVE_LIST)) continue;
    out[k] = isPlainObject(v) ? stripDirectiveKeys(v) : Array.isArray(v) ? removeDirectives(v) : v;
  }
  return out;
}

/** The patch list's items must appear in the $setElementOrder list, in the same relative order. */
function validateAgainstOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (!order.length || !patchList.length) return;
  let items = patchList;
  if (mergeKey) {
    for (const v of patchList) if (!isPlainObject(v)) fail(badArgType('map', v));
    items = patchList.filter((v) => (v as Record<string, unknown>)[DIRECTIVE] !== DELETE);
  }
  let pi = 0, oi = 0;
  while (pi < items.length && oi < order.length) {
    const p = items[pi];
    if (isPlainObject(p) && Object.hasOwn(p, DIRECTIVE)) { pi++; continue; }
    if (keyEqual(p, order[oi], mergeKey)) pi++;
    oi++;
  }
  if (pi < items.length && oi >= order.length) {
    fail(`The order in patch list:\n${goSprintV(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goSprintV(order)}\n`);
  }
}

function keyEqual(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return a === b;
  if (!isPlainObject(a)) fail(badArgType('map', a));
  if (!isPlainObject(b)) fail(badArgType('map', b));
  if (!Object.hasOwn(a, mergeKey)) fail(noMergeKey(a, mergeKey));
  if (!Object.hasOwn(b, mergeKey)) fail(noMergeKey(b, mergeKey));
  return a[mergeKey] === b[mergeKey];
}

function noMergeKey(m: unknown, key: string): string {
  return `map: ${goSprintV(m)} does not contain declared merge key: ${key}`;
}

function goKind(v: unknown): string {
  if (Array.isArray(v)) return 'slice';
  if (isPlainObject(v)) return 'map';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'invalid';
}

function badArgType(expected: string, actual: unknown): string {
  return `expected a ${expected}, but received a ${goKind(actual)}`;
}
