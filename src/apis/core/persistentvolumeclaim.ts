// PersistentVolumeClaim (core v1, namespaced): a user's request for storage, bound to one volume. After
// creation the spec is fixed, except that a bound claim may change its storage request (grow it, or lower it
// again above status.capacity) and the binder sets volumeName once; status changes only through /status.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject, LabelSelectorT } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from './schema-helpers.ts';
import { canonicalizeResourceList } from './resource-quantity.ts';
import { type FieldError, invalid, required, forbidden, notSupported, key, child } from '../../machinery/field-errors.ts';
import { validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/strings.ts';
import { quantityFromJSON, type Quantity } from '../../machinery/quantity.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { featureGates } from '../../config/feature-gates.ts';
import { accessModeErrors, accessModesText, classNameErrors, storageFeatureGates, VOLUME_MODES, BETA_STORAGE_CLASS_ANNOTATION, storageClassOf } from './persistentvolume-common.ts';

const ACCESS_MODES_DESCRIPTION = 'accessModes contains the desired access modes the volume should have. More info: https://platform.io/docs/concepts/storage/persistent-volumes#access-modes-1';
const STATUS_ACCESS_MODES_DESCRIPTION = 'accessModes contains the actual access modes the volume backing the PVC has. More info: https://platform.io/docs/concepts/storage/persistent-volumes#access-modes-1';
const VOLUME_NAME_DESCRIPTION = 'volumeName is the binding reference to the PersistentVolume backing this claim.';
const VOLUME_MODE_DESCRIPTION = 'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.';
const PHASE_DESCRIPTION = 'phase represents the current phase of PersistentVolumeClaim.';
const CAPACITY_DESCRIPTION = 'capacity represents the actual resources of the underlying volume.';
const GROUP_DESCRIPTION = 'APIGroup is the group for the resource being referenced. If APIGroup is not specified, the specified Kind must be in the core API group. For any other third-party types, APIGroup is required.';

const TypedLocalObjectReference = S.object({
  apiGroup: S.string({ proto: 1, description: GROUP_DESCRIPTION }),
  kind: S.string({ proto: 2, default: '', description: 'Kind is the type of resource being referenced' }),
  name: S.string({ proto: 3, default: '', description: 'Name is the name of resource being referenced' }),
}, { atomic: true, ref: 'core.v1.TypedLocalObjectReference', description: 'TypedLocalObjectReference contains enough information to let you locate the typed referenced object inside the same namespace.' });

const TypedObjectReference = S.object({
  apiGroup: S.string({ proto: 1, description: GROUP_DESCRIPTION }),
  kind: S.string({ proto: 2, default: '', description: 'Kind is the type of resource being referenced' }),
  name: S.string({ proto: 3, default: '', description: 'Name is the name of resource being referenced' }),
  namespace: S.string({ proto: 4, description: "Namespace is the namespace of resource being referenced Note that when a namespace is specified, a gateway.networking.svc.io/ReferenceGrant object is required in the referent namespace to allow that namespace's owner to accept the reference. See the ReferenceGrant documentation for details. (Alpha) This field requires the CrossNamespaceVolumeDataSource feature gate to be enabled." }),
}, { ref: 'core.v1.TypedObjectReference', description: 'TypedObjectReference contains enough information to let you locate the typed referenced object' });

const VolumeResourceRequirements = S.object({
  limits: S.map(S.quantity(), { proto: 1, description: 'Limits describes the maximum amount of compute resources allowed. More info: https://platform.io/docs/concepts/configuration/manage-resources-containers/' }),
  requests: S.map(S.quantity(), { proto: 2, description: 'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://platform.io/docs/concepts/configuration/manage-resources-containers/' }),
}, { ref: 'core.v1.VolumeResourceRequirements', description: 'VolumeResourceRequirements describes the storage resource requirements for a volume.' });

/** The claim spec; Pod ephemeral volumes embed it in their claim template. */
export const PersistentVolumeClaimSpec = S.object({
  accessModes: S.list(S.string(), { proto: 1, listType: 'atomic', description: ACCESS_MODES_DESCRIPTION }),
  selector: { ...LabelSelector, 'x-proto': 4, description: 'selector is a label query over volumes to consider for binding.' },
  resources: { ...VolumeResourceRequirements, 'x-proto': 2, description: 'resources represents the minimum resources the volume should have. If RecoverVolumeExpansionFailure feature is enabled users are allowed to specify resource requirements that are lower than previous value but must still be higher than capacity recorded in the status field of the claim. More info: https://platform.io/docs/concepts/storage/persistent-volumes#resources' },
  volumeName: S.string({ proto: 3, description: VOLUME_NAME_DESCRIPTION }),
  storageClassName: S.string({ proto: 5, description: 'storageClassName is the name of the StorageClass required by the claim. More info: https://platform.io/docs/concepts/storage/persistent-volumes#class-1' }),
  volumeMode: S.string({ proto: 6, description: VOLUME_MODE_DESCRIPTION }),
  dataSource: { ...TypedLocalObjectReference, 'x-proto': 7, description: 'dataSource field can be used to specify either: * An existing VolumeSnapshot object (snapshot.storage.svc.io/VolumeSnapshot) * An existing PVC (PersistentVolumeClaim) If the provisioner or an external controller can support the specified data source, it will create a new volume based on the contents of the specified data source. When the AnyVolumeDataSource feature gate is enabled, dataSource contents will be copied to dataSourceRef, and dataSourceRef contents will be copied to dataSource when dataSourceRef.namespace is not specified. If the namespace is specified, then dataSourceRef will not be copied to dataSource.' },
  dataSourceRef: { ...TypedObjectReference, 'x-proto': 8, description: "dataSourceRef specifies the object from which to populate the volume with data, if a non-empty volume is desired. This may be any object from a non-empty API group (non core object) or a PersistentVolumeClaim object. When this field is specified, volume binding will only succeed if the type of the specified object matches some installed volume populator or dynamic provisioner. This field will replace the functionality of the dataSource field and as such if both fields are non-empty, they must have the same value. For backwards compatibility, when namespace isn't specified in dataSourceRef, both fields (dataSource and dataSourceRef) will be set to the same value automatically if one of them is empty and the other is non-empty. When namespace is specified in dataSourceRef, dataSource isn't set to the same value and must be empty." },
  volumeAttributesClassName: S.string({ proto: 9, description: 'volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim. If specified, the CSI driver will create or update the volume with the attributes defined in the corresponding VolumeAttributesClass. This has a different purpose than storageClassName, it can be changed after the claim is created. An empty string value means that no VolumeAttributesClass will be applied to the claim but it\'s not allowed to reset this field to empty string once it is set. If unspecified and the PersistentVolumeClaim is unbound, the default VolumeAttributesClass will be set by the persistentvolume controller if it exists. If the resource referred to by volumeAttributesClass does not exist, this PersistentVolumeClaim will be set to a Pending state, as reflected by the modifyVolumeStatus field, until such as a resource exists. More info: https://platform.io/docs/concepts/storage/volume-attributes-classes/ (Beta) Using this field requires the VolumeAttributesClass feature gate to be enabled (off by default).' }),
}, { ref: 'core.v1.PersistentVolumeClaimSpec', description: 'PersistentVolumeClaimSpec describes the common attributes of storage devices and allows a Source for provider-specific attributes' });

const PersistentVolumeClaimCondition = S.object({
  type: S.string({ proto: 1, default: '', description: 'Type is the type of the condition.' }),
  status: S.string({ proto: 2, default: '', description: 'Status is the status of the condition. Can be True, False, Unknown.' }),
  lastProbeTime: S.time({ proto: 3, description: 'lastProbeTime is the time we probed the condition.' }),
  lastTransitionTime: S.time({ proto: 4, description: 'lastTransitionTime is the time the condition transitioned from one status to another.' }),
  reason: S.string({ proto: 5, description: 'reason is a unique, this should be a short, machine understandable string that gives the reason for condition\'s last transition. If it reports "Resizing" that means the underlying persistent volume is being resized.' }),
  message: S.string({ proto: 6, description: 'message is the human-readable message indicating details about last transition.' }),
}, { ref: 'core.v1.PersistentVolumeClaimCondition', description: 'PersistentVolumeClaimCondition contains details about state of pvc' });

const PersistentVolumeClaimStatus = S.object({
  phase: S.string({ proto: 1, description: PHASE_DESCRIPTION }),
  accessModes: S.list(S.string(), { proto: 2, listType: 'atomic', description: STATUS_ACCESS_MODES_DESCRIPTION }),
  capacity: S.map(S.quantity(), { proto: 3, description: CAPACITY_DESCRIPTION }),
  conditions: S.list(PersistentVolumeClaimCondition, { proto: 4, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "conditions is the current Condition of persistent volume claim. If underlying persistent volume is being resized then the Condition will be set to 'Resizing'." }),
  allocatedResources: S.map(S.quantity(), { proto: 5, description: 'allocatedResources tracks the resources allocated to a PVC including its capacity. Key names follow standard label syntax. Capacity reported here may be larger than the actual capacity when a volume expansion operation is requested. For storage quota, the larger value from allocatedResources and PVC.spec.resources is used.' }),
  allocatedResourceStatuses: { ...S.map(S.string(), { proto: 7, description: 'allocatedResourceStatuses stores status of resource being resized for the given PVC. Key names follow standard label syntax. When this field is not set, it means that no resize operation is in progress for the given PVC.' }), 'x-platform-map-type': 'granular' },
  currentVolumeAttributesClassName: S.string({ proto: 8, description: 'currentVolumeAttributesClassName is the current name of the VolumeAttributesClass the PVC is using. When unset, there is no VolumeAttributeClass applied to this PersistentVolumeClaim This is a beta field and requires enabling VolumeAttributesClass feature (off by default).' }),
  modifyVolumeStatus: S.object({
    targetVolumeAttributesClassName: S.string({ proto: 1, description: 'targetVolumeAttributesClassName is the name of the VolumeAttributesClass the PVC currently being reconciled' }),
    status: S.string({ proto: 2, default: '', description: 'status is the status of the ControllerModifyVolume operation. It can be in any of following states:\n - Pending\n   Pending indicates that the PersistentVolumeClaim cannot be modified due to unmet requirements, such as\n   the specified VolumeAttributesClass not existing.\n - InProgress\n   InProgress indicates that the volume is being modified.\n - Infeasible\n  Infeasible indicates that the request has been rejected as invalid by the CSI driver. To\n\t  resolve the error, a valid VolumeAttributesClass needs to be specified.\nNote: New statuses can be added in the future. Consumers should check for unknown statuses and fail appropriately.' }),
  }, { proto: 9, ref: 'core.v1.ModifyVolumeStatus', description: 'ModifyVolumeStatus represents the status object of ControllerModifyVolume operation. When this is unset, there is no ModifyVolume operation being attempted. This is a beta field and requires enabling VolumeAttributesClass feature (off by default).' }),
}, { proto: 3, ref: 'core.v1.PersistentVolumeClaimStatus', description: 'PersistentVolumeClaimStatus is the current status of a persistent volume claim.' });

export const PersistentVolumeClaimSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: { ...PersistentVolumeClaimSpec, 'x-proto': 2, description: 'spec defines the desired characteristics of a volume requested by a pod author. More info: https://platform.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims' },
  status: { ...PersistentVolumeClaimStatus, description: 'status represents the current information/status of a persistent volume claim. Read-only. More info: https://platform.io/docs/concepts/storage/persistent-volumes#persistentvolumeclaims' },
}, { ref: 'core.v1.PersistentVolumeClaim', description: "PersistentVolumeClaim is a user's request for and claim to a persistent volume" });

