// Small helpers over schemas and JSON values shared by decoding, patching, apply and the registry.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, type RefScope, scopeOf } from './schema-kind.ts';

export type PathSegment = string | number;

/**
 * Splits a field path as field errors write it: `spec.containers[0].name`, `metadata.labels[app.svc.io/x]`.
 * Bracketed segments that are all digits become numbers.
 */
export function parseFieldPath(path: string): PathSegment[] {
  const segs: PathSegment[] = [];
  let i = 0;
  let cur = '';
  let pending = false;
  while (i < path.length) {
    const c = path[i];
    if (c === '.') {
      if (pending) segs.push(cur);
      cur = '';
      pending = false;
      i++;
    } else if (c === '[') {
      if (pending) segs.push(cur);
      const end = path.indexOf(']', i + 1);
      const inner = end === -1 ? path.slice(i + 1) : path.slice(i + 1, end);
      segs.push(/^\d+$/.test(inner) ? Number(inner) : inner);
      cur = '';
      pending = false;
      i = end === -1 ? path.length : end + 1;
    } else {
      cur += c;
      pending = true;
      i++;
    }
  }
  if (pending) segs.push(cur);
  return segs;
}

/**
 * The schema of the field at `path` (a field path or its segments), or undefined when the schema does
 * not declare it. Inside a map any key leads to the value schema; inside a list any segment leads to the
 * item schema; inside free-form data every path leads to the free-form schema itself.
 */
export function schemaAt(schema: TSchema, path: string | readonly PathSegment[]): TSchema | undefined {
  const segs = typeof path === 'string' ? parseFieldPath(path) : path;
  let scope: RefScope = EMPTY_SCOPE;
  let s = deref(schema, scope);
  for (const seg of segs) {
    scope = scopeOf(s, scope);
    let next: TSchema | undefined;
    switch (kindOf(s)) {
      case 'object':
        next = asSchema(s).properties?.[String(seg)];
        break;
      case 'map':
        next = mapValueSchema(s);
        break;
      case 'array':
        next = itemSchema(s);
        break;
      case 'any':
        return s;
      default:
        return undefined;
    }
    if (next === undefined) return undefined;
    s = deref(next, scope);
  }
  return s;
}

/**
 * Structural equality of JSON values. Properties whose value is undefined count as absent (they do not
 * survive JSON encoding either), so the answer matches comparing the encoded forms up to key order.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>, bo = b as Record<string, unknown>;
  let count = 0;
  for (const k in ao) {
    const av = ao[k];
    if (av === undefined) continue;
    if (!deepEqual(av, bo[k])) return false;
    count++;
  }
  for (const k in bo) if (bo[k] !== undefined) count--;
  return count === 0;
}

/** deepEqual of two objects with `metadata` compared last: an update's changes are rarely there alone, and
 *  metadata holds the largest part (managedFields), so an object that changed is told apart sooner. */
export function deepEqualMetadataLast(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const k in a) if (k !== 'metadata' && !deepEqual(a[k], b[k])) return false;
  for (const k in b) if (k !== 'metadata' && a[k] === undefined && b[k] !== undefined) return false;
  return deepEqual(a.metadata, b.metadata);
}

/** A deep copy of a JSON value (plain objects, arrays, primitives); other objects via structuredClone. */
export function deepClone<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = deepClone(value[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const k in src) {
    const v = src[k];
    if (k === '__proto__') Object.defineProperty(out, k, { value: deepClone(v), writable: true, enumerable: true, configurable: true });
    else out[k] = deepClone(v);
  }
  return out as T;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
