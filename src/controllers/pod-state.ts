// What the workload controllers read of a pod's state, with Kubernetes' meanings (pkg/api/v1/pod and
// pkg/controller): active (still counts as a replica), ready (its Ready condition is True) and available
// (ready for at least minReadySeconds, counted from the Ready condition's lastTransitionTime).
type Obj = Record<string, any>;

export interface PodCondition {
  type: string;
  status: string;
  lastTransitionTime?: string | null;
  reason?: string;
  message?: string;
}

/** Neither finished (Succeeded, Failed) nor being deleted: a pod that counts as a replica. */
export function isPodActive(pod: Obj): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** The pod's first condition of this type, as Kubernetes' GetPodCondition finds it. */
export function podCondition(pod: Obj, type: string): PodCondition | undefined {
  const conditions = pod.status?.conditions;
  if (!Array.isArray(conditions)) return undefined;
  return conditions.find((c): c is PodCondition => !!c && typeof c === 'object' && c.type === type);
}

export function isPodReady(pod: Obj): boolean {
  return podCondition(pod, 'Ready')?.status === 'True';
}

/** When a ready pod turned ready (its Ready condition's lastTransitionTime), in ms; undefined when it is not
 *  ready or the time is unset (Go's zero time). */
export function podReadySince(pod: Obj): number | undefined {
  const ready = podCondition(pod, 'Ready');
  if (ready?.status !== 'True' || typeof ready.lastTransitionTime !== 'string') return undefined;
  const at = Date.parse(ready.lastTransitionTime);
  return Number.isNaN(at) ? undefined : at;
}

/** The moment after which a ready pod counts as available; undefined when it never will (not ready, or
 *  ready without a transition time while minReadySeconds is set). */
export function podAvailableAfter(pod: Obj, minReadySeconds: number): number | undefined {
  if (!isPodReady(pod)) return undefined;
  if (!minReadySeconds) return -Infinity;
  const since = podReadySince(pod);
  return since === undefined ? undefined : since + minReadySeconds * 1000;
}

/** Ready, and for at least minReadySeconds before `now` (ms): Kubernetes' IsPodAvailable (strictly after). */
export function isPodAvailable(pod: Obj, minReadySeconds: number, now: number): boolean {
  const after = podAvailableAfter(pod, minReadySeconds);
  return after !== undefined && after < now;
}
