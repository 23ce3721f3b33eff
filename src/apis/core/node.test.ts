import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeKind as kind } from './node.ts';
import type { RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { fieldErrorText, type FieldError } from '../../machinery/field-errors.ts';

const ctx = (subresource = ''): RequestContext => ({ user: { username: 'u', groups: [] }, version: 'v1', subresource, dryRun: false, warnings: [] });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const node = (spec?: Record<string, unknown>, status?: Record<string, unknown>, meta: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', ...meta }, ...(spec ? { spec } : {}), ...(status ? { status } : {}),
});
const valid = (obj: ApiObject) => texts(kind.validate!(obj, ctx()));
const update = (obj: ApiObject, old: ApiObject, sub = '') => texts(kind.validateUpdate!(obj, old, ctx(sub)));

test('declaration: core v1, cluster-scoped, short name no, status sub-resource, stored under minions', () => {
  assert.equal(kind.kind, 'Node');
  assert.equal(kind.plural, 'nodes');
  assert.equal(kind.singular, 'node');
  assert.equal(kind.namespaced, false);
  assert.deepEqual(kind.shortNames, ['no']);
  assert.deepEqual(kind.status, {});
  assert.equal(kind.storageResource, 'minions');
  assert.equal(kind.trackGeneration, false);
});

test('defaults: the structs Go always writes', () => {
  const obj = node();
  kind.defaults!(obj);
  assert.deepEqual(obj.spec, {});
  assert.deepEqual(obj.status, {
    daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
    nodeInfo: {
      machineID: '', systemUUID: '', bootID: '', kernelVersion: '', osImage: '', containerRuntimeVersion: '', kubeletVersion: '', kubeProxyVersion: '',
      operatingSystem: '', architecture: '', nodeAgentVersion: '', proxyVersion: '',
    },
  });
  const partial = node({}, { daemonEndpoints: { kubeletEndpoint: { Port: 10250 } }, nodeInfo: { nodeAgentVersion: 'v1.32.0' } });
  kind.defaults!(partial);
  assert.equal((partial.status as { daemonEndpoints: { kubeletEndpoint: { Port: number } } }).daemonEndpoints.kubeletEndpoint.Port, 10250);
  assert.equal((partial.status as { nodeInfo: Record<string, string> }).nodeInfo.nodeAgentVersion, 'v1.32.0');
});

test('defaults: allocatable copies capacity when absent', () => {
  const obj = node({}, { capacity: { cpu: '4', memory: '8Gi' } });
  kind.defaults!(obj);
  assert.deepEqual((obj.status as Record<string, unknown>).allocatable, { cpu: '4', memory: '8Gi' });
  // Go's struct order: capacity, then allocatable, whatever else the writer sent first.
  const ordered = node({}, { addresses: [], capacity: { cpu: '4' } });
  kind.defaults!(ordered);
  assert.deepEqual(Object.keys(ordered.status!).slice(0, 3), ['capacity', 'allocatable', 'addresses']);
  const own = node({}, { capacity: { cpu: '4' }, allocatable: { cpu: '3500m' } });
  kind.defaults!(own);
  assert.deepEqual((own.status as Record<string, unknown>).allocatable, { cpu: '3500m' });
  const empty = node({}, { capacity: { cpu: '4' }, allocatable: {} });
  kind.defaults!(empty);
  assert.deepEqual((empty.status as Record<string, unknown>).allocatable, {});
});

test('defaults: podCIDR and podCIDRs agree, podCIDR winning a disagreement', () => {
  const only = node({ podCIDR: '10.0.1.0/24' });
  kind.defaults!(only);
  assert.deepEqual(only.spec, { podCIDR: '10.0.1.0/24', podCIDRs: ['10.0.1.0/24'] });
  const list = node({ podCIDRs: ['10.0.1.0/24', 'fd00::/64'] });
  kind.defaults!(list);
  assert.deepEqual(list.spec, { podCIDR: '10.0.1.0/24', podCIDRs: ['10.0.1.0/24', 'fd00::/64'] });
  const clash = node({ podCIDR: '10.0.2.0/24', podCIDRs: ['10.0.1.0/24', 'fd00::/64'] });
  kind.defaults!(clash);
  assert.deepEqual(clash.spec, { podCIDR: '10.0.2.0/24', podCIDRs: ['10.0.2.0/24'] });
});

test('create keeps status but drops the removed dynamic configuration', () => {
  const obj = node({ configSource: { configMap: { name: 'c' } }, unschedulable: true }, { capacity: { cpu: '1' }, config: { error: 'x' } });
  kind.prepareForCreate!(obj, ctx());
  assert.deepEqual(obj.spec, { unschedulable: true });
  assert.deepEqual(obj.status, { capacity: { cpu: '1' } });
});

