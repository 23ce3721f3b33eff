// Kubernetes' deployment controller: a Deployment owns ReplicaSets, one per pod template it has had (told apart
// by the pod-template-hash label), and rolls from the old ones to the new one as its strategy says (a rolling
// update within maxSurge and maxUnavailable, or recreate: all old pods gone first). It keeps the revision
// annotations of its ReplicaSets, scales them proportionally on a scaling event, removes old ones beyond
// revisionHistoryLimit, and reports progress in its status: replica counts, the Available condition, and the
// Progressing condition, which turns False with reason ProgressDeadlineExceeded when the rollout makes no
// progress for progressDeadlineSeconds (the controller keeps processing it). The ReplicaSet controller
// (replicaset.ts) makes the pods.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { updateObject } from '../registry/update-object.ts';
import { labelSelectorMatches } from '../machinery/labels.ts';
import * as status from '../machinery/status.ts';
import { controllerContext, controllerRefOf, namespaceTerminating, type AdmittedCreate } from './client.ts';
import type { OwnerReference } from './garbage-collector.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import type { EventRecorder } from './events.ts';
import {
  PROGRESSING, REASON, REPLICA_FAILURE, POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION, KUBECTL_REVISION_ANNOTATION,
  activeReplicaSets, actualReplicas, availableReplicas, byCreation, byRevision, bySizeThenAge, calculateStatus, computeHash,
  deploymentComplete, deploymentProgressing, deploymentTimedOut, desiredReplicasAnnotation, findActiveOrLatest, findNewReplicaSet,
  findOldReplicaSets, getCondition, hasProgressDeadline, hasRevisionHistoryLimit, isRollingUpdate, isSaturated, maxRevision, maxSurge,
  maxUnavailable, newCondition, newRSNewReplicas, proportion, removeCondition, replicasAnnotationsNeedUpdate, replicasOf,
  sameValue, setCondition, setDeploymentRevision, setNewReplicaSetAnnotations, setReplicasAnnotations, specOf, specReplicas, statusOf,
  type Condition, type DeploymentStatus,
} from './deployment-util.ts';

type Obj = Record<string, any>;

export interface DeploymentControllerDeps {
  deployments: ResourceStore;
  replicaSets: ResourceStore;
  pods: ResourceStore;
  createAdmitted: AdmittedCreate;
  log(line: string): void;
  resyncMs?: number;
  /** The clock of conditions and deadlines (tests move it). */
  now?: () => number;
  /** Where the controller's Events go (ScalingReplicaSet, ReplicaSetCreateError, SelectingAll). */
  events?: EventRecorder;
}

const CONTROLLER_NAME = 'deployment-controller';
/** Kubernetes' --concurrent-deployment-syncs. */
const WORKERS = 5;

function selects(selector: Obj | undefined, obj: ApiObject): boolean {
  try {
    return labelSelectorMatches(selector, obj.metadata.labels);
  } catch {
    return false;
  }
}