interface Ref { apiGroup?: string | null; kind?: string; name?: string; namespace?: string | null }
export interface PvcSpec {
  accessModes?: string[] | null;
  selector?: Partial<LabelSelectorT> | null;
  resources?: { limits?: Record<string, unknown> | null; requests?: Record<string, unknown> | null } | null;
  volumeName?: string;
  storageClassName?: string | null;
  volumeMode?: string | null;
  dataSource?: Ref | null;
  dataSourceRef?: Ref | null;
  volumeAttributesClassName?: string | null;
}
interface PvcStatus {
  phase?: string;
  accessModes?: string[];
  capacity?: Record<string, unknown> | null;
  allocatedResources?: Record<string, unknown> | null;
  allocatedResourceStatuses?: Record<string, unknown> | null;
  currentVolumeAttributesClassName?: string | null;
  modifyVolumeStatus?: Record<string, unknown> | null;
}

const specOf = (o: ApiObject) => (o.spec ?? {}) as PvcSpec;
const statusOf = (o: ApiObject) => (o.status ?? {}) as PvcStatus;
const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);
const set = (v: unknown) => v !== undefined && v !== null;

function quantity(v: unknown): Quantity | undefined {
  try { return v === undefined || v === null ? undefined : quantityFromJSON(v); } catch { return undefined; }
}

