// Node (core v1, cluster-scoped): a worker machine. Unlike most kinds, a node may be created with its
// status (the node agent registers itself that way); afterwards status changes only through /status.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from './schema-helpers.ts';
import { canonicalizeResourceList } from './resource-quantity.ts';
import { validateNode, validateNodeUpdate, nodeSpec, nodeStatus, type NodeSpec, type NodeStatus } from './node-validation.ts';

export const NODE_ROLE_LABEL_PREFIX = 'node-role.platform.io/';
export const NODE_ROLE_LABEL = 'platform.io/role';

const ConfigMapNodeConfigSource = S.object({
  namespace: S.string({ proto: 1, description: 'Namespace is the metadata.namespace of the referenced ConfigMap. This field is required in all cases.' }),
  name: S.string({ proto: 2, description: 'Name is the metadata.name of the referenced ConfigMap. This field is required in all cases.' }),
  uid: S.string({ proto: 3, description: 'UID is the metadata.UID of the referenced ConfigMap. This field is forbidden in Node.Spec, and required in Node.Status.' }),
  resourceVersion: S.string({ proto: 4, description: 'ResourceVersion is the metadata.ResourceVersion of the referenced ConfigMap. This field is forbidden in Node.Spec, and required in Node.Status.' }),
  kubeletConfigKey: S.string({ proto: 5, description: 'KubeletConfigKey declares which key of the referenced ConfigMap corresponds to the node agent configuration structure. This field is required in all cases.' }),
}, { ref: 'core.v1.ConfigMapNodeConfigSource', description: 'ConfigMapNodeConfigSource contains the information to reference a ConfigMap as a config source for the Node. This API is deprecated since 1.22.' });

const NodeConfigSource = S.object({
  configMap: withProto(ConfigMapNodeConfigSource, 2),
}, { ref: 'core.v1.NodeConfigSource', description: 'NodeConfigSource specifies a source of node configuration. Exactly one subfield (excluding metadata) must be non-nil. This API is deprecated since 1.22.' });

const Taint = S.object({
  key: S.string({ proto: 1, description: 'Required. The taint key to be applied to a node.' }),
  value: S.string({ proto: 2, description: 'The taint value corresponding to the taint key.' }),
  effect: S.string({ proto: 3, description: 'Required. The effect of the taint on pods that do not tolerate the taint. Valid effects are NoSchedule, PreferNoSchedule and NoExecute.' }),
  timeAdded: S.time({ proto: 4, description: 'TimeAdded represents the time at which the taint was added.' }),
}, { ref: 'core.v1.Taint', description: 'The node this Taint is attached to has the "effect" on any pod that does not tolerate the Taint.' });

const NodeSpecSchema = S.object({
  podCIDR: S.string({ proto: 1, description: 'PodCIDR represents the pod IP range assigned to the node.' }),
  podCIDRs: S.list(S.string(), { proto: 7, listType: 'set', patchStrategy: 'merge', description: 'podCIDRs represents the IP ranges assigned to the node for usage by Pods on that node. If this field is specified, the 0th entry must match the podCIDR field. It may contain at most 1 value for each of IPv4 and IPv6.' }),
  providerID: S.string({ proto: 3, description: 'ID of the node assigned by the cloud provider in the format: <ProviderName>://<ProviderSpecificNodeID>' }),
  unschedulable: S.bool({ proto: 4, description: 'Unschedulable controls node schedulability of new pods. By default, node is schedulable.' }),
  taints: S.list(Taint, { proto: 5, listType: 'atomic', description: "If specified, the node's taints." }),
  configSource: withProto(NodeConfigSource, 6),
  externalID: S.string({ proto: 2, description: 'Deprecated. Not all node agents will set this field. Remove field after 1.13. see: https://issues.svc.io/61966' }),
}, { ref: 'core.v1.NodeSpec', description: 'NodeSpec describes the attributes that a node is created with.' });

// Go writes the strings of these items without omitempty: one left out is answered as ''.
const NodeCondition = S.object({
  type: S.string({ proto: 1, default: '', description: 'Type of node condition.' }),
  status: S.string({ proto: 2, default: '', description: 'Status of the condition, one of True, False, Unknown.' }),
  lastHeartbeatTime: S.time({ proto: 3, description: 'Last time we got an update on a given condition.' }),
  lastTransitionTime: S.time({ proto: 4, description: 'Last time the condition transit from one status to another.' }),
  reason: S.string({ proto: 5, description: "(brief) reason for the condition's last transition." }),
  message: S.string({ proto: 6, description: 'Human readable message indicating details about last transition.' }),
}, { ref: 'core.v1.NodeCondition', description: 'NodeCondition contains condition information for a node.' });

