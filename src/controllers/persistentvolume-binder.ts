// Kubernetes' PersistentVolume controller (`persistentvolume-binder`, v1.32 pv_controller.go), the parts that
// need no volume plugin. It binds claims to volumes in two steps, the volume first (spec.claimRef, then its
// phase) and the claim second (spec.volumeName and the `pv.platform.io/bind-completed` annotation, then its
// phase, capacity and access modes); `pv.platform.io/bound-by-controller` marks each side the controller
// chose rather than the user. Every write names the version it was computed from, so a write made from a
// stale view is refused (409) and the key is looked at again, as the controller's own writes are.
//
// - A volume without a claim, or reserved for one by a claimRef without uid, is Available; one whose claim
//   is gone is Released and its reclaim policy runs: Retain keeps it; Delete deletes the object of a
//   `hostPath` volume under /tmp (the server is no node: no directory is removed), leaves a CSI volume or one
//   provisioned outside to its provisioner, and marks any other volume Failed (VolumeFailedDelete: no
//   deleter plugin); Recycle marks a volume no recycler serves Failed (VolumeFailedRecycle) and leaves a
//   `hostPath` or `nfs` one Released (no recycler pod is run); another policy is Failed.
// - An unbound claim gets the volume findBestMatchForClaim picks (volume-binding.ts), or the one its
//   spec.volumeName names when that one is free and fits (VolumeMismatch otherwise). With none: a claim
//   without a class gets the default class (retroactive default StorageClass); one of a WaitForFirstConsumer
//   class waits (WaitForFirstConsumer, or WaitForPodScheduled naming its unscheduled pods); one of another
//   class is handed to its provisioner (the storage-provisioner annotations and ExternalProvisioning; an
//   in-tree `platform.io/` provisioner, which no plugin here serves, ProvisioningFailed); one without a class
//   stays Pending (FailedBinding).
// - A bound claim whose volume is gone or was taken is Lost (ClaimLost, ClaimMisbound).
// Objects are looked at on their own events, a claim's volume on the claim's deletion, a volume's claim on
// the volume's deletion, and everything again every resync (Kubernetes' --pvclaimbinder-sync-period, 15 s).
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { CacheEvent } from '../storage/cache.ts';
import { isConflict, isNotFound } from '../machinery/status.ts';
import { deepEqual } from '../machinery/schema/walk.ts';
import { claimHasClass, defaultStorageClass } from '../admission/default-storage-class.ts';
import { storageClassOf } from '../apis/core/persistentvolume-common.ts';
import { controllerContext, withoutFinalizer } from './client.ts';
import { claimNames } from './pvc-protection.ts';
import { startInformer } from './informer.ts';
import { Requeue, WorkQueue } from './work-queue.ts';
import type { EventRecorder } from './events.ts';
import {
  ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER, ANN_DYNAMICALLY_PROVISIONED, ANN_BETA_STORAGE_PROVISIONER, ANN_STORAGE_PROVISIONER,
  ANN_SELECTED_NODE, ANN_MIGRATED_TO, PV_CONTROLLER_FINALIZER,
  claimReference, findBestMatchForClaim, hasAnnotation, isVolumeBoundToClaim, volumeModeMismatch, volumeUnsatisfying,
} from './volume-binding.ts';

type Obj = Record<string, any>;

/** The service account Kubernetes' binder writes as. */
const ACCOUNT = 'persistent-volume-binder';
/** Kubernetes' --pvclaimbinder-sync-period. */
const BINDER_RESYNC_MS = 15_000;
/** On a volume: the size the claim had before a resize (util.AnnPreResizeCapacity). */
const ANN_PRE_RESIZE_CAPACITY = 'volume.alpha.platform.io/pre-resize-capacity';
/** The in-tree name prefix: a provisioner or plugin named so is Kubernetes' own, not an external one. */
const IN_TREE_PREFIX = 'platform.io/';
const HOST_PATH_PLUGIN = 'platform.io/host-path';
/** In-tree provisioners whose volumes CSI drivers serve since CSI migration (the provisioner name they get). */
const MIGRATED_PROVISIONERS: Record<string, string> = {
  'platform.io/aws-ebs': 'ebs.csi.aws.com',
  'platform.io/gce-pd': 'pd.csi.storage.gke.io',
  'platform.io/azure-disk': 'disk.csi.azure.com',
  'platform.io/azure-file': 'file.csi.azure.com',
  'platform.io/cinder': 'cinder.csi.openstack.org',
  'platform.io/vsphere-volume': 'csi.vsphere.vmware.com',
  'platform.io/portworx-volume': 'pxd.portworx.com',
};

