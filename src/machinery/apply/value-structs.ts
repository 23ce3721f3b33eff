// Go declares some struct fields by value, so a typed object always carries them (as {} when unset):
// metadata, spec and status, pod and job templates, rollout strategies. Kubernetes compares typed objects,
// so setting a field under one of them never counts the struct itself as added (no "." in managedFields).
// Comparisons here see objects with those structs filled in the same way.
import { resolve, type TypeRef } from './schema-view.ts';
import { isObject } from './value.ts';

const VALUE_STRUCTS = new Set(['metadata', 'spec', 'status', 'template', 'jobTemplate', 'strategy', 'updateStrategy']);

/** `value` with every absent by-value struct (reached through struct fields) present as {}; shares the rest. */
export function withValueStructs(value: unknown, tr: TypeRef): unknown {
  const atom = resolve(tr);
  if (atom.kind !== 'map' || !atom.fields || atom.atomic || !isObject(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [name, fieldType] of atom.fields) {
    if (!VALUE_STRUCTS.has(name)) continue;
    const field = resolve(fieldType);
    if (field.kind !== 'map' || !field.fields || field.atomic) continue;
    const cur = value[name];
    if (cur !== undefined && cur !== null && !isObject(cur)) continue;
    const filled = withValueStructs(cur ?? {}, fieldType);
    if (filled !== cur) {
      out ??= { ...value };
      out[name] = filled;
    }
  }
  return out ?? value;
}