const NodeAddress = S.object({
  type: S.string({ proto: 1, default: '', description: 'Node address type, one of Hostname, ExternalIP or InternalIP.' }),
  address: S.string({ proto: 2, default: '', description: 'The node address.' }),
}, { ref: 'core.v1.NodeAddress', description: "NodeAddress contains information for the node's address." });

const NodeDaemonEndpoints = S.object({
  kubeletEndpoint: S.object({
    Port: S.int32({ proto: 1, default: 0, description: 'Port number of the given endpoint.' }),
  }, { proto: 1, ref: 'core.v1.DaemonEndpoint', description: 'DaemonEndpoint contains information about a single Daemon endpoint.' }),
}, { ref: 'core.v1.NodeDaemonEndpoints', description: 'NodeDaemonEndpoints lists ports opened by daemons running on the Node.' });

/** NodeSystemInfo; every field is always serialized (Go writes empty strings). */
const NODE_INFO_FIELDS = [
  ['machineID', 1, 'MachineID reported by the node. For unique machine identification in the cluster this field is preferred.'],
  ['systemUUID', 2, 'SystemUUID reported by the node. For unique machine identification MachineID is preferred.'],
  ['bootID', 3, 'Boot ID reported by the node.'],
  ['kernelVersion', 4, "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."],
  ['osImage', 5, 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).'],
  ['containerRuntimeVersion', 6, 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).'],
  ['kubeletVersion', 7, 'Node agent version reported by the node.'],
  ['kubeProxyVersion', 8, 'Deprecated: proxy version reported by the node; its value is not reliable.'],
  ['operatingSystem', 9, 'The Operating System reported by the node'],
  ['architecture', 10, 'The Architecture reported by the node'],
] as const;

/**
 * The catalogue names two of them by role (`nodeAgentVersion`, `proxyVersion`) where Kubernetes, and so
 * every official client, says `kubeletVersion` and `kubeProxyVersion` (the Python client refuses a Node
 * without them). Both names are served with one value; protobuf carries Kubernetes' field.
 */
const NODE_INFO_ALIASES = [
  ['nodeAgentVersion', 'kubeletVersion'],
  ['proxyVersion', 'kubeProxyVersion'],
] as const;

const NodeSystemInfo = S.object(
  Object.fromEntries([
    ...NODE_INFO_FIELDS.map(([name, proto, description]) => [name, S.string({ proto, default: '', description })]),
    ...NODE_INFO_ALIASES.map(([name, of]) => [name, S.string({ aliasOf: of, default: '', description: `The catalogue's name of ${of}: the same value.` })]),
  ]),
  { ref: 'core.v1.NodeSystemInfo', description: 'NodeSystemInfo is a set of ids/uuids to uniquely identify the node.' },
);

/**
 * Gives each aliased pair one value. An empty name is one the writer left out (a client that knows only
 * the other name, as the official clients do), so the other's value stands; when both are set and differ,
 * the one that changed from the stored object wins, and on create the catalogue's name.
 */
function alignNodeInfoAliases(obj: ApiObject, old?: ApiObject): void {
  const info = nodeStatus(obj).nodeInfo;
  if (!info) return;
  const before = old ? nodeStatus(old).nodeInfo ?? {} : undefined;
  for (const [alias, of] of NODE_INFO_ALIASES) {
    const a = info[alias] ?? '';
    const k = info[of] ?? '';
    if (a === k) continue;
    const value = !a ? k : !k ? a : before && a === (before[alias] ?? '') ? k : a;
    info[alias] = value;
    info[of] = value;
  }
}

const NodeConfigStatus = S.object({
  assigned: withProto(NodeConfigSource, 1),
  active: withProto(NodeConfigSource, 2),
  lastKnownGood: withProto(NodeConfigSource, 3),
  error: S.string({ proto: 4, description: 'Error describes any problems reconciling the Spec.ConfigSource to the Active config.' }),
}, { ref: 'core.v1.NodeConfigStatus', description: 'NodeConfigStatus describes the status of the config assigned by Node.Spec.ConfigSource.' });

