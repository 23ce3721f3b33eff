// Removing a set of paths from an object: a path in the set removes that field, map entry or list item with
// everything below it; paths below an atomic value are ignored (it is owned whole). A container whose every
// entry was removed becomes null, which the final object drops.
import type { FieldSet } from './fieldset.ts';
import { fieldElement } from './path.ts';
import { atomFor, fieldType, type TypeRef } from './schema-view.ts';
import { listItemElement } from './tofieldset.ts';
import { isObject } from './value.ts';

/** `value` without the paths in `toRemove`; the input is not modified. */
export function removeItems(value: unknown, toRemove: FieldSet, tr: TypeRef): unknown {
  if (toRemove.empty()) return value;
  const atom = atomFor(tr, value);
  if (atom.kind === 'list') {
    if (!Array.isArray(value) || !value.length || atom.atomic) return value;
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = listItemElement(atom, item, i, []);
      if (toRemove.hasMember(pe)) return;
      const sub = toRemove.withPrefix(pe);
      out.push(sub.empty() ? item : removeItems(item, sub, atom.elem));
    });
    return out.length ? out : null;
  }
  if (atom.kind === 'map') {
    if (!isObject(value) || !Object.keys(value).length || atom.atomic) return value;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) {
      const pe = fieldElement(k);
      if (toRemove.hasMember(pe)) continue;
      const sub = toRemove.withPrefix(pe);
      out[k] = sub.empty() ? value[k] : removeItems(value[k], sub, fieldType(atom, k));
    }
    return Object.keys(out).length ? out : null;
  }
  return value;
}

/** Drops properties whose value is null (emptied containers, explicit nulls) from maps and structs. */
export function dropNulls(value: unknown, tr: TypeRef): unknown {
  const atom = atomFor(tr, value);
  if (atom.kind === 'list') return Array.isArray(value) ? value.map((item) => dropNulls(item, atom.elem)) : value;
  if (atom.kind !== 'map' || !isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) {
    const v = value[k];
    if (v === null || v === undefined) continue;
    out[k] = dropNulls(v, fieldType(atom, k));
  }
  return out;
}
