// PersistentVolume (core v1, cluster-scoped): a piece of storage in the cluster, provisioned by an admin or
// dynamically through a storage class, bound to at most one claim. Its source never changes once created;
// status changes only through /status.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, ObjectReference } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from './schema-helpers.ts';
import { canonicalizeResourceList } from './resource-quantity.ts';
import { nowRfc3339 } from '../../registry/names.ts';
import { type FieldError, invalid, required, forbidden, notSupported, key, child } from '../../machinery/field-errors.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { errorWithGoValue, goPointer, goStruct } from '../../machinery/go-format.ts';
import { persistentVolumeWarnings, mountOptionAnnotationErrors } from './persistentvolume-warnings.ts';
import { warnWhenValid } from '../warnings.ts';
import { persistentVolumeSourceProperties, SOURCE_NAMES, defaultSources, persistentVolumeSourceErrors, type Sources } from './persistentvolume-sources.ts';
import {
  VolumeNodeAffinity, nodeSelectorErrors, accessModeErrors, accessModesText, classNameErrors, storageFeatureGates,
  VOLUME_MODES, storageClassOf, type NodeSelectorT,
} from './persistentvolume-common.ts';

const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];

const CAPACITY_DESCRIPTION = "capacity is the description of the persistent volume's resources and capacity. More info: https://platform.io/docs/concepts/storage/persistent-volumes#capacity";
const ACCESS_MODES_DESCRIPTION = 'accessModes contains all ways the volume can be mounted. More info: https://platform.io/docs/concepts/storage/persistent-volumes#access-modes';
const RECLAIM_DESCRIPTION = 'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://platform.io/docs/concepts/storage/persistent-volumes#reclaiming';
const CLAIM_REF_DESCRIPTION = 'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://platform.io/docs/concepts/storage/persistent-volumes#binding';
const VOLUME_MODE_DESCRIPTION = 'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.';
const PHASE_DESCRIPTION = 'phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://platform.io/docs/concepts/storage/persistent-volumes#phase';
const REASON_DESCRIPTION = 'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.';

export const PersistentVolumeSpec = S.object({
  capacity: S.map(S.quantity(), { proto: 1, description: CAPACITY_DESCRIPTION }),
  ...persistentVolumeSourceProperties,
  accessModes: S.list(S.string(), { proto: 3, listType: 'atomic', description: ACCESS_MODES_DESCRIPTION }),
  claimRef: { ...ObjectReference, 'x-proto': 4, description: CLAIM_REF_DESCRIPTION },
  persistentVolumeReclaimPolicy: S.string({ proto: 5, description: RECLAIM_DESCRIPTION }),
  storageClassName: S.string({ proto: 6, description: 'storageClassName is the name of StorageClass to which this persistent volume belongs. Empty value means that this volume does not belong to any StorageClass.' }),
  mountOptions: S.list(S.string(), { proto: 7, listType: 'atomic', description: 'mountOptions is the list of mount options, e.g. ["ro", "soft"]. Not validated - mount will simply fail if one is invalid. More info: https://platform.io/docs/concepts/storage/persistent-volumes/#mount-options' }),
  volumeMode: S.string({ proto: 8, description: VOLUME_MODE_DESCRIPTION }),
  nodeAffinity: { ...VolumeNodeAffinity, 'x-proto': 9, description: 'nodeAffinity defines constraints that limit what nodes this volume can be accessed from. This field influences the scheduling of pods that use this volume.' },
  volumeAttributesClassName: S.string({ proto: 10, description: 'Name of VolumeAttributesClass to which this persistent volume belongs. Empty value is not allowed. When this field is not set, it indicates that this volume does not belong to any VolumeAttributesClass. This field is mutable and can be changed by the CSI driver after a volume has been updated successfully to a new class. For an unbound PersistentVolume, the volumeAttributesClassName will be matched with unbound PersistentVolumeClaims during the binding process. This is a beta field and requires enabling VolumeAttributesClass feature (off by default).' }),
}, { proto: 2, ref: 'core.v1.PersistentVolumeSpec', description: 'PersistentVolumeSpec is the specification of a persistent volume.' });