const NodeRuntimeHandler = S.object({
  name: S.string({ proto: 1, description: 'Runtime handler name. Empty for the default runtime handler.' }),
  features: S.object({
    recursiveReadOnlyMounts: S.bool({ proto: 1, description: 'RecursiveReadOnlyMounts is set to true if the runtime handler supports RecursiveReadOnlyMounts.' }),
    userNamespaces: S.bool({ proto: 2, description: 'UserNamespaces is set to true if the runtime handler supports UserNamespaces, including for volumes.' }),
  }, { proto: 2, ref: 'core.v1.NodeRuntimeHandlerFeatures', description: 'NodeRuntimeHandlerFeatures is a set of features implemented by the runtime handler.' }),
}, { ref: 'core.v1.NodeRuntimeHandler', description: 'NodeRuntimeHandler is a set of runtime handler information.' });

const ADDRESSES_DESCRIPTION = "List of addresses reachable to the node. Queried from cloud provider, if available. Note: This field is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption when it is merged. Callers should instead use a full-replacement patch. Consumers should assume that addresses can change during the lifetime of a Node. However, there are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own status or consumers of the downward API (status.hostIP).";

const NodeStatusSchema = S.object({
  capacity: S.map(S.quantity(), { proto: 1, description: 'Capacity represents the total resources of a node.' }),
  allocatable: S.map(S.quantity(), { proto: 2, description: 'Allocatable represents the resources of a node that are available for scheduling. Defaults to Capacity.' }),
  phase: S.string({ proto: 3, description: 'NodePhase is the recently observed lifecycle phase of the node. The field is never populated, and now is deprecated.' }),
  conditions: S.list(NodeCondition, { proto: 4, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: 'Conditions is an array of current observed node conditions.' }),
  addresses: S.list(NodeAddress, { proto: 5, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: ADDRESSES_DESCRIPTION }),
  daemonEndpoints: withProto(NodeDaemonEndpoints, 6),
  nodeInfo: withProto(NodeSystemInfo, 7),
  images: S.list(S.object({
    names: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'Names by which this image is known.' }),
    sizeBytes: S.int64({ proto: 2, description: 'The size of the image in bytes.' }),
  }, { ref: 'core.v1.ContainerImage', description: 'Describe a container image' }), { proto: 8, listType: 'atomic', description: 'List of container images on this node' }),
  volumesInUse: S.list(S.string(), { proto: 9, listType: 'atomic', description: 'List of attachable volumes in use (mounted) by the node.' }),
  volumesAttached: S.list(S.object({
    name: S.string({ proto: 1, default: '', description: 'Name of the attached volume' }),
    devicePath: S.string({ proto: 2, default: '', description: 'DevicePath represents the device path where the volume should be available' }),
  }, { ref: 'core.v1.AttachedVolume', description: 'AttachedVolume describes a volume attached to a node' }), { proto: 10, listType: 'atomic', description: 'List of volumes that are attached to the node.' }),
  config: withProto(NodeConfigStatus, 11),
  runtimeHandlers: S.list(NodeRuntimeHandler, { proto: 12, listType: 'atomic', description: 'The available runtime handlers.' }),
  features: S.object({
    supplementalGroupsPolicy: S.bool({ proto: 1, description: 'SupplementalGroupsPolicy is set to true if the runtime supports SupplementalGroupsPolicy and ContainerUser.' }),
  }, { proto: 13, ref: 'core.v1.NodeFeatures', description: 'NodeFeatures describes the set of features implemented by the CRI implementation.' }),
}, { ref: 'core.v1.NodeStatus', description: 'NodeStatus is information about the current status of a node.' });

export const NodeSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: withProto(NodeSpecSchema, 2),
  status: withProto(NodeStatusSchema, 3),
}, { ref: 'core.v1.Node', description: 'Node is a worker node. Each node will have a unique identifier in the cache (i.e. in etcd).' });

/**
 * podCIDR and podCIDRs describe one thing: when both are given and disagree podCIDR wins (older clients
 * only know it), a lone podCIDR becomes podCIDRs, and podCIDR always reads back as podCIDRs[0].
 */
function reconcilePodCIDRs(spec: NodeSpec): void {
  const cidrs = Array.isArray(spec.podCIDRs) ? spec.podCIDRs : [];
  if (spec.podCIDR && (cidrs.length === 0 || cidrs[0] !== spec.podCIDR)) spec.podCIDRs = [spec.podCIDR];
  else if (cidrs.length > 0) spec.podCIDR = cidrs[0];
}

