// Ownership bookkeeping for one write (structured merge's Updater): Update moves changed fields to the
// writer without conflicts; Apply merges a configuration, prunes what the applier dropped, and refuses to
// change fields other managers own unless forced.
import { ApplyConflicts, conflictsFromManagers } from './conflict.ts';
import { compare, excludeFields, type Comparison } from './compare.ts';
import type { FieldSet } from './fieldset.ts';
import type { ManagerSet } from './managers.ts';
import { merge } from './merge.ts';
import { removeItems } from './remove.ts';
import type { TypeRef } from './schema-view.ts';
import { ensureNamedFieldsAreMembers, toFieldSet } from './tofieldset.ts';
import { deepEqual } from '../schema/walk.ts';
import { withValueStructs } from './value-structs.ts';
import type { VersionConverter } from './versions.ts';

export type ManagedFieldSets = Map<string, ManagerSet>;

export interface UpdaterOptions {
  /** The object's type. */
  type: TypeRef;
  /** Fields this endpoint resets (status on the main resource, everything but status on /status): never owned. */
  ignored?: FieldSet;
  /** The kind's other versions: managers recorded in one of another shape are compared in it. */
  versions?: VersionConverter;
}

/** The changes from old to new as read in `version`, the write's own comparison for its version. */
type ComparisonIn = (version: string) => Comparison;

function comparisons(o: UpdaterOptions, oldObj: unknown, newObj: unknown, version: string): ComparisonIn {
  const own = excludeFields(compare(withValueStructs(oldObj, o.type), withValueStructs(newObj, o.type), o.type, true), o.ignored);
  const vs = o.versions;
  if (!vs) return () => own;
  const byVersion = new Map<string, Comparison>();
  return (v) => {
    if (!vs.differ(version, v)) return own;
    let c = byVersion.get(v);
    if (!c) {
      const type = vs.typeOf(v)!;
      const l = vs.convert(oldObj, version, v), r = vs.convert(newObj, version, v);
      // An object that does not convert is compared as the write sees it.
      c = l === undefined || r === undefined ? own : excludeFields(compare(withValueStructs(l, type), withValueStructs(r, type), type, true), o.ignored);
      byVersion.set(v, c);
    }
    return c;
  };
}

/**
 * Compares old and new; every other manager loses the fields that were removed and, when forced, the
 * fields the write changes; without force those are conflicts. Managers left with nothing are dropped.
 */
function updateManagers(o: UpdaterOptions, oldObj: unknown, newObj: unknown, version: string, managers: ManagedFieldSets, workflow: string, force: boolean): ManagedFieldSets {
  const comparisonIn = comparisons(o, oldObj, newObj, version);
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, ms] of managers) {
    if (manager === workflow) continue;
    const c = ms.set.intersection(comparisonIn(ms.apiVersion).added);
    if (!c.empty()) conflicts.set(manager, c);
  }
  if (!force && conflicts.size) throw new ApplyConflicts(conflictsFromManagers(conflicts));
  const out: ManagedFieldSets = new Map();
  for (const [manager, ms] of managers) {
    let set = ms.set;
    if (manager !== workflow) {
      const c = conflicts.get(manager);
      if (c) set = set.difference(c);
      const removed = comparisonIn(ms.apiVersion).removed;
      if (!removed.empty()) set = set.difference(removed);
    }
    if (!set.empty()) out.set(manager, set === ms.set ? ms : { ...ms, set });
  }
  return out;
}

/** What a write by one manager did to the managers: their sets, and whether the writer took any field. */
export interface Ownership {
  managers: ManagedFieldSets;
  /** The writer changed fields it now owns (its entry's time moves on). */
  took: boolean;
}

/**
 * A create, update or non-apply patch by `manager`: every manager loses the fields the write changed or
 * removed, and the writer takes what it changed, except `notOwned` (fields nobody owns). A manager the write
 * leaves as it was keeps its entry object (and its set, so it is written back as it was read).
 */
