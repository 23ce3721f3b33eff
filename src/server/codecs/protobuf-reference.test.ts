// Our protobuf bytes against bytes produced independently: the messages below are written from
// Kubernetes' published generated.proto field numbers (proto2) and encoded by protobufjs, a separate
// implementation. Map entries are given in sorted key order, as Go's generated marshalers write them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { S } from '../../apis/meta/schema.ts';
import { allKinds } from '../../apis/index.ts';
import { decodeProtobufObject, encodeProtobufObject, protobufWatchFrame, readProtobufWatchFrames, PROTOBUF_MAGIC } from './protobuf-objects.ts';
import { decodeMessage, encodeMessage } from './protobuf.ts';

const PROTO = `
syntax = "proto2";
package ref;

message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2; optional string contentEncoding = 3; optional string contentType = 4; }
message Time { optional int64 seconds = 1; optional int32 nanos = 2; }
message MicroTime { optional int64 seconds = 1; optional int32 nanos = 2; }
message Quantity { optional string string = 1; }
message IntOrString { optional int64 type = 1; optional int32 intVal = 2; optional string strVal = 3; }
message FieldsV1 { optional bytes Raw = 1; }
message RawExtension { optional bytes raw = 1; }
message WatchEvent { optional string type = 1; optional RawExtension object = 2; }

message OwnerReference {
  optional string kind = 1; optional string name = 3; optional string uid = 4; optional string apiVersion = 5;
  optional bool controller = 6; optional bool blockOwnerDeletion = 7;
}
message ManagedFieldsEntry {
  optional string manager = 1; optional string operation = 2; optional string apiVersion = 3; optional Time time = 4;
  optional string fieldsType = 6; optional FieldsV1 fieldsV1 = 7; optional string subresource = 8;
}
message ObjectMeta {
  optional string name = 1; optional string generateName = 2; optional string namespace = 3; optional string selfLink = 4;
  optional string uid = 5; optional string resourceVersion = 6; optional int64 generation = 7;
  optional Time creationTimestamp = 8; optional Time deletionTimestamp = 9; optional int64 deletionGracePeriodSeconds = 10;
  map<string, string> labels = 11; map<string, string> annotations = 12;
  repeated OwnerReference ownerReferences = 13; repeated string finalizers = 14; repeated ManagedFieldsEntry managedFields = 17;
}
message ListMeta { optional string selfLink = 1; optional string resourceVersion = 2; optional string continue = 3; optional int64 remainingItemCount = 4; }

message ConfigMap { optional ObjectMeta metadata = 1; map<string, string> data = 2; map<string, bytes> binaryData = 3; optional bool immutable = 4; }
message ConfigMapList { optional ListMeta metadata = 1; repeated ConfigMap items = 2; }
message Secret { optional ObjectMeta metadata = 1; map<string, bytes> data = 2; optional string type = 3; map<string, string> stringData = 4; optional bool immutable = 5; }

message Taint { optional string key = 1; optional string value = 2; optional string effect = 3; optional Time timeAdded = 4; }
message NodeSpec {
  optional string podCIDR = 1; optional string externalID = 2; optional string providerID = 3; optional bool unschedulable = 4;
  repeated Taint taints = 5; repeated string podCIDRs = 7;
}
message NodeCondition {
  optional string type = 1; optional string status = 2; optional Time lastHeartbeatTime = 3; optional Time lastTransitionTime = 4;
  optional string reason = 5; optional string message = 6;
}
message NodeAddress { optional string type = 1; optional string address = 2; }
message DaemonEndpoint { optional int32 Port = 1; }
message NodeDaemonEndpoints { optional DaemonEndpoint kubeletEndpoint = 1; }
message NodeSystemInfo {
  optional string machineID = 1; optional string systemUUID = 2; optional string bootID = 3; optional string kernelVersion = 4;
  optional string osImage = 5; optional string containerRuntimeVersion = 6; optional string kubeletVersion = 7;
  optional string kubeProxyVersion = 8; optional string operatingSystem = 9; optional string architecture = 10;
}
message ContainerImage { repeated string names = 1; optional int64 sizeBytes = 2; }
message NodeStatus {
  map<string, Quantity> capacity = 1; map<string, Quantity> allocatable = 2; optional string phase = 3;
  repeated NodeCondition conditions = 4; repeated NodeAddress addresses = 5; optional NodeDaemonEndpoints daemonEndpoints = 6;
  optional NodeSystemInfo nodeInfo = 7; repeated ContainerImage images = 8; repeated string volumesInUse = 9;
}
message Node { optional ObjectMeta metadata = 1; optional NodeSpec spec = 2; optional NodeStatus status = 3; }

message LeaseSpec {
  optional string holderIdentity = 1; optional int32 leaseDurationSeconds = 2; optional MicroTime acquireTime = 3;
  optional MicroTime renewTime = 4; optional int32 leaseTransitions = 5; optional string strategy = 6; optional string preferredHolder = 7;
}
message Lease { optional ObjectMeta metadata = 1; optional LeaseSpec spec = 2; }

message StatusCause { optional string reason = 1; optional string message = 2; optional string field = 3; }
message StatusDetails {
  optional string name = 1; optional string group = 2; optional string kind = 3; repeated StatusCause causes = 4;
  optional int32 retryAfterSeconds = 5; optional string uid = 6;
}
message Status {
  optional ListMeta metadata = 1; optional string status = 2; optional string message = 3; optional string reason = 4;
  optional StatusDetails details = 5; optional int32 code = 6;
}

message ExtraValue { repeated string items = 1; }
message UserInfo { optional string username = 1; optional string uid = 2; repeated string groups = 3; map<string, ExtraValue> extra = 4; }
message Rule { repeated string apiGroups = 1; repeated string apiVersions = 2; repeated string resources = 3; optional string scope = 4; }
message RuleWithOperations { repeated string operations = 1; optional Rule rule = 2; }
message LocalObjectReference { optional string name = 1; }
message ConfigMapVolumeSource { optional LocalObjectReference localObjectReference = 1; optional int32 defaultMode = 3; optional bool optional = 4; }
message KeyToPath { optional string key = 1; optional string path = 2; optional int32 mode = 3; }
message HostPathVolumeSource { optional string path = 1; optional string type = 2; }
message EmptyDirVolumeSource { optional string medium = 1; optional Quantity sizeLimit = 2; }
message SecretVolumeSource { optional string secretName = 1; repeated KeyToPath items = 2; optional int32 defaultMode = 3; optional bool optional = 4; }
message CMVolumeSource { optional LocalObjectReference localObjectReference = 1; repeated KeyToPath items = 2; optional int32 defaultMode = 3; optional bool optional = 4; }
message VolumeSource { optional HostPathVolumeSource hostPath = 1; optional EmptyDirVolumeSource emptyDir = 2; optional SecretVolumeSource secret = 6; optional CMVolumeSource configMap = 19; }
message Volume { optional string name = 1; optional VolumeSource volumeSource = 2; }
message ContainerPort { optional string name = 1; optional int32 hostPort = 2; optional int32 containerPort = 3; optional string protocol = 4; optional string hostIP = 5; }
message EnvVar { optional string name = 1; optional string value = 2; }
message ResourceRequirements { map<string, Quantity> limits = 1; map<string, Quantity> requests = 2; }
message VolumeMount { optional string name = 1; optional bool readOnly = 2; optional string mountPath = 3; optional string subPath = 4; }
message HTTPGetAction { optional string path = 1; optional IntOrString port = 2; optional string host = 3; optional string scheme = 4; }
message ProbeHandler { optional HTTPGetAction httpGet = 2; }
message Probe { optional ProbeHandler handler = 1; optional int32 initialDelaySeconds = 2; optional int32 timeoutSeconds = 3; optional int32 periodSeconds = 4; }
message Container {
  optional string name = 1; optional string image = 2; repeated string command = 3; repeated string args = 4; repeated ContainerPort ports = 6;
  repeated EnvVar env = 7; optional ResourceRequirements resources = 8; repeated VolumeMount volumeMounts = 9; optional Probe livenessProbe = 10;
  optional string imagePullPolicy = 14;
}
message PodSpec {
  repeated Volume volumes = 1; repeated Container containers = 2; optional string restartPolicy = 3; optional int64 terminationGracePeriodSeconds = 4;
  optional string dnsPolicy = 6; map<string, string> nodeSelector = 7; optional string serviceAccountName = 8; optional string nodeName = 10;
  optional bool hostNetwork = 11; optional bool automountServiceAccountToken = 21; optional bool enableServiceLinks = 30;
}
message PodStatus { optional string phase = 1; optional string podIP = 6; optional Time startTime = 7; }
message Pod { optional ObjectMeta metadata = 1; optional PodSpec spec = 2; optional PodStatus status = 3; }
message LabelSelectorRequirement { optional string key = 1; optional string operator = 2; repeated string values = 3; }
message LabelSelector { map<string, string> matchLabels = 1; repeated LabelSelectorRequirement matchExpressions = 2; }
message PodTemplateSpec { optional ObjectMeta metadata = 1; optional PodSpec spec = 2; }
message RollingUpdateDeployment { optional IntOrString maxUnavailable = 1; optional IntOrString maxSurge = 2; }
message DeploymentStrategy { optional string type = 1; optional RollingUpdateDeployment rollingUpdate = 2; }
message DeploymentSpec {
  optional int32 replicas = 1; optional LabelSelector selector = 2; optional PodTemplateSpec template = 3; optional DeploymentStrategy strategy = 4;
  optional int32 minReadySeconds = 5; optional int32 revisionHistoryLimit = 6; optional bool paused = 7; optional int32 progressDeadlineSeconds = 9;
}
message DeploymentCondition {
  optional string type = 1; optional string status = 2; optional string reason = 4; optional string message = 5;
  optional Time lastUpdateTime = 6; optional Time lastTransitionTime = 7;
}
message DeploymentStatus {
  optional int64 observedGeneration = 1; optional int32 replicas = 2; optional int32 updatedReplicas = 3; optional int32 availableReplicas = 4;
  optional int32 unavailableReplicas = 5; repeated DeploymentCondition conditions = 6; optional int32 readyReplicas = 7; optional int32 collisionCount = 8;
}
message Deployment { optional ObjectMeta metadata = 1; optional DeploymentSpec spec = 2; optional DeploymentStatus status = 3; }
message Scalars { optional IntOrString port = 1; optional IntOrString target = 2; optional int32 offset = 3; optional double ratio = 4; optional int64 big = 5; }
`;

