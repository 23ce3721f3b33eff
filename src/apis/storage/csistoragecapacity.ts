// CSIStorageCapacity (storage.svc.io/v1, namespaced): the capacity a CSI driver reports for one storage
// class in one topology segment. The segment and the class are fixed once created.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject, LabelSelectorT } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { nameColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid } from '../../machinery/field-errors.ts';
import { nameIsDNSSubdomain, isValidLabelValue } from '../../machinery/validation/strings.ts';
import { validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { deprecatedNodeLabelMessage } from '../core/node-label-warnings.ts';
import { warnWhenValid } from '../warnings.ts';
import { GROUP } from './common.ts';

const CLASS_DESCRIPTION = 'storageClassName represents the name of the StorageClass that the reported capacity applies to. It must meet the same requirements as the name of a StorageClass object (non-empty, DNS subdomain). If that object no longer exists, the CSIStorageCapacity object is obsolete and should be removed by its creator. This field is immutable.';
const CAPACITY_DESCRIPTION = 'capacity is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.\n\nThe semantic is currently (CSI spec 1.2) defined as: The available capacity, in bytes, of the storage that can be used to provision volumes. If not set, that information is currently unavailable.';

export const CSIStorageCapacitySchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: { ...withProto(ObjectMeta, 1), description: 'Standard object\'s metadata. The name has no particular meaning. It must be a DNS subdomain (dots allowed, 253 characters). To ensure that there are no conflicts with other CSI drivers on the cluster, the recommendation is to use csisc-<uuid>, a generated name, or a reverse-domain name which ends with the unique CSI driver name.\n\nObjects are namespaced.\n\nMore info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata' },
  nodeTopology: { ...LabelSelector, 'x-proto': 2, description: 'nodeTopology defines which nodes have access to the storage for which capacity was reported. If not set, the storage is not accessible from any node in the cluster. If empty, the storage is accessible from all nodes. This field is immutable.' },
  storageClassName: S.string({ proto: 3, default: '', description: CLASS_DESCRIPTION }),
  capacity: S.quantity({ proto: 4, description: CAPACITY_DESCRIPTION }),
  maximumVolumeSize: S.quantity({ proto: 5, description: 'maximumVolumeSize is the value reported by the CSI driver in its GetCapacityResponse for a GetCapacityRequest with topology and parameters that match the previous fields.\n\nThis is defined since CSI spec 1.4.0 as the largest size that may be used in a CreateVolumeRequest.capacity_range.required_bytes field to create a volume with the same parameters as those in GetCapacityRequest. The corresponding value in the API is ResourceRequirements.Requests in a volume claim.' }),
}, { ref: 'storage.v1.CSIStorageCapacity', description: 'CSIStorageCapacity stores the result of one CSI GetCapacity call. For a given StorageClass, this describes the available capacity in a particular topology segment.  This can be used when considering where to instantiate new PersistentVolumes.\n\nFor example this can express things like: - StorageClass "standard" has "1234 GiB" available in "topology.platform.io/zone=us-east1" - StorageClass "localssd" has "10 GiB" available in "platform.io/hostname=knode-abc123"\n\nThe following three cases all imply that no capacity is available for a certain combination: - no object exists with suitable topology and storage class name - such an object exists, but the capacity is unset - such an object exists, but the capacity is zero\n\nThe producer of these objects can decide which approach is more suitable.\n\nThey are consumed by the scheduler when a CSI driver opts into capacity-aware scheduling with CSIDriverSpec.StorageCapacity. The scheduler compares the MaximumVolumeSize against the requested size of pending volumes to filter out unsuitable nodes. If MaximumVolumeSize is unset, it falls back to a comparison against the less precise Capacity. If that is also unset, the scheduler assumes that capacity is insufficient and tries some other node.' });

interface Capacity { nodeTopology?: Partial<LabelSelectorT> | null; storageClassName?: string; capacity?: unknown; maximumVolumeSize?: unknown }
const cap = (o: ApiObject) => o as unknown as Capacity;

function validate(obj: ApiObject, allowInvalidLabelValue: boolean): FieldError[] {
  const c = cap(obj);
  const errs: FieldError[] = [];
  if (c.nodeTopology) errs.push(...validateLabelSelector(c.nodeTopology, 'nodeTopology', { allowInvalidLabelValueInSelector: allowInvalidLabelValue }));
  for (const msg of nameIsDNSSubdomain(c.storageClassName ?? '', false)) errs.push(invalid('storageClassName', c.storageClassName ?? '', msg));
  if (c.capacity !== undefined && c.capacity !== null) {
    try {
      const q = quantityFromJSON(c.capacity);
      if (q.isNegative()) errs.push(invalid('capacity', q.toString(), 'must be greater than or equal to 0'));
    } catch { /* refused while decoding */ }
  }
  return errs;
}

function updateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const a = cap(obj), b = cap(old);
  const errs: FieldError[] = [];
  if (JSON.stringify(a.nodeTopology ?? null) !== JSON.stringify(b.nodeTopology ?? null)) errs.push(invalid('nodeTopology', a.nodeTopology ?? null, 'field is immutable'));
  if ((a.storageClassName ?? '') !== (b.storageClassName ?? '')) errs.push(invalid('storageClassName', a.storageClassName ?? '', 'field is immutable'));
  return errs;
}

/** GetWarningsForCSIStorageCapacity: deprecated node labels in the topology selector. */
export function csiStorageCapacityWarnings(obj: ApiObject): string[] {
  const topology = cap(obj).nodeTopology;
  if (!topology) return [];
  const warnings: string[] = [];
  (Array.isArray(topology.matchExpressions) ? topology.matchExpressions : []).forEach((e, i) => {
    const note = deprecatedNodeLabelMessage(e?.key ?? '');
    if (note) warnings.push(`nodeTopology.matchExpressions[${i}].key: ${e.key} is ${note}`);
  });
  for (const label of Object.keys(topology.matchLabels ?? {})) {
    const note = deprecatedNodeLabelMessage(label);
    if (note) warnings.push(`nodeTopology.matchLabels.${label}: ${note}`);
  }
  return warnings;
}

const hasInvalidValue = (o: ApiObject) => (cap(o).nodeTopology?.matchExpressions ?? []).some((e) => (e?.values ?? []).some((v) => isValidLabelValue(v).length > 0));

export const csiStorageCapacityKind: KindDefinition = {
  group: GROUP,
  kind: 'CSIStorageCapacity',
  plural: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  versions: [{ name: 'v1', stability: 'stable', schema: CSIStorageCapacitySchema }],
  storageVersion: 'v1',
  trackGeneration: false,
  // An update names the version it read (Kubernetes' strategy refuses an update without one).
  allowUnconditionalUpdate: false,

  validate: (obj, ctx) => warnWhenValid(validate(obj, false), ctx, () => csiStorageCapacityWarnings(obj)),
  validateUpdate: (obj, old, ctx) => warnWhenValid([...validate(obj, hasInvalidValue(old)), ...updateErrors(obj, old)], ctx, () => csiStorageCapacityWarnings(obj)),

  tableColumns: [
    nameColumn,
    { name: 'StorageClassName', type: 'string', description: CLASS_DESCRIPTION, cell: (o) => cap(o).storageClassName ?? '' },
    { name: 'Capacity', type: 'string', description: CAPACITY_DESCRIPTION, cell: (o) => (cap(o).capacity === undefined || cap(o).capacity === null ? '<unset>' : String(cap(o).capacity)) },
  ],
};
