// CSIDriver (storage.svc.io/v1, cluster-scoped): what the cluster knows of a CSI volume driver, named as
// the driver names itself. attachRequired and volumeLifecycleModes are fixed once created.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, required, notSupported, duplicate, index, child } from '../../machinery/field-errors.ts';
import { nameIsDNSSubdomain, maxLenError, byteLength } from '../../machinery/validation/strings.ts';
import { errorWithGoValue, goQuote } from '../../machinery/go-format.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { GROUP } from './common.ts';

export const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
export const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;
const MAX_NAME_LENGTH = 63;

const ATTACH_DESCRIPTION = 'attachRequired indicates this CSI volume driver requires an attach operation (because it implements the CSI ControllerPublishVolume() method), and that the attach detach controller should call the attach volume interface which checks the volumeattachment status and waits until the volume is attached before proceeding to mounting. The CSI external-attacher coordinates with CSI volume driver and updates the volumeattachment status when the attach operation is complete. If the value is specified to false, the attach operation will be skipped. Otherwise the attach operation will be called.\n\nThis field is immutable.';
const POD_INFO_DESCRIPTION = 'podInfoOnMount indicates this CSI volume driver requires additional pod information (like podName, podUID, etc.) during mount operations, if set to true. If set to false, pod information will not be passed on mount. Default is false.\n\nThe CSI driver specifies podInfoOnMount as part of driver deployment. If true, the node agent will pass pod information as VolumeContext in the CSI NodePublishVolume() calls. The CSI driver is responsible for parsing and validating the information passed in as VolumeContext.\n\nThe following VolumeContext will be passed if podInfoOnMount is set to true. This list might grow, but the prefix will be used. "csi.storage.svc.io/pod.name": pod.Name "csi.storage.svc.io/pod.namespace": pod.Namespace "csi.storage.svc.io/pod.uid": string(pod.UID) "csi.storage.svc.io/ephemeral": "true" if the volume is an ephemeral inline volume defined by a CSIVolumeSource, otherwise "false"\n\nThis field was immutable in Kubernetes < 1.29 and now is mutable.';
const CAPACITY_DESCRIPTION = 'storageCapacity indicates that the CSI volume driver wants pod scheduling to consider the storage capacity that the driver deployment will report by creating CSIStorageCapacity objects with capacity information, if set to true.\n\nThe check can be enabled immediately when deploying a driver. In that case, provisioning new volumes with late binding will pause until the driver deployment has published some suitable CSIStorageCapacity object.\n\nAlternatively, the driver can be deployed with the field unset or false and it can be flipped later when storage capacity information has been published.\n\nThis field was immutable in Kubernetes <= 1.22 and now is mutable.';
const TOKENS_DESCRIPTION = 'tokenRequests indicates the CSI driver needs pods\' service account tokens it is mounting volume for to do necessary authentication. The node agent will pass the tokens in VolumeContext in the CSI NodePublishVolume calls. The CSI driver should parse and validate the following VolumeContext: "csi.storage.svc.io/serviceAccount.tokens": {\n  "<audience>": {\n    "token": <token>,\n    "expirationTimestamp": <expiration timestamp in RFC3339>,\n  },\n  ...\n}\n\nNote: Audience in each TokenRequest should be different and at most one token is empty string. To receive a new token after expiry, RequiresRepublish can be used to trigger NodePublishVolume periodically.';
const REPUBLISH_DESCRIPTION = 'requiresRepublish indicates the CSI driver wants `NodePublishVolume` being periodically called to reflect any possible change in the mounted volume. This field defaults to false.\n\nNote: After a successful initial NodePublishVolume call, subsequent calls to NodePublishVolume should only update the contents of the volume. New mount points will not be seen by a running container.';
const MODES_DESCRIPTION = 'volumeLifecycleModes defines what kind of volumes this CSI volume driver supports. The default if the list is empty is "Persistent", which is the usage defined by the CSI specification and implemented via the usual PV/PVC mechanism.\n\nThe other mode is "Ephemeral". In this mode, volumes are defined inline inside the pod spec with CSIVolumeSource and their lifecycle is tied to the lifecycle of that pod. A driver has to be aware of this because it is only going to get a NodePublishVolume call for such a volume.\n\nA driver can support one or more of these modes and more modes may be added in the future.\n\nThis field is beta. This field is immutable.';

