// What the PersistentVolume binder decides without the API: the annotations it reads and writes, the class
// and volume mode of claims and volumes, and which volume a claim gets, as Kubernetes v1.32 decides it
// (component-helpers' storage/volume helpers and the binder's index.go). Volumes are grouped by their set of
// access modes; the groups that hold every mode the claim asks for are searched fewest modes first, and
// within the first group that has one, a volume pre-bound to the claim wins, else the smallest Available,
// unclaimed volume of the claim's class whose labels match the claim's selector and that holds the request.
// Node affinity is not looked at: that is the scheduler's part (no node is in scope here).
import type { ApiObject } from '../apis/meta/v1.ts';
import { storageClassOf } from '../apis/core/persistentvolume-common.ts';
import { labelSelectorFromObject, type LabelSelectorMatcher } from '../machinery/labels.ts';
import { Quantity, quantityFromJSON } from '../machinery/quantity.ts';

type Obj = Record<string, any>;

/** On a claim: the binding has been set up once (its value does not matter). */
export const ANN_BIND_COMPLETED = 'pv.platform.io/bind-completed';
/** On a volume or claim: the controller, not the user, made this side of the binding. */
export const ANN_BOUND_BY_CONTROLLER = 'pv.platform.io/bound-by-controller';
/** On a volume: the plugin or provisioner that created it. */
export const ANN_DYNAMICALLY_PROVISIONED = 'pv.platform.io/provisioned-by';
/** On a claim: who is to provision its volume (the beta name and the GA name carry the same value). */
export const ANN_BETA_STORAGE_PROVISIONER = 'volume.beta.platform.io/storage-provisioner';
export const ANN_STORAGE_PROVISIONER = 'volume.platform.io/storage-provisioner';
/** On a claim: the node the scheduler chose, which starts a delayed provisioning. */
export const ANN_SELECTED_NODE = 'volume.platform.io/selected-node';
/** On a volume or claim: the CSI driver an in-tree volume was migrated to; the binder stands down. */
export const ANN_MIGRATED_TO = 'pv.platform.io/migrated-to';
/** The finalizer the binder puts on volumes it must delete itself (HonorPVReclaimPolicy). */
export const PV_CONTROLLER_FINALIZER = 'platform.io/pv-controller';

const ACCESS_MODE_ORDER = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOncePod'];

export const hasAnnotation = (obj: Obj, name: string): boolean => {
  const annotations = obj.metadata?.annotations;
  return !!annotations && Object.hasOwn(annotations, name);
};

/** The access modes as a set, in the order of Kubernetes' GetAccessModesAsString. */
export function accessModeSet(modes: unknown): string[] {
  const given = new Set(Array.isArray(modes) ? modes.filter((m): m is string => typeof m === 'string') : []);
  return [...ACCESS_MODE_ORDER.filter((m) => given.has(m)), ...[...given].filter((m) => !ACCESS_MODE_ORDER.includes(m)).sort()];
}

/** CheckAccessModes: the volume has every mode the claim asks for. */
export function hasAccessModes(claim: Obj, volume: Obj): boolean {
  const offered = new Set(accessModeSet(volume.spec?.accessModes));
  return accessModeSet(claim.spec?.accessModes).every((m) => offered.has(m));
}

/** CheckVolumeModeMismatches: an unset mode is Filesystem on both sides. */
export function volumeModeMismatch(claim: Obj, volume: Obj): boolean {
  return (claim.spec?.volumeMode || 'Filesystem') !== (volume.spec?.volumeMode || 'Filesystem');
}

function quantity(value: unknown): Quantity {
  if (value === undefined || value === null) return Quantity.parse('0');
  try {
    return quantityFromJSON(value);
  } catch {
    return Quantity.parse('0');
  }
}

