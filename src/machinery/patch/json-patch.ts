// JSON Patch (RFC 6902) as Kubernetes v1.32 applies it: the semantics and error texts of
// gopkg.in/evanphx/json-patch.v4, which Kubernetes uses. That library departs from the RFC in ways clients
// can see, and they are kept here: `replace` of a missing object key adds it, negative array indexes
// count from the end, an operation without `value` writes null, `test` of a missing path against null
// passes, and the whole document may only be replaced (`path: ""`) by an object or a list.
//
// fast-json-patch (the library the architecture names) follows the RFC instead and has its own error
// texts, so it cannot give Kubernetes' answers; this module is small enough to own the semantics.
import { strictDecodingErrors } from '../schema/decode-errors.ts';
import { JsonSyntaxError, type ParsedJson, parseJsonStrict } from '../schema/json-parse.ts';
import { deepClone, deepEqual, isPlainObject } from '../schema/walk.ts';
import { type FieldValidation, MAX_JSON_PATCH_OPERATIONS, patchBadRequest, patchOperationFailed, tooManyPatchOperations } from './patch-errors.ts';
import { goJsonKind } from '../go-json.ts';

export interface DecodedJsonPatch {
  /** The operations as sent (objects; a null entry stays null and fails as `Unexpected kind: unknown`). */
  operations: unknown[];
  /** Under fieldValidation Strict or Warn: `json patch unknown field "[0].foo"`, `json patch duplicate field "[0].op"`. */
  strictErrors: string[];
}

const OP_FIELDS = new Set(['op', 'path', 'from', 'value']);

/**
 * Reads a JSON patch body. Throws StatusError 400 for a body that is not a list of operations (with the
 * texts of Kubernetes' strict decoder under Strict/Warn, of the patch library under Ignore) and 413 for
 * more than 10000 operations.
 */
