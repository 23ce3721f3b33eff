// Sets of field paths, stored as a trie: each node has members (paths that end here) and children (sub-tries,
// never empty). Serialised as Kubernetes' FieldsV1: nested objects keyed by path elements, `{}` for a leaf,
// and `".": {}` inside a child that is also a member.
//
// Sets returned by the operations share sub-tries with their inputs; only a set being built (insert) is
// modified in place. A set read from FieldsV1 already in Kubernetes' form writes back that very object
// (most writes leave most managers' entries as they were).
import { comparePathElements, parsePathElement, PathElementError, type Path, type PathElement } from './path.ts';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

export class FieldSet {
  readonly members: Map<string, PathElement>;
  readonly children: Map<string, Child>;
  /** The FieldsV1 this set was read from, when it is exactly what emitting the set gives, or was written as. */
  #fieldsV1: Record<string, unknown> | undefined;

  /** An empty set, or one that takes these maps (copies, for the operations). */
  constructor(members?: Map<string, PathElement>, children?: Map<string, Child>) {
    this.members = members ?? new Map();
    this.children = children ?? new Map();
  }

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path; its parents are not added. The empty path (the whole object) is never tracked. */
  insert(path: Path): void {
    if (!path.length) return;
    this.#fieldsV1 = undefined;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.descend(path[i]);
    const last = path[path.length - 1];
    s.members.set(last.id, last);
  }

  /** The child set of `pe`, created when absent (for builders). */
  descend(pe: PathElement): FieldSet {
    this.#fieldsV1 = undefined;
    let c = this.children.get(pe.id);
    if (!c) {
      c = { pe, set: new FieldSet() };
      this.children.set(pe.id, c);
    }
    return c.set;
  }