test('main update keeps status; configSource only where it already was', () => {
  const old = node({}, { capacity: { cpu: '1' } });
  const obj = node({ unschedulable: true, configSource: { configMap: { name: 'c' } } }, { capacity: { cpu: '99' } });
  kind.prepareForUpdate!(obj, old, ctx());
  assert.deepEqual(obj.status, { capacity: { cpu: '1' } });
  assert.deepEqual(obj.spec, { unschedulable: true });
  const had = node({ configSource: { configMap: { name: 'd' } } });
  kind.prepareForUpdate!(had, node({ configSource: { configMap: { name: 'c' } } }), ctx());
  assert.deepEqual(had.spec, { configSource: { configMap: { name: 'd' } } });
});

test('status update keeps spec; status.config only where it already was', () => {
  const old = node({ unschedulable: true }, {});
  const obj = node({ unschedulable: false }, { capacity: { cpu: '2' }, config: { error: 'e' } });
  kind.prepareForUpdate!(obj, old, ctx('status'));
  assert.deepEqual(obj.spec, { unschedulable: true });
  assert.deepEqual(obj.status, { capacity: { cpu: '2' } });
  const had = node({}, { config: { error: 'new' } });
  kind.prepareForUpdate!(had, node({}, { config: { error: 'old' } }), ctx('status'));
  assert.deepEqual(had.status, { config: { error: 'new' } });
});

test('a typical node agent registration is valid', () => {
  const obj = node({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], providerID: 'aws:///eu-west-1a/i-0abc', taints: [{ key: 'node-role.platform.io/control-plane', effect: 'NoSchedule' }] }, {
    capacity: { cpu: '4', memory: '16Gi', pods: '110', 'example.com/gpu': '2' },
    conditions: [{ type: 'Ready', status: 'True' }],
    addresses: [{ type: 'InternalIP', address: '10.0.0.5' }, { type: 'Hostname', address: 'n1' }],
  });
  kind.defaults!(obj);
  assert.deepEqual(valid(obj), []);
});

test('taints: key, value and effect rules, reported under metadata.taints', () => {
  assert.deepEqual(valid(node({ taints: [{ key: 'k', value: 'v' }] })), ['metadata.taints[0].effect: Required value']);
  assert.deepEqual(valid(node({ taints: [{ key: 'k', effect: 'NoDance' }] })), [
    'metadata.taints[0].effect: Unsupported value: "NoDance": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
  ]);
  const keyErrs = valid(node({ taints: [{ key: '', effect: 'NoSchedule' }] }));
  assert.equal(keyErrs[0], 'metadata.taints[0].key: Invalid value: "": name part must be non-empty');
  assert.match(keyErrs[1], /^metadata\.taints\[0\]\.key: Invalid value: "": name part must consist of alphanumeric characters/);
  const valueErrs = valid(node({ taints: [{ key: 'k', value: 'bad value', effect: 'NoExecute' }] }));
  assert.equal(valueErrs.length, 1);
  assert.match(valueErrs[0], /^metadata\.taints\[0\]\.value: Invalid value: "bad value": a valid label must be an empty string/);
});

