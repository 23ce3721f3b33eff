// The field set of an object (what an applier owns when it applies it), the path element naming a list
// item, and the "named fields are members" widening that pruning uses.
import { FieldSet } from './fieldset.ts';
import { fieldElement, keyElement, pathString, valueElement, type KeyField, type Path, type PathElement } from './path.ts';
import { atomFor, fieldType, isNamedField, resolve, type Atom, type TypeRef } from './schema-view.ts';
import { isObject, type Json } from './value.ts';

/** A value that does not fit its schema for structured merge (a list item without its key, duplicates). */
export class TypedValueError extends Error {}

export function typedError(path: Path, message: string): TypedValueError {
  return new TypedValueError(path.length ? `${pathString(path)}: ${message}` : message);
}

/** The element that names `item` in an associative list. */
export function listItemElement(atom: Extract<Atom, { kind: 'list' }>, item: unknown, index: number, path: Path): PathElement {
  if (atom.keys.length) {
    if (item === null || item === undefined) throw typedError(path, `element ${index}: associative list with keys may not have a null element`);
    if (!isObject(item)) throw typedError(path, `element ${index}: associative list with keys may not have non-map elements`);
    const fields: KeyField[] = [];
    for (const k of atom.keys) {
      if (Object.hasOwn(item, k) && item[k] !== undefined) fields.push([k, item[k] as Json]);
      else if (atom.keyDefaults.has(k)) fields.push([k, atom.keyDefaults.get(k)!]);
      else throw typedError(path, `element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
    }
    return keyElement(fields);
  }
  if (isObject(item)) throw typedError(path, `element ${index}: associative list without keys has an element that's a map type`);
  if (Array.isArray(item)) throw typedError(path, `element ${index}: not supported: associative list with lists as elements`);
  return valueElement((item ?? null) as Json);
}

/**
 * The set of fields an object sets: scalars and atomic values are leaves; list items are members with their
 * contents below; map entries that are not declared struct fields are members; declared fields are members
 * only when null or empty.
 */
export function toFieldSet(value: unknown, tr: TypeRef): FieldSet {
  const root = new FieldSet();
  collect(value, tr, root, []);
  return root;
}

/** Fills `node` with the paths below `value`; answers whether the value's own path is a member. */
function collect(value: unknown, tr: TypeRef, node: FieldSet, path: PathElement[]): boolean {
  const atom = atomFor(tr, value);
  switch (atom.kind) {
    case 'list': {
      if (atom.atomic) return true;
      if (!Array.isArray(value)) return false;
      value.forEach((item, i) => {
        const pe = listItemElement(atom, item, i, path);
        path.push(pe);
        collectChild(node, pe, item, atom.elem, path);
        path.pop();
        node.members.set(pe.id, pe);
      });
      return false;
    }
    case 'map': {
      if (atom.atomic) return true;
      if (!isObject(value)) return false;
      for (const key of Object.keys(value)) {
        const v = value[key];
        if (v === undefined) continue;
        const pe = fieldElement(key);
        path.push(pe);
        const self = collectChild(node, pe, v, fieldType(atom, key), path);
        path.pop();
        if (self || v === null || (isObject(v) && Object.keys(v).length === 0) || !isNamedField(atom, key)) node.members.set(pe.id, pe);
      }
      return false;
    }
    default:
      return true;
  }
}

function collectChild(node: FieldSet, pe: PathElement, value: unknown, tr: TypeRef, path: PathElement[]): boolean {
  const child = node.descend(pe);
  const self = collect(value, tr, child, path);
  if (child.empty()) node.children.delete(pe.id);
  return self;
}

/**
 * The set widened with every declared struct field that has paths below it: a set with `a.b.c` also owns
 * `a` when `a` is a struct field, but not `a.b` when `b` is a map key.
 */
export function ensureNamedFieldsAreMembers(set: FieldSet, tr: TypeRef): FieldSet {
  const atom = resolve(tr);
  const out = new FieldSet();
  for (const [id, pe] of set.members) out.members.set(id, pe);
  for (const { pe, set: sub } of set.children.values()) {
    if (sub.empty()) continue;
    if (pe.t === 'f' && isNamedField(atom, pe.name)) out.members.set(pe.id, pe);
    let childType: TypeRef = 'none';
    if (pe.t === 'f') childType = atom.kind === 'map' || atom.kind === 'deduced' ? fieldType(atom, pe.name) : 'none';
    else if (pe.t === 'k') childType = atom.kind === 'list' ? atom.elem : atom.kind === 'deduced' ? 'deduced' : 'none';
    out.children.set(pe.id, { pe, set: ensureNamedFieldsAreMembers(sub, childType) });
  }
  return out;
}
