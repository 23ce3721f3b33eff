// Kubernetes' ReplicaSet controller (v1.32): keeps spec.replicas active pods matching a ReplicaSet's selector.
// A sync claims the pods of the ReplicaSet's namespace as the ControllerRefManager does (adopts matching
// orphans, releases owned pods that no longer match), creates missing pods from the template in slow-start
// batches or deletes the surplus pods Kubernetes would pick first, and writes the status (replica counts and
// the ReplicaFailure condition) through /status. Its own creates and deletes are remembered as expectations
// until the pod cache shows them, so that a sync does not act twice on what the cache does not show yet.
// Pods owned by a ReplicaSet that goes are the garbage collector's to remove.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { CacheEvent, CachedObject } from '../storage/cache.ts';
import { metaOf, type CachedMeta } from '../storage/cached-object.ts';
import { updateObject } from '../registry/update-object.ts';
import { labelSelectorFromObject, selectorFromSet, type LabelSelectorMatcher } from '../machinery/labels.ts';
import { isNotFound } from '../machinery/status.ts';
import { deepEqual } from '../machinery/schema/walk.ts';
import { formatTimeMs } from '../machinery/apply/managers.ts';
import { isValidDeletionCost, POD_DELETION_COST_ANNOTATION } from '../apis/core/pod-annotations.ts';
import type { OwnerReference } from './garbage-collector.ts';
import { controllerContext, controllerRefOf, namespaceTerminating, type AdmittedCreate } from './client.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import type { EventRecorder } from './events.ts';
import { isPodActive, isPodAvailable, isPodReady, podAvailableAfter, podReadySince } from './pod-state.ts';

type Obj = Record<string, any>;

const CONTROLLER_NAME = 'replicaset-controller';
/** Kubernetes' BurstReplicas: the most pods one sync creates or deletes. */
export const BURST_REPLICAS = 500;
/** Kubernetes' ExpectationsTimeout: a sync no longer waits for creates or deletes older than this. */
export const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;
/** Kubernetes' SlowStartInitialBatchSize. */
const SLOW_START_INITIAL_BATCH = 1;
/** Kubernetes' --concurrent-replicaset-syncs. */
const WORKERS = 5;
/** Added to a wake-up for availability, as Kubernetes does, against skew between the clock that set the
 *  Ready condition's time and ours. */
const AVAILABILITY_MARGIN_MS = 1000;
export const REPLICA_FAILURE = 'ReplicaFailure';
const FAILED_CREATE = 'FailedCreate';
const FAILED_DELETE = 'FailedDelete';

export interface ReplicaSetControllerDeps {
  replicaSets: ResourceStore;
  pods: ResourceStore;
  /** Creates a pod through admission (in tests: a function that calls pods.create directly). */
  createAdmitted: AdmittedCreate;
  log(line: string): void;
  resyncMs?: number;
  /** Clock for availability (minReadySeconds); Date.now by default. */
  now?: () => number;
  /** Where the controller's Events go (SuccessfulCreate, FailedCreate, SuccessfulDelete, FailedDelete). */
  events?: EventRecorder;
}

// ---- owners ----

/** The owner reference a ReplicaSet puts on the pods it controls. */
export function replicaSetControllerRef(rs: ApiObject): OwnerReference {
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name!, uid: rs.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

/** Labels, owners and deletion of a cached object, without parsing it when the cache has them. */
const metaOfCached = (c: CachedObject): CachedMeta => c.meta ?? metaOf(c.object.metadata);
const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;
const podKey = (pod: Obj) => keyOf(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '');
const desiredReplicas = (rs: ApiObject): number => (rs.spec as Obj | undefined)?.replicas ?? 1;
const minReadySecondsOf = (rs: ApiObject): number => (rs.spec as Obj | undefined)?.minReadySeconds ?? 0;

/** Kubernetes' getPodsPrefix: `<name>-` unless that is too long to generate names from. */
function podNamePrefix(name: string): string {
  return name.length + 1 <= 253 ? `${name}-` : name;
}

/** Kubernetes' GetPodFromTemplate: the template's labels, annotations, finalizers and spec, named after the
 *  ReplicaSet and controlled by it. */
export function podFromTemplate(rs: ApiObject): ApiObject {
  const template = ((rs.spec as Obj | undefined)?.template ?? {}) as Obj;
  const meta = (template.metadata ?? {}) as Obj;
  const metadata: Obj = { generateName: podNamePrefix(rs.metadata.name!), namespace: rs.metadata.namespace, ownerReferences: [replicaSetControllerRef(rs)] };
  if (meta.labels && Object.keys(meta.labels).length) metadata.labels = { ...meta.labels };
  if (meta.annotations && Object.keys(meta.annotations).length) metadata.annotations = { ...meta.annotations };
  if (Array.isArray(meta.finalizers) && meta.finalizers.length) metadata.finalizers = [...meta.finalizers];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: structuredClone(template.spec ?? {}) } as ApiObject;
}