const root = protobuf.parse(PROTO, { keepCase: true }).root;

function reference(type: string, value: Record<string, unknown>): Uint8Array {
  const t = root.lookupType(`ref.${type}`);
  return t.encode(t.fromObject(value)).finish();
}

/** magic + Unknown around a reference message, as the spec describes the envelope. */
function referenceEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const unknown = reference('Unknown', { typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' });
  return Uint8Array.from([...PROTOBUF_MAGIC, ...unknown]);
}

const seconds = (iso: string) => Date.parse(iso) / 1000;
const T1 = '2024-05-06T07:08:09Z';
const T2 = '1969-07-20T20:17:40Z';
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function assertSameBytes(ours: Uint8Array, theirs: Uint8Array, what: string): void {
  assert.equal(hex(ours), hex(theirs), what);
}

test('ConfigMap: full metadata (managed fields, labels, unicode annotations), data, binaryData, immutable=false', () => {
  const fields = { 'f:data': { '.': {}, 'f:a': {} } };
  const cm = {
    apiVersion: 'v1', kind: 'ConfigMap',
    metadata: {
      name: 'game-config', namespace: 'default', uid: '0c7e2e35-5d0b-4c53-9f0a-0d6d2a8b9c11', resourceVersion: '42',
      creationTimestamp: T1,
      labels: { tier: 'backend', app: 'game' },
      annotations: { 'note/😀': 'ü ✓ 🚀', 'a.b/c': '' },
      managedFields: [{ manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: fields }],
    },
    data: { 'game.properties': 'enemies=aliens\nlives=3', b: '', a: 'x' },
    binaryData: { bin: 'AAEC/w==' },
    immutable: false,
  };
  const raw = reference('ConfigMap', {
    metadata: {
      name: 'game-config', namespace: 'default', uid: '0c7e2e35-5d0b-4c53-9f0a-0d6d2a8b9c11', resourceVersion: '42',
      creationTimestamp: { seconds: seconds(T1), nanos: 0 },
      labels: { app: 'game', tier: 'backend' },
      annotations: { 'a.b/c': '', 'note/😀': 'ü ✓ 🚀' },
      managedFields: [{ manager: 'kubectl-create', operation: 'Update', apiVersion: 'v1', time: { seconds: seconds(T1), nanos: 0 }, fieldsType: 'FieldsV1', fieldsV1: { Raw: Buffer.from(JSON.stringify(fields)) } }],
    },
    data: { a: 'x', b: '', 'game.properties': 'enemies=aliens\nlives=3' },
    binaryData: { bin: Buffer.from([0, 1, 2, 255]) },
    immutable: false,
  });
  const expected = referenceEnvelope('v1', 'ConfigMap', raw);
  assertSameBytes(encodeProtobufObject(cm), expected, 'ConfigMap');
  assert.equal(hex(expected.subarray(0, 4)), '6b387300');
  assert.deepEqual(decodeProtobufObject(expected), cm);
});

test('Secret: owner references, finalizers, deletion fields, generation, type and immutable', () => {
  const secret = {
    apiVersion: 'v1', kind: 'Secret',
    metadata: {
      name: 'tls', namespace: 'web', generateName: 'tls-', generation: 3,
      deletionTimestamp: T2, deletionGracePeriodSeconds: 0,
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u-1', controller: true, blockOwnerDeletion: false }],
      finalizers: ['example.com/keep', 'other'],
    },
    data: { 'tls.key': 'a2V5', 'tls.crt': 'Y2VydA==', empty: '' },
    type: 'platform.io/tls',
    immutable: true,
  };
  const raw = reference('Secret', {
    metadata: {
      name: 'tls', generateName: 'tls-', namespace: 'web', generation: 3,
      deletionTimestamp: { seconds: seconds(T2), nanos: 0 }, deletionGracePeriodSeconds: 0,
      ownerReferences: [{ kind: 'ReplicaSet', name: 'rs', uid: 'u-1', apiVersion: 'apps/v1', controller: true, blockOwnerDeletion: false }],
      finalizers: ['example.com/keep', 'other'],
    },
    data: { empty: Buffer.alloc(0), 'tls.crt': Buffer.from('cert'), 'tls.key': Buffer.from('key') },
    type: 'platform.io/tls',
    immutable: true,
  });
  const expected = referenceEnvelope('v1', 'Secret', raw);
  assertSameBytes(encodeProtobufObject(secret), expected, 'Secret');
  assert.deepEqual(decodeProtobufObject(expected), secret);
});

test('Node: taints with times, quantity maps, conditions, addresses, daemon endpoint, node info, images', () => {
  const node = {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: 'n1', labels: { 'platform.io/hostname': 'n1' } },
    spec: {
      podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24', 'fd00::/64'], providerID: 'kind://n1', unschedulable: true,
      taints: [{ key: 'k', value: 'v', effect: 'NoSchedule', timeAdded: T1 }, { key: 'only', effect: 'NoExecute' }],
    },
    status: {
      capacity: { memory: '8Gi', cpu: '4', pods: '110' },
      allocatable: { cpu: '3500m', memory: '7Gi' },
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: T1, lastTransitionTime: T2, reason: 'Ready', message: 'ok' }],
      addresses: [{ type: 'InternalIP', address: '10.1.2.3' }, { type: 'Hostname', address: 'n1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      // As served: Kubernetes' fields and the catalogue's names of two of them; only Kubernetes' travel.
      nodeInfo: {
        machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6.1', osImage: 'os', containerRuntimeVersion: 'cr', kubeletVersion: 'v1.32.0', kubeProxyVersion: '',
        operatingSystem: 'linux', architecture: 'amd64', nodeAgentVersion: 'v1.32.0', proxyVersion: '',
      },
      images: [{ names: ['registry/img:1', 'registry/img@sha256:00'], sizeBytes: 2 ** 40 + 7 }],
      volumesInUse: ['v1'],
    },
  };
  const raw = reference('Node', {
    metadata: { name: 'n1', labels: { 'platform.io/hostname': 'n1' } },
    spec: {
      podCIDR: '10.0.0.0/24', providerID: 'kind://n1', unschedulable: true,
      taints: [{ key: 'k', value: 'v', effect: 'NoSchedule', timeAdded: { seconds: seconds(T1), nanos: 0 } }, { key: 'only', effect: 'NoExecute' }],
      podCIDRs: ['10.0.0.0/24', 'fd00::/64'],
    },
    status: {
      capacity: { cpu: { string: '4' }, memory: { string: '8Gi' }, pods: { string: '110' } },
      allocatable: { cpu: { string: '3500m' }, memory: { string: '7Gi' } },
      conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: { seconds: seconds(T1), nanos: 0 }, lastTransitionTime: { seconds: seconds(T2), nanos: 0 }, reason: 'Ready', message: 'ok' }],
      addresses: [{ type: 'InternalIP', address: '10.1.2.3' }, { type: 'Hostname', address: 'n1' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: { machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6.1', osImage: 'os', containerRuntimeVersion: 'cr', kubeletVersion: 'v1.32.0', kubeProxyVersion: '', operatingSystem: 'linux', architecture: 'amd64' },
      images: [{ names: ['registry/img:1', 'registry/img@sha256:00'], sizeBytes: 2 ** 40 + 7 }],
      volumesInUse: ['v1'],
    },
  });
  const expected = referenceEnvelope('v1', 'Node', raw);
  assertSameBytes(encodeProtobufObject(node), expected, 'Node');
  // kubeProxyVersion "" is Go's zero value: it reads back as unset; the catalogue's names are not on the wire.
  const { kubeProxyVersion: _, nodeAgentVersion: _a, proxyVersion: _p, ...nodeInfo } = node.status.nodeInfo;
  assert.deepEqual(decodeProtobufObject(expected), { ...node, status: { ...node.status, nodeInfo } });
});

test('Lease: MicroTime keeps microseconds; a zero int32 is written (proto2 presence)', () => {
  const lease = {
    apiVersion: 'coordination.svc.io/v1', kind: 'Lease',
    metadata: { name: 'l', namespace: 'kube-system' },
    spec: { holderIdentity: 'me', leaseDurationSeconds: 15, acquireTime: '2024-05-06T07:08:09.123456Z', renewTime: '2024-05-06T07:08:10.000001Z', leaseTransitions: 0 },
  };
  const raw = reference('Lease', {
    metadata: { name: 'l', namespace: 'kube-system' },
    spec: {
      holderIdentity: 'me', leaseDurationSeconds: 15,
      acquireTime: { seconds: seconds(T1), nanos: 123456000 }, renewTime: { seconds: seconds(T1) + 1, nanos: 1000 }, leaseTransitions: 0,
    },
  });
  const expected = referenceEnvelope('coordination.svc.io/v1', 'Lease', raw);
  assertSameBytes(encodeProtobufObject(lease), expected, 'Lease');
  assert.deepEqual(decodeProtobufObject(expected), lease);
});

test('ConfigMapList: list metadata and items without their own type', () => {
  const list = {
    apiVersion: 'v1', kind: 'ConfigMapList',
    metadata: { resourceVersion: '77', continue: 'tok', remainingItemCount: 5 },
    items: [{ metadata: { name: 'a' }, data: { k: 'v' } }, { metadata: { name: 'b' } }],
  };
  const raw = reference('ConfigMapList', { metadata: { resourceVersion: '77', continue: 'tok', remainingItemCount: 5 }, items: [{ metadata: { name: 'a' }, data: { k: 'v' } }, { metadata: { name: 'b' } }] });
  const expected = referenceEnvelope('v1', 'ConfigMapList', raw);
  assertSameBytes(encodeProtobufObject(list), expected, 'ConfigMapList');
  assert.deepEqual(decodeProtobufObject(expected), list);
});

test('Status with details, causes and retryAfterSeconds', () => {
  const st = {
    apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'configmaps "x" not found', reason: 'NotFound',
    details: { name: 'x', kind: 'configmaps', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'data[a]' }], retryAfterSeconds: 2 },
    code: 404,
  };
  const raw = reference('Status', {
    metadata: {}, status: 'Failure', message: 'configmaps "x" not found', reason: 'NotFound',
    details: { name: 'x', kind: 'configmaps', causes: [{ reason: 'FieldValueInvalid', message: 'bad', field: 'data[a]' }], retryAfterSeconds: 2 },
    code: 404,
  });
  const expected = referenceEnvelope('v1', 'Status', raw);
  assertSameBytes(encodeProtobufObject(st), expected, 'Status');
  assert.deepEqual(decodeProtobufObject(expected), st);
});

