// A decoded write made into what Kubernetes stores and answers: it decodes every body into its Go structs,
// stores them as protobuf and encodes them back with encoding/json. What that round trip loses, this pass
// removes, in place, before defaulting (Kubernetes defaults the decoded structs):
// - the zero of a non-pointer `omitempty` number or boolean (go-zero-values.ts),
// - an empty list or map, or makes it `null` where the Go field lacks `omitempty` (go-empty-collections.ts).
// One plan per schema (cached by schema object) lists only the paths that lead to such a field, so a kind
// without any costs one lookup per write, and one walk serves both rules.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, preservesUnknown, type RefScope, scopeOf } from './schema/schema-kind.ts';
import { zeroIsUnsetFields } from './go-zero-values.ts';
import { emptyIsKept, emptyIsNull } from './go-empty-collections.ts';

interface Field {
  key: string;
  /** The container the field declares: an empty one of another type is left for validation. */
  array: boolean;
}

interface Plan {
  kind: 'object' | 'array' | 'map' | 'none';
  /** Properties removed when they hold their type's zero (0, or false for a boolean). */
  zeros: { key: string; zero: 0 | false }[];
  /** Properties removed when they hold an empty list or map. */
  drops: Field[];
  /** Properties set to null when absent or empty. */
  nulls: Field[];
  /** Properties whose value may hold such fields further down. */
  children: { key: string; plan: Plan }[];
  /** Plan for list items or map values. */
  item: Plan | null;
  /** True when this plan (and everything under it) does nothing. */
  empty: boolean;
}

const cache = new WeakMap<TSchema, Plan>();

function compile(schema: TSchema, scope: RefScope): Plan {
  const resolved = deref(schema, scope);
  const cached = cache.get(resolved);
  if (cached) return cached;
  const plan: Plan = { kind: 'none', zeros: [], drops: [], nulls: [], children: [], item: null, empty: false };
  // Registered before the children so recursive schemas terminate; such a plan is kept (not empty).
  cache.set(resolved, plan);
  const inner = scopeOf(resolved, scope);
  const kind = kindOf(resolved);
  if (kind === 'object') {
    plan.kind = 'object';
    const ref = asSchema(resolved)['x-ref'] as string | undefined;
    const properties = asSchema(resolved).properties ?? {};
    for (const key of zeroIsUnsetFields(ref)) {
      if (key in properties) plan.zeros.push({ key, zero: kindOf(deref(properties[key], inner)) === 'boolean' ? false : 0 });
    }
    // Free-form values keep what was sent.
    const typed = !preservesUnknown(resolved);
    for (const [key, prop] of Object.entries(properties)) {
      const propKind = kindOf(deref(prop, inner));
      if (typed && (propKind === 'array' || propKind === 'map')) {
        const field = { key, array: propKind === 'array' };
        if (emptyIsNull(ref, key)) plan.nulls.push(field);
        // managedFields is the field manager's: an empty list sent asks it to clear ownership.
        else if (!(ref === 'meta.v1.ObjectMeta' && key === 'managedFields') && !emptyIsKept(ref, key)) plan.drops.push(field);
      }
      const child = compile(prop, inner);
      if (!child.empty) plan.children.push({ key, plan: child });
    }
  } else if (kind === 'array' || kind === 'map') {
    plan.kind = kind;
    const items = kind === 'array' ? itemSchema(resolved) : mapValueSchema(resolved);
    const child = items ? compile(items, inner) : null;
    if (child && !child.empty) plan.item = child;
  }
  plan.empty = plan.zeros.length === 0 && plan.drops.length === 0 && plan.nulls.length === 0 && plan.children.length === 0 && plan.item === null;
  return plan;
}

/** An empty value of the container kind the field declares. */
function isEmpty(v: unknown, array: boolean): boolean {
  if (array) return Array.isArray(v) && v.length === 0;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}

function visit(v: unknown, plan: Plan): void {
  if (typeof v !== 'object' || v === null) return;
  if (plan.kind === 'object') {
    if (Array.isArray(v)) return;
    const o = v as Record<string, unknown>;
    for (const z of plan.zeros) if (o[z.key] === z.zero) delete o[z.key];
    for (const d of plan.drops) if (isEmpty(o[d.key], d.array)) delete o[d.key];
    for (const n of plan.nulls) if (o[n.key] === undefined || isEmpty(o[n.key], n.array)) o[n.key] = null;
    for (const c of plan.children) {
      const x = o[c.key];
      if (typeof x === 'object' && x !== null) visit(x, c.plan);
    }
  } else if (plan.kind === 'array') {
    if (!Array.isArray(v) || !plan.item) return;
    for (const x of v) visit(x, plan.item);
  } else if (plan.kind === 'map') {
    if (Array.isArray(v) || !plan.item) return;
    const o = v as Record<string, unknown>;
    for (const k in o) visit(o[k], plan.item);
  }
}

/** Makes `obj` (in place) what Kubernetes' Go types store and encode; `schema` is the kind's. Returns `obj`. */
export function normalizeAsGoEncodes<T>(obj: T, schema: TSchema): T {
  const plan = compile(schema, EMPTY_SCOPE);
  if (!plan.empty) visit(obj, plan);
  return obj;
}