// ---- expectations ----

interface Expected {
  creates: number;
  deletes: Set<string>;
  since: number;
}

/**
 * Kubernetes' UIDTrackingControllerExpectations: per ReplicaSet, how many of its creates and which of its
 * deletes the pod cache has not shown yet. A ReplicaSet is managed again once they are all seen, or after
 * EXPECTATIONS_TIMEOUT_MS (an event may have been lost).
 */
export class Expectations {
  private readonly byKey = new Map<string, Expected>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  expectCreations(key: string, count: number): void {
    this.byKey.set(key, { creates: count, deletes: new Set(), since: this.now() });
  }

  expectDeletions(key: string, podKeys: string[]): void {
    this.byKey.set(key, { creates: 0, deletes: new Set(podKeys), since: this.now() });
  }

  creationObserved(key: string): void {
    const expected = this.byKey.get(key);
    if (expected) expected.creates--;
  }

  /** Counted once per pod, whether seen as marked for deletion or as gone. */
  deletionObserved(key: string, podKey: string): void {
    this.byKey.get(key)?.deletes.delete(podKey);
  }

  satisfied(key: string): boolean {
    const expected = this.byKey.get(key);
    if (!expected) return true;
    if (expected.creates <= 0 && expected.deletes.size === 0) return true;
    return this.now() - expected.since > EXPECTATIONS_TIMEOUT_MS;
  }

  forget(key: string): void {
    this.byKey.delete(key);
  }
}

// ---- which pods go first ----

/** Kubernetes' podPhaseToOrdinal; other phases count as Pending. */
const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

interface RankedPod {
  pod: Obj;
  /** Active pods of the same controller on the pod's node. */
  rank: number;
}

function deletionCost(pod: Obj): number {
  const value = pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION];
  return typeof value === 'string' && isValidDeletionCost(value) ? Number(value) : 0;
}

function maxContainerRestarts(pod: Obj): number {
  const statuses = pod.status?.containerStatuses;
  if (!Array.isArray(statuses)) return 0;
  return statuses.reduce((max: number, s: Obj) => Math.max(max, typeof s?.restartCount === 'number' ? s.restartCount : 0), 0);
}

function creationTime(pod: Obj): number | undefined {
  const at = Date.parse(pod.metadata?.creationTimestamp ?? '');
  return Number.isNaN(at) ? undefined : at;
}

/** Kubernetes' logarithmicRankDiff: the orders of magnitude (base 2, in nanoseconds) of two ages. */
function logarithmicRank(ageMs: number): number {
  return ageMs > 0 ? Math.floor(Math.log2(ageMs * 1e6)) : -1;
}

/** Whether time `a` (of pod `pa`) ranks as more recent than `b`: an unset time first, then on a logarithmic
 *  scale of age (LogarithmicScaleDown), ties broken by uid so that equal pods go in a pseudorandom order. */
function moreRecent(a: number | undefined, b: number | undefined, pa: Obj, pb: Obj, now: number): boolean {
  if (a === undefined || b === undefined) return a === undefined;
  const diff = logarithmicRank(now - a) - logarithmicRank(now - b);
  if (diff === 0) return String(pa.metadata?.uid ?? '') < String(pb.metadata?.uid ?? '');
  return diff < 0;
}