  has(path: Path): boolean {
    if (!path.length) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1; i++) {
      s = s.children.get(path[i].id)?.set;
      if (!s) return false;
    }
    return s.members.has(path[path.length - 1].id);
  }

  hasMember(pe: PathElement): boolean {
    return this.members.has(pe.id);
  }

  /** The paths under `pe`, without it. */
  withPrefix(pe: PathElement): FieldSet {
    return this.children.get(pe.id)?.set ?? new FieldSet();
  }

  /** No members and no children at all (a cheap test for empty()). */
  private isBare(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  empty(): boolean {
    if (this.members.size) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  union(other: FieldSet): FieldSet {
    if (other === this || other.empty()) return this;
    if (this.empty()) return other;
    // The larger side's maps are copied whole (natively); the smaller side's entries go in one by one.
    const [big, small] = this.members.size + this.children.size >= other.members.size + other.children.size ? [this, other] : [other, this];
    const members = new Map(big.members);
    for (const [id, pe] of small.members) if (!members.has(id)) members.set(id, pe);
    const children = new Map(big.children);
    for (const [id, c] of small.children) {
      const b = children.get(id);
      children.set(id, b ? { pe: b.pe, set: b.set.union(c.set) } : c);
    }
    return new FieldSet(members, children);
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    if (this.isBare() || other.isBare()) return out;
    // Looked up from the smaller side (a write's changes against a manager's whole set).
    if (this.members.size <= other.members.size) {
      for (const [id, pe] of this.members) if (other.members.has(id)) out.members.set(id, pe);
    } else {
      for (const [id, pe] of other.members) if (this.members.has(id)) out.members.set(id, pe);
    }
    const few = this.children.size <= other.children.size ? this.children : other.children;
    for (const id of few.keys()) {
      const mine = this.children.get(id), theirs = other.children.get(id);
      if (!mine || !theirs) continue;
      const res = mine.set.intersection(theirs.set);
      if (!res.empty()) out.children.set(id, { pe: mine.pe, set: res });
    }
    return out;
  }

  /** Paths in this set and not in `other`. A parent minus its child is still the parent. This set itself
   *  when nothing is taken away. */
  difference(other: FieldSet): FieldSet {
    return this.without(other, false);
  }

  /** Like difference, but a path in `other` also removes everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    return this.without(other, true);
  }

  private without(other: FieldSet, recursive: boolean): FieldSet {
    if (other.isBare()) return this;
    // Copied on the first removal only.
    let members = this.members;
    if (other.members.size <= members.size) {
      for (const id of other.members.keys()) {
        if (!this.members.has(id)) continue;
        if (members === this.members) members = new Map(members);
        members.delete(id);
      }
    } else {
      for (const id of this.members.keys()) {
        if (!other.members.has(id)) continue;
        if (members === this.members) members = new Map(members);
        members.delete(id);
      }
    }
    let children = this.children;
    for (const [id, c] of this.children) {
      let res: FieldSet | undefined;
      if (recursive && other.members.has(id)) res = undefined;
      else {
        const o = other.children.get(id);
        if (!o) continue;
        res = c.set.without(o.set, recursive);
        if (res === c.set) continue;
        if (res.empty()) res = undefined;
      }
      if (children === this.children) children = new Map(children);
      if (res) children.set(id, { pe: c.pe, set: res }); else children.delete(id);
    }
    return members === this.members && children === this.children ? this : new FieldSet(members, children);
  }

  /** Every path of this set is in `other`. */
  isSubsetOf(other: FieldSet): boolean {
    if (this === other) return true;
    for (const id of this.members.keys()) if (!other.members.has(id)) return false;
    for (const [id, c] of this.children) {
      const o = other.children.get(id);
      if (o ? !c.set.isSubsetOf(o.set) : !c.set.empty()) return false;
    }
    return true;
  }

  equals(other: FieldSet): boolean {
    if (this.members.size !== other.members.size) return false;
    for (const id of this.members.keys()) if (!other.members.has(id)) return false;
    const mine = [...this.children.values()].filter((c) => !c.set.empty());
    const theirs = [...other.children.values()].filter((c) => !c.set.empty());
    if (mine.length !== theirs.length) return false;
    for (const c of mine) {
      const o = other.children.get(c.pe.id);
      if (!o || !c.set.equals(o.set)) return false;
    }
    return true;
  }

  sortedMembers(): PathElement[] {
    return [...this.members.values()].sort(comparePathElements);
  }

  sortedChildren(): Child[] {
    return [...this.children.values()].filter((c) => !c.set.empty()).sort((a, b) => comparePathElements(a.pe, b.pe));
  }

  /** Every member path, depth first: a node's members, then its children, each in sorted order. */
  paths(): PathElement[][] {
    const out: PathElement[][] = [];
    const walk = (s: FieldSet, prefix: PathElement[]) => {
      for (const pe of s.sortedMembers()) out.push([...prefix, pe]);
      for (const c of s.sortedChildren()) walk(c.set, [...prefix, c.pe]);
    };
    walk(this, []);
    return out;
  }

  /** The FieldsV1 form, with keys in Kubernetes' order: the object the set was read from when that was in
   *  this form already, or the one written the first time (shared, so neither may be modified). */
  toFieldsV1(): Record<string, unknown> {
    return this.#fieldsV1 ??= this.emit(false);
  }

  private emit(includeSelf: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const members = this.sortedMembers();
    const children = this.sortedChildren();
    if (includeSelf && (members.length || children.length)) out['.'] = {};
    let mi = 0, ci = 0;
    while (mi < members.length || ci < children.length) {
      const m = members[mi], c = children[ci];
      const cmp = m === undefined ? 1 : c === undefined ? -1 : comparePathElements(m, c.pe);
      if (cmp < 0) { out[m.id] = {}; mi++; }
      else if (cmp > 0) { out[c.pe.id] = c.set.emit(false); ci++; }
      else { out[c.pe.id] = c.set.emit(true); mi++; ci++; }
    }
    return out;
  }

  /** Reads FieldsV1. Unknown key prefixes are dropped; a malformed key throws FieldsV1Error. */
  static fromFieldsV1(fields: unknown): FieldSet {
    if (fields === null || fields === undefined) return new FieldSet();
    if (typeof fields !== 'object' || Array.isArray(fields)) throw new FieldsV1Error('FieldsV1 must be an object');
    const node = fields as Record<string, unknown>;
    const read = readNode(node);
    const set = read.children ?? new FieldSet();
    // The root is never a member: a "." there is not written back.
    if (read.canonical && !Object.hasOwn(node, '.')) set.#fieldsV1 = node;
    return set;
  }
}

export class FieldsV1Error extends Error {}

/**
 * Reads one FieldsV1 node: its children, whether it is a member itself, and whether it is written exactly as
 * emit() writes it ("." first and only beside children, keys in Kubernetes' spelling and order, leaves `{}`).
 */
function readNode(node: Record<string, unknown>): { children: FieldSet | undefined; member: boolean; canonical: boolean } {
  let children: FieldSet | undefined;
  let member = false;
  let canonical = true;
  let previous: PathElement | undefined;
  let index = 0;
  for (const key of Object.keys(node)) {
    if (key === '.') {
      member = true;
      const dot = node[key];
      if (index !== 0 || dot === null || typeof dot !== 'object' || !isEmptyObject(dot)) canonical = false;
      index++;
      continue;
    }
    index++;
    let pe: PathElement | undefined;
    try {
      pe = parsePathElement(key);
    } catch (err) {
      if (err instanceof PathElementError) throw new FieldsV1Error(`parsing key as path element: ${err.message}`);
      throw err;
    }
    if (!pe) { canonical = false; continue; }
    if (pe.id !== key || (previous && comparePathElements(previous, pe) >= 0)) canonical = false;
    previous = pe;
    const v = node[key];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new FieldsV1Error(`expected an object under ${key}`);
    const sub = readNode(v as Record<string, unknown>);
    if (!sub.canonical) canonical = false;
    children ??= new FieldSet();
    if (sub.member) children.members.set(pe.id, pe);
    if (sub.children && !sub.children.empty()) children.children.set(pe.id, { pe, set: sub.children });
  }
  if (!children) {
    // A leaf is written `{}`: a lone "." (or keys dropped) reads the same but is not in emit()'s form.
    if (index !== 0) canonical = false;
    member = true;
  }
  return { children, member, canonical };
}

function isEmptyObject(v: object): boolean {
  if (Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}

