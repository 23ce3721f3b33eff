// Go declares some struct fields by value, so a typed object always carries them (as {} when unset):
// metadata, spec and status, pod and job templates, rollout strategies. Inside them, required fields are
// never omitted (a slice or pointer left unset is null), and ObjectMeta always has its creationTimestamp.
// Kubernetes compares typed objects, so setting a field under such a struct never counts the struct or
// the null field itself as added (no "." in managedFields). Comparisons here see objects filled the same way.
import { asSchema, deref } from '../schema/schema-kind.ts';
import { resolve, type TypeRef } from './schema-view.ts';
import { isObject } from './value.ts';

const VALUE_STRUCTS = new Set(['metadata', 'spec', 'status', 'template', 'jobTemplate', 'strategy', 'updateStrategy']);

function requiredOf(tr: TypeRef): readonly string[] {
  if (tr === 'deduced' || tr === 'none') return [];
  return asSchema(deref(tr.schema, tr.scope)).required ?? [];
}

/** What filling a struct of one type under one field name does, worked out once per type and name. */
interface FillPlan {
  /** Fill metadata's creationTimestamp with null when absent. */
  creationTimestamp: boolean;
  /** In declaration order: by-value structs to fill (with their type), and never-omitted fields to null. */
  steps: ReadonlyArray<{ field: string; struct: TypeRef | null }>;
}

const plans = new WeakMap<object, Map<string, FillPlan | null>>();

/** The plan for a value of type `tr` under field `name`; null when such values are returned as they are. */
function planFor(tr: TypeRef, name: string): FillPlan | null {
  if (typeof tr !== 'object') return null;
  let byName = plans.get(tr);
  if (!byName) { byName = new Map(); plans.set(tr, byName); }
  let plan = byName.get(name);
  if (plan === undefined) {
    plan = makePlan(tr, name);
    byName.set(name, plan);
  }
  return plan;
}

function makePlan(tr: TypeRef, name: string): FillPlan | null {
  const atom = resolve(tr);
  if (atom.kind !== 'map' || !atom.fields || atom.atomic) return null;
  const required = name ? requiredOf(tr) : [];
  const steps: Array<{ field: string; struct: TypeRef | null }> = [];
  for (const [field, fieldType] of atom.fields) {
    const sub = resolve(fieldType);
    if (VALUE_STRUCTS.has(field) && sub.kind === 'map' && sub.fields && !sub.atomic) steps.push({ field, struct: fieldType });
    else if (required.includes(field) && (sub.kind === 'list' || sub.kind === 'map')) steps.push({ field, struct: null });
  }
  return { creationTimestamp: name === 'metadata' && atom.fields.has('creationTimestamp'), steps };
}

/** `value` with by-value structs present and their never-omitted fields null; shares what it does not fill. */
export function withValueStructs(value: unknown, tr: TypeRef, name = ''): unknown {
  const plan = planFor(tr, name);
  if (!plan || !isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  const set = (k: string, v: unknown) => { out ??= { ...value }; out[k] = v; };
  if (plan.creationTimestamp && value.creationTimestamp === undefined) set('creationTimestamp', null);
  for (const { field, struct } of plan.steps) {
    const cur = value[field];
    if (struct) {
      if (cur !== undefined && cur !== null && !isObject(cur)) continue;
      const filled = withValueStructs(cur ?? {}, struct, field);
      if (filled !== cur) set(field, filled);
    } else if (cur === undefined) {
      set(field, null);
    }
  }
  return out ?? value;
}