test('watch frame: 4-byte big-endian length, then a bare WatchEvent whose object holds the enveloped object', () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w', resourceVersion: '9' }, data: { a: 'b' } };
  const embedded = referenceEnvelope('v1', 'ConfigMap', reference('ConfigMap', { metadata: { name: 'w', resourceVersion: '9' }, data: { a: 'b' } }));
  const event = reference('WatchEvent', { type: 'MODIFIED', object: { raw: embedded } });
  const frame = protobufWatchFrame('MODIFIED', cm);
  assert.equal(new DataView(frame.buffer, frame.byteOffset).getUint32(0), event.length);
  assertSameBytes(frame.subarray(4), event, 'WatchEvent');
  const twoFrames = Uint8Array.from([...frame, ...protobufWatchFrame('DELETED', cm)]);
  assert.deepEqual(readProtobufWatchFrames(twoFrames), [{ type: 'MODIFIED', object: cm }, { type: 'DELETED', object: cm }]);
});

test('the body kubectl sends for `create configmap` (every Go zero value written) reads as the object meant', () => {
  const raw = reference('ConfigMap', {
    metadata: { name: 'x', generateName: '', namespace: '', selfLink: '', uid: '', resourceVersion: '', generation: 0, creationTimestamp: {} },
    data: { a: 'b' },
  });
  assert.deepEqual(decodeProtobufObject(referenceEnvelope('v1', 'ConfigMap', raw)), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } });
});