const isEmptySelector = (sel: Obj | undefined) => !!sel && Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0;
const keyOf = (o: ApiObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const sameStatus = (a: unknown, b: unknown) => sameValue(a ?? {}, b ?? {});

export function startDeploymentController(deps: DeploymentControllerDeps): { stop(): void; queue: WorkQueue } {
  const { deployments, replicaSets, pods } = deps;
  const now = deps.now ?? Date.now;
  const ctx = controllerContext(CONTROLLER_NAME);

  // ---- writes ----

  /** Writes the working copy's status (and its annotations, as Kubernetes' UpdateStatus does); the working copy becomes what was stored. */
  async function writeStatus(d: ApiObject): Promise<void> {
    const revision = d.metadata.annotations?.[REVISION_ANNOTATION];
    const written = await updateObject(deployments, ctx, d.metadata.namespace ?? '', d.metadata.name!, (obj) => {
      obj.status = structuredClone(d.status ?? {});
      // The revision is the only annotation the controller keeps; others are the users'.
      if (revision !== undefined) obj.metadata.annotations = { ...obj.metadata.annotations, [REVISION_ANNOTATION]: revision, [KUBECTL_REVISION_ANNOTATION]: revision };
    }, { uid: d.metadata.uid, subresource: 'status' });
    if (!written) throw status.notFound({ group: 'apps', resource: 'deployments' }, d.metadata.name ?? '');
    Object.assign(d, { metadata: written.object.metadata, status: written.object.status });
  }

  async function updateReplicaSet(rs: ApiObject, mutate: (obj: ApiObject) => void): Promise<ApiObject> {
    const written = await updateObject(replicaSets, ctx, rs.metadata.namespace ?? '', rs.metadata.name!, mutate, { uid: rs.metadata.uid });
    if (!written) throw status.notFound({ group: 'apps', resource: 'replicasets' }, rs.metadata.name ?? '');
    return written.object;
  }

  /** Sets a ReplicaSet's size and the replicas annotations; whether the size changed, and the ReplicaSet as written. */
  async function scaleReplicaSet(rs: ApiObject, newScale: number, d: ApiObject): Promise<{ scaled: boolean; rs: ApiObject }> {
    const sizeChanges = replicasOf(rs) !== newScale;
    const max = replicasOf(d) + maxSurge(d);
    if (!sizeChanges && !replicasAnnotationsNeedUpdate(rs, replicasOf(d), max)) return { scaled: false, rs };
    const written = await updateReplicaSet(rs, (obj) => {
      (obj.spec as Obj).replicas = newScale;
      setReplicasAnnotations(obj, replicasOf(d), max);
    });
    if (sizeChanges) deps.events?.event(d, 'Normal', 'ScalingReplicaSet', `Scaled ${newScale > replicasOf(rs) ? 'up' : 'down'} replica set ${rs.metadata.name} to ${newScale} from ${replicasOf(rs)}`);
    return { scaled: sizeChanges, rs: written };
  }

  async function scaleAndRecord(rs: ApiObject, newScale: number, d: ApiObject): Promise<{ scaled: boolean; rs: ApiObject }> {
    if (replicasOf(rs) === newScale) return { scaled: false, rs };
    return scaleReplicaSet(rs, newScale, d);
  }

  // ---- the ReplicaSets a Deployment owns ----

  /** Its ReplicaSets, adopting matching orphans and releasing owned ones that no longer match (ControllerRefManager). */
  async function claimReplicaSets(d: ApiObject): Promise<ApiObject[]> {
    const ns = d.metadata.namespace ?? '';
    const selector = specOf(d).selector;
    const claimed: ApiObject[] = [];
    let adoptable: boolean | undefined;
    const canAdopt = async () => {
      // A fresh read: adopting for a Deployment that was deleted or replaced since the cache saw it is wrong.
      if (adoptable === undefined) {
        const fresh = (await deployments.readNow(ns, d.metadata.name!))?.object as ApiObject | undefined;
        adoptable = !!fresh && fresh.metadata.uid === d.metadata.uid && !fresh.metadata.deletionTimestamp;
      }
      return adoptable;
    };
    for (const cached of replicaSets.cache.list(replicaSets.listPrefix(ns))) {
      const rs = cached.object as ApiObject;
      const ref = controllerRefOf(rs.metadata);
      if (ref) {
        if (ref.uid !== d.metadata.uid) continue;
        if (selects(selector, rs)) { claimed.push(rs); continue; }
        if (d.metadata.deletionTimestamp) continue;
        await updateObject(replicaSets, ctx, ns, rs.metadata.name!, (obj) => {
          const kept = ((obj.metadata.ownerReferences ?? []) as OwnerReference[]).filter((r) => r.uid !== d.metadata.uid);
          if (kept.length) obj.metadata.ownerReferences = kept as never; else delete obj.metadata.ownerReferences;
        }, { uid: rs.metadata.uid });
        continue;
      }
      if (d.metadata.deletionTimestamp || rs.metadata.deletionTimestamp || !selects(selector, rs)) continue;
      if (!(await canAdopt())) continue;
      const adopted = await updateObject(replicaSets, ctx, ns, rs.metadata.name!, (obj) => {
        if (controllerRefOf(obj.metadata)) throw status.conflict({ group: 'apps', resource: 'replicasets' }, rs.metadata.name!, 'the object already has a controller');
        obj.metadata.ownerReferences = [...(obj.metadata.ownerReferences ?? []), { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name!, uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true }] as never;
      }, { uid: rs.metadata.uid });
      if (adopted) claimed.push(adopted.object);
    }
    return claimed;
  }

  /** Its pods, by the uid of the ReplicaSet that controls them. */
  function podsByReplicaSet(d: ApiObject, rsList: ApiObject[]): Map<string, ApiObject[]> {
    const byUid = new Map(rsList.map((rs) => [rs.metadata.uid!, [] as ApiObject[]]));
    for (const cached of pods.cache.list(pods.listPrefix(d.metadata.namespace ?? ''))) {
      const pod = cached.object as ApiObject;
      if (!selects(specOf(d).selector, pod)) continue;
      const ref = controllerRefOf(pod.metadata);
      if (ref?.uid) byUid.get(ref.uid)?.push(pod);
    }
    return byUid;
  }

  // ---- the new ReplicaSet and the revisions ----

  async function getAllReplicaSetsAndSyncRevision(d: ApiObject, rsList: ApiObject[], createIfMissing: boolean): Promise<{ newRS: ApiObject | undefined; oldRSs: ApiObject[] }> {
    const oldRSs = findOldReplicaSets(d, rsList);
    const newRS = await getNewReplicaSet(d, rsList, oldRSs, createIfMissing);
    return { newRS, oldRSs };
  }

  async function getNewReplicaSet(d: ApiObject, rsList: ApiObject[], oldRSs: ApiObject[], createIfMissing: boolean): Promise<ApiObject | undefined> {
    const existing = findNewReplicaSet(d, rsList);
    const newRevision = maxRevision(oldRSs) + 1;
    if (existing) {
      const copy = structuredClone(existing);
      const annotationsChanged = setNewReplicaSetAnnotations(d, copy, newRevision, true);
      if (annotationsChanged || (specOf(copy).minReadySeconds ?? 0) !== (specOf(d).minReadySeconds ?? 0)) {
        return updateReplicaSet(existing, (obj) => {
          obj.metadata.annotations = copy.metadata.annotations;
          const minReadySeconds = specOf(d).minReadySeconds;
          if (minReadySeconds) (obj.spec as Obj).minReadySeconds = minReadySeconds; else delete (obj.spec as Obj).minReadySeconds;
        });
      }
      let needsUpdate = setDeploymentRevision(d, copy.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
      if (hasProgressDeadline(d) && !getCondition(statusOf(d), PROGRESSING)) {
        setCondition(statusOf(d) as DeploymentStatus, newCondition(PROGRESSING, 'True', REASON.foundNewRS, `Found new replica set "${copy.metadata.name}"`, now()));
        needsUpdate = true;
      }
      if (needsUpdate) await writeStatus(d);
      return copy;
    }
    if (!createIfMissing) return undefined;
    return createNewReplicaSet(d, oldRSs, newRevision);
  }

  async function createNewReplicaSet(d: ApiObject, oldRSs: ApiObject[], newRevision: number): Promise<ApiObject> {
    const spec = specOf(d);
    const ns = d.metadata.namespace ?? '';
    const collisionCount = statusOf(d).collisionCount as number | undefined;
    const hash = computeHash(spec.template, collisionCount);
    const template = structuredClone(spec.template ?? {});
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
    const selector = structuredClone(spec.selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
    const newRS: ApiObject = {
      apiVersion: 'apps/v1', kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`, namespace: ns, labels: { ...template.metadata.labels },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name!, uid: d.metadata.uid!, controller: true, blockOwnerDeletion: true }] as never,
      },
      spec: { replicas: 0, ...(spec.minReadySeconds ? { minReadySeconds: spec.minReadySeconds } : {}), selector, template },
    };
    (newRS.spec as Obj).replicas = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
    setNewReplicaSetAnnotations(d, newRS, newRevision, false);
    let created: ApiObject;
    let alreadyExists = false;
    try {
      created = await deps.createAdmitted('apps', 'replicasets', ns, newRS, ctx);
    } catch (err) {
      if (err instanceof status.StatusError && err.reason === 'AlreadyExists') {
        // The cache trailed an earlier create of this one, or another template hashed to the same name.
        const found = (await replicaSets.readNow(ns, newRS.metadata.name!))?.object as ApiObject | undefined;
        if (!found) throw err;
        if (controllerRefOf(found.metadata)?.uid === d.metadata.uid && findNewReplicaSet(d, [found])) {
          created = found;
          alreadyExists = true;
        } else {
          statusOf(d).collisionCount = (collisionCount ?? 0) + 1;
          await writeStatus(d);
          throw err;
        }
      } else {
        // While the namespace goes every create fails alike: nothing to report.
        if (namespaceTerminating(err)) throw err;
        const message = `Failed to create new replica set "${newRS.metadata.name}": ${(err as Error).message}`;
        if (hasProgressDeadline(d)) {
          setCondition(statusOf(d) as DeploymentStatus, newCondition(PROGRESSING, 'False', REASON.failedRSCreate, message, now()));
          await writeStatus(d).catch(() => {});
        }
        deps.events?.event(d, 'Warning', REASON.failedRSCreate, message);
        throw err;
      }
    }
    if (!alreadyExists && replicasOf(created) > 0) deps.events?.event(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} to ${replicasOf(created)}`);
    let needsUpdate = setDeploymentRevision(d, String(newRevision));
    if (!alreadyExists && hasProgressDeadline(d)) {
      setCondition(statusOf(d) as DeploymentStatus, newCondition(PROGRESSING, 'True', REASON.newReplicaSet, `Created new replica set "${created.metadata.name}"`, now()));
      needsUpdate = true;
    }
    if (needsUpdate) await writeStatus(d);
    return created;
  }

  // ---- scaling ----

  /** A scaling event or a paused Deployment: the active ReplicaSets are sized in proportion, not rolled. */
  async function scale(d: ApiObject, newRS: ApiObject | undefined, oldRSs: ApiObject[]): Promise<void> {
    const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest) {
      if (replicasOf(activeOrLatest) !== replicasOf(d)) await scaleAndRecord(activeOrLatest, replicasOf(d), d);
      return;
    }
    if (isSaturated(d, newRS)) {
      for (const old of activeReplicaSets(oldRSs)) await scaleAndRecord(old, 0, d);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const all = activeReplicaSets([...oldRSs, newRS]);
    const allowed = replicasOf(d) > 0 ? replicasOf(d) + maxSurge(d) : 0;
    const toAdd = allowed - specReplicas(all);
    if (toAdd > 0) all.sort(bySizeThenAge(true));
    else if (toAdd < 0) all.sort(bySizeThenAge(false));
    let added = 0;
    const sizes = new Map<ApiObject, number>();
    for (const rs of all) {
      if (toAdd === 0) { sizes.set(rs, replicasOf(rs)); continue; }
      const share = proportion(rs, d, toAdd, added);
      sizes.set(rs, replicasOf(rs) + share);
      added += share;
    }
    for (const [i, rs] of all.entries()) {
      // The leftover goes to the largest.
      if (i === 0 && toAdd !== 0) sizes.set(rs, Math.max(sizes.get(rs)! + toAdd - added, 0));
      await scaleReplicaSet(rs, sizes.get(rs)!, d);
    }
  }

  /** Keeps revisionHistoryLimit old ReplicaSets, deleting the oldest revisions that have no pods left. */
  async function cleanupDeployment(oldRSs: ApiObject[], d: ApiObject): Promise<void> {
    if (!hasRevisionHistoryLimit(d)) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision);
    const excess = cleanable.length - specOf(d).revisionHistoryLimit;
    for (let i = 0; i < excess; i++) {
      const rs = cleanable[i];
      if ((statusOf(rs).replicas ?? 0) !== 0 || replicasOf(rs) !== 0 || (rs.metadata.generation ?? 0) > (statusOf(rs).observedGeneration ?? 0)) continue;
      try {
        await replicaSets.delete(rs.metadata.namespace ?? '', rs.metadata.name!, { ctx, dryRun: false, preconditions: { uid: rs.metadata.uid } });
      } catch (err) {
        if (!status.isNotFound(err)) throw err;
      }
    }
  }

  // ---- status ----

  async function syncDeploymentStatus(allRSs: ApiObject[], newRS: ApiObject | undefined, d: ApiObject): Promise<void> {
    const next = calculateStatus(allRSs, newRS, d, now());
    if (sameStatus(d.status, next)) return;
    d.status = next as Obj;
    await writeStatus(d);
  }

  /** The status during a rollout: counts, and whether it completed, progressed or timed out. */
  async function syncRolloutStatus(allRSs: ApiObject[], newRS: ApiObject | undefined, d: ApiObject): Promise<void> {
    const t = now();
    const next = calculateStatus(allRSs, newRS, d, t);
    if (!hasProgressDeadline(d)) removeCondition(next, PROGRESSING);
    const current = getCondition(statusOf(d), PROGRESSING);
    const completed = next.replicas === next.updatedReplicas && current?.reason === REASON.newRSAvailable;
    if (hasProgressDeadline(d) && !completed) {
      const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${d.metadata.name}"`;
      if (deploymentComplete(d, next)) {
        setCondition(next, newCondition(PROGRESSING, 'True', REASON.newRSAvailable, `${subject} has successfully progressed.`, t));
      } else if (deploymentProgressing(d, next)) {
        // Progress refreshes lastUpdateTime even with the same reason (setCondition would keep the old one).
        const condition: Condition = newCondition(PROGRESSING, 'True', REASON.replicaSetUpdated, `${subject} is progressing.`, t);
        if (current?.status === 'True') condition.lastTransitionTime = current.lastTransitionTime;
        removeCondition(next, PROGRESSING);
        setCondition(next, condition);
      } else if (deploymentTimedOut(d, next, t)) {
        setCondition(next, newCondition(PROGRESSING, 'False', REASON.timedOut, `${subject} has timed out progressing.`, t));
      }
    }
    const failure = replicaFailure(allRSs, newRS);
    if (failure) setCondition(next, failure); else removeCondition(next, REPLICA_FAILURE);
    if (sameStatus(d.status, next)) {
      requeueStuckDeployment(d, next);
      return;
    }
    d.status = next as Obj;
    await writeStatus(d);
  }

  /** The new ReplicaSet's ReplicaFailure condition, else an old one's, as the Deployment's. */
  function replicaFailure(allRSs: ApiObject[], newRS: ApiObject | undefined): Condition | undefined {
    for (const rs of [newRS, ...allRSs]) {
      const c = ((rs ? statusOf(rs).conditions : undefined) ?? []).find((x: Obj) => x.type === REPLICA_FAILURE);
      if (c) return { type: REPLICA_FAILURE, status: c.status, lastUpdateTime: c.lastTransitionTime, lastTransitionTime: c.lastTransitionTime, reason: c.reason, message: c.message };
    }
    return undefined;
  }

  /** A rollout without progress is looked at again when its deadline passes, not only at the next resync. */
  function requeueStuckDeployment(d: ApiObject, next: DeploymentStatus): void {
    const current = getCondition(statusOf(d), PROGRESSING);
    if (!hasProgressDeadline(d) || !current) return;
    if (deploymentComplete(d, next) || current.reason === REASON.timedOut) return;
    const after = Date.parse(current.lastUpdateTime ?? '') + specOf(d).progressDeadlineSeconds * 1000 - now();
    queue.addAfter(keyOf(d), Number.isFinite(after) && after >= 1000 ? after + 1000 : 1000);
  }

  // ---- strategies ----

  async function rolloutRolling(d: ApiObject, rsList: ApiObject[]): Promise<void> {
    const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(d, rsList, true);
    const allRSs = [...oldRSs, newRS!];
    if (await reconcileNewReplicaSet(allRSs, newRS!, d)) return syncRolloutStatus(allRSs, newRS, d);
    if (await reconcileOldReplicaSets(allRSs, activeReplicaSets(oldRSs), newRS!, d)) return syncRolloutStatus(allRSs, newRS, d);
    if (deploymentComplete(d, statusOf(d) as DeploymentStatus)) await cleanupDeployment(oldRSs, d);
    return syncRolloutStatus(allRSs, newRS, d);
  }

  async function reconcileNewReplicaSet(allRSs: ApiObject[], newRS: ApiObject, d: ApiObject): Promise<boolean> {
    if (replicasOf(newRS) === replicasOf(d)) return false;
    if (replicasOf(newRS) > replicasOf(d)) return (await scaleAndRecord(newRS, replicasOf(d), d)).scaled;
    return (await scaleAndRecord(newRS, newRSNewReplicas(d, allRSs, newRS), d)).scaled;
  }

  /** Scales old ReplicaSets down as far as availability allows: their unhealthy pods first, then within maxUnavailable. */
  async function reconcileOldReplicaSets(allRSs: ApiObject[], oldRSs: ApiObject[], newRS: ApiObject, d: ApiObject): Promise<boolean> {
    if (specReplicas(oldRSs) === 0) return false;
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const newUnavailable = replicasOf(newRS) - (statusOf(newRS).availableReplicas ?? 0);
    const maxScaledDown = specReplicas(allRSs) - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let cleaned: { rss: ApiObject[]; count: number };
    let scaledDown: number;
    try {
      cleaned = await cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown);
      scaledDown = await scaleDownOldReplicaSets([...cleaned.rss, newRS], cleaned.rss, d);
    } catch (err) {
      deps.log(`${CONTROLLER_NAME}: ${keyOf(d)}: ${(err as Error).message}`);
      return false;
    }
    return cleaned.count + scaledDown > 0;
  }

  async function cleanupUnhealthyReplicas(oldRSs: ApiObject[], d: ApiObject, maxCleanup: number): Promise<{ rss: ApiObject[]; count: number }> {
    const rss = [...oldRSs].sort(byCreation);
    let total = 0;
    for (const [i, rs] of rss.entries()) {
      if (total >= maxCleanup) break;
      const unhealthy = replicasOf(rs) - (statusOf(rs).availableReplicas ?? 0);
      if (replicasOf(rs) === 0 || unhealthy === 0) continue;
      const count = Math.min(maxCleanup - total, unhealthy);
      rss[i] = (await scaleAndRecord(rs, replicasOf(rs) - count, d)).rs;
      total += count;
    }
    return { rss, count: total };
  }

  async function scaleDownOldReplicaSets(allRSs: ApiObject[], oldRSs: ApiObject[], d: ApiObject): Promise<number> {
    const minAvailable = replicasOf(d) - maxUnavailable(d);
    const available = availableReplicas(allRSs);
    if (available <= minAvailable) return 0;
    const budget = available - minAvailable;
    let total = 0;
    for (const rs of [...oldRSs].sort(byCreation)) {
      if (total >= budget) break;
      if (replicasOf(rs) === 0) continue;
      const count = Math.min(replicasOf(rs), budget - total);
      await scaleAndRecord(rs, replicasOf(rs) - count, d);
      total += count;
    }
    return total;
  }

  async function rolloutRecreate(d: ApiObject, rsList: ApiObject[], podMap: Map<string, ApiObject[]>): Promise<void> {
    // No new ReplicaSet before the old ones are scaled down: never old and new pods at once.
    let { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(d, rsList, false);
    let allRSs = [...oldRSs, ...(newRS ? [newRS] : [])];
    let scaledDown = false;
    for (const rs of activeReplicaSets(oldRSs)) {
      if (replicasOf(rs) === 0) continue;
      if ((await scaleAndRecord(rs, 0, d)).scaled) scaledDown = true;
    }
    if (scaledDown || oldPodsRunning(newRS, oldRSs, podMap)) return syncRolloutStatus(allRSs, newRS, d);
    if (!newRS) {
      ({ newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(d, rsList, true));
      allRSs = [...oldRSs, newRS!];
    }
    await scaleAndRecord(newRS!, replicasOf(d), d);
    if (deploymentComplete(d, statusOf(d) as DeploymentStatus)) await cleanupDeployment(oldRSs, d);
    return syncRolloutStatus(allRSs, newRS, d);
  }

  /** Whether pods of old ReplicaSets may still run: counted by their ReplicaSets, or not yet terminal. */
  function oldPodsRunning(newRS: ApiObject | undefined, oldRSs: ApiObject[], podMap: Map<string, ApiObject[]>): boolean {
    if (actualReplicas(oldRSs) > 0) return true;
    for (const [uid, list] of podMap) {
      if (newRS && newRS.metadata.uid === uid) continue;
      for (const pod of list) {
        const phase = (pod.status as Obj | undefined)?.phase;
        if (phase === 'Failed' || phase === 'Succeeded') continue;
        return true;
      }
    }
    return false;
  }

  // ---- one Deployment ----

  /** A pause or resume leaves an Unknown Progressing condition, so that the time paused never counts as no progress. */
  async function checkPausedConditions(d: ApiObject): Promise<void> {
    if (!hasProgressDeadline(d)) return;
    const current = getCondition(statusOf(d), PROGRESSING);
    if (current?.reason === REASON.timedOut) return;
    const pausedShown = current?.reason === REASON.paused;
    let condition: Condition | undefined;
    if (specOf(d).paused && !pausedShown) condition = newCondition(PROGRESSING, 'Unknown', REASON.paused, 'Deployment is paused', now());
    else if (!specOf(d).paused && pausedShown) condition = newCondition(PROGRESSING, 'Unknown', REASON.resumed, 'Deployment is resumed', now());
    if (!condition) return;
    setCondition(statusOf(d) as DeploymentStatus, condition);
    await writeStatus(d);
  }

  async function isScalingEvent(d: ApiObject, rsList: ApiObject[]): Promise<boolean> {
    const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(d, rsList, false);
    return activeReplicaSets([...oldRSs, newRS]).some((rs) => {
      const desired = desiredReplicasAnnotation(rs);
      return desired !== undefined && desired !== replicasOf(d);
    });
  }

  async function syncScale(d: ApiObject, rsList: ApiObject[]): Promise<void> {
    const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(d, rsList, false);
    await scale(d, newRS, oldRSs);
    if (specOf(d).paused) await cleanupDeployment(oldRSs, d);
    return syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS, d);
  }

  async function syncDeployment(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const cached = deployments.current(key.slice(0, slash), key.slice(slash + 1))?.object as ApiObject | undefined;
    if (!cached) return;
    const d = structuredClone(cached);
    // The working copy's status is written back as it changes (statusOf(d) is that object from here on).
    (d as Obj).status ??= {};
    if (isEmptySelector(specOf(d).selector)) {
      // A Deployment must not select every pod: nothing is done for it but recording that it was seen.
      deps.events?.event(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      if ((statusOf(d).observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        (d as Obj).status = { ...statusOf(d), observedGeneration: d.metadata.generation };
        await writeStatus(d);
      }
      return;
    }
    const rsList = await claimReplicaSets(d);
    if (d.metadata.deletionTimestamp) {
      const { newRS, oldRSs } = await getAllReplicaSetsAndSyncRevision(d, rsList, false);
      return syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS, d);
    }
    await checkPausedConditions(d);
    if (specOf(d).paused) return syncScale(d, rsList);
    if (await isScalingEvent(d, rsList)) return syncScale(d, rsList);
    if (isRollingUpdate(d)) return rolloutRolling(d, rsList);
    if (specOf(d).strategy?.type === 'Recreate') return rolloutRecreate(d, rsList, podsByReplicaSet(d, rsList));
    throw new Error(`unexpected deployment strategy type: ${specOf(d).strategy?.type}`);
  }

  const queue = new WorkQueue(syncDeployment, { name: CONTROLLER_NAME, log: deps.log, workers: WORKERS });

  // ---- what wakes a Deployment ----

  /** The Deployment a controller reference names, when it is the one cached under that name. */
  function resolve(namespace: string, ref: OwnerReference | undefined): ApiObject | undefined {
    if (!ref || ref.kind !== 'Deployment' || !ref.name) return undefined;
    const d = deployments.current(namespace, ref.name)?.object as ApiObject | undefined;
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  function deploymentsSelecting(rs: ApiObject): ApiObject[] {
    return deployments.cache.list(deployments.listPrefix(rs.metadata.namespace ?? '')).map((c) => c.object as ApiObject).filter((d) => selects(specOf(d).selector, rs));
  }

  function onReplicaSet(current: ApiObject, previous: ApiObject | undefined, deleted: boolean): void {
    const ns = current.metadata.namespace ?? '';
    const ref = controllerRefOf(current.metadata);
    const oldRef = previous ? controllerRefOf(previous.metadata) : undefined;
    if (oldRef && oldRef.uid !== ref?.uid) { const old = resolve(ns, oldRef); if (old) queue.add(keyOf(old)); }
    if (ref) { const d = resolve(ns, ref); if (d) queue.add(keyOf(d)); return; }
    if (deleted) return;
    // An orphan: the Deployments that select it may adopt it.
    const labelsChanged = !previous || JSON.stringify(previous.metadata.labels ?? {}) !== JSON.stringify(current.metadata.labels ?? {}) || !!oldRef;
    if (labelsChanged) for (const d of deploymentsSelecting(current)) queue.add(keyOf(d));
  }

  /** A Recreate Deployment waits for its old pods to be gone: the last one going wakes it. */
  function onPodDeleted(pod: ApiObject): void {
    const ns = pod.metadata.namespace ?? '';
    const rsRef = controllerRefOf(pod.metadata);
    if (rsRef?.kind !== 'ReplicaSet' || !rsRef.name) return;
    const rs = replicaSets.current(ns, rsRef.name)?.object as ApiObject | undefined;
    const d = rs && rs.metadata.uid === rsRef.uid ? resolve(ns, controllerRefOf(rs.metadata)) : undefined;
    if (d && specOf(d).strategy?.type === 'Recreate') queue.add(keyOf(d));
  }

  const informer = startInformer({
    stores: [deployments, replicaSets, pods],
    onEvent(store, e) {
      const current = e.current.object as ApiObject;
      if (store === deployments) { queue.add(keyOf(current)); return; }
      if (store === replicaSets) { onReplicaSet(current, e.previous?.object as ApiObject | undefined, e.deleted); return; }
      if (e.deleted) onPodDeleted(e.previous?.object as ApiObject ?? current);
    },
    resync() {
      for (const d of deployments.cache.unordered()) queue.add(`${d.namespace}/${d.name}`);
    },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: CONTROLLER_NAME,
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
