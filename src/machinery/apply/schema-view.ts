// The schema as structured merge reads it, derived from our TypeBox schemas and their merge markers:
// - lists are atomic, sets of scalars (`set`), or associative by key fields (`map` + list-map-keys); without
//   a list type, patch strategy `merge` with a merge key makes them associative on that key, `merge` alone
//   a set, anything else atomic;
// - structs and maps are granular unless marked atomic (`x-platform-map-type: atomic`);
// - free-form values are "deduced" from the value: scalars, atomic lists, granular maps.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, preservesUnknown, type RefScope, scopeOf } from '../schema/schema-kind.ts';
import type { Json } from './value.ts';

/** A position in the schema: a schema node and the `$id` scope its `$ref`s resolve in; or free-form. */
export type TypeRef = { readonly schema: TSchema; readonly scope: RefScope } | 'deduced' | 'none';

export type Atom =
  | { readonly kind: 'scalar' }
  /** A struct (declared fields) or a map (`elem` for every key); structs that keep unknown fields have both. */
  | { readonly kind: 'map'; readonly fields: ReadonlyMap<string, TypeRef> | null; readonly elem: TypeRef | null; readonly atomic: boolean }
  /** keys: the key fields of an associative list of objects; empty for a set of scalars. */
  | { readonly kind: 'list'; readonly elem: TypeRef; readonly atomic: boolean; readonly keys: readonly string[]; readonly keyDefaults: ReadonlyMap<string, Json> }
  | { readonly kind: 'deduced' }
  | { readonly kind: 'none' };

interface SchemaMarkers {
  'x-platform-list-type'?: string;
  'x-platform-list-map-keys'?: string[];
  'x-platform-patch-merge-key'?: string;
  'x-platform-patch-strategy'?: string;
  'x-platform-map-type'?: string;
  'x-platform-preserve-unknown-fields'?: boolean;
  properties?: Record<string, TSchema>;
  default?: unknown;
}

export function rootType(schema: TSchema): TypeRef {
  return { schema, scope: EMPTY_SCOPE };
}

const SCALAR: Atom = { kind: 'scalar' };
const DEDUCED: Atom = { kind: 'deduced' };
const NONE: Atom = { kind: 'none' };
const cache = new WeakMap<TSchema, { scope: RefScope; atom: Atom }>();

/** Atoms by TypeRef object: the refs of a type's fields are made once, so most lookups end here. */
const byRef = new WeakMap<object, Atom>();

/** The atom a type resolves to, independent of any value. */
export function resolve(tr: TypeRef): Atom {
  if (tr === 'deduced') return DEDUCED;
  if (tr === 'none') return NONE;
  const known = byRef.get(tr);
  if (known) return known;
  const atom = resolveSchema(tr);
  byRef.set(tr, atom);
  return atom;
}

function resolveSchema(tr: Exclude<TypeRef, 'deduced' | 'none'>): Atom {
  const schema = deref(tr.schema, tr.scope);
  const hit = cache.get(schema);
  if (hit && hit.scope === tr.scope) return hit.atom;
  const atom = build(schema, scopeOf(schema, tr.scope));
  cache.set(schema, { scope: tr.scope, atom });
  return atom;
}

function build(schema: TSchema, scope: RefScope): Atom {
  const s = asSchema(schema) as ReturnType<typeof asSchema> & SchemaMarkers;
  const atomicMap = s['x-platform-map-type'] === 'atomic';
  switch (kindOf(schema)) {
    case 'object': {
      const fields = new Map<string, TypeRef>();
      for (const [name, sub] of Object.entries(s.properties ?? {})) fields.set(name, { schema: sub, scope });
      return { kind: 'map', fields, elem: preservesUnknown(schema) ? 'deduced' : null, atomic: atomicMap };
    }
    case 'map': {
      const value = mapValueSchema(schema);
      return { kind: 'map', fields: null, elem: value ? { schema: value, scope } : 'deduced', atomic: atomicMap };
    }
    case 'array': {
      const item = itemSchema(schema);
      const elem: TypeRef = item ? { schema: item, scope } : 'deduced';
      const listType = s['x-platform-list-type'];
      const strategy = (s['x-platform-patch-strategy'] ?? '').split(',');
      const mergeKey = s['x-platform-patch-merge-key'];
      let keys: string[] | null = null;
      if (listType === 'set') keys = [];
      else if (listType === 'map') keys = s['x-platform-list-map-keys'] ?? [];
      else if (listType === undefined && strategy.includes('merge')) keys = mergeKey ? [mergeKey] : [];
      if (keys === null) return { kind: 'list', elem, atomic: true, keys: [], keyDefaults: new Map() };
      return { kind: 'list', elem, atomic: false, keys, keyDefaults: keyDefaults(item, scope, keys) };
    }
    case 'any':
      return DEDUCED;
    default:
      return SCALAR;
  }
}

function keyDefaults(item: TSchema | undefined, scope: RefScope, keys: readonly string[]): Map<string, Json> {
  const out = new Map<string, Json>();
  if (!item) return out;
  const props = (asSchema(deref(item, scope)) as SchemaMarkers).properties ?? {};
  for (const k of keys) {
    const d = props[k] ? (asSchema(props[k]) as SchemaMarkers).default : undefined;
    if (d !== undefined) out.set(k, d as Json);
  }
  return out;
}

const DEDUCED_LIST: Atom = { kind: 'list', elem: 'deduced', atomic: true, keys: [], keyDefaults: new Map() };
const DEDUCED_MAP: Atom = { kind: 'map', fields: null, elem: 'deduced', atomic: false };

/** The atom that handles `value` at `tr`: free-form types take the shape of the value. */
export function atomFor(tr: TypeRef, value: unknown): Atom {
  const a = resolve(tr);
  if (a.kind !== 'deduced' && a.kind !== 'none') return a;
  if (Array.isArray(value)) return DEDUCED_LIST;
  if (value !== null && typeof value === 'object') return DEDUCED_MAP;
  if (value === null || value === undefined) return DEDUCED_MAP;
  return SCALAR;
}

/** The type of a map entry or struct field. */
export function fieldType(atom: Atom, name: string): TypeRef {
  if (atom.kind === 'map') return atom.fields?.get(name) ?? atom.elem ?? 'deduced';
  if (atom.kind === 'deduced') return 'deduced';
  return 'none';
}

/** True for a declared struct field (as opposed to a map key). */
export function isNamedField(atom: Atom, name: string): boolean {
  return atom.kind === 'map' && !!atom.fields?.has(name);
}

/** The shape of a value, for matching it against an atom. */
export function valueShape(v: unknown): 'scalar' | 'list' | 'map' | 'null' {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'map';
  return 'scalar';
}