test('IntOrString both ways, negative int32, double and int64; a list inside a map travels wrapped (ExtraValue)', () => {
  const scalars = S.object({
    port: S.intOrString({ proto: 1 }), target: S.intOrString({ proto: 2 }), offset: S.int32({ proto: 3 }), ratio: S.number({ proto: 4 }), big: S.int64({ proto: 5 }),
  });
  const value = { port: 8080, target: '50%', offset: -7, ratio: 0.1, big: -(2 ** 50) };
  const expected = reference('Scalars', { port: { type: 0, intVal: 8080, strVal: '' }, target: { type: 1, intVal: 0, strVal: '50%' }, offset: -7, ratio: 0.1, big: -(2 ** 50) });
  assertSameBytes(encodeMessage(value, scalars), expected, 'Scalars');
  assert.deepEqual(decodeMessage(expected, scalars), value);

  const userInfo = S.object({
    username: S.string({ proto: 1 }), uid: S.string({ proto: 2 }), groups: S.list(S.string(), { proto: 3 }), extra: S.map(S.list(S.string()), { proto: 4 }),
  });
  const user = { username: 'jane', groups: ['a', 'b'], extra: { scopes: ['x', 'y'], empty: [] } };
  const userBytes = reference('UserInfo', { username: 'jane', groups: ['a', 'b'], extra: { empty: { items: [] }, scopes: { items: ['x', 'y'] } } });
  assertSameBytes(encodeMessage(user, userInfo), userBytes, 'UserInfo');
  assert.deepEqual(decodeMessage(userBytes, userInfo), user);
});