/** Kubernetes' ActivePodsWithRanks.Less: whether `a` should be deleted before `b`. */
function deleteBefore(a: RankedPod, b: RankedPod, now: number): boolean {
  const nodeA = a.pod.spec?.nodeName ?? '', nodeB = b.pod.spec?.nodeName ?? '';
  if (nodeA !== nodeB && (!nodeA || !nodeB)) return !nodeA;
  const phaseA = PHASE_ORDER[a.pod.status?.phase] ?? 0, phaseB = PHASE_ORDER[b.pod.status?.phase] ?? 0;
  if (phaseA !== phaseB) return phaseA < phaseB;
  const readyA = isPodReady(a.pod), readyB = isPodReady(b.pod);
  if (readyA !== readyB) return !readyA;
  const costA = deletionCost(a.pod), costB = deletionCost(b.pod);
  if (costA !== costB) return costA < costB;
  if (a.rank !== b.rank) return a.rank > b.rank;
  if (readyA && readyB) {
    const sinceA = podReadySince(a.pod), sinceB = podReadySince(b.pod);
    if (sinceA !== sinceB) return moreRecent(sinceA, sinceB, a.pod, b.pod, now);
  }
  const restartsA = maxContainerRestarts(a.pod), restartsB = maxContainerRestarts(b.pod);
  if (restartsA !== restartsB) return restartsA > restartsB;
  const createdA = creationTime(a.pod), createdB = creationTime(b.pod);
  if (createdA !== createdB) return moreRecent(createdA, createdB, a.pod, b.pod, now);
  return false;
}

/**
 * Kubernetes' getPodsToDelete: the `count` active pods to delete first, ranked by how many active pods of
 * the same controller (`related`: the pods of every ReplicaSet its Deployment owns) share their node.
 */
export function podsToDelete(active: Obj[], related: Obj[], count: number, now: number): Obj[] {
  if (count >= active.length) return active.slice(0, count);
  const podsOnNode = new Map<string, number>();
  for (const pod of related) {
    if (!isPodActive(pod)) continue;
    const node = pod.spec?.nodeName ?? '';
    podsOnNode.set(node, (podsOnNode.get(node) ?? 0) + 1);
  }
  const ranked = active.map((pod): RankedPod => ({ pod, rank: podsOnNode.get(pod.spec?.nodeName ?? '') ?? 0 }));
  ranked.sort((a, b) => (deleteBefore(a, b, now) ? -1 : deleteBefore(b, a, now) ? 1 : 0));
  return ranked.slice(0, count).map((r) => r.pod);
}

// ---- status ----

export interface ReplicaSetCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The ReplicaFailure condition as Kubernetes' calculateStatus keeps it: added (once) while managing
 *  replicas fails, removed by a sync that does not fail. */
function conditionsAfter(current: ReplicaSetCondition[] | undefined, manageError: Error | undefined, diff: number, now: number): ReplicaSetCondition[] | undefined {
  const conditions = current ?? [];
  const failure = conditions.find((c) => c.type === REPLICA_FAILURE);
  if (manageError && !failure) {
    const condition: ReplicaSetCondition = { type: REPLICA_FAILURE, status: 'True', lastTransitionTime: formatTimeMs(now), message: manageError.message };
    const reason = diff < 0 ? FAILED_CREATE : diff > 0 ? FAILED_DELETE : '';
    if (reason) condition.reason = reason;
    return [...conditions, condition];
  }
  if (!manageError && failure) return conditions.filter((c) => c.type !== REPLICA_FAILURE);
  return current;
}

/** Kubernetes' calculateStatus over the active pods a ReplicaSet owns; zero counts are left out, as Go
 *  leaves out its omitempty fields. */
