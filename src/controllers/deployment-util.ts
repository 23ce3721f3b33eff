// What Kubernetes' deployment controller computes from a Deployment and its ReplicaSets, without writing
// anything: revisions and the annotations that carry them, the rolling update's fenceposts (maxSurge and
// maxUnavailable as numbers), which ReplicaSet is the new one, proportions for scaling, the status and its
// conditions, and whether a rollout completed, progressed or timed out.
import type { ApiObject } from '../apis/meta/v1.ts';
import { LAST_APPLIED_ANNOTATION } from '../machinery/apply/field-manager.ts';
import { formatTimeMs } from '../machinery/apply/managers.ts';

type Obj = Record<string, any>;

export const REVISION_ANNOTATION = 'deployment.platform.io/revision';
/** Kubernetes' own name of the revision annotation, which unmodified kubectl reads (`rollout history`,
 *  `rollout undo`, `rollout status --revision`): kept equal to the revision. */
export const KUBECTL_REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.platform.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.platform.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.platform.io/max-replicas';
/** The apps/v1beta1 rollback request that apps/v1 keeps as an annotation; never copied to a ReplicaSet. */
const DEPRECATED_ROLLBACK_TO = 'deprecated.deployment.rollback.to';
/** The label that tells a Deployment's ReplicaSets (and their pods) apart. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
/** Revision history kept on a ReplicaSet that is rolled back to, at most this many characters. */
export const MAX_REVISION_HISTORY_CHARS = 2000;
/** progressDeadlineSeconds and revisionHistoryLimit at this value mean "none". */
const MAX_INT32 = 2 ** 31 - 1;

// Condition types and reasons.
export const PROGRESSING = 'Progressing';
export const AVAILABLE = 'Available';
export const REPLICA_FAILURE = 'ReplicaFailure';
export const REASON = {
  replicaSetUpdated: 'ReplicaSetUpdated',
  failedRSCreate: 'ReplicaSetCreateError',
  newReplicaSet: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumReplicasAvailable: 'MinimumReplicasAvailable',
  minimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

export interface Condition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
  collisionCount?: number;
}

export const specOf = (o: ApiObject): Obj => (o.spec ?? {}) as Obj;
export const statusOf = (o: ApiObject): Obj => (o.status ?? {}) as Obj;
export const replicasOf = (o: ApiObject): number => specOf(o).replicas ?? 0;

// ---- conditions ----

export function newCondition(type: string, status: string, reason: string, message: string, now: number): Condition {
  const at = formatTimeMs(now);
  return { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message };
}

export function getCondition(status: DeploymentStatus, type: string): Condition | undefined {
  return status.conditions?.find((c) => c.type === type);
}

/** Adds or replaces a condition; one with the same status and reason is left as it is, and a status that
 *  does not change keeps its transition time. */
export function setCondition(status: DeploymentStatus, condition: Condition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  if (current && current.status === condition.status) condition = { ...condition, lastTransitionTime: current.lastTransitionTime };
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), condition];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  const kept = (status.conditions ?? []).filter((c) => c.type !== type);
  if (kept.length) status.conditions = kept; else delete status.conditions;
}

// ---- revisions and annotations ----

/** A ReplicaSet's revision; 0 without one, undefined when it is not a number. */
export function revisionOf(rs: ApiObject): number | undefined {
  const v = rs.metadata.annotations?.[REVISION_ANNOTATION];
  if (v === undefined) return 0;
  return /^-?\d+$/.test(v) ? Number(v) : undefined;
}

export function maxRevision(rss: ApiObject[]): number {
  let max = 0;
  for (const rs of rss) {
    const v = revisionOf(rs);
    if (v !== undefined && v > max) max = v;
  }
  return max;
}

const ANNOTATIONS_NOT_COPIED = new Set([LAST_APPLIED_ANNOTATION, REVISION_ANNOTATION, KUBECTL_REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, DEPRECATED_ROLLBACK_TO]);

/** The Deployment's annotations onto the ReplicaSet, but for the ones the controller keeps itself. */
function copyDeploymentAnnotations(d: ApiObject, rs: ApiObject): boolean {
  let changed = false;
  const annotations = (rs.metadata.annotations ??= {});
  for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
    if (ANNOTATIONS_NOT_COPIED.has(k) || annotations[k] === v) continue;
    annotations[k] = v;
    changed = true;
  }
  return changed;
}

/** Sets the desired- and max-replicas annotations; true when one changed. */
export function setReplicasAnnotations(rs: ApiObject, desired: number, max: number): boolean {
  const annotations = (rs.metadata.annotations ??= {});
  let changed = false;
  if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) { annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired); changed = true; }
  if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) { annotations[MAX_REPLICAS_ANNOTATION] = String(max); changed = true; }
  return changed;
}

