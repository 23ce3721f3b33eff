// JSON Merge Patch (RFC 7386) as Kubernetes v1.32 applies it (evanphx/json-patch.v4 MergePatch): objects
// merge recursively, `null` deletes, everything else replaces. Where the library differs from the RFC the
// library wins, since clients see it:
// - a patch that is `null` or a scalar is refused (400 `Invalid JSON Patch`); a list replaces the document;
// - a value set where the document had nothing (or a non-object) has its nulls pruned, also inside objects
//   in lists; a non-object value replacing an object is taken as is.
import { strictDecodingErrors } from '../schema/decode-errors.ts';
import { JsonSyntaxError, parseJsonStrict } from '../schema/json-parse.ts';
import { deepClone, isPlainObject } from '../schema/walk.ts';
import { type FieldValidation, patchBadRequest } from './patch-errors.ts';
import { goJsonKind } from '../go-json.ts';

export const INVALID_MERGE_PATCH = 'Invalid JSON Patch';

export interface DecodedMergePatch {
  patch: unknown;
  /** Under fieldValidation Strict or Warn: `duplicate field "metadata.labels.a"` for keys repeated in the patch. */
  strictErrors: string[];
}

/**
 * Reads a merge patch body. Under Strict/Warn Kubernetes first decodes it strictly into a map, so a
 * malformed or non-object body is `error decoding patch: ...`; under Ignore the library's
 * `Invalid JSON Patch` answers both. Throws StatusError 400.
 */
export function decodeMergePatch(text: string, fieldValidation: FieldValidation = 'Ignore'): DecodedMergePatch {
  const strict = fieldValidation !== 'Ignore';
  let parsed;
  try {
    parsed = parseJsonStrict(text);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    throw patchBadRequest(strict ? `error decoding patch: ${e.message}` : INVALID_MERGE_PATCH);
  }
  const patch = parsed.value;
  if (strict && patch !== null && !isPlainObject(patch)) {
    throw patchBadRequest(`error decoding patch: json: cannot unmarshal ${goJsonKind(patch)} into Go value of type map[string]interface {}`);
  }
  if (patch === null || (typeof patch !== 'object')) throw patchBadRequest(INVALID_MERGE_PATCH);
  return { patch, strictErrors: strict ? strictDecodingErrors([], parsed.duplicates, parsed.positions) : [] };
}

/**
 * Applies a merge patch (a parsed value) to `target` and returns the result; neither input is modified.
 * Throws StatusError 400 `Invalid JSON Patch` for a null or scalar patch.
 */
export function applyMergePatch<T = unknown>(target: T, patch: unknown): T {
  if (Array.isArray(patch)) return pruneNulls(deepClone(patch)) as T;
  if (!isPlainObject(patch)) throw patchBadRequest(INVALID_MERGE_PATCH);
  if (!isPlainObject(target)) return pruneNulls(deepClone(patch)) as T;
  const doc = deepClone(target) as Record<string, unknown>;
  mergeInto(doc, patch);
  return doc as T;
}

function mergeInto(doc: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const k in patch) {
    const v = patch[k];
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = Object.hasOwn(doc, k) ? doc[k] : undefined;
    let next: unknown;
    if (cur === undefined || cur === null || !isPlainObject(cur)) next = pruneNulls(deepClone(v));
    else if (!isPlainObject(v)) next = deepClone(v);
    else {
      mergeInto(cur, v);
      continue;
    }
    if (k === '__proto__') Object.defineProperty(doc, k, { value: next, writable: true, enumerable: true, configurable: true });
    else doc[k] = next;
  }
}

/** Removes null members of objects, recursively through objects and lists (null list items stay). */
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) {
    for (const item of v) pruneNulls(item);
  } else if (isPlainObject(v)) {
    for (const k in v) {
      if (v[k] === null) delete v[k];
      else pruneNulls(v[k]);
    }
  }
  return v;
}
