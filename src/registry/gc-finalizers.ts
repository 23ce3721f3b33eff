// The finalizers a delete leaves for the garbage collector, as Kubernetes' generic store computes them
// (deletionFinalizersForGarbageCollection): `orphan` when the dependents are to be orphaned,
// `foregroundDeletion` when they are to be deleted before the owner. The request's propagation policy
// decides, then a GC finalizer the object already carries, then the kind's default policy.
import type { KindDefinition } from '../apis/kind.ts';

export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** What a kind does with dependents when the delete names no policy (rest.GarbageCollectionPolicy). */
export type DefaultGcPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/**
 * Kinds whose default is not DeleteDependents: old workload versions orphan for backwards compatibility
 * (ReplicationController in v1, Job in batch/v1, the beta workload versions), and Events are never
 * garbage collected.
 */
export function defaultGcPolicy(def: KindDefinition, version: string): DefaultGcPolicy {
  const group = def.storedAs?.group ?? def.group;
  if (group === '' && def.plural === 'events') return 'Unsupported';
  const orphaning: Record<string, string[]> = {
    '/ReplicationController': ['v1'],
    'batch/Job': ['v1'],
    'batch/CronJob': ['v1beta1'],
    'apps/Deployment': ['v1beta1', 'v1beta2'],
    'apps/ReplicaSet': ['v1beta2'],
    'apps/StatefulSet': ['v1beta1', 'v1beta2'],
    'apps/DaemonSet': ['v1beta2'],
    'extensions/Deployment': ['v1beta1'],
    'extensions/ReplicaSet': ['v1beta1'],
    'extensions/DaemonSet': ['v1beta1'],
  };
  return orphaning[`${def.group}/${def.kind}`]?.includes(version) ? 'OrphanDependents' : 'DeleteDependents';
}

export interface DeletionFinalizersInput {
  def: KindDefinition;
  /** The version the request addressed (the default policy may depend on it). */
  version: string;
  finalizers: readonly string[] | undefined;
  propagationPolicy: PropagationPolicy | undefined;
}

/**
 * The object's finalizers once the delete's GC finalizers are set: both GC finalizers are taken out, then
 * `orphan` and `foregroundDeletion` added back as the policy says. `changed` is false when the set is the
 * same (the order the object had is then kept).
 */
export function deletionFinalizers(input: DeletionFinalizersInput): { changed: boolean; finalizers: string[] } {
  const current = [...(input.finalizers ?? [])];
  const policy = defaultGcPolicy(input.def, input.version);
  if (policy === 'Unsupported') return { changed: false, finalizers: current };
  const has = (f: string) => current.includes(f);
  let orphan: boolean;
  let foreground: boolean;
  switch (input.propagationPolicy) {
    case 'Orphan': orphan = true; foreground = false; break;
    case 'Background': orphan = false; foreground = false; break;
    case 'Foreground': orphan = false; foreground = true; break;
    default:
      // A GC finalizer already on the object overrides the kind's default; the first one found decides.
      if (has(ORPHAN_FINALIZER) || has(FOREGROUND_FINALIZER)) {
        const first = current.find((f) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);
        orphan = first === ORPHAN_FINALIZER;
        foreground = first === FOREGROUND_FINALIZER;
      } else {
        orphan = policy === 'OrphanDependents';
        foreground = false;
      }
  }
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (orphan) next.push(ORPHAN_FINALIZER);
  if (foreground) next.push(FOREGROUND_FINALIZER);
  const same = new Set(next).size === new Set(current).size && next.every((f) => current.includes(f));
  return same ? { changed: false, finalizers: current } : { changed: true, finalizers: next };
}

/**
 * The first delete of a Namespace (Kubernetes' namespace registry): only an explicit policy adds or
 * removes a GC finalizer; without one the namespace keeps those it has.
 */
export function namespaceDeletionFinalizers(finalizers: readonly string[] | undefined, propagationPolicy: PropagationPolicy | undefined): { changed: boolean; finalizers: string[] } {
  const current = [...(finalizers ?? [])];
  if (!propagationPolicy) return { changed: false, finalizers: current };
  const next = current.filter((f) => f !== ORPHAN_FINALIZER && f !== FOREGROUND_FINALIZER);
  if (propagationPolicy === 'Orphan') next.push(ORPHAN_FINALIZER);
  if (propagationPolicy === 'Foreground') next.push(FOREGROUND_FINALIZER);
  const same = new Set(next).size === new Set(current).size && next.every((f) => current.includes(f));
  return same ? { changed: false, finalizers: current } : { changed: true, finalizers: next };
}
