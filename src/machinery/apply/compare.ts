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

/** `changedTogether`: added and modified paths go into one set (`added` and `modified` are then the same
 *  set), for callers that only need their union. */
export function compare(lhs: unknown, rhs: unknown, tr: TypeRef, changedTogether = false): Comparison {
  const added = new FieldSet();
  const c: Comparison = { added, modified: changedTogether ? added : new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, tr, [], c);
  return c;
}

/** Leaves out `exclude` and everything below it (fields a sub-resource resets). */
export function excludeFields(c: Comparison, exclude: FieldSet | undefined): Comparison {
  if (!exclude || exclude.empty()) return c;
  const added = c.added.recursiveDifference(exclude);
  const modified = c.modified === c.added ? added : c.modified.recursiveDifference(exclude);
  return { added, modified, removed: c.removed.recursiveDifference(exclude) };
}

function walk(lhs: unknown, rhs: unknown, tr: TypeRef, path: PathElement[], c: Comparison): void {
  // The whole object is compared field by field anyway (a write rarely leaves it equal).
  if (path.length && lhs !== undefined && rhs !== undefined && deepEqual(lhs, rhs)) return;
  const atom = pickAtom(tr, lhs, rhs);
  if (atom === null || atom.kind === 'scalar' || atom.kind === 'deduced' || atom.kind === 'none') return leaf(lhs, rhs, path, c);
  if (atom.kind === 'list') {
    const l = Array.isArray(lhs) ? lhs : undefined, r = Array.isArray(rhs) ? rhs : undefined;
    if (atom.atomic || (!l?.length && !r?.length)) return leaf(lhs, rhs, path, c);
    visitList(atom, l ?? [], r ?? [], path, c);
  } else {
    const l = isObject(lhs) ? lhs : undefined, r = isObject(rhs) ? rhs : undefined;
    if (atom.atomic || (!hasKeys(l) && !hasKeys(r))) return leaf(lhs, rhs, path, c);
    // The keys of both sides, the left's first (as a set of both would give them).
    if (l) for (const k in l) visitField(atom, k, l[k], r?.[k], path, c);
    if (r) for (const k in r) if (!l || !Object.hasOwn(l, k)) visitField(atom, k, undefined, r[k], path, c);
  }
  // A container that appears or disappears is added or removed itself, with what is below it.
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
}

/** A value compared whole. */
function leaf(lhs: unknown, rhs: unknown, path: PathElement[], c: Comparison): void {
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
  else if (!deepEqual(lhs, rhs)) c.modified.insert(path);
}

function hasKeys(o: Record<string, unknown> | undefined): boolean {
  if (o) for (const _ in o) return true;
  return false;
}

function visitField(atom: Atom, k: string, lv: unknown, rv: unknown, path: PathElement[], c: Comparison): void {
  if (lv === undefined && rv === undefined) return;
  path.push(fieldElement(k));
  walk(lv, rv, fieldType(atom, k), path, c);
  path.pop();
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
