// Our protobuf bytes against bytes produced independently: the messages below are written from
// Kubernetes' published generated.proto field numbers (proto2) and encoded by protobufjs, a separate
// implementation. Map entries are given in sorted key order, as Go's generated marshalers write them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import protobuf from 'protobufjs';
import { S } from '../../apis/meta/schema.ts';
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
      // The spec's names for kubeletVersion and kubeProxyVersion; the wire numbers are Kubernetes'.
      nodeInfo: { machineID: 'm', systemUUID: 's', bootID: 'b', kernelVersion: '6.1', osImage: 'os', containerRuntimeVersion: 'cr', nodeAgentVersion: 'v1.32.0', proxyVersion: '', operatingSystem: 'linux', architecture: 'amd64' },
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
  // proxyVersion "" is Go's zero value: it reads back as unset.
  const { proxyVersion: _, ...nodeInfo } = node.status.nodeInfo;
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