/** SetDefaults_PersistentVolumeClaimSpec: a filesystem unless said otherwise. */
export function defaultClaimSpec(spec: PvcSpec): void {
  spec.volumeMode ??= 'Filesystem';
}

/** dataSource and dataSourceRef describe one thing: whichever is given fills the other. */
function normalizeDataSources(spec: PvcSpec): void {
  if (spec.dataSource && !spec.dataSourceRef) {
    const { apiGroup, kind, name } = spec.dataSource;
    spec.dataSourceRef = { ...(set(apiGroup) ? { apiGroup } : {}), kind, name };
  } else if (spec.dataSourceRef && !spec.dataSource && !spec.dataSourceRef.namespace) {
    const { apiGroup, kind, name } = spec.dataSourceRef;
    spec.dataSource = { ...(set(apiGroup) ? { apiGroup } : {}), kind, name };
  }
}

/** The only data sources the dataSource field knew before dataSourceRef existed. */
function isClaimOrSnapshot(ref: Ref): boolean {
  const group = ref.apiGroup ?? '';
  return (group === '' && ref.kind === 'PersistentVolumeClaim') || (group === 'snapshot.storage.svc.io' && ref.kind === 'VolumeSnapshot');
}

/**
 * EnforceDataSourceBackwardsCompatibility: a claim that had no data source, written by a client that does not
 * know dataSourceRef, loses any dataSource other than a claim or a snapshot (old servers ignored those).
 */