const CSIDriverSpec = S.object({
  attachRequired: S.bool({ proto: 1, description: ATTACH_DESCRIPTION }),
  podInfoOnMount: S.bool({ proto: 2, description: POD_INFO_DESCRIPTION }),
  volumeLifecycleModes: S.list(S.string(), { proto: 3, listType: 'set', description: MODES_DESCRIPTION }),
  storageCapacity: S.bool({ proto: 4, description: CAPACITY_DESCRIPTION }),
  fsGroupPolicy: S.string({ proto: 5, description: "fsGroupPolicy defines if the underlying volume supports changing ownership and permission of the volume before being mounted. Refer to the specific FSGroupPolicy values for additional details.\n\nThis field was immutable in Kubernetes < 1.29 and now is mutable.\n\nDefaults to ReadWriteOnceWithFSType, which will examine each volume to determine if the ownership and permissions of the volume should be modified. With the default policy the defined fsGroup will only be applied if a fstype is defined and the volume's access mode contains ReadWriteOnce." }),
  tokenRequests: S.list(S.object({
    audience: S.string({ proto: 1, default: '', description: 'audience is the intended audience of the token in "TokenRequestSpec". It will default to the audiences of the API server.' }),
    expirationSeconds: S.int64({ proto: 2, description: 'expirationSeconds is the duration of validity of the token in "TokenRequestSpec". It has the same default value of "ExpirationSeconds" in "TokenRequestSpec".' }),
  }, { ref: 'storage.v1.TokenRequest', description: 'TokenRequest contains parameters of a service account token.' }), { proto: 6, listType: 'atomic', description: TOKENS_DESCRIPTION }),
  requiresRepublish: S.bool({ proto: 7, description: REPUBLISH_DESCRIPTION }),
  seLinuxMount: S.bool({ proto: 8, description: 'seLinuxMount specifies if the CSI driver supports "-o context" mount option.\n\nWhen "true", the CSI driver must ensure that all volumes provided by this CSI driver can be mounted separately with different `-o context` options. This is typical for storage backends that provide volumes as filesystems on block devices or as independent shared volumes. The node agent will call NodeStage / NodePublish with "-o context=xyz" mount option when mounting a ReadWriteOncePod volume used in Pod that has explicitly set SELinux context. In the future, it may be expanded to other volume AccessModes. In any case, the volume is mounted only with a single SELinux context.\n\nWhen "false", no special SELinux mount options are passed to the driver. This is typical for volumes that represent subdirectories of a bigger shared filesystem.\n\nDefault is "false".' }),
}, { proto: 2, ref: 'storage.v1.CSIDriverSpec', description: 'CSIDriverSpec is the specification of a CSIDriver.' });

export const CSIDriverSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: { ...withProto(ObjectMeta, 1), description: 'Standard object metadata. metadata.Name indicates the name of the CSI driver that this object refers to; it MUST be the same name returned by the CSI GetPluginName() call for that driver. The driver name must be 63 characters or less, beginning and ending with an alphanumeric character ([a-z0-9A-Z]) with dashes (-), dots (.), and alphanumerics between. More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata' },
  spec: { ...CSIDriverSpec, description: 'spec represents the specification of the CSI Driver.' },
}, { required: ['spec'], ref: 'storage.v1.CSIDriver', description: 'CSIDriver captures information about a Container Storage Interface (CSI) volume driver deployed on the cluster. CSI drivers do not need to create the CSIDriver object directly. Instead they may use the cluster-driver-registrar sidecar container. When deployed with a CSI driver it automatically creates a CSIDriver object representing the driver. CSIDriver names must be unique. There can be only one CSIDriver object per CSI driver name.' });

interface Spec {
  attachRequired?: boolean | null;
  podInfoOnMount?: boolean | null;
  volumeLifecycleModes?: string[] | null;
  storageCapacity?: boolean | null;
  fsGroupPolicy?: string | null;
  tokenRequests?: { audience?: string; expirationSeconds?: number | null }[] | null;
  requiresRepublish?: boolean | null;
  seLinuxMount?: boolean | null;
}
const specOf = (o: ApiObject) => (o.spec ?? {}) as Spec;

/** The driver's plugin name: a DNS subdomain of at most 63 characters. */
export function csiDriverNameErrors(name: string, prefix: boolean): string[] {
  const errs = nameIsDNSSubdomain(name, prefix);
  if (byteLength(name) > MAX_NAME_LENGTH) errs.unshift(maxLenError(MAX_NAME_LENGTH));
  return errs;
}