test('taints are unique by key and effect', () => {
  assert.deepEqual(valid(node({ taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', effect: 'NoExecute' }] })), []);
  assert.deepEqual(valid(node({ taints: [{ key: 'k', value: 'a', effect: 'NoSchedule' }, { key: 'k', value: 'b', effect: 'NoSchedule' }] })), [
    'metadata.taints[1]: Duplicate value: core.Taint{Key:"k", Value:"b", Effect:"NoSchedule", TimeAdded:(*v1.Time)(nil)}: taints must be unique by key and effect pair',
  ]);
});

test('podCIDRs: valid CIDRs, one per family, no duplicates', () => {
  assert.deepEqual(valid(node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64'] })), []);
  assert.deepEqual(valid(node({ podCIDRs: ['10.0.0.0/33'] })), ['spec.podCIDRs[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']);
  assert.deepEqual(valid(node({ podCIDRs: ['10.0.0.0/24', '10.1.0.0/24'] })), [
    'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family',
  ]);
  assert.deepEqual(valid(node({ podCIDRs: ['10.0.0.0/24', 'fd00::/64', '10.1.0.0/24'] })), [
    'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "fd00::/64", "10.1.0.0/24"}: may specify no more than one CIDR for each IP family',
  ]);
  assert.deepEqual(valid(node({ podCIDRs: ['10.0.0.0/24', '10.0.0.0/24'] })), [
    'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "10.0.0.0/24"}: may specify no more than one CIDR for each IP family',
    'spec.podCIDRs[1]: Duplicate value: "10.0.0.0/24"',
  ]);
  assert.deepEqual(valid(node({ podCIDRs: ['10.0.0.0/24', 'nope'] })), [
    'spec.podCIDRs[1]: Invalid value: "nope": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    'spec.podCIDRs: Internal error: invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[1]: <nil> (invalid CIDR address: nope)',
    'spec.podCIDRs: Invalid value: []string{"10.0.0.0/24", "nope"}: may specify no more than one CIDR for each IP family',
  ]);
});

test('capacity and allocatable: not negative, whole numbers for countable resources', () => {
  assert.deepEqual(valid(node({}, { capacity: { cpu: '-1' } })), ['status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0']);
  assert.deepEqual(valid(node({}, { allocatable: { pods: '1500m' } })), ['status.allocatable.pods: Invalid value: "1500m": must be an integer']);
  assert.deepEqual(valid(node({}, { capacity: { 'example.com/gpu': '0.5' } })), ['status.capacity.example.com/gpu: Invalid value: "500m": must be an integer']);
  assert.deepEqual(valid(node({}, { capacity: { cpu: '1500m', 'hugepages-2Mi': '0', 'platform.io/batch': '0.5' } })), []);
});

test('the preferAvoidPods annotation must hold valid entries', () => {
  const key = 'scheduler.alpha.platform.io/preferAvoidPods';
  assert.deepEqual(valid(node({}, undefined, { annotations: { [key]: '{' } })), [
    'metadata.annotations.AvoidPods: Invalid value: "scheduler.alpha.platform.io/preferAvoidPods": unexpected end of JSON input',
  ]);
  assert.deepEqual(valid(node({}, undefined, { annotations: { [key]: '[]' } })), [
    'metadata.annotations.AvoidPods: Invalid value: "scheduler.alpha.platform.io/preferAvoidPods": json: cannot unmarshal array into Go value of type v1.AvoidPods',
  ]);
  const entries = JSON.stringify({ preferAvoidPods: [{ podSignature: {} }, { podSignature: { podController: { kind: 'ReplicaSet', controller: false } } }, { podSignature: { podController: { controller: true } } }] });
  assert.deepEqual(valid(node({}, undefined, { annotations: { [key]: entries } })), [
    'metadata.annotations.scheduler.alpha.platform.io/preferAvoidPods[0].PodSignature: Required value',
    'metadata.annotations.scheduler.alpha.platform.io/preferAvoidPods[1].PodSignature.PodController.Controller: Invalid value: false: must point to a controller',
  ]);
});

test('update: pod CIDRs may only be assigned once', () => {
  assert.deepEqual(update(node({ podCIDRs: ['10.0.0.0/24'] }), node({})), []);
  assert.deepEqual(update(node({ podCIDRs: ['10.0.1.0/24'] }), node({ podCIDRs: ['10.0.0.0/24'] })), [
    'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
  ]);
  assert.deepEqual(update(node({}), node({ podCIDRs: ['10.0.0.0/24'] })), [
    'spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid',
  ]);
});

test('update: providerID may only be set once; externalID never changes', () => {
  assert.deepEqual(update(node({ providerID: 'p://1' }), node({})), []);
  assert.deepEqual(update(node({ providerID: 'p://2' }), node({ providerID: 'p://1' })), [
    'spec.providerID: Forbidden: node updates may not change providerID except from "" to valid',
  ]);
  assert.deepEqual(update(node({ externalID: 'x' }), node({})), ['spec.externalID: Forbidden: may not be updated']);
});

test('update: addresses must not repeat', () => {
  const st = { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '10.0.0.1' }] };
  assert.deepEqual(update(node({}, st), node({}), 'status'), [
    'status.addresses[2]: Duplicate value: core.NodeAddress{Type:"InternalIP", Address:"10.0.0.1"}',
  ]);
  assert.deepEqual(update(node({}, { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'InternalIP', address: '10.0.0.2' }] }), node({}), 'status'), []);
});

test('update: spec.configSource names a config map without uid or resourceVersion', () => {
  const ok = { configMap: { namespace: 'kube-system', name: 'cfg', kubeletConfigKey: 'kubelet' } };
  assert.deepEqual(update(node({ configSource: ok }), node({ configSource: ok })), []);
  assert.deepEqual(update(node({ configSource: {} }), node({})), [
    'spec.configSource: Invalid value: core.NodeConfigSource{ConfigMap:(*core.ConfigMapNodeConfigSource)(nil)}: exactly one reference subfield must be non-nil',
  ]);
  assert.deepEqual(update(node({ configSource: { configMap: { uid: 'u', resourceVersion: '1' } } }), node({})), [
    'spec.configSource.configMap.uid: Forbidden: uid must not be set in spec',
    'spec.configSource.configMap.resourceVersion: Forbidden: resourceVersion must not be set in spec',
    'spec.configSource.configMap.namespace: Required value: namespace must be set',
    'spec.configSource.configMap.name: Required value: name must be set',
    'spec.configSource.configMap.kubeletConfigKey: Required value: kubeletConfigKey must be set',
  ]);
  const bad = texts(kind.validateUpdate!(node({ configSource: { configMap: { namespace: 'Bad', name: 'cfg', kubeletConfigKey: 'a b' } } }), node({}), ctx()));
  assert.equal(bad.length, 2);
  assert.match(bad[0], /^spec\.configSource\.configMap\.namespace: Invalid value: "Bad": a lowercase RFC 1123 label/);
  assert.match(bad[1], /^spec\.configSource\.configMap\.kubeletConfigKey: Invalid value: "a b": a valid config key/);
});

test('update: status.config sources name what was used, with uid and resourceVersion', () => {
  const used = { configMap: { namespace: 'kube-system', name: 'cfg', kubeletConfigKey: 'k', uid: 'u', resourceVersion: '7' } };
  assert.deepEqual(update(node({}, { config: { active: used, assigned: used } }), node({}), 'status'), []);
  assert.deepEqual(update(node({}, { config: { lastKnownGood: { configMap: { namespace: 'kube-system', name: 'cfg', kubeletConfigKey: 'k' } } } }), node({}), 'status'), [
    'status.config.lastKnownGood.configMap.uid: Required value: uid must be set in status',
    'status.config.lastKnownGood.configMap.resourceVersion: Required value: resourceVersion must be set in status',
  ]);
});

test('main updates run the node checks once; status updates run them too', () => {
  const badTaint = { taints: [{ key: 'k', effect: 'Nope' }] };
  const unsupported = 'metadata.taints[0].effect: Unsupported value: "Nope": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"';
  assert.deepEqual(update(node(badTaint), node({})), [unsupported]);
  assert.deepEqual(update(node(badTaint, { capacity: { pods: '-1' } }), node({}), 'status'), [
    'status.capacity.pods: Invalid value: "-1": must be greater than or equal to 0',
    unsupported,
  ]);
});

test('capacity and allocatable are stored rounded up to milli precision, canonical', () => {
  const obj = node({}, { capacity: { cpu: '1000m', memory: '1024Ki', 'example.com/x': '0.0001' }, allocatable: { cpu: 0.5, pods: '110' } });
  kind.canonicalize!(obj);
  const status = obj.status as Record<string, unknown>;
  assert.deepEqual(status.capacity, { cpu: '1', memory: '1Mi', 'example.com/x': '1m' });
  assert.deepEqual(status.allocatable, { cpu: '500m', pods: '110' });
});

test('field selector spec.unschedulable', () => {
  assert.equal(kind.fieldSelectors!['spec.unschedulable'](node({ unschedulable: true })), 'true');
  assert.equal(kind.fieldSelectors!['spec.unschedulable'](node()), 'false');
});

test('table: columns and wide columns as kubectl shows them', () => {
  const cols = kind.tableColumns!;
  assert.deepEqual(cols.map((c) => [c.name, c.priority ?? 0]), [
    ['Name', 0], ['Status', 0], ['Roles', 0], ['Age', 0], ['Version', 0],
    ['Internal-IP', 1], ['External-IP', 1], ['OS-Image', 1], ['Kernel-Version', 1], ['Container-Runtime', 1],
  ]);
  const obj = node({ unschedulable: true }, {
    conditions: [{ type: 'MemoryPressure', status: 'False' }, { type: 'Ready', status: 'True' }],
    addresses: [{ type: 'Hostname', address: 'n1' }, { type: 'InternalIP', address: '10.0.0.5' }],
    nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0' },
  }, { labels: { 'node-role.platform.io/worker': '', 'node-role.platform.io/control-plane': '', 'platform.io/role': 'edge', 'node-role.platform.io/': 'x' }, creationTimestamp: new Date(Date.now() - 4 * 86400_000).toISOString() });
  assert.deepEqual(cols.map((c) => c.cell(obj)), [
    'n1', 'Ready,SchedulingDisabled', 'control-plane,edge,worker', '4d', 'v1.32.0',
    '10.0.0.5', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.1.0', 'containerd://1.7.0',
  ]);
  const bare = node();
  kind.defaults!(bare);
  assert.deepEqual(cols.map((c) => c.cell(bare)).filter((_, i) => i !== 3), ['n1', 'Unknown', '<none>', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  assert.equal(cols[1].cell(node({}, { conditions: [{ type: 'Ready', status: 'Unknown' }] })), 'NotReady');
});

test('schema carries Kubernetes protobuf field numbers', () => {
  type S = Record<string, unknown> & { properties?: Record<string, S>; items?: S };
  const props = (kind.versions[0].schema as unknown as S).properties!;
  assert.deepEqual([props.metadata, props.spec, props.status].map((p) => p['x-proto']), [1, 2, 3]);
  const spec = props.spec.properties!;
  assert.deepEqual(['podCIDR', 'externalID', 'providerID', 'unschedulable', 'taints', 'configSource', 'podCIDRs'].map((f) => spec[f]['x-proto']), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(spec.configSource.properties!.configMap['x-proto'], 2);
  assert.equal(spec.taints.items!.properties!.timeAdded['x-proto'], 4);
  const status = props.status.properties!;
  assert.deepEqual(['capacity', 'allocatable', 'phase', 'conditions', 'addresses', 'daemonEndpoints', 'nodeInfo', 'images', 'volumesInUse', 'volumesAttached', 'config', 'runtimeHandlers', 'features'].map((f) => status[f]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  assert.equal(status.nodeInfo.properties!.kubeletVersion['x-proto'], 7);
  assert.equal(status.nodeInfo.properties!.kubeProxyVersion['x-proto'], 8);
  assert.equal(status.nodeInfo.properties!.nodeAgentVersion['x-alias-of'], 'kubeletVersion');
  assert.equal(status.nodeInfo.properties!.proxyVersion['x-alias-of'], 'kubeProxyVersion');
  assert.equal(status.nodeInfo.properties!.architecture['x-proto'], 10);
  assert.equal(status.addresses['x-platform-patch-merge-key'], 'type');
  assert.equal(spec.podCIDRs['x-platform-list-type'], 'set');
});

test('node info: Kubernetes\' kubeletVersion and kubeProxyVersion and the catalogue\'s names for them carry one value', () => {
  const info = (o: ApiObject) => (o.status as { nodeInfo: Record<string, string> }).nodeInfo;
  const pair = (o: ApiObject) => [info(o).kubeletVersion, info(o).nodeAgentVersion, info(o).kubeProxyVersion, info(o).proxyVersion];
  const created = (nodeInfo: Record<string, string>) => {
    const obj = node({}, { nodeInfo });
    kind.defaults!(obj);
    kind.prepareForCreate!(obj, ctx());
    return obj;
  };
  // Either name on create fills the other; when both are given and differ, the catalogue's wins.
  assert.deepEqual(pair(created({ kubeletVersion: 'v1.32.0', kubeProxyVersion: 'v1.31.0' })), ['v1.32.0', 'v1.32.0', 'v1.31.0', 'v1.31.0']);
  assert.deepEqual(pair(created({ nodeAgentVersion: 'v1.32.1', proxyVersion: 'p' })), ['v1.32.1', 'v1.32.1', 'p', 'p']);
  assert.deepEqual(pair(created({ kubeletVersion: 'a', nodeAgentVersion: 'b' })), ['b', 'b', '', '']);
  const stored = created({ kubeletVersion: 'v1', kubeProxyVersion: 'v1' });
  const statusUpdate = (nodeInfo: Record<string, string>) => {
    const obj = node({}, { nodeInfo });
    kind.defaults!(obj);
    kind.prepareForUpdate!(obj, stored, ctx('status'));
    return obj;
  };
  // A writer that knows one name (the official clients drop the other) changes both.
  assert.deepEqual(pair(statusUpdate({ kubeletVersion: 'v2', kubeProxyVersion: 'v1' })), ['v2', 'v2', 'v1', 'v1']);
  assert.deepEqual(pair(statusUpdate({ nodeAgentVersion: 'v3', proxyVersion: 'v3' })), ['v3', 'v3', 'v3', 'v3']);
  // Both sent, one of them as stored: the changed one wins, whichever name it is.
  assert.deepEqual(pair(statusUpdate({ kubeletVersion: 'v4', nodeAgentVersion: 'v1', kubeProxyVersion: 'v1', proxyVersion: 'v5' })), ['v4', 'v4', 'v5', 'v5']);
});