/** The fields Go always writes for a Node: spec, and status with daemon endpoints and system info. */
function fillZeroValues(obj: ApiObject): NodeStatus {
  obj.spec ??= {};
  const status = (obj.status ??= {}) as NodeStatus;
  const endpoints = (status.daemonEndpoints ??= {}) as { kubeletEndpoint?: { Port?: number } };
  const kubelet = (endpoints.kubeletEndpoint ??= {});
  kubelet.Port ??= 0;
  const info = (status.nodeInfo ??= {});
  for (const [name] of NODE_INFO_FIELDS) info[name] ??= '';
  for (const [name] of NODE_INFO_ALIASES) info[name] ??= '';
  return status;
}

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  if (ctx.subresource === 'status') {
    obj.spec = structuredClone(old.spec);
    alignNodeInfoAliases(obj, old);
    // Dynamic node-agent configuration is gone: status.config survives only where it already existed.
    if (!nodeStatus(old).config) delete nodeStatus(obj).config;
    return;
  }
  obj.status = structuredClone(old.status);
  if (!nodeSpec(old).configSource) delete nodeSpec(obj).configSource;
}

function statusText(obj: ApiObject): string {
  const parts: string[] = [];
  const ready = (nodeStatus(obj).conditions ?? []).filter((c) => c?.type === 'Ready').at(-1);
  parts.push(ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown');
  if (nodeSpec(obj).unschedulable) parts.push('SchedulingDisabled');
  return parts.join(',');
}

/** Roles from `node-role.platform.io/<role>` label keys and the `platform.io/role` label value. */
export function nodeRoles(obj: ApiObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(obj.metadata.labels ?? {})) {
    if (k.startsWith(NODE_ROLE_LABEL_PREFIX)) {
      const role = k.slice(NODE_ROLE_LABEL_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === NODE_ROLE_LABEL && v) {
      roles.add(v);
    }
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

function addressOf(obj: ApiObject, type: string): string {
  return (nodeStatus(obj).addresses ?? []).find((a) => a?.type === type)?.address ?? '<none>';
}

const infoOr = (obj: ApiObject, field: string) => nodeStatus(obj).nodeInfo?.[field] || '<unknown>';

export const nodeKind: KindDefinition = {
  group: '',
  kind: 'Node',
  plural: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  versions: [{ name: 'v1', stability: 'stable', schema: NodeSchema }],
  storageVersion: 'v1',
  // Kubernetes keeps nodes under the historical key prefix.
  storageResource: 'minions',
  status: {},
  trackGeneration: false,

  defaults(obj) {
    reconcilePodCIDRs(nodeSpec(obj));
    const status = fillZeroValues(obj);
    if (status.allocatable === undefined && status.capacity !== undefined) {
      // Capacity and then allocatable lead, as in Go's struct order.
      const rest = Object.entries(status).filter(([k]) => k !== 'capacity');
      for (const [k] of rest) delete status[k];
      status.allocatable = structuredClone(status.capacity);
      for (const [k, v] of rest) status[k] = v;
    }
  },
  prepareForCreate(obj) {
    // Nodes may be created with status, but not with the removed dynamic configuration.
    delete nodeSpec(obj).configSource;
    delete nodeStatus(obj).config;
    alignNodeInfoAliases(obj);
  },
  prepareForUpdate,
  validate: (obj) => validateNode(obj),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return validateNodeUpdate(obj, old, true);
    return [...validateNode(obj), ...validateNodeUpdate(obj, old, false)];
  },
  canonicalize(obj) {
    const status = nodeStatus(obj);
    canonicalizeResourceList(status.capacity);
    canonicalizeResourceList(status.allocatable);
  },

  fieldSelectors: { 'spec.unschedulable': (o) => String(!!nodeSpec(o).unschedulable) },
  tableColumns: [
    nameColumn,
    { name: 'Status', type: 'string', description: 'The status of the node', cell: statusText },
    { name: 'Roles', type: 'string', description: 'The roles of the node', cell: nodeRoles },
    ageColumn,
    { name: 'Version', type: 'string', description: 'Node agent version reported by the node.', cell: (o) => nodeStatus(o).nodeInfo?.kubeletVersion ?? '' },
    { name: 'Internal-IP', type: 'string', priority: 1, description: ADDRESSES_DESCRIPTION, cell: (o) => addressOf(o, 'InternalIP') },
    { name: 'External-IP', type: 'string', priority: 1, description: ADDRESSES_DESCRIPTION, cell: (o) => addressOf(o, 'ExternalIP') },
    { name: 'OS-Image', type: 'string', priority: 1, description: 'OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).', cell: (o) => infoOr(o, 'osImage') },
    { name: 'Kernel-Version', type: 'string', priority: 1, description: "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).", cell: (o) => infoOr(o, 'kernelVersion') },
    { name: 'Container-Runtime', type: 'string', priority: 1, description: 'ContainerRuntime Version reported by the node through runtime remote API (e.g. containerd://1.4.2).', cell: (o) => infoOr(o, 'containerRuntimeVersion') },
  ],
};