export function replicasAnnotationsNeedUpdate(rs: ApiObject, desired: number, max: number): boolean {
  const annotations = rs.metadata.annotations ?? {};
  return annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || annotations[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/**
 * The new ReplicaSet's annotations: the Deployment's (but the controller's own), its revision raised to
 * `newRevision` when lower (a rollback to it keeps the revisions it had in its history), and, for one
 * about to be created, the replicas annotations. True when anything changed.
 */
export function setNewReplicaSetAnnotations(d: ApiObject, rs: ApiObject, newRevision: number, exists: boolean): boolean {
  let changed = copyDeploymentAnnotations(d, rs);
  const annotations = (rs.metadata.annotations ??= {});
  const had = annotations[REVISION_ANNOTATION];
  const old = had === undefined || had === '' ? 0 : /^-?\d+$/.test(had) ? Number(had) : undefined;
  if (old === undefined) return false;
  if (annotations[KUBECTL_REVISION_ANNOTATION] !== annotations[REVISION_ANNOTATION] && annotations[REVISION_ANNOTATION] !== undefined) {
    annotations[KUBECTL_REVISION_ANNOTATION] = annotations[REVISION_ANNOTATION];
    changed = true;
  }
  if (old < newRevision) {
    annotations[REVISION_ANNOTATION] = String(newRevision);
    annotations[KUBECTL_REVISION_ANNOTATION] = String(newRevision);
    changed = true;
    if (had !== undefined) {
      const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
      const kept = history ? history.split(',') : [];
      let total = history.length + had.length + 1;
      let start = 0;
      while (total > MAX_REVISION_HISTORY_CHARS && start < kept.length) total -= kept[start++].length + 1;
      if (!history) annotations[REVISION_HISTORY_ANNOTATION] = had;
      else if (total <= MAX_REVISION_HISTORY_CHARS) annotations[REVISION_HISTORY_ANNOTATION] = [...kept.slice(start), had].join(',');
    }
  }
  if (!exists && setReplicasAnnotations(rs, replicasOf(d), replicasOf(d) + maxSurge(d))) changed = true;
  return changed;
}

/** Sets the Deployment's revision annotation; true when it changed. */
export function setDeploymentRevision(d: ApiObject, revision: string): boolean {
  const annotations = (d.metadata.annotations ??= {});
  if (annotations[REVISION_ANNOTATION] === revision && annotations[KUBECTL_REVISION_ANNOTATION] === revision) return false;
  annotations[REVISION_ANNOTATION] = revision;
  annotations[KUBECTL_REVISION_ANNOTATION] = revision;
  return true;
}

function intAnnotation(rs: ApiObject, key: string): number | undefined {
  const v = rs.metadata.annotations?.[key];
  return v !== undefined && /^-?\d+$/.test(v) ? Number(v) : undefined;
}

export const desiredReplicasAnnotation = (rs: ApiObject) => intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);

// ---- strategy arithmetic ----

export function isRollingUpdate(d: ApiObject): boolean {
  return specOf(d).strategy?.type === 'RollingUpdate';
}

/** An int-or-percent as a number of pods of `total`, percentages rounded up or down. */
export function intOrPercentValue(v: unknown, total: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)%$/.exec(String(v ?? '0'));
  if (!m) return 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** maxSurge and maxUnavailable of `desired` pods; both zero (maxUnavailable rounded down) makes one unavailable. */
export function resolveFenceposts(surgeValue: unknown, unavailableValue: unknown, desired: number): { surge: number; unavailable: number } {
  const surge = intOrPercentValue(surgeValue ?? 0, desired, true);
  let unavailable = intOrPercentValue(unavailableValue ?? 0, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(d: ApiObject): number {
  if (!isRollingUpdate(d)) return 0;
  const ru = specOf(d).strategy?.rollingUpdate ?? {};
  return resolveFenceposts(ru.maxSurge, ru.maxUnavailable, replicasOf(d)).surge;
}

export function maxUnavailable(d: ApiObject): number {
  if (!isRollingUpdate(d) || replicasOf(d) === 0) return 0;
  const ru = specOf(d).strategy?.rollingUpdate ?? {};
  return Math.min(resolveFenceposts(ru.maxSurge, ru.maxUnavailable, replicasOf(d)).unavailable, replicasOf(d));
}

export const hasProgressDeadline = (d: ApiObject) => specOf(d).progressDeadlineSeconds != null && specOf(d).progressDeadlineSeconds !== MAX_INT32;
export const hasRevisionHistoryLimit = (d: ApiObject) => specOf(d).revisionHistoryLimit != null && specOf(d).revisionHistoryLimit !== MAX_INT32;

// ---- ReplicaSets of a Deployment ----

const sum = (rss: (ApiObject | undefined)[], f: (rs: ApiObject) => number) => rss.reduce((n, rs) => n + (rs ? f(rs) : 0), 0);
export const specReplicas = (rss: (ApiObject | undefined)[]) => sum(rss, (rs) => replicasOf(rs));
export const actualReplicas = (rss: (ApiObject | undefined)[]) => sum(rss, (rs) => statusOf(rs).replicas ?? 0);
export const readyReplicas = (rss: (ApiObject | undefined)[]) => sum(rss, (rs) => statusOf(rs).readyReplicas ?? 0);
export const availableReplicas = (rss: (ApiObject | undefined)[]) => sum(rss, (rs) => statusOf(rs).availableReplicas ?? 0);

/** ReplicaSets with pods wanted. */
export function activeReplicaSets(rss: (ApiObject | undefined)[]): ApiObject[] {
  return rss.filter((rs): rs is ApiObject => !!rs && replicasOf(rs) > 0);
}

const creationOf = (o: ApiObject) => Date.parse(o.metadata.creationTimestamp ?? '') || 0;

/** Oldest first; a tie broken by name, as Kubernetes' ReplicaSetsByCreationTimestamp. */
export function byCreation(a: ApiObject, b: ApiObject): number {
  return creationOf(a) - creationOf(b) || (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0);
}

/** Larger first; among equal sizes, newer first (scaling up) or older first (scaling down). */
export function bySizeThenAge(newerFirst: boolean): (a: ApiObject, b: ApiObject) => number {
  return (a, b) => replicasOf(b) - replicasOf(a) || (newerFirst ? byCreation(b, a) : byCreation(a, b));
}

/** Lower revision first, as Kubernetes' ReplicaSetsByRevision (creation order for equal revisions). */
export function byRevision(a: ApiObject, b: ApiObject): number {
  return (revisionOf(a) ?? 0) - (revisionOf(b) ?? 0) || byCreation(a, b);
}

/** Whether two values are equal whatever their keys' order. */
export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** A stable text of a value: object keys sorted, so that two equal templates read the same. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().filter((k) => (v as Obj)[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical((v as Obj)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** Two pod templates are the same rollout when they differ at most in their pod-template-hash label. */
export function equalIgnoreHash(a: Obj | undefined, b: Obj | undefined): boolean {
  const strip = (t: Obj | undefined) => {
    const copy = structuredClone(t ?? {});
    if (copy.metadata?.labels) {
      delete copy.metadata.labels[POD_TEMPLATE_HASH_LABEL];
      if (Object.keys(copy.metadata.labels).length === 0) delete copy.metadata.labels;
    }
    if (copy.metadata && Object.keys(copy.metadata).length === 0) delete copy.metadata;
    return canonical(copy);
  };
  return strip(a) === strip(b);
}

/** The oldest ReplicaSet whose template is the Deployment's. */
export function findNewReplicaSet(d: ApiObject, rss: ApiObject[]): ApiObject | undefined {
  return [...rss].sort(byCreation).find((rs) => equalIgnoreHash(specOf(rs).template, specOf(d).template));
}

export function findOldReplicaSets(d: ApiObject, rss: ApiObject[]): ApiObject[] {
  const newRS = findNewReplicaSet(d, rss);
  return rss.filter((rs) => rs !== newRS && rs.metadata.uid !== newRS?.metadata.uid);
}

/** The only active ReplicaSet, or the newest when none is active; undefined when several are. */
export function findActiveOrLatest(newRS: ApiObject | undefined, oldRSs: ApiObject[]): ApiObject | undefined {
  if (!newRS && oldRSs.length === 0) return undefined;
  const newestFirst = [...oldRSs].sort((a, b) => byCreation(b, a));
  const active = activeReplicaSets([...newestFirst, newRS]);
  if (active.length === 0) return newRS ?? newestFirst[0];
  return active.length === 1 ? active[0] : undefined;
}

/** How many replicas the new ReplicaSet may have now: up to replicas + maxSurge pods in all (rolling), or all at once (recreate). */
export function newRSNewReplicas(d: ApiObject, allRSs: ApiObject[], newRS: ApiObject): number {
  if (!isRollingUpdate(d)) return replicasOf(d);
  const surge = intOrPercentValue(specOf(d).strategy?.rollingUpdate?.maxSurge ?? 0, replicasOf(d), true);
  const current = specReplicas(allRSs);
  const maxTotal = replicasOf(d) + surge;
  if (current >= maxTotal) return replicasOf(newRS);
  return replicasOf(newRS) + Math.min(maxTotal - current, replicasOf(d) - replicasOf(newRS));
}

/** The new ReplicaSet holds all the Deployment's replicas, knows it, and all of them are available. */
export function isSaturated(d: ApiObject, rs: ApiObject | undefined): boolean {
  if (!rs) return false;
  const desired = desiredReplicasAnnotation(rs);
  return desired !== undefined && replicasOf(rs) === replicasOf(d) && desired === replicasOf(d) && (statusOf(rs).availableReplicas ?? 0) === replicasOf(d);
}

/** Go's math.Round for a positive or negative half. */
const roundHalfAway = (x: number) => (x < 0 ? -Math.round(-x) : Math.round(x));

/** The share of a scaling event (`toAdd` replicas, `added` of them given so far) this ReplicaSet takes. */
export function proportion(rs: ApiObject, d: ApiObject, toAdd: number, added: number): number {
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  const fraction = replicaSetFraction(rs, d);
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

function replicaSetFraction(rs: ApiObject, d: ApiObject): number {
  if (replicasOf(d) === 0) return -replicasOf(rs);
  const deploymentReplicas = replicasOf(d) + maxSurge(d);
  const annotated = intAnnotation(rs, MAX_REPLICAS_ANNOTATION) ?? (statusOf(d).replicas ?? 0);
  return roundHalfAway((replicasOf(rs) * deploymentReplicas) / annotated) - replicasOf(rs);
}

// ---- status ----

/** The status the ReplicaSets give, with the Available condition; other conditions as they were. */
export function calculateStatus(allRSs: ApiObject[], newRS: ApiObject | undefined, d: ApiObject, now: number): DeploymentStatus {
  const available = availableReplicas(allRSs);
  const unavailable = Math.max(specReplicas(allRSs) - available, 0);
  const previous = statusOf(d) as DeploymentStatus;
  // Go leaves the zero counts out (omitempty); the collision count is a pointer and keeps its zero.
  const counts: Record<string, number | undefined> = {
    observedGeneration: d.metadata.generation,
    replicas: actualReplicas(allRSs),
    updatedReplicas: actualReplicas([newRS]),
    readyReplicas: readyReplicas(allRSs),
    availableReplicas: available,
    unavailableReplicas: unavailable,
  };
  const status: DeploymentStatus = Object.fromEntries(Object.entries(counts).filter(([, v]) => v));
  if (previous.collisionCount !== undefined) status.collisionCount = previous.collisionCount;
  if (previous.conditions?.length) status.conditions = previous.conditions.map((c) => ({ ...c }));
  if (available >= replicasOf(d) - maxUnavailable(d)) {
    setCondition(status, newCondition(AVAILABLE, 'True', REASON.minimumReplicasAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition(AVAILABLE, 'False', REASON.minimumReplicasUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

/** All replicas updated and available, no old ones, and this generation observed. */
export function deploymentComplete(d: ApiObject, status: DeploymentStatus): boolean {
  const want = replicasOf(d);
  return status.updatedReplicas === want && status.replicas === want && status.availableReplicas === want && (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** New pods created, ready or available, or old ones gone, since the status the Deployment shows. */
export function deploymentProgressing(d: ApiObject, next: DeploymentStatus): boolean {
  const old = statusOf(d) as DeploymentStatus;
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld
    || (next.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (next.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/** The Progressing condition has not been updated for progressDeadlineSeconds (or already says so). */
export function deploymentTimedOut(d: ApiObject, status: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(d)) return false;
  const condition = getCondition(status, PROGRESSING);
  if (!condition || condition.reason === REASON.newRSAvailable) return false;
  if (condition.reason === REASON.timedOut) return true;
  const from = Date.parse(condition.lastUpdateTime ?? '');
  return Number.isFinite(from) && from + specOf(d).progressDeadlineSeconds * 1000 < now;
}

// ---- the pod-template-hash ----

/** FNV-1a, 32 bits. */
function fnv32a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** apimachinery's rand.SafeEncodeString alphabet: no vowels, no look-alikes. */
const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * The pod-template-hash of a template: FNV-1a of the template, and of the collision count when there is
 * one, written in the safe alphabet as Kubernetes' ComputeHash writes it. (Kubernetes hashes its Go
 * struct printout, so the values differ from its own; they are as unique and as stable.)
 */
export function computeHash(template: Obj | undefined, collisionCount: number | undefined): string {
  const text = Buffer.from(canonical(template ?? {}));
  let bytes: Uint8Array = text;
  if (collisionCount !== undefined) {
    const count = Buffer.alloc(8);
    count.writeUInt32LE(collisionCount >>> 0, 0);
    bytes = Buffer.concat([text, count]);
  }
  return [...String(fnv32a(bytes))].map((c) => SAFE_ALPHABET[c.charCodeAt(0) % SAFE_ALPHABET.length]).join('');
}