function dropLegacyDataSource(spec: PvcSpec, old: PvcSpec | undefined): void {
  if (old?.dataSource || old?.dataSourceRef || spec.dataSourceRef) return;
  if (spec.dataSource && !isClaimOrSnapshot(spec.dataSource)) delete spec.dataSource;
}

const hasEntries = (m: Record<string, unknown> | null | undefined) => !!m && Object.keys(m).length > 0;

/**
 * Recovery from a failed expansion (RecoverVolumeExpansionFailure, beta and on in v1.32): a claim may lower its
 * request again while it stays above status.capacity, and its status carries allocatedResources and
 * allocatedResourceStatuses. A claim whose status already has those keeps the rules with the gate off.
 */
function recoverFromExpansionFailure(old: ApiObject): boolean {
  const status = statusOf(old);
  return featureGates.enabled('RecoverVolumeExpansionFailure') || hasEntries(status.allocatedResources) || hasEntries(status.allocatedResourceStatuses);
}

/** Fields of disabled features are dropped unless the stored claim already uses them. */
function dropDisabledFields(spec: PvcSpec, old: PvcSpec | undefined): void {
  if (!storageFeatureGates.VolumeAttributesClass && !set(old?.volumeAttributesClassName)) delete spec.volumeAttributesClassName;
  // Cross-namespace data sources are alpha and off.
  if (spec.dataSourceRef && !old?.dataSourceRef?.namespace) delete spec.dataSourceRef.namespace;
}

function dataSourceErrors(ref: Ref, at: string, withNamespace: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(required(child(at, 'name'), ''));
  if (!ref.kind) errs.push(required(child(at, 'kind'), ''));
  const group = ref.apiGroup ?? '';
  if (!group && ref.kind !== 'PersistentVolumeClaim') errs.push(notSupported(at, ref.kind ?? '', ['PersistentVolumeClaim']));
  if (group) for (const msg of isDNS1123Subdomain(group)) errs.push(invalid(child(at, 'apiGroup'), group, msg));
  if (withNamespace && ref.namespace) for (const msg of isDNS1123Subdomain(ref.namespace)) errs.push(invalid(child(at, 'namespace'), ref.namespace, msg));
  return errs;
}

