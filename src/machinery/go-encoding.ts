// A decoded write made into what Kubernetes stores and answers: it decodes every body into its Go structs,
// stores them as protobuf and encodes them back with encoding/json. What that round trip loses, this pass
// removes, in place, before defaulting (Kubernetes defaults the decoded structs):
// - the zero of a non-pointer `omitempty` number or boolean (go-zero-values.ts),
// - an empty list or map, or makes it `null` where the Go field lacks `omitempty` (go-empty-collections.ts).
// One plan per schema (cached by schema object) lists only the paths that lead to such a field, so a kind
// without any costs one lookup per write, and one walk serves both rules.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, EMPTY_SCOPE, kindOf, preservesUnknown } from './schema/schema-kind.ts';
import { planCompiler, type PlanNode } from './schema/plan.ts';
import { zeroIsUnsetFields } from './go-zero-values.ts';
import { emptyIsKept, emptyIsNull } from './go-empty-collections.ts';

interface Field {
  key: string;
  /** The container the field declares: an empty one of another type is left for validation. */
  array: boolean;
}

interface Plan extends PlanNode<Plan> {
  /** Properties removed when they hold their type's zero (0, or false for a boolean). */
  zeros: { key: string; zero: 0 | false }[];
  /** Properties removed when they hold an empty list or map. */
  drops: Field[];
  /** Properties set to null when absent or empty. */
  nulls: Field[];
}

const compile = planCompiler<Plan>({
  blank: () => ({ kind: 'none', zeros: [], drops: [], nulls: [], children: [], item: null, empty: false }),
  property(plan, key, prop, resolved) {
    const ref = asSchema(resolved)['x-ref'] as string | undefined;
    const propKind = kindOf(prop);
    if (zeroIsUnsetFields(ref).includes(key)) plan.zeros.push({ key, zero: propKind === 'boolean' ? false : 0 });
    // Free-form values keep what was sent.
    if ((propKind === 'array' || propKind === 'map') && !preservesUnknown(resolved)) {
      const field = { key, array: propKind === 'array' };
      if (emptyIsNull(ref, key)) plan.nulls.push(field);
      // managedFields is the field manager's: an empty list sent asks it to clear ownership.
      else if (!(ref === 'meta.v1.ObjectMeta' && key === 'managedFields') && !emptyIsKept(ref, key)) plan.drops.push(field);
    }
  },
  doesNothing: (plan) => plan.zeros.length === 0 && plan.drops.length === 0 && plan.nulls.length === 0,
});

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
