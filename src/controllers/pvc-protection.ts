// Kubernetes' pvc-protection controller: a PersistentVolumeClaim being deleted keeps its
// `platform.io/pvc-protection` finalizer (added by StorageObjectInUseProtection admission) while a pod in
// its namespace uses it (by name, or as its ephemeral volume's claim), and loses it, so that the delete completes, once none does. As in Kubernetes, only
// a pod scheduled to a node (spec.nodeName set) uses a claim: the kubelet refuses to start one whose claim
// is being deleted. Pods are read up to date with storage before a finalizer is removed (Kubernetes' live list).
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import { PVC_PROTECTION_FINALIZER } from '../admission/storage-object-in-use-protection.ts';
import { syncToStorage } from '../registry/list.ts';
import { controllerContext, isDeletionCandidate, withoutFinalizer } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import { ephemeralClaimName } from './ephemeral-volume.ts';

type Obj = Record<string, any>;

/** The claims a pod's volumes use: the ones they name, and the `<pod>-<volume>` claims of ephemeral volumes. */
export function claimNames(pod: Obj): string[] {
  const names: string[] = [];
  for (const v of (pod.spec?.volumes ?? []) as Obj[]) {
    const named = v?.persistentVolumeClaim?.claimName;
    if (typeof named === 'string' && named !== '') names.push(named);
    else if (v?.ephemeral) names.push(ephemeralClaimName(pod, v));
  }
  return names;
}

/** Whether a pod uses the claim: scheduled to a node and naming it among its volumes. */
export function podUsesClaim(pod: Obj, claim: string): boolean {
  return !!pod.spec?.nodeName && claimNames(pod).includes(claim);
}

export interface PvcProtectionControllerDeps {
  claims: ResourceStore;
  pods: ResourceStore;
  storage: Storage;
  log(line: string): void;
  resyncMs?: number;
}

export function startPvcProtectionController(deps: PvcProtectionControllerDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('pvc-protection-controller');
  const { claims, pods } = deps;
  const key = (namespace: string, name: string) => `${namespace}/${name}`;

  const inUse = (namespace: string, name: string): boolean =>
    pods.cache.list(pods.listPrefix(namespace)).some((p) => podUsesClaim(p.object, name));

  const queue = new WorkQueue(async (k) => {
    const slash = k.indexOf('/');
    const namespace = k.slice(0, slash);
    const name = k.slice(slash + 1);
    const claim = claims.current(namespace, name)?.object;
    if (!claim || !isDeletionCandidate(claim, PVC_PROTECTION_FINALIZER)) return;
    if (inUse(namespace, name)) return;
    // The pod cache may trail a pod just created: look again with it up to date.
    await syncToStorage(pods, deps.storage);
    if (inUse(namespace, name)) return;
    await updateObject(claims, ctx, namespace, name, (obj) => {
      if (isDeletionCandidate(obj, PVC_PROTECTION_FINALIZER) && !inUse(namespace, name)) withoutFinalizer(obj, PVC_PROTECTION_FINALIZER);
    }, { uid: claim.metadata?.uid });
  }, { name: 'pvc-protection controller', log: deps.log });

  const informer = startInformer({
    stores: [claims, pods],
    onEvent(store, e) {
      if (store === claims) {
        if (!e.deleted && isDeletionCandidate(e.current.object, PVC_PROTECTION_FINALIZER)) queue.add(key(e.current.namespace, e.current.name));
        return;
      }
      // A pod that goes (or, replaced under the same name, no longer names a claim) may free its claims.
      const names = new Set([...claimNames(e.current.object), ...(e.previous ? claimNames(e.previous.object) : [])]);
      for (const n of names) queue.add(key(e.current.namespace, n));
    },
    resync() {
      for (const c of claims.cache.unordered()) if (isDeletionCandidate(c.object, PVC_PROTECTION_FINALIZER)) queue.add(key(c.namespace, c.name));
    },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'pvc-protection controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