/** ValidatePersistentVolumeClaimSpec; `path` is `spec` (or a claim template's spec). */
export function claimSpecErrors(spec: PvcSpec, path: string, allowInvalidLabelValue = false): FieldError[] {
  const modes = list(spec.accessModes);
  const errs: FieldError[] = modes.length === 0 ? [required(child(path, 'accessModes'), 'at least 1 access mode is required')] : [];
  if (spec.selector) errs.push(...validateLabelSelector(spec.selector, child(path, 'selector'), { allowInvalidLabelValueInSelector: allowInvalidLabelValue }));
  if (modes.length) errs.push(...accessModeErrors(modes, child(path, 'accessModes'), ''));
  // Kubernetes names the storage request `resources[storage]`.
  const storagePath = key(child(path, 'resources'), 'storage');
  const requests = spec.resources?.requests ?? {};
  if (!Object.hasOwn(requests, 'storage')) errs.push(required(storagePath, ''));
  else {
    const q = quantity(requests.storage);
    if (q && q.cmp('0') <= 0) errs.push(invalid(storagePath, q.toString(), 'must be greater than zero'));
  }
  if (spec.storageClassName) errs.push(...classNameErrors(spec.storageClassName, child(path, 'storageClassName')));
  if (set(spec.volumeMode) && !VOLUME_MODES.includes(spec.volumeMode!)) errs.push(notSupported(child(path, 'volumeMode'), spec.volumeMode, VOLUME_MODES));
  if (spec.dataSource) errs.push(...dataSourceErrors(spec.dataSource, child(path, 'dataSource'), false));
  if (spec.dataSourceRef) errs.push(...dataSourceErrors(spec.dataSourceRef, child(path, 'dataSourceRef'), true));
  if (spec.dataSourceRef?.namespace) {
    if (spec.dataSource) errs.push(invalid(path, child(path, 'dataSource'), 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (spec.dataSource && spec.dataSourceRef) {
    const a = spec.dataSource, b = spec.dataSourceRef;
    if ((a.apiGroup ?? '') !== (b.apiGroup ?? '') || a.kind !== b.kind || a.name !== b.name) errs.push(invalid(path, child(path, 'dataSource'), 'must match dataSourceRef'));
  }
  if (spec.volumeAttributesClassName && storageFeatureGates.VolumeAttributesClass) errs.push(...classNameErrors(spec.volumeAttributesClassName, child(path, 'volumeAttributesClassName')));
  return errs;
}

/** ValidatePersistentVolumeClaimUpdate: a bound claim may change its request; volumeName is set once. */
function claimUpdateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const spec = specOf(obj), oldSpec = specOf(old);
  const errs: FieldError[] = [];
  const next = structuredClone(spec) as PvcSpec, before = structuredClone(oldSpec) as PvcSpec;
  if (!oldSpec.volumeName) before.volumeName = next.volumeName;
  // A class named by the beta annotation may move to the field, and a claim without one may gain one.
  const oldAnnotation = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
  if (oldAnnotation !== undefined && !set(oldSpec.storageClassName) && spec.storageClassName === oldAnnotation) delete next.storageClassName;
  else if (oldAnnotation === undefined && !set(oldSpec.storageClassName) && set(spec.storageClassName)) delete next.storageClassName;
  const bound = statusOf(obj).phase === 'Bound';
  if (bound && next.resources?.requests) {
    if (set(oldSpec.resources?.requests?.storage)) next.resources.requests.storage = oldSpec.resources!.requests!.storage;
    else delete next.resources.requests.storage;
  }
  if (bound && set(next.volumeAttributesClassName)) next.volumeAttributesClassName = before.volumeAttributesClassName;
  const strip = (s: PvcSpec) => JSON.parse(JSON.stringify(s, (_k, v) => (v === null ? undefined : v)));
  if (!deepEqual(strip(next), strip(before))) errs.push(forbidden('spec', 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims'));
  const oldSize = quantity(oldSpec.resources?.requests?.storage), newSize = quantity(spec.resources?.requests?.storage);
  if (oldSize && newSize && newSize.cmp(oldSize) < 0) {
    const storagePath = 'spec.resources.requests.storage';
    if (!recoverFromExpansionFailure(old)) errs.push(forbidden(storagePath, 'field can not be less than previous value'));
    // Lowering a request only undoes a failed expansion: it must stay above what the volume already has.
    else if (newSize.cmp(quantity(statusOf(old).capacity?.storage) ?? '0') <= 0) errs.push(forbidden(storagePath, 'field can not be less than status.capacity'));
  }
  if ((spec.volumeMode ?? null) !== (oldSpec.volumeMode ?? null)) errs.push(invalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  if (!deepEqual(spec.volumeAttributesClassName ?? null, oldSpec.volumeAttributesClassName ?? null)) {
    if (!storageFeatureGates.VolumeAttributesClass) errs.push(forbidden('spec.volumeAttributesClassName', 'update is forbidden when the VolumeAttributesClass feature gate is disabled'));
    else if (set(oldSpec.volumeAttributesClassName)) {
      if (!set(spec.volumeAttributesClassName)) errs.push(forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
      else if (!spec.volumeAttributesClassName) errs.push(forbidden('spec.volumeAttributesClassName', 'update from non-nil value to an empty string is forbidden'));
    }
  }
  return errs;
}

// What the resizer reports per resource while an expansion runs (PersistentVolumeClaimResizeStatus), sorted.
const RESIZE_STATUSES = ['ControllerResizeInProgress', 'ControllerResizeInfeasible', 'NodeResizeInProgress', 'NodeResizeInfeasible', 'NodeResizePending'];

/** validatePersistentVolumeClaimResourceKey: a qualified name; of the native names only `storage`. */
function resourceKeyErrors(name: string, at: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => invalid(at, name, msg));
  if (errs.length) return errs;
  const native = !name.includes('/') || name.includes('platform.io/');
  return native && name !== 'storage' ? [notSupported(at, name, ['storage'])] : [];
}

/** validateBasicResource: a quantity whose integer value (rounded away from zero) is negative. */
function negativeQuantityErrors(value: unknown, at: string): FieldError[] {
  const q = quantity(value);
  if (!q) return [];
  const whole = q.scaledValue(0);
  return whole < 0n ? [invalid(at, whole, 'must be a valid resource quantity')] : [];
}

/** ValidatePersistentVolumeClaimStatusUpdate (Kubernetes walks maps in random order; keys are sorted here). */
function claimStatusUpdateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  if (!obj.metadata.resourceVersion) errs.push(required('resourceVersion'));
  if (!list(specOf(obj).accessModes).length) errs.push(required('Spec.accessModes'));
  const status = statusOf(obj);
  const sortedEntries = (m: Record<string, unknown> | null | undefined) => Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, value] of sortedEntries(status.capacity)) errs.push(...negativeQuantityErrors(value, key('status.capacity', name)));
  if (!recoverFromExpansionFailure(old)) return errs;
  // Kubernetes names this path in the singular, and reports the key (not the value) it refuses.
  const statusesPath = 'status.allocatedResourceStatus';
  for (const [name, value] of sortedEntries(status.allocatedResourceStatuses)) {
    errs.push(...resourceKeyErrors(name, statusesPath));
    if (!RESIZE_STATUSES.includes(value as string)) errs.push(notSupported(statusesPath, name, RESIZE_STATUSES));
  }
  for (const [name, value] of sortedEntries(status.allocatedResources)) {
    const keyErrs = resourceKeyErrors(name, 'status.allocatedResources');
    if (keyErrs.length) errs.push(...keyErrs);
    else errs.push(...negativeQuantityErrors(value, key('status.allocatedResources', name)));
  }
  return errs;
}

/** DropDisabledFieldsFromStatus: status fields of disabled features, unless the stored claim has them. */
function dropDisabledStatusFields(status: PvcStatus, old: PvcStatus): void {
  if (!storageFeatureGates.VolumeAttributesClass) {
    if (!set(old.currentVolumeAttributesClassName)) delete status.currentVolumeAttributesClassName;
    if (!set(old.modifyVolumeStatus)) delete status.modifyVolumeStatus;
  }
  if (!featureGates.enabled('RecoverVolumeExpansionFailure')) {
    if (!hasEntries(old.allocatedResources)) delete status.allocatedResources;
    if (!hasEntries(old.allocatedResourceStatuses)) delete status.allocatedResourceStatuses;
  }
}

/** The storage class annotation cannot change once set. */
function classAnnotationErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const a = obj.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? '', b = old.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? '';
  return a === b ? [] : [forbidden(`metadata.annotations[${BETA_STORAGE_CLASS_ANNOTATION}]`, 'field is immutable')];
}

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  if (ctx.subresource === 'status') {
    dropDisabledStatusFields((obj.status ??= {}) as PvcStatus, statusOf(old));
    return;
  }
  const spec = (obj.spec ??= {}) as PvcSpec;
  dropDisabledFields(spec, specOf(old));
  dropLegacyDataSource(spec, specOf(old));
  normalizeDataSources(spec);
}