const PersistentVolumeStatus = S.object({
  phase: S.string({ proto: 1, description: PHASE_DESCRIPTION }),
  message: S.string({ proto: 2, description: 'message is a human-readable message indicating details about why the volume is in this state.' }),
  reason: S.string({ proto: 3, description: REASON_DESCRIPTION }),
  lastPhaseTransitionTime: S.time({ proto: 4, description: 'lastPhaseTransitionTime is the time the phase transitioned from one to another and automatically resets to current time everytime a volume phase transitions.' }),
}, { proto: 3, ref: 'core.v1.PersistentVolumeStatus', description: 'PersistentVolumeStatus is the current status of a persistent volume.' });

export const PersistentVolumeSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: { ...PersistentVolumeSpec, description: 'spec defines a specification of a persistent volume owned by the cluster. Provisioned by an administrator. More info: https://platform.io/docs/concepts/storage/persistent-volumes#persistent-volumes' },
  status: { ...PersistentVolumeStatus, description: 'status represents the current information/status for the persistent volume. Populated by the system. Read-only. More info: https://platform.io/docs/concepts/storage/persistent-volumes#persistent-volumes' },
}, { ref: 'core.v1.PersistentVolume', description: 'PersistentVolume (PV) is a storage resource provisioned by an administrator. It is analogous to a node. More info: https://platform.io/docs/concepts/storage/persistent-volumes' });

export interface PvSpec extends Sources {
  capacity?: Record<string, unknown> | null;
  accessModes?: string[] | null;
  claimRef?: { namespace?: string; name?: string } | null;
  persistentVolumeReclaimPolicy?: string;
  storageClassName?: string;
  volumeMode?: string | null;
  nodeAffinity?: { required?: NodeSelectorT | null } | null;
  volumeAttributesClassName?: string | null;
}
interface PvStatus { phase?: string; reason?: string; lastPhaseTransitionTime?: string | null }

const specOf = (o: ApiObject) => (o.spec ?? {}) as PvSpec;
const statusOf = (o: ApiObject) => (o.status ?? {}) as PvStatus;
const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);

function defaults(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as PvSpec;
  const status = (obj.status ??= {}) as PvStatus;
  if (!status.phase) status.phase = 'Pending';
  if (!spec.persistentVolumeReclaimPolicy) spec.persistentVolumeReclaimPolicy = 'Retain';
  spec.volumeMode ??= 'Filesystem';
  defaultSources(spec);
}

/** Fields of a disabled feature are dropped, unless the stored object already uses them. */
function dropDisabledFields(obj: ApiObject, old: ApiObject | undefined): void {
  if (storageFeatureGates.VolumeAttributesClass) return;
  const oldValue = old ? specOf(old).volumeAttributesClassName : undefined;
  if (oldValue === undefined || oldValue === null) delete specOf(obj).volumeAttributesClassName;
}

