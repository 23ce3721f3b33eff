// The difference between two versions of an object as sets of paths: what the newer one added, modified
// and removed. Leaves (scalars, atomic values, empty containers) are compared by value; containers that
// appear or disappear are added or removed themselves, with everything below them.
import { FieldSet } from './fieldset.ts';
import { fieldElement, type PathElement } from './path.ts';
import { atomFor, fieldType, valueShape, type Atom, type TypeRef } from './schema-view.ts';
import { listItemElement } from './tofieldset.ts';
import { deepEqual } from '../schema/walk.ts';
import { isObject } from './value.ts';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compare(lhs: unknown, rhs: unknown, tr: TypeRef): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, tr, [], c);
  return c;
}

/** Leaves out `exclude` and everything below it (fields a sub-resource resets). */
export function excludeFields(c: Comparison, exclude: FieldSet | undefined): Comparison {
  if (!exclude || exclude.empty()) return c;
  return { added: c.added.recursiveDifference(exclude), modified: c.modified.recursiveDifference(exclude), removed: c.removed.recursiveDifference(exclude) };
}

export function isSame(c: Comparison): boolean {
  return c.added.empty() && c.modified.empty() && c.removed.empty();
}

function walk(lhs: unknown, rhs: unknown, tr: TypeRef, path: PathElement[], c: Comparison): void {
  if (lhs !== undefined && rhs !== undefined && deepEqual(lhs, rhs)) return;
  const atom = pickAtom(tr, lhs, rhs);
  let leaf = false;
  const doLeaf = () => {
    leaf = true;
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
    else if (!deepEqual(lhs, rhs)) c.modified.insert(path);
  };
  if (atom === null || atom.kind === 'scalar' || atom.kind === 'deduced' || atom.kind === 'none') doLeaf();
  else if (atom.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : undefined, r = Array.isArray(rhs) ? rhs : undefined;
    if (atom.atomic || (!l?.length && !r?.length)) doLeaf();
    else visitList(atom, l ?? [], r ?? [], path, c);
  } else {
    const l = isObject(lhs) ? lhs : undefined, r = isObject(rhs) ? rhs : undefined;
    const lEmpty = !l || !Object.keys(l).length, rEmpty = !r || !Object.keys(r).length;
    if (atom.atomic || (lEmpty && rEmpty)) doLeaf();
    else {
      const keys = new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})]);
      for (const k of keys) {
        const lv = l?.[k], rv = r?.[k];
        if (lv === undefined && rv === undefined) continue;
        path.push(fieldElement(k));
        walk(lv, rv, fieldType(atom, k), path, c);
        path.pop();
      }
    }
  }
  if (!leaf) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
  }
}

/** The atom for a pair of values; null when a free-form value changed shape (compared as a leaf). */
function pickAtom(tr: TypeRef, lhs: unknown, rhs: unknown): Atom | null {
  const a = atomFor(tr, lhs === undefined ? rhs : lhs);
  if (a === atomFor(tr, rhs === undefined ? lhs : rhs)) return a;
  const ls = valueShape(lhs), rs = valueShape(rhs);
  if (ls === 'null' || rs === 'null') return atomFor(tr, ls === 'null' ? rhs : lhs);
  return null;
}

function visitList(atom: Extract<Atom, { kind: 'list' }>, lhs: unknown[], rhs: unknown[], path: PathElement[], c: Comparison): void {
  const lItems = new Map<string, { pe: PathElement; values: unknown[] }>();
  const order: string[] = [];
  lhs.forEach((item, i) => {
    const pe = listItemElement(atom, item, i, path);
    const e = lItems.get(pe.id);
    if (e) e.values.push(item); else { lItems.set(pe.id, { pe, values: [item] }); order.push(pe.id); }
  });
  const rItems = new Map<string, { pe: PathElement; values: unknown[] }>();
  rhs.forEach((item, i) => {
    const pe = listItemElement(atom, item, i, path);
    const e = rItems.get(pe.id);
    if (e) e.values.push(item);
    else {
      rItems.set(pe.id, { pe, values: [item] });
      if (!lItems.has(pe.id)) order.push(pe.id);
    }
  });
  for (const id of order) {
    const l = lItems.get(id), r = rItems.get(id);
    const pe = (l ?? r)!.pe;
    const lc = l?.values.length ?? 0, rc = r?.values.length ?? 0;
    path.push(pe);
    if (lc <= 1 && rc <= 1) walk(l?.values[0], r?.values[0], atom.elem, path, c);
    else if (lc >= 2 && rc >= 2) {
      // Duplicated items are compared as one atomic unit.
      if (!deepEqual(l!.values, r!.values)) c.modified.insert(path);
    } else if (lc >= 2) {
      if (rc) walk(undefined, r!.values[0], atom.elem, path, c);
      c.removed.insert(path);
    } else {
      if (lc) walk(l!.values[0], undefined, atom.elem, path, c);
      c.added.insert(path);
    }
    path.pop();
  }
}