/** Capacity and access modes show once the claim names its volume. */
function boundCell(obj: ApiObject, pick: (s: PvcStatus) => string): string {
  return specOf(obj).volumeName ? pick(statusOf(obj)) : '';
}

export const persistentVolumeClaimKind: KindDefinition = {
  group: '',
  kind: 'PersistentVolumeClaim',
  plural: 'persistentvolumeclaims',
  singular: 'persistentvolumeclaim',
  namespaced: true,
  shortNames: ['pvc'],
  versions: [{ name: 'v1', stability: 'stable', schema: PersistentVolumeClaimSchema }],
  storageVersion: 'v1',
  deleteReturnsObject: true,
  status: {},
  trackGeneration: false,

  defaults(obj) {
    defaultClaimSpec((obj.spec ??= {}) as PvcSpec);
    const status = (obj.status ??= {}) as PvcStatus;
    if (!status.phase) status.phase = 'Pending';
  },
  prepareForCreate(obj) {
    obj.status = { phase: 'Pending' };
    const spec = specOf(obj);
    dropDisabledFields(spec, undefined);
    dropLegacyDataSource(spec, undefined);
    normalizeDataSources(spec);
  },
  prepareForUpdate,
  validate: (obj) => claimSpecErrors(specOf(obj), 'spec'),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return claimStatusUpdateErrors(obj, old);
    const hadInvalid = !!specOf(old).selector && validateLabelSelector(specOf(old).selector!, 'spec.selector').length > 0;
    return [...classAnnotationErrors(obj, old), ...claimSpecErrors(specOf(obj), 'spec', hadInvalid), ...claimUpdateErrors(obj, old)];
  },
  canonicalize(obj) {
    const spec = specOf(obj), status = statusOf(obj) as Record<string, Record<string, unknown> | undefined>;
    canonicalizeResourceList(spec.resources?.requests ?? undefined);
    canonicalizeResourceList(spec.resources?.limits ?? undefined);
    canonicalizeResourceList(status.capacity);
    canonicalizeResourceList(status.allocatedResources);
  },

  tableColumns: [
    nameColumn,
    { name: 'Status', type: 'string', description: PHASE_DESCRIPTION, cell: (o) => (o.metadata.deletionTimestamp ? 'Terminating' : statusOf(o).phase ?? '') },
    { name: 'Volume', type: 'string', description: VOLUME_NAME_DESCRIPTION, cell: (o) => specOf(o).volumeName ?? '' },
    { name: 'Capacity', type: 'string', description: CAPACITY_DESCRIPTION, cell: (o) => boundCell(o, (s) => quantity(s.capacity?.storage)?.toString() ?? '0') },
    { name: 'Access Modes', type: 'string', description: STATUS_ACCESS_MODES_DESCRIPTION, cell: (o) => boundCell(o, (s) => accessModesText(s.accessModes)) },
    { name: 'StorageClass', type: 'string', description: 'StorageClass of the pvc', cell: storageClassOf },
    { name: 'VolumeAttributesClass', type: 'string', description: 'VolumeAttributesClass of the pvc', cell: (o) => specOf(o).volumeAttributesClassName ?? '<unset>' },
    ageColumn,
    { name: 'VolumeMode', type: 'string', priority: 1, description: VOLUME_MODE_DESCRIPTION, cell: (o) => specOf(o).volumeMode ?? '<unset>' },
  ],
};