/** ValidatePersistentVolumeSpec (not inline): modes, capacity, reclaim policy, affinity, one source, class. */
export function persistentVolumeSpecErrors(spec: PvSpec, pvName: string, path: string, inline: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const capacity = spec.capacity ?? {};
  if (inline) {
    if (spec.claimRef) errs.push(forbidden(child(path, 'claimRef'), 'may not be specified in the context of inline volumes'));
    if (Object.keys(capacity).length) errs.push(forbidden(child(path, 'capacity'), 'may not be specified in the context of inline volumes'));
    if (!spec.csi) errs.push(required(child(path, 'csi'), 'has to be specified in the context of inline volumes'));
  }
  errs.push(...accessModeErrors(list(spec.accessModes), child(path, 'accessModes'), ''));
  if (!inline) {
    const capPath = child(path, 'capacity');
    const names = Object.keys(capacity);
    if (names.length === 0) errs.push(required(capPath, ''));
    if (!names.includes('storage') || names.length > 1) {
      // Go prints an absent (nil) map as `core.ResourceList(nil)`.
      const rendered = spec.capacity == null ? 'core.ResourceList(nil)' : 'core.ResourceList{' + names.sort().map((n) => `"${n}":resource.Quantity{...}`).join(', ') + '}';
      errs.push({ ...errorWithGoValue('FieldValueNotSupported', capPath, capacity, rendered), detail: `${rendered}: supported values: "storage"` });
    }
    for (const [name, value] of Object.entries(capacity)) {
      let q;
      try { q = quantityFromJSON(value); } catch { continue; }
      if (q.cmp('0') <= 0) errs.push(invalid(key(capPath, name), q.toString(), 'must be greater than zero'));
    }
  }
  const policy = spec.persistentVolumeReclaimPolicy ?? '';
  if (policy) {
    if (inline) {
      if (policy !== 'Retain') errs.push(forbidden(child(path, 'persistentVolumeReclaimPolicy'), 'may only be Retain in the context of inline volumes'));
    } else if (!RECLAIM_POLICIES.includes(policy)) {
      errs.push(notSupported(child(path, 'persistentVolumeReclaimPolicy'), policy, RECLAIM_POLICIES));
    }
  }
  const affinity = spec.nodeAffinity;
  if (affinity) {
    if (affinity.required) errs.push(...nodeSelectorErrors(affinity.required, false, child(path, 'nodeAffinity.required')));
    else errs.push(required(child(path, 'nodeAffinity.required'), 'must specify required node constraints'));
  }
  errs.push(...persistentVolumeSourceErrors(spec, pvName, path, !!affinity));
  const hostPath = spec.hostPath as { path?: string } | null | undefined;
  if (hostPath && cleanPath(hostPath.path ?? '') === '/' && policy === 'Recycle') {
    errs.push(forbidden(child(path, 'persistentVolumeReclaimPolicy'), "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (spec.storageClassName) errs.push(...classNameErrors(spec.storageClassName, child(path, 'storageClassName')));
  if (spec.volumeMode !== undefined && spec.volumeMode !== null && !VOLUME_MODES.includes(spec.volumeMode)) {
    errs.push(notSupported(child(path, 'volumeMode'), spec.volumeMode, VOLUME_MODES));
  }
  const vac = spec.volumeAttributesClassName;
  if (vac !== undefined && vac !== null && storageFeatureGates.VolumeAttributesClass) {
    if (!vac) errs.push(required(child(path, 'volumeAttributesClassName'), 'an empty string is disallowed'));
    else errs.push(...classNameErrors(vac, child(path, 'volumeAttributesClassName')));
    if (!spec.csi) errs.push(required(child(path, 'csi'), 'has to be specified when using volumeAttributesClassName'));
  }
  return errs;
}

/** Go's path.Clean, enough to tell whether a path is the root. */
function cleanPath(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop(); else parts.push(seg);
  }
  return p.startsWith('/') ? '/' + parts.join('/') : parts.join('/') || '.';
}

const sourcesOf = (spec: PvSpec) => Object.fromEntries(SOURCE_NAMES.map((n) => [n, spec[n] ?? null]));

/** ValidatePersistentVolumeUpdate: the source and volume mode never change; node affinity only once set. */
function updateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const spec = specOf(obj), oldSpec = specOf(old);
  const errs: FieldError[] = [];
  const next = sourcesOf(spec) as Record<string, Record<string, unknown> | null>;
  const before = sourcesOf(oldSpec) as Record<string, Record<string, unknown> | null>;
  // A CSI volume may gain the controller expand secret it lacked.
  if (before.csi && !before.csi.controllerExpandSecretRef && next.csi?.controllerExpandSecretRef) {
    next.csi = { ...next.csi };
    delete next.csi.controllerExpandSecretRef;
  }
  if (!deepEqual(next, before)) errs.push(forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
  if ((spec.volumeMode ?? null) !== (oldSpec.volumeMode ?? null)) errs.push(invalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  if (oldSpec.nodeAffinity && !deepEqual(spec.nodeAffinity ?? null, oldSpec.nodeAffinity)) {
    const rendered = spec.nodeAffinity ? goStruct('core.VolumeNodeAffinity', [['Required', goPointer('core.NodeSelector', !!spec.nodeAffinity.required)]]) : 'null';
    errs.push(errorWithGoValue('FieldValueInvalid', 'nodeAffinity', spec.nodeAffinity, rendered, 'field is immutable, except for updating from beta label to GA'));
  }
  if (!deepEqual(spec.volumeAttributesClassName ?? null, oldSpec.volumeAttributesClassName ?? null)) {
    if (!storageFeatureGates.VolumeAttributesClass) errs.push(forbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
    else if (oldSpec.volumeAttributesClassName !== undefined && oldSpec.volumeAttributesClassName !== null && (spec.volumeAttributesClassName === undefined || spec.volumeAttributesClassName === null)) {
      errs.push(forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
    }
  }
  return errs;
}

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  if (ctx.subresource !== 'status') {
    dropDisabledFields(obj, old);
    return;
  }
  // A phase change is stamped with the time, unless the writer set a new time itself.
  const status = (obj.status ??= {}) as PvStatus, oldStatus = statusOf(old);
  const stamped = status.lastPhaseTransitionTime;
  if (status.phase === oldStatus.phase && !stamped) status.lastPhaseTransitionTime = oldStatus.lastPhaseTransitionTime;
  else if (status.phase !== oldStatus.phase && (!stamped || stamped === oldStatus.lastPhaseTransitionTime)) status.lastPhaseTransitionTime = nowRfc3339();
  if (!status.lastPhaseTransitionTime) delete status.lastPhaseTransitionTime;
}


function capacityText(obj: ApiObject): string {
  const value = specOf(obj).capacity?.storage;
  try { return value === undefined ? '0' : quantityFromJSON(value).toString(); } catch { return String(value); }
}

export const persistentVolumeKind: KindDefinition = {
  group: '',
  kind: 'PersistentVolume',
  plural: 'persistentvolumes',
  singular: 'persistentvolume',
  namespaced: false,
  shortNames: ['pv'],
  versions: [{ name: 'v1', stability: 'stable', schema: PersistentVolumeSchema }],
  storageVersion: 'v1',
  deleteReturnsObject: true,
  status: {},
  trackGeneration: false,

  defaults,
  prepareForCreate(obj) {
    // A new volume starts Pending; the volume controller makes it Available.
    obj.status = { phase: 'Pending', lastPhaseTransitionTime: nowRfc3339() };
    dropDisabledFields(obj, undefined);
  },
  prepareForUpdate,
  validate(obj, ctx) {
    return warnWhenValid([...persistentVolumeSpecErrors(specOf(obj), obj.metadata.name ?? '', 'spec', false), ...mountOptionAnnotationErrors(obj)], ctx, () => persistentVolumeWarnings(obj));
  },
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return [];
    return warnWhenValid([...persistentVolumeSpecErrors(specOf(obj), obj.metadata.name ?? '', 'spec', false), ...mountOptionAnnotationErrors(obj), ...updateErrors(obj, old)], ctx, () => persistentVolumeWarnings(obj));
  },
  canonicalize: (obj) => canonicalizeResourceList(specOf(obj).capacity ?? undefined),

  tableColumns: [
    nameColumn,
    { name: 'Capacity', type: 'string', description: CAPACITY_DESCRIPTION, cell: capacityText },
    { name: 'Access Modes', type: 'string', description: ACCESS_MODES_DESCRIPTION, cell: (o) => accessModesText(specOf(o).accessModes ?? undefined) },
    { name: 'Reclaim Policy', type: 'string', description: RECLAIM_DESCRIPTION, cell: (o) => specOf(o).persistentVolumeReclaimPolicy ?? '' },
    { name: 'Status', type: 'string', description: PHASE_DESCRIPTION, cell: (o) => (o.metadata.deletionTimestamp ? 'Terminating' : statusOf(o).phase ?? '') },
    { name: 'Claim', type: 'string', description: CLAIM_REF_DESCRIPTION, cell: (o) => { const c = specOf(o).claimRef; return c ? `${c.namespace ?? ''}/${c.name ?? ''}` : ''; } },
    { name: 'StorageClass', type: 'string', description: 'StorageClass of the pv', cell: storageClassOf },
    { name: 'VolumeAttributesClass', type: 'string', description: 'VolumeAttributesClass of the pv', cell: (o) => specOf(o).volumeAttributesClassName ?? '<unset>' },
    { name: 'Reason', type: 'string', description: REASON_DESCRIPTION, cell: (o) => statusOf(o).reason ?? '' },
    ageColumn,
    { name: 'VolumeMode', type: 'string', priority: 1, description: VOLUME_MODE_DESCRIPTION, cell: (o) => specOf(o).volumeMode ?? '<unset>' },
  ],
};
