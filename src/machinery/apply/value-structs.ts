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

/** `value` with by-value structs present and their never-omitted fields null; shares what it does not fill. */
export function withValueStructs(value: unknown, tr: TypeRef, name = ''): unknown {
  const atom = resolve(tr);
  if (atom.kind !== 'map' || !atom.fields || atom.atomic || !isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  const set = (k: string, v: unknown) => { out ??= { ...value }; out[k] = v; };
  if (name === 'metadata' && atom.fields.has('creationTimestamp') && value.creationTimestamp === undefined) set('creationTimestamp', null);
  const required = name ? requiredOf(tr) : [];
  for (const [field, fieldType] of atom.fields) {
    const cur = value[field];
    const sub = resolve(fieldType);
    if (VALUE_STRUCTS.has(field) && sub.kind === 'map' && sub.fields && !sub.atomic) {
      if (cur !== undefined && cur !== null && !isObject(cur)) continue;
      const filled = withValueStructs(cur ?? {}, fieldType, field);
      if (filled !== cur) set(field, filled);
    } else if (cur === undefined && required.includes(field) && (sub.kind === 'list' || sub.kind === 'map')) {
      set(field, null);
    }
  }
  return out ?? value;
}