export function decodeJsonPatch(text: string, fieldValidation: FieldValidation = 'Ignore'): DecodedJsonPatch {
  const strict = fieldValidation !== 'Ignore';
  let parsed: ParsedJson;
  try {
    parsed = parseJsonStrict(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    throw patchBadRequest(strict ? `error decoding patch: ${e.message}` : e.message);
  }
  const value = parsed.value;
  const unknown: string[] = [];
  if (value !== null && !Array.isArray(value)) {
    throw patchBadRequest(strict
      ? `error decoding patch: json: cannot unmarshal ${goJsonKind(value)} into Go value of type []handlers.jsonPatchOp`
      : `json: cannot unmarshal ${goJsonKind(value)} into Go value of type jsonpatch.Patch`);
  }
  const operations = (value ?? []) as unknown[];
  for (let i = 0; i < operations.length; i++) {
    const op = operations[i];
    if (op === null) continue;
    if (!isPlainObject(op)) {
      throw patchBadRequest(strict
        ? `error decoding patch: json: cannot unmarshal ${goJsonKind(op)} into Go value of type handlers.jsonPatchOp`
        : `json: cannot unmarshal ${goJsonKind(op)} into Go value of type jsonpatch.Operation`);
    }
    if (!strict) continue;
    for (const field of ['op', 'path', 'from']) {
      const v = op[field];
      if (v !== undefined && v !== null && typeof v !== 'string') {
        throw patchBadRequest(`error decoding patch: json: cannot unmarshal ${goJsonKind(v)} into Go struct field jsonPatchOp.${field} of type string`);
      }
    }
    for (const k of Object.keys(op)) if (!OP_FIELDS.has(k)) unknown.push(`[${i}].${k}`);
  }
  const strictErrors = strict ? strictDecodingErrors(unknown, parsed.duplicates, parsed.positions).map((e) => `json patch ${e}`) : [];
  if (operations.length > MAX_JSON_PATCH_OPERATIONS) throw tooManyPatchOperations(operations.length);
  return { operations, strictErrors };
}

/** A container the patch walks into: an object or a list, reached through its parent. */
type Container = Record<string, unknown> | unknown[];

class PatchFailure extends Error {}

function fail(message: string): never {
  throw new PatchFailure(message);
}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

/** Go's strconv.Atoi, with its NumError texts. */
function atoi(s: string): number | string {
  if (!/^[+-]?\d+$/.test(s)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`;
  const n = Number(s);
  if (!Number.isSafeInteger(n)) return `strconv.Atoi: parsing ${JSON.stringify(s)}: value out of range`;
  return n;
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The value at `key` of a container: undefined for a missing object key; a string is an error. */
function get(con: Container, key: string): unknown {
  if (!Array.isArray(con)) return Object.hasOwn(con, key) ? con[key] : undefined;
  const idx = atoi(key);
  if (typeof idx === 'string') return new ErrorText(idx);
  let i = idx;
  if (i < 0) {
    if (i < -con.length) return new ErrorText(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
    i += con.length;
  }
  if (i >= con.length) return new ErrorText(`Unable to access invalid index: ${idx}: ${INVALID_INDEX}`);
  return con[i];
}

class ErrorText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function setKey(con: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(con, key, { value, writable: true, enumerable: true, configurable: true });
  else con[key] = value;
}

function add(con: Container, key: string, value: unknown): string | null {
  if (!Array.isArray(con)) {
    setKey(con, key, value);
    return null;
  }
  if (key === '-') {
    con.push(value);
    return null;
  }
  const idx = atoi(key);
  if (typeof idx === 'string') return `value was not a proper array index: '${key}': ${idx}`;
  const size = con.length + 1;
  let i = idx;
  if (i >= size) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
  if (i < 0) {
    if (i < -size) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
    i += size;
  }
  con.splice(i, 0, value);
  return null;
}

function remove(con: Container, key: string): string | null {
  if (!Array.isArray(con)) {
    if (!Object.hasOwn(con, key)) return `Unable to remove nonexistent key: ${key}: ${MISSING}`;
    delete con[key];
    return null;
  }
  const idx = atoi(key);
  if (typeof idx === 'string') return idx;
  let i = idx;
  if (i >= con.length) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
  if (i < 0) {
    if (i < -con.length) return `Unable to access invalid index: ${idx}: ${INVALID_INDEX}`;
    i += con.length;
  }
  con.splice(i, 1);
  return null;
}

function set(con: Container, key: string, value: unknown): void {
  if (!Array.isArray(con)) {
    setKey(con, key, value);
    return;
  }
  let i = atoi(key) as number;
  if (i < 0) i += con.length;
  con[i] = value;
}

/** evanphx findObject: the container holding the last token, or null when any step is missing. */
function findObject(doc: Container, path: string): [Container, string] | null {
  const split = path.split('/');
  if (split.length < 2) return null;
  let con: Container = doc;
  for (let i = 1; i < split.length - 1; i++) {
    const next = get(con, decodeToken(split[i]));
    if (next === undefined || next === null || next instanceof ErrorText || typeof next !== 'object') return null;
    con = next as Container;
  }
  return [con, decodeToken(split[split.length - 1])];
}

/** An operation field read as the library does: a string, absent (null/missing), or a decode error. */
function stringField(op: Record<string, unknown>, field: string): string | null | ErrorText {
  const v = op[field];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') return new ErrorText(`json: cannot unmarshal ${goJsonKind(v)} into Go value of type string`);
  return v;
}

function kindOf(op: Record<string, unknown> | null): string {
  const v = op?.op;
  return typeof v === 'string' ? v : 'unknown';
}

/** The `value` member: undefined when absent. JSON null and absent both count as "no value" where Go says so. */
function valueOf(op: Record<string, unknown>): unknown {
  return Object.hasOwn(op, 'value') ? op.value : undefined;
}

function applyOperation(root: { doc: Container }, op: Record<string, unknown>): void {
  const kind = kindOf(op);
  switch (kind) {
    case 'add': {
      const path = stringField(op, 'path');
      if (typeof path !== 'string') fail(`add operation failed to decode path: ${MISSING}`);
      const found = findObject(root.doc, path);
      if (!found) fail(`add operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      const v = valueOf(op);
      const err = add(found[0], found[1], v === undefined ? null : deepClone(v));
      if (err) fail(`error in add for path: '${path}': ${err}`);
      return;
    }
    case 'remove': {
      const path = stringField(op, 'path');
      if (typeof path !== 'string') fail(`remove operation failed to decode path: ${MISSING}`);
      const found = findObject(root.doc, path);
      if (!found) fail(`remove operation does not apply: doc is missing path: "${path}": ${MISSING}`);
      const err = remove(found[0], found[1]);
      if (err) fail(`error in remove for path: '${path}': ${err}`);
      return;
    }
    case 'replace': {
      const path = stringField(op, 'path');
      if (typeof path !== 'string') fail(`replace operation failed to decode path: ${path === null ? `operation missing path field: ${MISSING}` : path.text}`);
      const v = valueOf(op);
      if (path === '') {
        // Go formats a nil error with %w here, hence the odd suffix.
        if (typeof v !== 'object' || v === null) fail('replace operation value must be object or array: %!w(<nil>)');
        root.doc = deepClone(v) as Container;
        return;
      }
      const found = findObject(root.doc, path);
      if (!found) fail(`replace operation does not apply: doc is missing path: ${path}: ${MISSING}`);
      if (get(found[0], found[1]) instanceof ErrorText) fail(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
      set(found[0], found[1], v === undefined ? null : deepClone(v));
      return;
    }
    case 'move': {
      const from = stringField(op, 'from');
      if (typeof from !== 'string') fail(`move operation failed to decode from: ${from === null ? `operation, missing from field: ${MISSING}` : from.text}`);
      const source = findObject(root.doc, from);
      if (!source) fail(`move operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
      const [sourceCon, sourceKey] = source;
      const val = get(sourceCon, sourceKey);
      if (val instanceof ErrorText) fail(`error in move for path: '${sourceKey}': ${val.text}`);
      const removeErr = remove(sourceCon, sourceKey);
      if (removeErr) fail(`error in move for path: '${sourceKey}': ${removeErr}`);
      const path = stringField(op, 'path');
      if (typeof path !== 'string') fail(`move operation failed to decode path: ${path === null ? `operation missing path field: ${MISSING}` : path.text}`);
      const dest = findObject(root.doc, path);
      if (!dest) fail(`move operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
      const err = add(dest[0], dest[1], val === undefined ? null : val);
      if (err) fail(`error in move for path: '${path}': ${err}`);
      return;
    }
    case 'test': {
      const path = stringField(op, 'path');
      if (typeof path !== 'string') fail(`test operation failed to decode path: ${path === null ? `operation missing path field: ${MISSING}` : path.text}`);
      const v = valueOf(op);
      if (path === '') {
        if (!deepEqual(root.doc, v)) fail(`testing value ${path} failed: test failed`);
        return;
      }
      const found = findObject(root.doc, path);
      if (!found) fail(`test operation does not apply: is missing path: ${path}: ${MISSING}`);
      const val = get(found[0], found[1]);
      if (val instanceof ErrorText) fail(`error in test for path: '${path}': ${val.text}`);
      if (val === undefined || val === null) {
        if (v === undefined || v === null) return;
        fail(`testing value ${path} failed: test failed`);
      }
      if (v === undefined || !deepEqual(val, v)) fail(`testing value ${path} failed: test failed`);
      return;
    }
    case 'copy': {
      const from = stringField(op, 'from');
      if (typeof from !== 'string') fail(`copy operation failed to decode from: ${from === null ? `operation, missing from field: ${MISSING}` : from.text}`);
      const source = findObject(root.doc, from);
      if (!source) fail(`copy operation does not apply: doc is missing from path: ${from}: ${MISSING}`);
      const val = get(source[0], source[1]);
      if (val instanceof ErrorText) fail(`error in copy for from: '${from}': ${val.text}`);
      const path = stringField(op, 'path');
      if (typeof path !== 'string') fail(`copy operation failed to decode path: ${MISSING}`);
      const dest = findObject(root.doc, path);
      if (!dest) fail(`copy operation does not apply: doc is missing destination path: ${path}: ${MISSING}`);
      const err = add(dest[0], dest[1], val === undefined ? null : deepClone(val));
      if (err) fail(`error while adding value during copy: ${err}`);
      return;
    }
    default:
      fail(`Unexpected kind: ${kind}`);
  }
}

/**
 * Applies a JSON patch to `doc` (left untouched) and returns the patched copy. `patch` is the body text
 * (decoded with fieldValidation=Ignore) or a decodeJsonPatch result. Throws StatusError: 400/413 from
 * decoding, 422 `the server rejected our request due to an error in our request` with the library's
 * message as the cause when an operation does not apply.
 */
export function applyJsonPatch<T = unknown>(doc: T, patch: string | DecodedJsonPatch): T {
  const decoded = typeof patch === 'string' ? decodeJsonPatch(patch) : patch;
  const root = { doc: deepClone(doc) as unknown as Container };
  try {
    for (const op of decoded.operations) {
      if (op === null || !isPlainObject(op)) fail(`Unexpected kind: ${kindOf(null)}`);
      applyOperation(root, op);
    }
  } catch (e) {
    if (e instanceof PatchFailure) throw patchOperationFailed(e.message);
    throw e;
  }
  return root.doc as unknown as T;
}
