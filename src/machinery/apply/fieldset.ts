// Sets of field paths, stored as a trie: each node has members (paths that end here) and children (sub-tries,
// never empty). Serialised as Kubernetes' FieldsV1: nested objects keyed by path elements, `{}` for a leaf,
// and `".": {}` inside a child that is also a member.
//
// Sets returned by the operations share sub-tries with their inputs; only a set being built (insert) is
// modified in place.
import { comparePathElements, parsePathElement, PathElementError, type Path, type PathElement } from './path.ts';

interface Child {
  pe: PathElement;
  set: FieldSet;
}

export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, Child>();

  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet();
    for (const p of paths) s.insert(p);
    return s;
  }

  /** Adds a path; its parents are not added. The empty path (the whole object) is never tracked. */
  insert(path: Path): void {
    if (!path.length) return;
    let s: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) s = s.descend(path[i]);
    const last = path[path.length - 1];
    s.members.set(last.id, last);
  }

  /** The child set of `pe`, created when absent (for builders). */
  descend(pe: PathElement): FieldSet {
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
    if (other.empty()) return this;
    if (this.empty()) return other;
    const out = new FieldSet();
    for (const [id, pe] of this.members) out.members.set(id, pe);
    for (const [id, pe] of other.members) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const o = other.children.get(id);
      out.children.set(id, o ? { pe: c.pe, set: c.set.union(o.set) } : c);
    }
    for (const [id, c] of other.children) if (!this.children.has(id)) out.children.set(id, c);
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    if (this.isBare() || other.isBare()) return out;
    for (const [id, pe] of this.members) if (other.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const o = other.children.get(id);
      if (!o) continue;
      const res = c.set.intersection(o.set);
      if (!res.empty()) out.children.set(id, { pe: c.pe, set: res });
    }
    return out;
  }

  /** Paths in this set and not in `other`. A parent minus its child is still the parent. */
  difference(other: FieldSet): FieldSet {
    if (other.isBare()) return this;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!other.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      const o = other.children.get(id);
      if (!o) { out.children.set(id, c); continue; }
      const res = c.set.difference(o.set);
      if (!res.empty()) out.children.set(id, { pe: c.pe, set: res });
    }
    return out;
  }

  /** Like difference, but a path in `other` also removes everything under it. */
  recursiveDifference(other: FieldSet): FieldSet {
    if (other.isBare()) return this;
    const out = new FieldSet();
    for (const [id, pe] of this.members) if (!other.members.has(id)) out.members.set(id, pe);
    for (const [id, c] of this.children) {
      if (other.members.has(id)) continue;
      const o = other.children.get(id);
      if (!o) { out.children.set(id, c); continue; }
      const res = c.set.recursiveDifference(o.set);
      if (!res.empty()) out.children.set(id, { pe: c.pe, set: res });
    }
    return out;
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

  /** The FieldsV1 form, with keys in Kubernetes' order. */
  toFieldsV1(): Record<string, unknown> {
    return this.emit(false);
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
    const { children } = readNode(fields as Record<string, unknown>);
    return children ?? new FieldSet();
  }
}

export class FieldsV1Error extends Error {}

function readNode(node: Record<string, unknown>): { children: FieldSet | undefined; member: boolean } {
  let children: FieldSet | undefined;
  let member = false;
  for (const key of Object.keys(node)) {
    if (key === '.') { member = true; continue; }
    let pe: PathElement | undefined;
    try {
      pe = parsePathElement(key);
    } catch (err) {
      if (err instanceof PathElementError) throw new FieldsV1Error(`parsing key as path element: ${err.message}`);
      throw err;
    }
    if (!pe) continue;
    const v = node[key];
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new FieldsV1Error(`expected an object under ${key}`);
    const sub = readNode(v as Record<string, unknown>);
    children ??= new FieldSet();
    if (sub.member) children.members.set(pe.id, pe);
    if (sub.children && !sub.children.empty()) children.children.set(pe.id, { pe, set: sub.children });
  }
  if (!children) member = true;
  return { children, member };
}