export function calculateStatus(rs: ApiObject, active: Obj[], manageError: Error | undefined, now: number): Obj {
  const spec = (rs.spec ?? {}) as Obj;
  const templateLabels = selectorFromSet(spec.template?.metadata?.labels);
  const minReadySeconds = minReadySecondsOf(rs);
  let fullyLabeled = 0, ready = 0, available = 0;
  for (const pod of active) {
    if (templateLabels.matches(pod.metadata?.labels)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, now)) available++;
    }
  }
  const status: Obj = { replicas: active.length };
  if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled;
  if (ready) status.readyReplicas = ready;
  if (available) status.availableReplicas = available;
  if (rs.metadata.generation) status.observedGeneration = rs.metadata.generation;
  const conditions = conditionsAfter((rs.status as Obj | undefined)?.conditions, manageError, active.length - desiredReplicas(rs), now);
  if (conditions?.length) status.conditions = conditions;
  return status;
}

/** Kubernetes' test for the steady state in updateReplicaSetStatus (unset counts are zero). */
function statusUnchanged(rs: ApiObject, next: Obj): boolean {
  const current = (rs.status ?? {}) as Obj;
  const counts = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'];
  return counts.every((f) => (current[f] ?? 0) === (next[f] ?? 0))
    && (rs.metadata.generation ?? 0) === (current.observedGeneration ?? 0)
    && deepEqual(current.conditions?.length ? current.conditions : undefined, next.conditions);
}

// ---- the controller ----

/** Runs `create` `count` times, in batches of 1, 2, 4 ... started together, stopping after the first
 *  batch with a failure (Kubernetes' slowStartBatch). */
async function slowStartBatch(count: number, create: () => Promise<void>): Promise<{ successes: number; error?: Error }> {
  let remaining = count;
  let successes = 0;
  for (let size = Math.min(remaining, SLOW_START_INITIAL_BATCH); size > 0; size = Math.min(2 * size, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: size }, create));
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += size - failures.length;
    if (failures.length) return { successes, error: asError(failures[0].reason) };
    remaining -= size;
  }
  return { successes };
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));


/** Go's rendering of a metav1.Time in messages. */
const goTime = (rfc3339: string) => rfc3339.replace('T', ' ').replace(/Z$/, ' +0000 UTC');

