// Kubernetes' ephemeral volume controller (v1.32 pkg/controller/volume/ephemeral): for every volume of a pod
// that has `ephemeral.volumeClaimTemplate`, the PersistentVolumeClaim `<pod>-<volume>` in the pod's namespace,
// with the template's labels, annotations and spec, controlled by the pod (so that the garbage collector
// removes it with the pod). It is created through admission, as Kubernetes' controller creates it through
// the API (DefaultStorageClass gives it the default class, StorageObjectInUseProtection its finalizer, quota
// counts it). A claim of that name the pod does not control is left alone: the pod gets a FailedBinding
// event and is looked at again later (the node agent would not start it). Pods being deleted are skipped; a
// claim deleted while a pod still names it is made again.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { StatusError } from '../machinery/status.ts';
import { controllerContext, controllerRefOf, namespaceTerminating, type AdmittedCreate } from './client.ts';
import { startInformer } from './informer.ts';
import { Requeue, WorkQueue } from './work-queue.ts';
import type { EventRecorder } from './events.ts';

type Obj = Record<string, any>;

const ACCOUNT = 'ephemeral-volume-controller';

export interface EphemeralVolumeControllerDeps {
  pods: ResourceStore;
  claims: ResourceStore;
  /** Creates a claim through admission (in tests: a function that calls claims.create directly). */
  createAdmitted: AdmittedCreate;
  events?: EventRecorder;
  log(line: string): void;
  resyncMs?: number;
}

/** VolumeClaimName: the claim of a pod's ephemeral volume. */
export const ephemeralClaimName = (pod: Obj, volume: Obj): string => `${pod.metadata?.name ?? ''}-${volume.name ?? ''}`;

/** The pod's ephemeral volumes. */
function ephemeralVolumes(pod: Obj): Obj[] {
  return ((pod.spec?.volumes ?? []) as Obj[]).filter((v) => v && typeof v === 'object' && v.ephemeral);
}

/** VolumeIsForPod: undefined when the pod controls the claim, else why it may not use it. */
export function claimNotForPod(pod: Obj, claim: Obj): string | undefined {
  const podNs = pod.metadata?.namespace ?? '', claimNs = claim.metadata?.namespace ?? '';
  if (claimNs === podNs && controllerRefOf(claim.metadata)?.uid === pod.metadata?.uid) return undefined;
  return `PVC ${claimNs}/${claim.metadata?.name ?? ''} was not created for pod ${podNs}/${pod.metadata?.name ?? ''} (pod is not owner)`;
}

/** The claim the controller creates for an ephemeral volume of a pod. */
export function claimForEphemeralVolume(pod: Obj, volume: Obj): ApiObject {
  const template = (volume.ephemeral?.volumeClaimTemplate ?? {}) as Obj;
  const meta = (template.metadata ?? {}) as Obj;
  const metadata: Obj = {
    name: ephemeralClaimName(pod, volume),
    ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid, controller: true, blockOwnerDeletion: true }],
  };
  if (meta.annotations && Object.keys(meta.annotations).length) metadata.annotations = { ...meta.annotations };
  if (meta.labels && Object.keys(meta.labels).length) metadata.labels = { ...meta.labels };
  return { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata, spec: structuredClone(template.spec ?? {}) } as ApiObject;
}

export function startEphemeralVolumeController(deps: EphemeralVolumeControllerDeps): { stop(): void; queue: WorkQueue } {
  const { pods, claims } = deps;
  const key = (namespace: string, name: string) => `${namespace}/${name}`;
  const wanted = (pod: Obj) => !pod.metadata?.deletionTimestamp && ephemeralVolumes(pod).length > 0;

  /** Fails (the pod comes back later) on a claim of another owner or a refused create, with the pod's event. */
  async function handleVolume(pod: Obj, volume: Obj): Promise<void> {
    const namespace = pod.metadata.namespace ?? '';
    const name = ephemeralClaimName(pod, volume);
    // The cache may trail a claim just made: ask storage before making one.
    const existing = (claims.current(namespace, name) ?? await claims.readNow(namespace, name))?.object as Obj | undefined;
    if (existing) {
      const refused = claimNotForPod(pod, existing);
      if (refused) throw new Error(refused);
      return;
    }
    try {
      await deps.createAdmitted('', 'persistentvolumeclaims', namespace, claimForEphemeralVolume(pod, volume), controllerContext(ACCOUNT));
    } catch (err) {
      // Made meanwhile (by an earlier pass): the next look checks its owner.
      if (err instanceof StatusError && err.reason === 'AlreadyExists') throw new Requeue('exists');
      // A namespace being deleted refuses every create alike: nothing to report, nothing to retry.
      if (namespaceTerminating(err)) return;
      throw new Error(`create PVC ${name}: ${(err as Error).message}`);
    }
  }

  const queue = new WorkQueue(async (k) => {
    const slash = k.indexOf('/');
    const namespace = k.slice(0, slash), name = k.slice(slash + 1);
    const pod = pods.current(namespace, name)?.object as Obj | undefined;
    if (!pod || !wanted(pod)) return;
    for (const volume of ephemeralVolumes(pod)) {
      try {
        await handleVolume(pod, volume);
      } catch (err) {
        if (err instanceof Requeue) throw err;
        deps.events?.event(pod as ApiObject, 'Warning', 'FailedBinding', `ephemeral volume ${volume.name}: ${(err as Error).message}`);
        throw new Error(`pod ${k}, ephemeral volume ${volume.name}: ${(err as Error).message}`);
      }
    }
  }, { name: 'ephemeral-volume controller', log: deps.log });

  const informer = startInformer({
    stores: [pods, claims],
    onEvent(store, e) {
      if (store === pods) {
        if (!e.deleted && wanted(e.current.object)) queue.add(key(e.current.namespace, e.current.name));
        return;
      }
      // A claim deleted while a pod's ephemeral volume names it is made again.
      if (!e.deleted) return;
      for (const p of pods.cache.list(pods.listPrefix(e.current.namespace))) {
        const pod = p.object as Obj;
        if (wanted(pod) && ephemeralVolumes(pod).some((v) => ephemeralClaimName(pod, v) === e.current.name)) queue.add(key(p.namespace, p.name));
      }
    },
    resync() {
      for (const p of pods.cache.unordered()) if (wanted(p.object)) queue.add(key(p.namespace, p.name));
    },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'ephemeral-volume controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