export function updateOwnership(o: UpdaterOptions, live: unknown, obj: unknown, version: string, managers: ManagedFieldSets, manager: string, notOwned?: FieldSet): Ownership {
  const comparisonIn = comparisons(o, live, obj, version);
  const comparison = comparisonIn(version);
  const removed = comparison.removed;
  const changed = comparison.added;
  const touched = removed.empty() ? changed : changed.union(removed);
  let taken = removed.empty() ? changed : changed.difference(removed);
  if (o.ignored) taken = taken.recursiveDifference(o.ignored);
  if (notOwned) taken = taken.difference(notOwned);
  const took = !taken.empty();
  const out: ManagedFieldSets = new Map();
  for (const [m, ms] of managers) {
    if (m === manager && took) continue;
    const c = comparisonIn(ms.apiVersion);
    const lost = (c === comparison ? touched : c.added.union(c.removed)).intersection(ms.set);
    const set = lost.empty() ? ms.set : ms.set.difference(lost);
    if (!set.empty()) out.set(m, set === ms.set ? ms : { ...ms, set });
  }
  if (took) {
    const prev = managers.get(manager);
    let set = taken;
    if (prev) {
      const lost = touched.intersection(prev.set);
      // (prev - lost) + taken is prev itself when the writer only rewrote fields it owned.
      if (lost.isSubsetOf(taken) && taken.isSubsetOf(prev.set)) set = prev.set;
      else set = taken.union(lost.empty() ? prev.set : prev.set.difference(lost));
    }
    out.set(manager, set === prev?.set && prev.apiVersion === version && !prev.applied ? prev : { set, apiVersion: version, applied: false });
  }
  return { managers: out, took };
}

export interface ApplyOutcome {
  /** The merged object, or undefined when applying changes nothing. */
  object: unknown;
  managers: ManagedFieldSets;
}

/** An apply of `config` by `manager` onto `live`. Throws ApplyConflicts. */
export function applyConfig(o: UpdaterOptions, live: unknown, config: unknown, version: string, managers: ManagedFieldSets, manager: string, force: boolean): ApplyOutcome {
  let merged = merge(live, config, o.type);
  const next: ManagedFieldSets = new Map(managers);
  const lastSet = next.get(manager);
  let set = toFieldSet(config, o.type);
  if (o.ignored) set = set.recursiveDifference(o.ignored);
  next.set(manager, { set, apiVersion: version, applied: true });
  if (lastSet && !lastSet.set.empty()) merged = prune(o, merged, version, next, lastSet);
  const out = updateManagers(o, live, merged, version, next, manager, force);
  return { object: deepEqual(live, merged) ? undefined : merged, managers: out };
}

/** The object's type in `v`, for a write in `version`. */
function typeIn(o: UpdaterOptions, version: string, v: string): TypeRef {
  return o.versions?.differ(version, v) ? o.versions.typeOf(v)! : o.type;
}

/** `obj` (in `from`) read in `to`; the same object when they share a shape. */
function convertTo(o: UpdaterOptions, obj: unknown, from: string, to: string): unknown {
  return o.versions?.differ(from, to) ? o.versions.convert(obj, from, to) : obj;
}

/**
 * Removes what the applier owned last time and does not apply now, unless another manager (or the new
 * configuration) owns it; fields owned by nobody stay unless the applier had owned them. The applier's last
 * set is read in its own version, and every manager's set in its own: the object is converted to each.
 */
function prune(o: UpdaterOptions, merged: unknown, version: string, managers: ManagedFieldSets, lastSet: ManagerSet): unknown {
  const lastVersion = lastSet.apiVersion;
  const inLast = convertTo(o, merged, version, lastVersion);
  if (inLast === undefined) return merged;
  const lastType = typeIn(o, version, lastVersion);
  const named = (s: FieldSet, t: TypeRef) => ensureNamedFieldsAreMembers(s, t);
  const last = named(lastSet.set, lastType);
  let pruned = removeItems(inLast, last, lastType);
  // Add back what anyone owns, in each owner's version (the applier's last version first).
  const managedIn = new Map<string, FieldSet>();
  for (const ms of managers.values()) {
    const v = o.versions?.differ(lastVersion, ms.apiVersion) ? ms.apiVersion : lastVersion;
    const prev = managedIn.get(v);
    managedIn.set(v, prev ? prev.union(ms.set) : ms.set);
  }
  const order = [...managedIn.keys()].sort((a, b) => (a === lastVersion ? -1 : b === lastVersion ? 1 : 0));
  let mergedNow = inLast;
  let at = lastVersion;
  for (const v of order) {
    const m = convertTo(o, mergedNow, at, v), p = convertTo(o, pruned, at, v);
    if (m === undefined || p === undefined) continue;
    const t = typeIn(o, lastVersion, v);
    const mergedSet = named(toFieldSet(m, t), t);
    const prunedSet = named(toFieldSet(p, t), t);
    pruned = removeItems(m, mergedSet.difference(prunedSet.union(named(managedIn.get(v)!, t))), t);
    mergedNow = m;
    at = v;
  }
  // Add back what the applier never owned (dangling fields, fields of updaters).
  const prunedInLast = convertTo(o, pruned, at, lastVersion);
  if (prunedInLast === undefined) return merged;
  const mergedSet = named(toFieldSet(inLast, lastType), lastType);
  const prunedSet = named(toFieldSet(prunedInLast, lastType), lastType);
  const out = removeItems(inLast, mergedSet.difference(prunedSet).intersection(last), lastType);
  return convertTo(o, out, lastVersion, version) ?? merged;
}