/** The storage a claim requests (zero when it names none). */
const requestedStorage = (claim: Obj): Quantity => quantity(claim.spec?.resources?.requests?.storage);
/** The storage a volume has (zero when it names none). */
const volumeStorage = (volume: Obj): Quantity => quantity(volume.spec?.capacity?.storage);

/** IsVolumeBoundToClaim: the volume's claimRef names the claim (and its uid, when the ref has one). */
export function isVolumeBoundToClaim(volume: Obj, claim: Obj): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if ((ref.name ?? '') !== claim.metadata?.name || (ref.namespace ?? '') !== (claim.metadata?.namespace ?? '')) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

/** The reference a volume keeps to its claim (client-go's GetReference of the claim). */
export function claimReference(claim: ApiObject): Obj {
  return {
    kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name,
    uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion,
  };
}

/** FindMatchingVolume on the PV controller's path (no node): the pre-bound volume, else the smallest match. */
export function findMatchingVolume(claim: Obj, volumes: Obj[], delayBinding: boolean): Obj | undefined {
  const requested = requestedStorage(claim);
  const wantedClass = storageClassOf(claim);
  let selector: LabelSelectorMatcher | undefined;
  if (claim.spec?.selector) selector = labelSelectorFromObject(claim.spec.selector);
  let smallest: Obj | undefined;
  let smallestSize: Quantity | undefined;
  for (const volume of volumes) {
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const size = volumeStorage(volume);
    if (isVolumeBoundToClaim(volume, claim)) {
      // Pre-bound to this claim: it, when large enough; else keep looking.
      if (size.cmp(requested) < 0) continue;
      return volume;
    }
    // With WaitForFirstConsumer the scheduler picks among unbound volumes, not this controller.
    if (delayBinding) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (volume.spec?.claimRef) continue;
    if (selector && !selector.matches(volume.metadata?.labels ?? {})) continue;
    if (storageClassOf(volume) !== wantedClass) continue;
    if (size.cmp(requested) >= 0 && (!smallestSize || smallestSize.cmp(size) > 0)) {
      smallest = volume;
      smallestSize = size;
    }
  }
  return smallest;
}

/** findBestMatchForClaim: the groups of volumes by access modes that can serve the claim, fewest modes first. */
export function findBestMatchForClaim(claim: Obj, volumes: Obj[], delayBinding: boolean): Obj | undefined {
  const groups = new Map<string, { modes: string[]; volumes: Obj[] }>();
  for (const volume of volumes) {
    const modes = accessModeSet(volume.spec?.accessModes);
    const key = modes.join(',');
    let group = groups.get(key);
    if (!group) groups.set(key, group = { modes, volumes: [] });
    group.volumes.push(volume);
  }
  const wanted = accessModeSet(claim.spec?.accessModes);
  const candidates = [...groups.entries()]
    .filter(([, g]) => wanted.every((m) => g.modes.includes(m)))
    // Kubernetes sorts by the number of modes only (equal ones in index order); the key makes it stable.
    .sort(([ka, a], [kb, b]) => a.modes.length - b.modes.length || (ka < kb ? -1 : ka > kb ? 1 : 0));
  for (const [, group] of candidates) {
    const found = findMatchingVolume(claim, group.volumes, delayBinding);
    if (found) return found;
  }
  return undefined;
}

/** checkVolumeSatisfyClaim: why a volume a claim names cannot serve it, or undefined when it can. */
export function volumeUnsatisfying(volume: Obj, claim: Obj): string | undefined {
  if (volume.metadata?.deletionTimestamp) return `the volume is marked for deletion "${volume.metadata.name}"`;
  // Value(): whole units, rounded up.
  if (volumeStorage(volume).value() < requestedStorage(claim).value()) return 'requested PV is too small';
  if (storageClassOf(volume) !== storageClassOf(claim)) return 'storageClassName does not match';
  if (volumeModeMismatch(claim, volume)) return 'incompatible volumeMode';
  if (!hasAccessModes(claim, volume)) return 'incompatible accessMode';
  return undefined;
}