test('malformed bodies are refused with apimachinery texts', () => {
  assert.throws(() => decodeProtobufObject(Buffer.from('{"kind":"ConfigMap"}')), { message: 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]' });
  const cm = encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
  assert.throws(() => decodeProtobufObject(cm.subarray(0, cm.length - 3)), { message: 'unexpected EOF' });
  const wrongWire = referenceEnvelope('v1', 'ConfigMap', Uint8Array.of(0x08, 0x01));
  assert.throws(() => decodeProtobufObject(wrongWire), { message: 'proto: wrong wireType = 0 for field metadata' });
  assert.throws(() => decodeProtobufObject(referenceEnvelope('v9', 'Nope', new Uint8Array())), { message: 'no kind "Nope" is registered for version "v9"' });
});

test('structs Go inlines in JSON travel nested (x-proto-embedded): a webhook rule, a volume source reference', () => {
  const embedded = <T extends object>(schema: T, outer: number | number[]): T => ({ ...schema, 'x-proto-embedded': outer });
  const rule = S.object({
    operations: S.list(S.string(), { proto: 1 }),
    apiGroups: embedded(S.list(S.string(), { proto: 1 }), 2),
    apiVersions: embedded(S.list(S.string(), { proto: 2 }), 2),
    resources: embedded(S.list(S.string(), { proto: 3 }), 2),
    scope: embedded(S.string({ proto: 4 }), 2),
  });
  const value = { operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/status'], scope: 'Namespaced' };
  const expected = reference('RuleWithOperations', { operations: ['CREATE', 'UPDATE'], rule: { apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'pods/status'], scope: 'Namespaced' } });
  assertSameBytes(encodeMessage(value, rule), expected, 'RuleWithOperations');
  assert.deepEqual(decodeMessage(expected, rule), value);
  // Nothing of the inlined struct set: it is left out (a reader sees the same zero struct).
  assert.deepEqual(decodeMessage(encodeMessage({ operations: ['*'] }, rule), rule), { operations: ['*'] });

  const source = S.object({ name: embedded(S.string({ proto: 1 }), 1), defaultMode: S.int32({ proto: 3 }), optional: S.bool({ proto: 4 }) });
  const cmVolume = { name: 'settings', defaultMode: 420, optional: false };
  const cmExpected = reference('ConfigMapVolumeSource', { localObjectReference: { name: 'settings' }, defaultMode: 420, optional: false });
  assertSameBytes(encodeMessage(cmVolume, source), cmExpected, 'ConfigMapVolumeSource');
  assert.deepEqual(decodeMessage(cmExpected, source), cmVolume);
});

const podKind = allKinds().find((k) => k.group === '' && k.kind === 'Pod');

test('Pod with volumes: inlined volume sources, probes with IntOrString ports, quantities, proto2 zero values', { skip: !podKind && 'no Pod kind in this tree' }, () => {
  const pod = {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      volumes: [
        { name: 'config', configMap: { name: 'settings', items: [{ key: 'a', path: 'a.txt', mode: 0o400 }], defaultMode: 420, optional: false } },
        { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '64Mi' } },
        { name: 'creds', secret: { secretName: 'db', defaultMode: 256 } },
        { name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
      ],
      containers: [{
        name: 'app', image: 'registry/app:1', command: ['/bin/app'], args: ['--port', '8080'],
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        env: [{ name: 'MODE', value: 'prod' }, { name: 'EMPTY', value: '' }],
        resources: { limits: { memory: '128Mi', cpu: '500m' }, requests: { cpu: '250m' } },
        volumeMounts: [{ name: 'config', mountPath: '/etc/app', readOnly: true }, { name: 'scratch', mountPath: '/tmp', subPath: 'x' }],
        livenessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, initialDelaySeconds: 0, periodSeconds: 10 },
        imagePullPolicy: 'IfNotPresent',
      }, {
        name: 'sidecar', image: 'registry/side:2',
        livenessProbe: { httpGet: { path: '/', port: 9000 }, timeoutSeconds: 1 },
      }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst',
      nodeSelector: { zone: 'b', disk: 'ssd' }, serviceAccountName: 'default', nodeName: 'n1',
      hostNetwork: false, automountServiceAccountToken: false, enableServiceLinks: true,
    },
    status: { phase: 'Running', podIP: '10.0.0.7', startTime: T1 },
  };
  const raw = reference('Pod', {
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      volumes: [
        { name: 'config', volumeSource: { configMap: { localObjectReference: { name: 'settings' }, items: [{ key: 'a', path: 'a.txt', mode: 0o400 }], defaultMode: 420, optional: false } } },
        { name: 'scratch', volumeSource: { emptyDir: { medium: 'Memory', sizeLimit: { string: '64Mi' } } } },
        { name: 'creds', volumeSource: { secret: { secretName: 'db', defaultMode: 256 } } },
        { name: 'host', volumeSource: { hostPath: { path: '/var/log', type: 'Directory' } } },
      ],
      containers: [{
        name: 'app', image: 'registry/app:1', command: ['/bin/app'], args: ['--port', '8080'],
        ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
        env: [{ name: 'MODE', value: 'prod' }, { name: 'EMPTY', value: '' }],
        resources: { limits: { cpu: { string: '500m' }, memory: { string: '128Mi' } }, requests: { cpu: { string: '250m' } } },
        volumeMounts: [{ name: 'config', readOnly: true, mountPath: '/etc/app' }, { name: 'scratch', mountPath: '/tmp', subPath: 'x' }],
        livenessProbe: { handler: { httpGet: { path: '/healthz', port: { type: 1, intVal: 0, strVal: 'http' }, scheme: 'HTTP' } }, initialDelaySeconds: 0, periodSeconds: 10 },
        imagePullPolicy: 'IfNotPresent',
      }, {
        name: 'sidecar', image: 'registry/side:2',
        livenessProbe: { handler: { httpGet: { path: '/', port: { type: 0, intVal: 9000, strVal: '' } } }, timeoutSeconds: 1 },
      }],
      restartPolicy: 'Always', terminationGracePeriodSeconds: 30, dnsPolicy: 'ClusterFirst',
      nodeSelector: { disk: 'ssd', zone: 'b' }, serviceAccountName: 'default', nodeName: 'n1',
      hostNetwork: false, automountServiceAccountToken: false, enableServiceLinks: true,
    },
    status: { phase: 'Running', podIP: '10.0.0.7', startTime: { seconds: seconds(T1), nanos: 0 } },
  });
  const expected = referenceEnvelope('v1', 'Pod', raw);
  assertSameBytes(encodeProtobufObject(pod), expected, 'Pod');
  // Env values are strings: "" reads back as unset, as Go's zero value.
  const decoded = decodeProtobufObject(expected) as typeof pod;
  assert.deepEqual(decoded.spec.containers[0].env, [{ name: 'MODE', value: 'prod' }, { name: 'EMPTY' }]);
  (decoded.spec.containers[0] as { env?: unknown }).env = pod.spec.containers[0].env;
  // Zeros of non-pointer omitempty fields read back as unset, as Go's JSON omits them.
  const { initialDelaySeconds: _delay, ...probe } = pod.spec.containers[0].livenessProbe;
  const { hostNetwork: _host, ...spec } = pod.spec;
  assert.deepEqual(decoded, { ...pod, spec: { ...spec, containers: [{ ...pod.spec.containers[0], livenessProbe: probe }, pod.spec.containers[1]] } });
});

