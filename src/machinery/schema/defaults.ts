// Schema defaults (`default` on a property), applied as Kubernetes defaulting does: an absent (or null)
// field of a present object gets its default, and defaulting continues inside present objects, list
// items and map values. An absent parent object is never created just to hold a default.
//
// A plan is built once per schema (cached by schema object) listing only the paths that lead to a default,
// so objects without defaults cost one lookup.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, EMPTY_SCOPE } from './schema-kind.ts';
import { planCompiler, type PlanNode } from './plan.ts';
import { deepClone } from './walk.ts';

interface Fill {
  key: string;
  value: unknown;
  /** Objects and lists are copied for every use. */
  copy: boolean;
}

interface Plan extends PlanNode<Plan> {
  fills: Fill[];
}

const compile = planCompiler<Plan>({
  blank: () => ({ kind: 'none', fills: [], children: [], item: null, empty: false }),
  property(plan, key, prop) {
    const d = asSchema(prop).default;
    if (d !== undefined) plan.fills.push({ key, value: d, copy: typeof d === 'object' && d !== null });
  },
  doesNothing: (plan) => plan.fills.length === 0,
});

function apply(v: unknown, plan: Plan): void {
  if (typeof v !== 'object' || v === null) return;
  if (plan.kind === 'object') {
    if (Array.isArray(v)) return;
    const o = v as Record<string, unknown>;
    for (const f of plan.fills) {
      if (o[f.key] === undefined || o[f.key] === null) o[f.key] = f.copy ? deepClone(f.value) : f.value;
    }
    for (const c of plan.children) {
      const x = o[c.key];
      if (typeof x === 'object' && x !== null && !c.plan.empty) apply(x, c.plan);
    }
  } else if (plan.kind === 'array') {
    if (!Array.isArray(v) || !plan.item) return;
    for (const x of v) apply(x, plan.item);
  } else if (plan.kind === 'map') {
    if (Array.isArray(v) || !plan.item) return;
    const o = v as Record<string, unknown>;
    for (const k in o) apply(o[k], plan.item);
  }
}

/** Fills schema defaults into `obj` in place and returns it. */
export function applyDefaults<T>(obj: T, schema: TSchema): T {
  const plan = compile(schema, EMPTY_SCOPE);
  if (!plan.empty) apply(obj, plan);
  return obj;
}

/** Whether the schema declares any default at all (lets callers skip the call). */
export function hasDefaults(schema: TSchema): boolean {
  return !compile(schema, EMPTY_SCOPE).empty;
}
