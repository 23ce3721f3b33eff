// Ownership bookkeeping for one write (structured merge's Updater): Update moves changed fields to the
// writer without conflicts; Apply merges a configuration, prunes what the applier dropped, and refuses to
// change fields other managers own unless forced.
import { ApplyConflicts, conflictsFromManagers } from './conflict.ts';
import { compare, excludeFields } from './compare.ts';
import type { FieldSet } from './fieldset.ts';
import type { ManagerSet } from './managers.ts';
import { merge } from './merge.ts';
import { removeItems } from './remove.ts';
import type { TypeRef } from './schema-view.ts';
import { ensureNamedFieldsAreMembers, toFieldSet } from './tofieldset.ts';
import { deepEqual } from '../schema/walk.ts';
import { withValueStructs } from './value-structs.ts';

export type ManagedFieldSets = Map<string, ManagerSet>;

export interface UpdaterOptions {
  /** The object's type. */
  type: TypeRef;
  /** Fields this endpoint resets (status on the main resource, everything but status on /status): never owned. */
  ignored?: FieldSet;
}

/**
 * Compares old and new; every other manager loses the fields that were removed and, when forced, the
 * fields the write changes; without force those are conflicts. Managers left with nothing are dropped.
 */
function updateManagers(o: UpdaterOptions, oldObj: unknown, newObj: unknown, managers: ManagedFieldSets, workflow: string, force: boolean): ManagedFieldSets {
  const comparison = excludeFields(compare(withValueStructs(oldObj, o.type), withValueStructs(newObj, o.type), o.type, true), o.ignored);
  const changed = comparison.added;
  const conflicts = new Map<string, FieldSet>();
  for (const [manager, ms] of managers) {
    if (manager === workflow) continue;
    const c = ms.set.intersection(changed);
    if (!c.empty()) conflicts.set(manager, c);
  }
  if (!force && conflicts.size) throw new ApplyConflicts(conflictsFromManagers(conflicts));
  const out: ManagedFieldSets = new Map();
  for (const [manager, ms] of managers) {
    let set = ms.set;
    if (manager !== workflow) {
      const c = conflicts.get(manager);
      if (c) set = set.difference(c);
      if (!comparison.removed.empty()) set = set.difference(comparison.removed);
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
  const comparison = excludeFields(compare(withValueStructs(live, o.type), withValueStructs(obj, o.type), o.type, true), o.ignored);
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
    const lost = touched.intersection(ms.set);
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
  if (lastSet && !lastSet.set.empty()) merged = prune(o, merged, next, lastSet.set);
  const out = updateManagers(o, live, merged, next, manager, force);
  return { object: deepEqual(live, merged) ? undefined : merged, managers: out };
}

/**
 * Removes what the applier owned last time and does not apply now, unless another manager (or the new
 * configuration) owns it; fields owned by nobody stay unless the applier had owned them.
 */
function prune(o: UpdaterOptions, merged: unknown, managers: ManagedFieldSets, lastSet: FieldSet): unknown {
  const named = (s: FieldSet) => ensureNamedFieldsAreMembers(s, o.type);
  const last = named(lastSet);
  let pruned = removeItems(merged, last, o.type);
  // Add back what anyone owns.
  let managed: FieldSet | undefined;
  for (const ms of managers.values()) managed = managed ? managed.union(ms.set) : ms.set;
  const mergedSet = named(toFieldSet(merged, o.type));
  if (managed) {
    const prunedSet = named(toFieldSet(pruned, o.type));
    pruned = removeItems(merged, mergedSet.difference(prunedSet.union(named(managed))), o.type);
  }
  // Add back what the applier never owned (dangling fields, fields of updaters).
  const prunedSet = named(toFieldSet(pruned, o.type));
  return removeItems(merged, mergedSet.difference(prunedSet).intersection(last), o.type);
}