const deploymentKind = allKinds().find((k) => k.kind === 'Deployment' && k.versions.some((v) => v.name === 'v1'));

test('Deployment: replicas 0 kept (a pointer in Go), rolling update IntOrStrings, selector, template, status', { skip: !deploymentKind && 'no Deployment kind in this tree' }, () => {
  const apiVersion = `${deploymentKind!.group}/v1`;
  const deployment = {
    apiVersion, kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', generation: 4 },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
      minReadySeconds: 0, revisionHistoryLimit: 10, paused: false, progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 4, replicas: 0, readyReplicas: 0,
      conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok', lastUpdateTime: T1, lastTransitionTime: T2 }],
    },
  };
  const raw = reference('Deployment', {
    metadata: { name: 'web', namespace: 'default', generation: 4 },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: { type: 1, intVal: 0, strVal: '25%' }, maxSurge: { type: 0, intVal: 1, strVal: '' } } },
      minReadySeconds: 0, revisionHistoryLimit: 10, paused: false, progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 4, replicas: 0, readyReplicas: 0,
      conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'ok', lastUpdateTime: { seconds: seconds(T1), nanos: 0 }, lastTransitionTime: { seconds: seconds(T2), nanos: 0 } }],
    },
  });
  const expected = referenceEnvelope(apiVersion, 'Deployment', raw);
  assertSameBytes(encodeProtobufObject(deployment), expected, 'Deployment');
  // Zeros of non-pointer omitempty fields read back as unset, as Go's JSON omits them; replicas is a pointer.
  const { minReadySeconds: _min, paused: _paused, ...spec } = deployment.spec;
  const { replicas: _replicas, readyReplicas: _ready, ...status } = deployment.status;
  assert.deepEqual(decodeProtobufObject(expected), { ...deployment, spec, status });
});
