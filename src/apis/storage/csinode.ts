// CSINode (storage.svc.io/v1, cluster-scoped): the CSI drivers installed on one node, named as the node
// and written by its node agent. A driver's entry never changes once registered.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, required, duplicate, index, child } from '../../machinery/field-errors.ts';
import { isQualifiedName } from '../../machinery/validation/strings.ts';
import { csiDriverNameErrors } from '../core/persistentvolume-sources.ts';
import { errorWithGoValue, goQuote, goStringSlice, goStruct, goPointer } from '../../machinery/go-format.ts';
import { GROUP } from './common.ts';

/** Node IDs may be this long (the API server allows long IDs since 1.22). */
const MAX_NODE_ID = 256;

const CSINodeDriver = S.object({
  name: S.string({ proto: 1, default: '', description: 'name represents the name of the CSI driver that this object refers to. This MUST be the same name returned by the CSI GetPluginName() call for that driver.' }),
  nodeID: S.string({ proto: 2, default: '', description: 'nodeID of the node from the driver point of view. This field enables the cluster to communicate with storage systems that do not share the same nomenclature for nodes. For example, the cluster may refer to a given node as "node1", but the storage system may refer to the same node as "nodeA". When a volume is attached to a specific node, this field is used to refer to the node name using the ID that the storage system will understand, e.g. "nodeA" instead of "node1". This field is required.' }),
  topologyKeys: S.list(S.string(), { proto: 3, listType: 'atomic', description: 'topologyKeys is the list of keys supported by the driver. When a driver is initialized on a cluster, it provides a set of topology keys that it understands (e.g. "company.com/zone", "company.com/region"). When a driver is initialized on a node, it provides the same topology keys along with values. The node agent will expose these topology keys as labels on its own node object. When the cluster does topology aware provisioning, it can use this list to determine which labels it should retrieve from the node object and pass back to the driver. It is possible for different nodes to use different topology keys. This can be empty if driver does not support topology.' }),
  allocatable: S.object({
    count: S.int32({ proto: 1, description: 'count indicates the maximum number of unique volumes managed by the CSI driver that can be used on a node. A volume that is both attached and mounted on a node is considered to be used once, not twice. The same rule applies for a unique volume that is shared among multiple pods on the same node. If this field is not specified, then the supported number of volumes on this node is unbounded.' }),
  }, { proto: 4, ref: 'storage.v1.VolumeNodeResources', description: 'allocatable represents the volume resources of a node that are available for scheduling. This field is beta.' }),
}, { ref: 'storage.v1.CSINodeDriver', description: 'CSINodeDriver holds information about the specification of one CSI driver installed on a node' });

export const CSINodeSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: { ...withProto(ObjectMeta, 1), description: 'Standard object\'s metadata. metadata.name must be the node\'s name.' },
  spec: S.object({
    drivers: S.list(CSINodeDriver, { proto: 1, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'drivers is a list of information of all CSI Drivers existing on a node. If all drivers in the list are uninstalled, this can become empty.' }),
  }, { proto: 2, ref: 'storage.v1.CSINodeSpec', description: 'spec is the specification of CSINode' }),
}, { required: ['spec'], ref: 'storage.v1.CSINode', description: 'CSINode holds information about all CSI drivers installed on a node. CSI drivers do not need to create the CSINode object directly. As long as they use the node-driver-registrar sidecar container, the node agent will automatically populate the CSINode object for the CSI driver as part of node agent plugin registration. CSINode has the same name as a node. If the object is missing, it means either there are no CSI Drivers available on the node, or the node agent version is low enough that it doesn\'t create this object. CSINode has an OwnerReference that points to the corresponding node object.' });

interface Driver { name?: string; nodeID?: string; topologyKeys?: string[]; allocatable?: { count?: number | null } | null }
const driversOf = (o: ApiObject): Driver[] => {
  const d = (o.spec as { drivers?: Driver[] } | undefined)?.drivers;
  return Array.isArray(d) ? d : [];
};

function driverErrors(driver: Driver, names: Set<string>, at: string): FieldError[] {
  const errs = csiDriverNameErrors(driver.name ?? '', child(at, 'name'));
  const nodeID = driver.nodeID ?? '';
  if (!nodeID) errs.push(required(child(at, 'nodeID'), ''));
  if (nodeID.length > MAX_NODE_ID) errs.push(invalid(child(at, 'nodeID'), nodeID, `must be ${MAX_NODE_ID} characters or less`));
  const count = driver.allocatable?.count;
  if (typeof count === 'number' && count < 0) errs.push(invalid(child(at, 'allocatable.count'), count, 'must be greater than or equal to 0'));
  if (names.has(driver.name ?? '')) errs.push(duplicate(child(at, 'name'), driver.name ?? ''));
  names.add(driver.name ?? '');
  // Kubernetes reports topology key problems on the driver entry.
  const keys = new Set<string>();
  for (const key of driver.topologyKeys ?? []) {
    if (!key) errs.push(required(at, ''));
    if (keys.has(key)) errs.push(duplicate(at, key));
    keys.add(key);
    for (const msg of isQualifiedName(key)) errs.push(invalid(at, key, msg));
  }
  return errs;
}

function validate(obj: ApiObject): FieldError[] {
  const names = new Set<string>();
  return driversOf(obj).flatMap((d, i) => driverErrors(d ?? {}, names, index('spec.drivers', i)));
}

/** The driver as Go's %#v prints it (a set pointer shows a stand-in address). */
function goDriver(d: Driver): string {
  return goStruct('storage.CSINodeDriver', [
    ['Name', goQuote(d.name ?? '')],
    ['NodeID', goQuote(d.nodeID ?? '')],
    ['TopologyKeys', goStringSlice(Array.isArray(d.topologyKeys) ? d.topologyKeys : undefined)],
    ['Allocatable', goPointer('storage.VolumeNodeResources', !!d.allocatable)],
  ]);
}

/** A registered driver's entry is fixed: the node agent replaces it by removing and adding it. */
function updateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const before of driversOf(old)) {
    for (const after of driversOf(obj)) {
      if (before?.name !== after?.name || JSON.stringify(before) === JSON.stringify(after)) continue;
      errs.push(errorWithGoValue('FieldValueInvalid', 'spec.drivers', after, goDriver(after), 'field is immutable'));
    }
  }
  return errs;
}

export const csiNodeKind: KindDefinition = {
  group: GROUP,
  kind: 'CSINode',
  plural: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: CSINodeSchema }],
  storageVersion: 'v1',
  deleteReturnsObject: true,
  trackGeneration: false,
  // Node agents update with the version they read (Kubernetes' strategy refuses an update without one).
  allowUnconditionalUpdate: false,

  validate,
  validateUpdate: (obj, old) => [...validate(obj), ...updateErrors(obj, old)],

  tableColumns: [
    nameColumn,
    { name: 'Drivers', type: 'integer', description: 'Drivers indicates the number of CSI drivers registered on the node', cell: (o) => driversOf(o).length },
    ageColumn,
  ],
};