export interface PersistentVolumeBinderDeps {
  volumes: ResourceStore;
  claims: ResourceStore;
  /** StorageClasses (binding mode, provisioner, the default class). */
  classes: ResourceStore;
  /** Pods, to name the unscheduled ones a WaitForFirstConsumer claim waits for, and a volume's users. */
  pods: ResourceStore;
  events?: EventRecorder;
  log(line: string): void;
  resyncMs?: number;
}

const claimKey = (namespace: string, name: string) => `claim/${namespace}/${name}`;
const volumeKey = (name: string) => `volume/${name}`;
const refKey = (ref: Obj) => `${ref.namespace ?? ''}/${ref.name ?? ''}`;
const nameOf = (obj: Obj): string => obj.metadata?.name ?? '';
const namespaceOf = (obj: Obj): string => obj.metadata?.namespace ?? '';

/** IsPodTerminated: succeeded or failed, or being deleted with no container running. */
function podTerminated(pod: Obj): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return true;
  if (!pod.metadata?.deletionTimestamp) return false;
  const statuses = (pod.status?.containerStatuses ?? []) as Obj[];
  return !statuses.some((s) => s?.state?.running);
}

export function startPersistentVolumeBinder(deps: PersistentVolumeBinderDeps): { stop(): void; queue: WorkQueue } {
  const { volumes, claims, classes, pods } = deps;
  const event = (obj: Obj, type: 'Normal' | 'Warning', reason: string, message: string) => deps.events?.event(obj as ApiObject, type, reason, message);

  // ---- writes ----

  /** Writes `obj` as computed from the version it carries: 409 (a later look) when that is no longer current. */
  async function save(store: ResourceStore, obj: Obj, subresource = ''): Promise<Obj> {
    const ctx = controllerContext(ACCOUNT, subresource);
    try {
      const result = await store.update(namespaceOf(obj), () => structuredClone(obj) as ApiObject, { ctx, dryRun: false, subresource, allowCreate: false, name: nameOf(obj) });
      return result.object;
    } catch (err) {
      // Someone wrote it first, or it went: its own event brings the key back.
      if (isConflict(err) || isNotFound(err)) throw new Requeue((err as Error).message);
      throw err;
    }
  }

  async function updateClaimStatus(claim: Obj, phase: string, volume: Obj | undefined): Promise<Obj> {
    const next = structuredClone(claim);
    const status = (next.status ??= {});
    let dirty = false;
    if (claim.status?.phase !== phase) { status.phase = phase; dirty = true; }
    if (!volume) {
      if (status.accessModes != null) { delete status.accessModes; dirty = true; }
      if (status.capacity != null) { delete status.capacity; dirty = true; }
    } else {
      if (!deepEqual(status.accessModes ?? null, volume.spec?.accessModes ?? null)) {
        if (volume.spec?.accessModes) status.accessModes = structuredClone(volume.spec.accessModes); else delete status.accessModes;
        dirty = true;
      }
      // Capacity only as the claim becomes bound: a later difference may be meant (a filesystem smaller than its device).
      if (claim.status?.phase !== phase) {
        const volumeCapacity = volume.spec?.capacity?.storage;
        if (volumeCapacity === undefined) throw new Error(`PersistentVolume "${nameOf(volume)}" is without a storage capacity`);
        const preResize = volume.metadata?.annotations?.[ANN_PRE_RESIZE_CAPACITY];
        if (preResize !== undefined) {
          status.capacity = { ...status.capacity, storage: preResize };
          dirty = true;
        } else if (!deepEqual(status.capacity?.storage, volumeCapacity)) {
          status.capacity = structuredClone(volume.spec.capacity);
          dirty = true;
        }
      }
    }
    return dirty ? save(claims, next, 'status') : claim;
  }

  async function updateClaimStatusWithEvent(claim: Obj, phase: string, volume: Obj | undefined, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    if (claim.status?.phase === phase) return;
    const updated = await updateClaimStatus(claim, phase, volume);
    event(updated, type, reason, message);
  }

  /** Sets the volume's phase (the registry stamps lastPhaseTransitionTime on a change). */
  async function updateVolumePhase(volume: Obj, phase: string, message = ''): Promise<Obj> {
    if (volume.status?.phase === phase) return volume;
    const next = structuredClone(volume);
    const status = (next.status ??= {});
    status.phase = phase;
    if (message) status.message = message; else delete status.message;
    return save(volumes, next, 'status');
  }

  async function updateVolumePhaseWithEvent(volume: Obj, phase: string, type: 'Normal' | 'Warning', reason: string, message: string): Promise<Obj> {
    if (volume.status?.phase === phase) return volume;
    const updated = await updateVolumePhase(volume, phase, message);
    event(updated, type, reason, message);
    return updated;
  }

  // ---- binding ----

  async function bindVolumeToClaim(volume: Obj, claim: Obj): Promise<Obj> {
    const byController = !isVolumeBoundToClaim(volume, claim);
    const next = structuredClone(volume);
    let dirty = false;
    const ref = volume.spec?.claimRef;
    if (!ref || ref.name !== nameOf(claim) || (ref.namespace ?? '') !== namespaceOf(claim) || (ref.uid ?? '') !== (claim.metadata?.uid ?? '')) {
      (next.spec ??= {}).claimRef = claimReference(claim as ApiObject);
      dirty = true;
    }
    if (byController && !hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) {
      (next.metadata.annotations ??= {})[ANN_BOUND_BY_CONTROLLER] = 'yes';
      dirty = true;
    }
    return dirty ? save(volumes, next) : volume;
  }

  async function bindClaimToVolume(claim: Obj, volume: Obj): Promise<Obj> {
    const next = structuredClone(claim);
    let dirty = false;
    if (claim.spec?.volumeName !== nameOf(volume)) {
      (next.spec ??= {}).volumeName = nameOf(volume);
      if (!hasAnnotation(next, ANN_BOUND_BY_CONTROLLER)) (next.metadata.annotations ??= {})[ANN_BOUND_BY_CONTROLLER] = 'yes';
      dirty = true;
    }
    if (!hasAnnotation(next, ANN_BIND_COMPLETED)) {
      (next.metadata.annotations ??= {})[ANN_BIND_COMPLETED] = 'yes';
      dirty = true;
    }
    return dirty ? save(claims, next) : claim;
  }

  /** The volume first (claimRef, then Bound), the claim second (volumeName, then Bound with capacity and modes). */
  async function bind(volume: Obj, claim: Obj): Promise<void> {
    let v = await bindVolumeToClaim(volume, claim);
    v = await updateVolumePhase(v, 'Bound');
    const c = await bindClaimToVolume(claim, v);
    await updateClaimStatus(c, 'Bound', v);
  }

  /** Undoes the controller's binding of a volume (or only the uid of a user's pre-binding); Available again. */
  async function unbindVolume(volume: Obj): Promise<void> {
    const next = structuredClone(volume);
    if (hasAnnotation(volume, ANN_BOUND_BY_CONTROLLER)) {
      delete next.spec.claimRef;
      delete next.metadata.annotations[ANN_BOUND_BY_CONTROLLER];
      if (Object.keys(next.metadata.annotations).length === 0) delete next.metadata.annotations;
    } else {
      delete next.spec.claimRef.uid;
    }
    await updateVolumePhase(await save(volumes, next), 'Available');
  }

  // ---- storage classes and provisioning ----

  function storageClass(name: string): Obj | undefined {
    return classes.current('', name)?.object;
  }

  /** IsDelayBindingMode: the claim's class binds on first consumer. */
  function isDelayBinding(claim: Obj): boolean {
    const name = storageClassOf(claim);
    if (!name) return false;
    const cls = storageClass(name);
    if (!cls) return false;
    if (!cls.volumeBindingMode) throw new Error(`VolumeBindingMode not set for StorageClass "${name}"`);
    return cls.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** The retroactive default StorageClass: a claim naming no class gets the default one, when there is one. */
  async function assignDefaultStorageClass(claim: Obj): Promise<boolean> {
    if (claimHasClass(claim as ApiObject)) return false;
    const chosen = defaultStorageClass(classes.cache.list(classes.listPrefix('')).map((c) => c.object as ApiObject));
    if (!chosen?.metadata.name) return false;
    const next = structuredClone(claim);
    (next.spec ??= {}).storageClassName = chosen.metadata.name;
    await save(claims, next);
    return true;
  }

  function claimUsers(namespace: string, name: string): Obj[] {
    return pods.cache.list(pods.listPrefix(namespace)).map((p) => p.object as Obj).filter((p) => claimNames(p).includes(name) && !podTerminated(p));
  }

  function emitEventForUnboundDelayBindingClaim(claim: Obj): void {
    const waiting = claimUsers(namespaceOf(claim), nameOf(claim)).filter((p) => !p.spec?.nodeName).map(nameOf);
    if (waiting.length === 0) event(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
    else if (waiting.length === 1) event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pod ${waiting[0]} to be scheduled`);
    else event(claim, 'Normal', 'WaitForPodScheduled', `waiting for pods ${waiting.join(',')} to be scheduled`);
  }

  /** setClaimProvisioner: both storage-provisioner annotations name who provisions the claim's volume. */
  async function setClaimProvisioner(claim: Obj, provisioner: string): Promise<Obj> {
    if (claim.metadata?.annotations?.[ANN_BETA_STORAGE_PROVISIONER] === provisioner) return claim;
    const next = structuredClone(claim);
    const annotations = (next.metadata.annotations ??= {});
    annotations[ANN_BETA_STORAGE_PROVISIONER] = provisioner;
    annotations[ANN_STORAGE_PROVISIONER] = provisioner;
    return save(claims, next);
  }

  /** provisionClaim: an external provisioner is told through the claim's annotations; no in-tree one runs here. */
  async function provisionClaim(claim: Obj): Promise<void> {
    const className = storageClassOf(claim);
    const cls = storageClass(className);
    if (!cls) {
      event(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.svc.io "${className}" not found`);
      return;
    }
    const provisioner: string = cls.provisioner ?? '';
    const migrated = MIGRATED_PROVISIONERS[provisioner];
    if (!migrated && provisioner.startsWith(IN_TREE_PREFIX)) {
      if (provisioner !== HOST_PATH_PLUGIN) {
        event(claim, 'Warning', 'ProvisioningFailed', `no volume plugin matched name: ${provisioner}`);
        return;
      }
      // The host-path plugin exists, with provisioning off (--enable-hostpath-provisioner is for tests).
      if (claim.spec?.dataSource) {
        event(claim, 'Warning', 'ProvisioningFailed', `plugin "${provisioner}" is not a CSI plugin. Only CSI plugin can provision a claim with a datasource`);
        return;
      }
      const updated = await setClaimProvisioner(claim, provisioner);
      if (volumes.current('', `pvc-${updated.metadata?.uid}`)) return;
      const mountOptions = (cls.mountOptions ?? []) as string[];
      if (mountOptions.length > 0) {
        event(updated, 'Warning', 'ProvisioningFailed', `Mount options are not supported by the provisioner but StorageClass "${nameOf(cls)}" has mount options [${mountOptions.join(' ')}]`);
        return;
      }
      event(updated, 'Warning', 'ProvisioningFailed', `Failed to create provisioner: provisioning in volume plugin "${provisioner}" is disabled`);
      return;
    }
    const name = migrated ?? provisioner;
    const updated = await setClaimProvisioner(claim, name);
    event(updated, 'Normal', 'ExternalProvisioning', `Waiting for a volume to be created either by the external provisioner '${name}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`);
  }

  // ---- claims ----

  async function syncUnboundClaim(claim: Obj): Promise<void> {
    const wanted: string = claim.spec?.volumeName ?? '';
    if (!wanted) {
      const delayBinding = isDelayBinding(claim);
      const volume = findBestMatchForClaim(claim, volumes.cache.list(volumes.listPrefix('')).map((c) => c.object as Obj), delayBinding);
      if (volume) {
        await bind(volume, claim);
        return;
      }
      if (await assignDefaultStorageClass(claim)) return;
      if (delayBinding && !hasAnnotation(claim, ANN_SELECTED_NODE)) {
        emitEventForUnboundDelayBindingClaim(claim);
      } else if (storageClassOf(claim) !== '') {
        await provisionClaim(claim);
        return;
      } else {
        event(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      }
      await updateClaimStatus(claim, 'Pending', undefined);
      return;
    }
    // The user asked for a particular volume.
    const volume = (await volumes.readNow('', wanted))?.object as Obj | undefined;
    if (!volume) {
      await updateClaimStatus(claim, 'Pending', undefined);
      return;
    }
    if (!volume.spec?.claimRef) {
      const why = volumeUnsatisfying(volume, claim);
      if (why) {
        event(claim, 'Warning', 'VolumeMismatch', `Cannot bind to requested volume "${wanted}": ${why}`);
        await updateClaimStatus(claim, 'Pending', undefined);
      } else {
        await bind(volume, claim);
      }
      return;
    }
    if (isVolumeBoundToClaim(volume, claim)) {
      await bind(volume, claim);
      return;
    }
    event(claim, 'Warning', 'FailedBinding', `volume "${wanted}" already bound to a different claim.`);
    if (!hasAnnotation(claim, ANN_BOUND_BY_CONTROLLER)) {
      await updateClaimStatus(claim, 'Pending', undefined);
      return;
    }
    throw new Error(`invalid binding of claim "${namespaceOf(claim)}/${nameOf(claim)}" to volume "${wanted}": volume already claimed by "${refKey(volume.spec.claimRef)}"`);
  }

  async function syncBoundClaim(claim: Obj): Promise<void> {
    const volumeName: string = claim.spec?.volumeName ?? '';
    if (!volumeName) {
      await updateClaimStatusWithEvent(claim, 'Lost', undefined, 'Warning', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!');
      return;
    }
    const volume = (await volumes.readNow('', volumeName))?.object as Obj | undefined;
    if (!volume) {
      await updateClaimStatusWithEvent(claim, 'Lost', undefined, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
      return;
    }
    const ref = volume.spec?.claimRef;
    // Unbound volume (or one whose binding this controller has not seen yet), or all well: bind() sets what is missing.
    if (!ref || (ref.uid ?? '') === (claim.metadata?.uid ?? '')) {
      await bind(volume, claim);
      return;
    }
    await updateClaimStatusWithEvent(claim, 'Lost', undefined, 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
  }

  async function syncClaim(namespace: string, name: string): Promise<void> {
    const claim = (await claims.readNow(namespace, name))?.object as Obj | undefined;
    if (!claim) return;
    if (!hasAnnotation(claim, ANN_BIND_COMPLETED)) await syncUnboundClaim(claim); else await syncBoundClaim(claim);
  }

  // ---- volumes ----

  /** isVolumeReleased: bound (with a uid) to a claim that is gone, or that is bound to another volume. */
  async function isVolumeReleased(volume: Obj): Promise<boolean> {
    const ref = volume.spec?.claimRef;
    if (!ref || !ref.uid) return false;
    const claim = (await claims.readNow(ref.namespace ?? '', ref.name ?? ''))?.object as Obj | undefined;
    if (claim && claim.metadata?.uid === ref.uid) return !!claim.spec?.volumeName && claim.spec.volumeName !== nameOf(volume);
    return true;
  }

  /** findDeletablePlugin: 'external' when a provisioner outside deletes it, else the plugin, or why there is none. */
  function deleter(volume: Obj): { external: true } | { hostPath: string } | { error: string } {
    const provisionedBy: string = volume.metadata?.annotations?.[ANN_DYNAMICALLY_PROVISIONED] ?? '';
    if (provisionedBy) {
      if (!provisionedBy.startsWith(IN_TREE_PREFIX)) return { external: true };
      if (provisionedBy !== HOST_PATH_PLUGIN) return { error: `no volume plugin matched name: ${provisionedBy}` };
    }
    // HonorPVReclaimPolicy: migrated and CSI volumes are their driver's to delete.
    if (hasAnnotation(volume, ANN_MIGRATED_TO) || volume.spec?.csi) return { external: true };
    const spec = volume.spec ?? {};
    if (spec.hostPath) return { hostPath: String(spec.hostPath.path ?? '') };
    // Plugins the controller manager has that serve the volume but cannot delete it.
    const prefix = `error getting deleter volume plugin for volume "${nameOf(volume)}": `;
    if (spec.nfs || spec.local) return { error: `${prefix}no deletable volume plugin matched` };
    return { error: `${prefix}no volume plugin matched` };
  }

  async function deleteVolume(volume: Obj): Promise<void> {
    const fresh = (await volumes.readNow('', nameOf(volume)))?.object as Obj | undefined;
    if (!fresh || !(await isVolumeReleased(fresh))) return;
    const plugin = deleter(fresh);
    if ('external' in plugin) return;
    let error = 'error' in plugin ? plugin.error : undefined;
    // The host-path deleter removes only directories under /tmp (on the controller manager's machine: here the
    // object alone goes, no node's file system being in reach).
    if ('hostPath' in plugin && !/\/tmp\/.+/.test(plugin.hostPath)) error = `host_path deleter only supports /tmp/.+ but received provided ${plugin.hostPath}`;
    if (error !== undefined) {
      // The volume stays Failed; every sync tries again (without another event).
      await updateVolumePhaseWithEvent(fresh, 'Failed', 'Warning', 'VolumeFailedDelete', error);
      return;
    }
    let current = fresh;
    if ((current.metadata?.finalizers ?? []).includes(PV_CONTROLLER_FINALIZER)) {
      const next = structuredClone(current) as ApiObject;
      withoutFinalizer(next, PV_CONTROLLER_FINALIZER);
      current = await save(volumes, next);
    }
    try {
      await volumes.delete('', nameOf(current), { ctx: controllerContext(ACCOUNT), dryRun: false });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async function recycleVolume(volume: Obj): Promise<void> {
    const fresh = (await volumes.readNow('', nameOf(volume)))?.object as Obj | undefined;
    if (!fresh || !(await isVolumeReleased(fresh))) return;
    const ref = fresh.spec.claimRef;
    const users = claimUsers(ref.namespace ?? '', ref.name ?? '').map((p) => `${namespaceOf(p)}/${nameOf(p)}`).sort();
    const claimExists = !!claims.current(ref.namespace ?? '', ref.name ?? '');
    if (users.length > 0 && !claimExists) {
      event(fresh, 'Normal', 'VolumeFailedRecycle', `Volume is used by pods: ${[...new Set(users)].join(',')}`);
      return;
    }
    // The host-path and NFS recyclers scrub the volume with a pod on a node: none runs here, the volume waits.
    if (fresh.spec.hostPath || fresh.spec.nfs) return;
    await updateVolumePhaseWithEvent(fresh, 'Failed', 'Warning', 'VolumeFailedRecycle', 'No recycler plugin found for the volume!');
  }

  async function reclaimVolume(volume: Obj): Promise<void> {
    if (volume.metadata?.annotations?.[ANN_MIGRATED_TO]) return;
    switch (volume.spec?.persistentVolumeReclaimPolicy) {
      case 'Retain':
        return;
      case 'Recycle':
        return recycleVolume(volume);
      case 'Delete':
        return deleteVolume(volume);
      default:
        await updateVolumePhaseWithEvent(volume, 'Failed', 'Warning', 'VolumeUnknownReclaimPolicy', 'Volume has unrecognized PersistentVolumeReclaimPolicy');
    }
  }

  async function releaseAndReclaim(volume: Obj): Promise<void> {
    let v = volume;
    // A Failed volume stays Failed, for the user to see, while the reclaim is tried again.
    if (v.status?.phase !== 'Released' && v.status?.phase !== 'Failed') v = await updateVolumePhase(v, 'Released');
    await reclaimVolume(v);
  }

  async function syncVolume(name: string): Promise<void> {
    const volume = (await volumes.readNow('', name))?.object as Obj | undefined;
    if (!volume) return;
    const ref = volume.spec?.claimRef;
    // Unused, or reserved for a claim that has not bound yet (its sync binds it).
    if (!ref || !ref.uid) {
      await updateVolumePhase(volume, 'Available');
      return;
    }
    let claim = (await claims.readNow(ref.namespace ?? '', ref.name ?? ''))?.object as Obj | undefined;
    // Another claim of the same name: the one the volume was bound to was deleted.
    if (claim && claim.metadata?.uid !== ref.uid) claim = undefined;
    if (!claim) {
      await releaseAndReclaim(volume);
      return;
    }
    const claimVolume: string = claim.spec?.volumeName ?? '';
    if (!claimVolume) {
      if (volumeModeMismatch(claim, volume)) {
        event(volume, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume to requested PersistentVolumeClaim "${nameOf(claim)}" due to incompatible volumeMode.`);
        event(claim, 'Warning', 'VolumeMismatch', `Cannot bind PersistentVolume "${name}" to requested PersistentVolumeClaim due to incompatible volumeMode.`);
        return;
      }
      // Bound on the volume's side only: the claim's sync completes it.
      queue.add(claimKey(namespaceOf(claim), nameOf(claim)));
      return;
    }
    if (claimVolume === name) {
      await updateVolumePhase(volume, 'Bound');
      return;
    }
    // The claim is bound to another volume.
    if (hasAnnotation(volume, ANN_DYNAMICALLY_PROVISIONED) && volume.spec?.persistentVolumeReclaimPolicy === 'Delete') {
      await releaseAndReclaim(volume);
      return;
    }
    // The controller's own binding is undone; a user's pre-binding loses its uid only.
    await unbindVolume(volume);
  }

  // ---- wiring ----

  const queue = new WorkQueue(async (key) => {
    if (key.startsWith('volume/')) return syncVolume(key.slice('volume/'.length));
    const rest = key.slice('claim/'.length);
    const slash = rest.indexOf('/');
    return syncClaim(rest.slice(0, slash), rest.slice(slash + 1));
  }, { name: 'persistentvolume-binder controller', log: deps.log });

  const onClaim = (e: CacheEvent) => {
    if (!e.deleted) { queue.add(claimKey(e.current.namespace, e.current.name)); return; }
    // A deleted claim releases its volume now rather than at the next resync.
    const volumeName = (e.current.object.spec as Obj | undefined)?.volumeName;
    if (volumeName) queue.add(volumeKey(volumeName));
  };
  const onVolume = (e: CacheEvent) => {
    if (!e.deleted) { queue.add(volumeKey(e.current.name)); return; }
    // A deleted volume leaves its claim Lost.
    const ref = (e.current.object.spec as Obj | undefined)?.claimRef;
    if (ref?.name) queue.add(claimKey(ref.namespace ?? '', ref.name));
  };

  const informer = startInformer({
    stores: [volumes, claims],
    onEvent(store, e) {
      if (store === claims) onClaim(e); else onVolume(e);
    },
    resync() {
      for (const c of claims.cache.unordered()) queue.add(claimKey(c.namespace, c.name));
      for (const v of volumes.cache.unordered()) queue.add(volumeKey(v.name));
    },
    resyncMs: deps.resyncMs ?? BINDER_RESYNC_MS,
    log: deps.log,
    name: 'persistentvolume-binder controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