export function startReplicaSetController(deps: ReplicaSetControllerDeps): { stop(): void; queue: WorkQueue } {
  const { replicaSets, pods } = deps;
  const now = deps.now ?? Date.now;
  const ctx = controllerContext(CONTROLLER_NAME);
  const expectations = new Expectations(now);
  /** When a key is already due for an availability look (real time), so that syncs do not pile up timers. */
  const availabilityChecks = new Map<string, number>();

  /** The ReplicaSet a controller reference names, when the cache has that very one (same uid). */
  function resolveControllerRef(namespace: string, ref: OwnerReference): CachedObject | undefined {
    if (ref.kind !== 'ReplicaSet') return undefined;
    const rs = replicaSets.current(namespace, ref.name);
    return rs && rs.object.metadata?.uid === ref.uid ? rs : undefined;
  }

  // ---- claiming pods ----

  /** The active pods of the namespace a ReplicaSet may claim: those it controls and the orphans it selects. */
  function claimCandidates(rs: ApiObject, selector: LabelSelectorMatcher): Obj[] {
    const namespace = rs.metadata.namespace ?? '';
    const candidates: Obj[] = [];
    for (const cached of pods.cache.list(pods.listPrefix(namespace))) {
      const meta = metaOfCached(cached);
      const ref = controllerRefOf(meta);
      if (ref ? ref.uid !== rs.metadata.uid : !selector.matches(meta.labels)) continue;
      if (isPodActive(cached.object)) candidates.push(cached.object);
    }
    return candidates;
  }

  /** Kubernetes' RecheckDeletionTimestamp, read from storage: adopting for a ReplicaSet deleted or replaced
   *  since the cache saw it would be wrong. Answers why it may not adopt, or nothing. */
  async function adoptionRefusal(rs: ApiObject): Promise<string | undefined> {
    const namespace = rs.metadata.namespace ?? '', name = rs.metadata.name!;
    const fresh = (await replicaSets.readNow(namespace, name))?.object as ApiObject | undefined;
    if (!fresh) return `can't recheck DeletionTimestamp: replicasets.apps "${name}" not found`;
    if (fresh.metadata.uid !== rs.metadata.uid) {
      return `can't recheck DeletionTimestamp: original ReplicaSet ${namespace}/${name} is gone: got uid ${fresh.metadata.uid}, wanted ${rs.metadata.uid}`;
    }
    if (fresh.metadata.deletionTimestamp) return `${namespace}/${name} has just been deleted at ${goTime(fresh.metadata.deletionTimestamp)}`;
    return undefined;
  }

  /** Makes the ReplicaSet the pod's controller; false when the pod is gone. */
  async function adopt(rs: ApiObject, pod: Obj): Promise<boolean> {
    const ref = replicaSetControllerRef(rs);
    const written = await updateObject(pods, ctx, pod.metadata.namespace, pod.metadata.name, (obj) => {
      const meta = obj.metadata as { ownerReferences?: OwnerReference[] };
      const refs = [...(meta.ownerReferences ?? [])];
      const i = refs.findIndex((r) => r?.uid === ref.uid);
      if (i >= 0) refs[i] = { ...refs[i], ...ref }; else refs.push(ref);
      meta.ownerReferences = refs;
    }, { uid: pod.metadata.uid });
    return written !== undefined;
  }

  /** Removes the ReplicaSet's reference from a pod it no longer selects (a pod gone is released already). */
  async function release(rs: ApiObject, pod: Obj): Promise<void> {
    await updateObject(pods, ctx, pod.metadata.namespace, pod.metadata.name, (obj) => {
      const meta = obj.metadata as { ownerReferences?: OwnerReference[] };
      const kept = (meta.ownerReferences ?? []).filter((r) => r?.uid !== rs.metadata.uid);
      if (kept.length) meta.ownerReferences = kept; else delete meta.ownerReferences;
    }, { uid: pod.metadata.uid });
  }

  /** Kubernetes' ClaimPods: the active pods the ReplicaSet owns once orphans are adopted and strays
   *  released. Nothing is adopted or released while the ReplicaSet is being deleted. */
  async function claimPods(rs: ApiObject, selector: LabelSelectorMatcher): Promise<Obj[]> {
    const deleting = !!rs.metadata.deletionTimestamp;
    const claimed: Obj[] = [];
    const errors: string[] = [];
    let refusal: Promise<string | undefined> | undefined;
    for (const pod of claimCandidates(rs, selector)) {
      const matches = selector.matches(pod.metadata?.labels);
      try {
        if (controllerRefOf(pod.metadata)) {
          if (matches) claimed.push(pod);
          else if (!deleting) await release(rs, pod);
          continue;
        }
        if (deleting) continue;
        const refused = await (refusal ??= adoptionRefusal(rs));
        if (refused) throw new Error(`can't adopt Pod ${podKey(pod)} (${pod.metadata.uid}): ${refused}`);
        if (await adopt(rs, pod)) claimed.push(pod);
      } catch (err) {
        errors.push(asError(err).message);
      }
    }
    // Kubernetes' error aggregate: one message alone, several in brackets.
    if (errors.length) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    return claimed;
  }

  // ---- creating and deleting pods ----

  async function createPod(rs: ApiObject): Promise<void> {
    const pod = podFromTemplate(rs);
    if (!pod.metadata.labels) throw new Error('unable to create pods, no labels');
    let created: ApiObject;
    try {
      created = await deps.createAdmitted('', 'pods', rs.metadata.namespace ?? '', pod, controllerContext(CONTROLLER_NAME));
    } catch (err) {
      // Every create would fail the same way while the namespace goes: nothing to report.
      if (namespaceTerminating(err)) return;
      deps.events?.event(rs, 'Warning', 'FailedCreate', `Error creating: ${asError(err).message}`);
      throw err;
    }
    deps.events?.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`);
  }

  async function createPods(key: string, rs: ApiObject, count: number): Promise<Error | undefined> {
    expectations.expectCreations(key, count);
    const { successes, error } = await slowStartBatch(count, () => createPod(rs));
    // The creates that failed or were never tried will not be seen.
    for (let i = successes; i < count; i++) expectations.creationObserved(key);
    return error;
  }

  /** The pods of every ReplicaSet controlled by the same owner as `rs` (none when it has no owner). */
  function relatedPods(rs: ApiObject): Obj[] {
    const owner = controllerRefOf(rs.metadata);
    if (!owner) return [];
    const namespace = rs.metadata.namespace ?? '';
    const related = new Map<string, Obj>();
    for (const cached of replicaSets.cache.list(replicaSets.listPrefix(namespace))) {
      if (controllerRefOf(metaOfCached(cached))?.uid !== owner.uid) continue;
      let selector: LabelSelectorMatcher;
      try {
        selector = labelSelectorFromObject((cached.object.spec as Obj | undefined)?.selector);
      } catch {
        continue;
      }
      for (const pod of pods.cache.list(pods.listPrefix(namespace))) {
        if (!selector.matches(metaOfCached(pod).labels)) continue;
        const uid = pod.object.metadata?.uid;
        if (!related.has(uid)) related.set(uid, pod.object);
      }
    }
    return [...related.values()];
  }

  async function deletePods(key: string, rs: ApiObject, active: Obj[], count: number): Promise<Error | undefined> {
    const victims = podsToDelete(active, relatedPods(rs), count, now());
    expectations.expectDeletions(key, victims.map(podKey));
    const failures = await Promise.all(victims.map(async (pod) => {
      try {
        await pods.delete(pod.metadata.namespace, pod.metadata.name, { ctx: controllerContext(CONTROLLER_NAME), dryRun: false });
        deps.events?.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
        return undefined;
      } catch (err) {
        // No event will show this delete; a pod already gone is what was wanted.
        expectations.deletionObserved(key, podKey(pod));
        if (isNotFound(err)) return undefined;
        deps.events?.event(rs, 'Warning', 'FailedDelete', `Error deleting: ${asError(err).message}`);
        return new Error(`unable to delete pods: ${asError(err).message}`);
      }
    }));
    return failures.find((e) => e !== undefined);
  }

  async function manageReplicas(key: string, rs: ApiObject, active: Obj[]): Promise<Error | undefined> {
    const diff = active.length - desiredReplicas(rs);
    if (diff < 0) return createPods(key, rs, Math.min(-diff, BURST_REPLICAS));
    if (diff > 0) return deletePods(key, rs, active, Math.min(diff, BURST_REPLICAS));
    return undefined;
  }

  // ---- status ----

  async function writeStatus(rs: ApiObject, status: Obj): Promise<void> {
    if (statusUnchanged(rs, status)) return;
    await updateObject(replicaSets, ctx, rs.metadata.namespace ?? '', rs.metadata.name!, (obj) => {
      obj.status = structuredClone(status);
    }, { uid: rs.metadata.uid, subresource: 'status' });
  }

  /** Looks again when the first ready pod that is not yet available (minReadySeconds) will be. */
  function checkAvailabilityLater(key: string, rs: ApiObject, active: Obj[]): void {
    const minReadySeconds = minReadySecondsOf(rs);
    if (!minReadySeconds) return;
    const at = now();
    let next = Infinity;
    for (const pod of active) {
      const after = podAvailableAfter(pod, minReadySeconds);
      if (after !== undefined && after >= at) next = Math.min(next, after);
    }
    if (next === Infinity) return;
    const delay = next - at + AVAILABILITY_MARGIN_MS;
    const due = Date.now() + delay;
    const pending = availabilityChecks.get(key);
    if (pending !== undefined && pending > Date.now() && pending <= due) return;
    availabilityChecks.set(key, due);
    queue.addAfter(key, delay);
  }

  // ---- sync ----

  async function syncReplicaSet(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const rs = replicaSets.current(key.slice(0, slash), key.slice(slash + 1))?.object as ApiObject | undefined;
    if (!rs) {
      expectations.forget(key);
      availabilityChecks.delete(key);
      return;
    }
    const needsSync = expectations.satisfied(key);
    let selector: LabelSelectorMatcher;
    try {
      selector = labelSelectorFromObject((rs.spec as Obj | undefined)?.selector);
    } catch (err) {
      // An invalid selector selects nothing, and a retry would not change it.
      deps.log(`replicaset controller: error converting pod selector to selector for rs ${key}: ${asError(err).message}`);
      return;
    }
    const active = await claimPods(rs, selector);
    const manageError = needsSync && !rs.metadata.deletionTimestamp ? await manageReplicas(key, rs, active) : undefined;
    await writeStatus(rs, calculateStatus(rs, active, manageError, now()));
    checkAvailabilityLater(key, rs, active);
    if (manageError) throw manageError;
  }

  const queue = new WorkQueue(syncReplicaSet, { name: 'replicaset controller', log: deps.log, workers: WORKERS });

  // ---- events ----

  function onReplicaSetEvent(e: CacheEvent): void {
    const key = keyOf(e.current.namespace, e.current.name);
    // A ReplicaSet deleted (or replaced under its name) starts again with no expectations.
    if (e.deleted || (e.previous && e.previous.object.metadata?.uid !== e.current.object.metadata?.uid)) expectations.forget(key);
    queue.add(key);
  }

  /** The ReplicaSets that would adopt an orphan pod: those of its namespace whose (non-empty) selector matches. */
  function replicaSetsSelecting(pod: CachedObject): string[] {
    const labels = metaOfCached(pod).labels;
    if (!labels || !Object.keys(labels).length) return [];
    const keys: string[] = [];
    for (const cached of replicaSets.cache.list(replicaSets.listPrefix(pod.namespace))) {
      try {
        const selector = labelSelectorFromObject((cached.object.spec as Obj | undefined)?.selector);
        if (!selector.empty && selector.matches(labels)) keys.push(keyOf(cached.namespace, cached.name));
      } catch {
        // An invalid selector matches no pod.
      }
    }
    return keys;
  }

  /** A pod deleted or marked for deletion: its ReplicaSet sees one of its deletes, and may replace it. */
  function podGoing(pod: CachedObject): void {
    const ref = controllerRefOf(metaOfCached(pod));
    const rs = ref && resolveControllerRef(pod.namespace, ref);
    if (!rs) return;
    const key = keyOf(rs.namespace, rs.name);
    expectations.deletionObserved(key, keyOf(pod.namespace, pod.name));
    queue.add(key);
  }

  function podAdded(pod: CachedObject): void {
    const meta = metaOfCached(pod);
    // Already being deleted (seen first after a restart): not a creation.
    if (meta.deletionTimestamp) return podGoing(pod);
    const ref = controllerRefOf(meta);
    if (ref) {
      const rs = resolveControllerRef(pod.namespace, ref);
      if (!rs) return;
      const key = keyOf(rs.namespace, rs.name);
      expectations.creationObserved(key);
      queue.add(key);
      return;
    }
    for (const key of replicaSetsSelecting(pod)) queue.add(key);
  }

  function podUpdated(previous: CachedObject, current: CachedObject): void {
    const before = metaOfCached(previous), after = metaOfCached(current);
    const labelsChanged = !deepEqual(before.labels, after.labels);
    if (after.deletionTimestamp) {
      podGoing(current);
      if (labelsChanged) podGoing(previous);
      return;
    }
    const oldRef = controllerRefOf(before), newRef = controllerRefOf(after);
    const refChanged = !deepEqual(oldRef, newRef);
    if (refChanged && oldRef) {
      const old = resolveControllerRef(previous.namespace, oldRef);
      if (old) queue.add(keyOf(old.namespace, old.name));
    }
    if (newRef) {
      const rs = resolveControllerRef(current.namespace, newRef);
      if (rs) queue.add(keyOf(rs.namespace, rs.name));
      return;
    }
    if (labelsChanged || refChanged) for (const key of replicaSetsSelecting(current)) queue.add(key);
  }

  function onPodEvent(e: CacheEvent): void {
    if (e.deleted) podGoing(e.current);
    else if (e.previous) podUpdated(e.previous, e.current);
    else podAdded(e.current);
  }

  const informer = startInformer({
    stores: [replicaSets, pods],
    onEvent: (store, e) => (store === replicaSets ? onReplicaSetEvent(e) : onPodEvent(e)),
    resync() {
      for (const rs of replicaSets.cache.unordered()) queue.add(keyOf(rs.namespace, rs.name));
    },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'replicaset controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
