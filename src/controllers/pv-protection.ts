// Kubernetes' pv-protection controller: a PersistentVolume being deleted keeps its `platform.io/pv-protection`
// finalizer (added by StorageObjectInUseProtection admission) while it is bound to a claim
// (status.phase Bound), and loses it, so that the delete completes, once it is not.
import type { ResourceStore } from '../registry/store.ts';
import { PV_PROTECTION_FINALIZER } from '../admission/storage-object-in-use-protection.ts';
import { controllerContext, isDeletionCandidate, withoutFinalizer } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';

/** Whether a volume is in use: bound to a claim. */
export function isVolumeBound(pv: Record<string, any>): boolean {
  return pv.status?.phase === 'Bound';
}

export interface PvProtectionControllerDeps {
  volumes: ResourceStore;
  log(line: string): void;
  resyncMs?: number;
}

export function startPvProtectionController(deps: PvProtectionControllerDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('pv-protection-controller');
  const { volumes } = deps;

  const queue = new WorkQueue(async (name) => {
    const pv = volumes.current('', name)?.object;
    if (!pv || !isDeletionCandidate(pv, PV_PROTECTION_FINALIZER) || isVolumeBound(pv)) return;
    await updateObject(volumes, ctx, '', name, (obj) => {
      if (isDeletionCandidate(obj, PV_PROTECTION_FINALIZER) && !isVolumeBound(obj)) withoutFinalizer(obj, PV_PROTECTION_FINALIZER);
    }, { uid: pv.metadata?.uid });
  }, { name: 'pv-protection controller', log: deps.log });

  const informer = startInformer({
    stores: [volumes],
    onEvent(_store, e) {
      if (!e.deleted && isDeletionCandidate(e.current.object, PV_PROTECTION_FINALIZER)) queue.add(e.current.name);
    },
    resync() {
      for (const v of volumes.cache.unordered()) if (isDeletionCandidate(v.object, PV_PROTECTION_FINALIZER)) queue.add(v.name);
    },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'pv-protection controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