function specErrors(spec: Spec): FieldError[] {
  const errs: FieldError[] = [];
  // Kubernetes reports attachRequired as `attachedRequired`.
  if (spec.attachRequired === undefined || spec.attachRequired === null) errs.push(required('spec.attachedRequired', ''));
  if (spec.podInfoOnMount === undefined || spec.podInfoOnMount === null) errs.push(required('spec.podInfoOnMount', ''));
  if (spec.storageCapacity === undefined || spec.storageCapacity === null) errs.push(required('spec.storageCapacity', ''));
  if (spec.fsGroupPolicy !== undefined && spec.fsGroupPolicy !== null && !FS_GROUP_POLICIES.includes(spec.fsGroupPolicy)) {
    errs.push(notSupported('spec.fsGroupPolicy', spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  const audiences = new Set<string>();
  (spec.tokenRequests ?? []).forEach((t, i) => {
    const at = index('spec.tokenRequests', i);
    const audience = t?.audience ?? '';
    if (audiences.has(audience)) { errs.push(duplicate(child(at, 'audience'), audience)); return; }
    audiences.add(audience);
    const secs = t?.expirationSeconds;
    if (typeof secs !== 'number') return;
    if (secs < MIN_TOKEN_SECONDS) errs.push(invalid(child(at, 'expirationSeconds'), secs, 'may not specify a duration less than 10 minutes'));
    if (secs > MAX_TOKEN_SECONDS) errs.push(invalid(child(at, 'expirationSeconds'), secs, 'may not specify a duration larger than 2^32 seconds'));
  });
  for (const mode of spec.volumeLifecycleModes ?? []) {
    if (!LIFECYCLE_MODES.includes(mode)) errs.push(notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  }
  if (spec.seLinuxMount === undefined || spec.seLinuxMount === null) errs.push(required('spec.seLinuxMount', ''));
  return errs;
}

const goModes = (modes: string[] | null | undefined) =>
  modes ? `[]storage.VolumeLifecycleMode{${modes.map(goQuote).join(', ')}}` : '[]storage.VolumeLifecycleMode(nil)';

function immutableErrors(spec: Spec, old: Spec): FieldError[] {
  const errs: FieldError[] = [];
  if ((spec.attachRequired ?? null) !== (old.attachRequired ?? null)) errs.push(invalid('spec.attachedRequired', spec.attachRequired ?? null, 'field is immutable'));
  if (JSON.stringify(spec.volumeLifecycleModes ?? null) !== JSON.stringify(old.volumeLifecycleModes ?? null)) {
    errs.push(errorWithGoValue('FieldValueInvalid', 'spec.volumeLifecycleModes', spec.volumeLifecycleModes, goModes(spec.volumeLifecycleModes), 'field is immutable'));
  }
  return errs;
}

export const csiDriverKind: KindDefinition = {
  group: GROUP,
  kind: 'CSIDriver',
  plural: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: CSIDriverSchema }],
  storageVersion: 'v1',
  deleteReturnsObject: true,
  nameValidation: csiDriverNameErrors,
  // Kubernetes' strategy sets no generation on create (the client's, usually none, stays) and bumps it
  // on any spec change.
  trackGeneration: false,

  defaults(obj) {
    // spec is required; when present, SetDefaults_CSIDriver fills it.
    const spec = obj.spec as Spec | undefined;
    if (!spec || typeof spec !== 'object') return;
    spec.attachRequired ??= true;
    spec.podInfoOnMount ??= false;
    spec.storageCapacity ??= false;
    spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
    if (!spec.volumeLifecycleModes?.length) spec.volumeLifecycleModes = ['Persistent'];
    spec.requiresRepublish ??= false;
    spec.seLinuxMount ??= false;
  },
  prepareForUpdate(obj, old) {
    if (!deepEqual(obj.spec, old.spec)) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
  },
  // Without a spec the schema's own `spec: Required value` says it all.
  validate: (obj) => (obj.spec ? specErrors(specOf(obj)) : []),
  validateUpdate: (obj, old) => [...specErrors(specOf(obj)), ...immutableErrors(specOf(obj), specOf(old))],

  tableColumns: [
    nameColumn,
    { name: 'AttachRequired', type: 'boolean', description: ATTACH_DESCRIPTION, cell: (o) => specOf(o).attachRequired ?? true },
    { name: 'PodInfoOnMount', type: 'boolean', description: POD_INFO_DESCRIPTION, cell: (o) => specOf(o).podInfoOnMount ?? false },
    { name: 'StorageCapacity', type: 'boolean', description: CAPACITY_DESCRIPTION, cell: (o) => specOf(o).storageCapacity ?? false },
    { name: 'TokenRequests', type: 'string', description: TOKENS_DESCRIPTION, cell: (o) => { const t = specOf(o).tokenRequests; return t ? t.map((r) => r?.audience ?? '').join(',') : '<unset>'; } },
    { name: 'RequiresRepublish', type: 'boolean', description: REPUBLISH_DESCRIPTION, cell: (o) => specOf(o).requiresRepublish ?? false },
    { name: 'Modes', type: 'string', description: MODES_DESCRIPTION, cell: (o) => (specOf(o).volumeLifecycleModes ?? []).join(',') || '<none>' },
    ageColumn,
  ],
};
