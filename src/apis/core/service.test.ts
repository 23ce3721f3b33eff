import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serviceKind as kind } from './service.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const svc = (spec: Obj = {}, name = `svc-${++n}`): ApiObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'ns' }, spec: { ports: [{ port: 80 }], ...spec } });
const causes = async (spec: Obj) => (await rejection(h.create(svc(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));

test('declaration: services, short name svc, category all, status, columns, field selectors', () => {
  assert.equal(kind.plural, 'services');
  assert.deepEqual(kind.shortNames, ['svc']);
  assert.deepEqual(kind.categories, ['all']);
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.priority ?? 0]), [['Name', 0], ['Type', 0], ['Cluster-IP', 0], ['External-IP', 0], ['Port(s)', 0], ['Age', 0], ['Selector', 1]]);
  assert.deepEqual(Object.keys(kind.fieldSelectors!).sort(), ['spec.clusterIP', 'spec.type']);
  const spec = (kind.versions[0]!.schema as any).properties.spec.properties;
  assert.deepEqual(['ports', 'selector', 'clusterIP', 'type', 'externalIPs', 'sessionAffinity', 'loadBalancerIP', 'loadBalancerSourceRanges', 'externalName', 'externalTrafficPolicy', 'healthCheckNodePort', 'publishNotReadyAddresses', 'sessionAffinityConfig', 'ipFamilies', 'clusterIPs', 'ipFamilyPolicy', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'internalTrafficPolicy', 'trafficDistribution']
    .map((k) => spec[k]['x-proto']), [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 19, 18, 17, 20, 21, 22, 23]);
  assert.deepEqual(spec.ports['x-platform-list-map-keys'], ['port', 'protocol']);
  assert.equal(spec.ports['x-platform-patch-merge-key'], 'port');
});

test('defaults: type ClusterIP, session affinity None, port protocol TCP and target port, traffic policy, single stack IPv4', async () => {
  const o = await h.create(svc({ selector: { app: 'web' } }));
  assert.deepEqual(specOf(o), {
    ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' }, sessionAffinity: 'None', type: 'ClusterIP',
    internalTrafficPolicy: 'Cluster', ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'],
  });
  assert.deepEqual(o.status, { loadBalancer: {} });
  const named = await h.create(svc({ ports: [{ port: 80, targetPort: 'http' }] }));
  assert.equal(specOf(named).ports[0].targetPort, 'http');
});

test('defaults: externally accessible services get externalTrafficPolicy Cluster; LoadBalancer allocates node ports', async () => {
  const np = await h.create(svc({ type: 'NodePort' }));
  assert.equal(specOf(np).externalTrafficPolicy, 'Cluster');
  const lb = await h.create(svc({ type: 'LoadBalancer' }));
  assert.deepEqual([specOf(lb).externalTrafficPolicy, specOf(lb).allocateLoadBalancerNodePorts], ['Cluster', true]);
});

test('defaults: ClientIP affinity times out after 10800 seconds', async () => {
  const o = await h.create(svc({ sessionAffinity: 'ClientIP' }));
  assert.deepEqual(specOf(o).sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
  assert.deepEqual(await causes({ sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } } }), [
    'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400',
  ]);
});

test('headless services: clusterIPs [None]; without a selector RequireDualStack', async () => {
  const o = await h.create(svc({ clusterIP: 'None', ports: [] }));
  assert.deepEqual([specOf(o).clusterIPs, specOf(o).ipFamilyPolicy, specOf(o).ipFamilies], [['None'], 'RequireDualStack', ['IPv4']]);
  const sel = await h.create(svc({ clusterIP: 'None', selector: { a: 'b' } }));
  assert.equal(specOf(sel).ipFamilyPolicy, 'SingleStack');
  assert.deepEqual(await causes({ type: 'NodePort', clusterIP: 'None' }), ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"]);
});

test('ExternalName: a DNS name, no IP fields', async () => {
  const o = await h.create(svc({ type: 'ExternalName', externalName: 'example.com', ports: [] }));
  // ports is omitempty: sent empty, it is not stored (Kubernetes reads it back from etcd as nil).
  assert.deepEqual(specOf(o), { type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  assert.deepEqual(await causes({ type: 'ExternalName' }), ['spec.externalName: Required value']);
});

test('ports: required, named when several, unique names and (protocol, port) pairs, valid numbers and protocols', async () => {
  assert.deepEqual(await causes({ ports: [] }), ['spec.ports: Required value']);
  assert.deepEqual(await causes({ ports: [{ port: 80 }, { port: 81 }] }), ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']);
  assert.deepEqual(await causes({ ports: [{ port: 80, name: 'a' }, { port: 81, name: 'a' }] }), ['spec.ports[1].name: Duplicate value: "a"']);
  assert.deepEqual(await causes({ ports: [{ port: 80, name: 'a' }, { port: 80, name: 'b' }] }), [
    'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
  ]);
  assert.deepEqual(await causes({ ports: [{ port: 70000 }] }), [
    'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    'spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
  ]);
  assert.deepEqual(await causes({ ports: [{ port: 80, protocol: 'HTTP' }] }), ['spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']);
  assert.deepEqual(await causes({ ports: [{ port: 80, nodePort: 30000 }] }), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]);
});

test('type, traffic policies, source ranges and cluster IPs', async () => {
  assert.deepEqual(await causes({ type: 'Weird' }), ['spec.type: Unsupported value: "Weird": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']);
  assert.deepEqual(await causes({ externalTrafficPolicy: 'Local' }), ['spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services']);
  assert.deepEqual(await causes({ loadBalancerSourceRanges: ['10.0.0.0/8'] }), ["spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"]);
  assert.deepEqual(await causes({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.2'] }), ['spec.clusterIPs: Invalid value: []string{"10.0.0.2"}: first value must match `clusterIP`']);
  const fixed = await h.create(svc({ clusterIP: '10.0.0.10' }));
  assert.deepEqual(specOf(fixed).clusterIPs, ['10.0.0.10']);
  assert.deepEqual([kind.fieldSelectors!['spec.clusterIP']!(fixed), kind.fieldSelectors!['spec.type']!(fixed)], ['10.0.0.10', 'ClusterIP']);
});

test('updates keep the allocated cluster IP; it may not change', async () => {
  const o = await h.create(svc({ clusterIP: '10.0.0.20' }));
  const next = structuredClone(o);
  delete specOf(next).clusterIP; delete specOf(next).clusterIPs;
  assert.deepEqual(specOf(await h.update(next)).clusterIPs, ['10.0.0.20']);
  const moved = structuredClone(o); specOf(moved).clusterIP = '10.0.0.21'; specOf(moved).clusterIPs = ['10.0.0.21'];
  assert.deepEqual((await rejection(h.update(moved))).causes, ['spec.clusterIPs[0]: Invalid value: []string{"10.0.0.21"}: may not change once set']);
});

test('an update that changes clusterIP and clusterIPs both is judged as written (normalizeClusterIPs follows only a lone clusterIP change)', async () => {
  const en = await h.create(svc({ type: 'ExternalName', externalName: 'example.com' }));
  const toClusterIP = structuredClone(en);
  Object.assign(specOf(toClusterIP), { type: 'ClusterIP', externalName: undefined, clusterIP: '10.0.0.40', clusterIPs: ['10.0.0.41'] });
  assert.deepEqual((await rejection(h.update(toClusterIP))).causes, ['spec.clusterIPs: Invalid value: []string{"10.0.0.41"}: first value must match `clusterIP`']);
  const cip = await h.create(svc({ clusterIP: '10.0.0.50' }));
  const toExternalName = structuredClone(cip);
  Object.assign(specOf(toExternalName), { type: 'ExternalName', externalName: 'example.com', clusterIP: '', clusterIPs: ['10.0.0.51'] });
  assert.deepEqual((await rejection(h.update(toExternalName))).causes, ['spec.clusterIPs: Forbidden: may not be set for ExternalName services']);
  // Clearing clusterIP alone clears clusterIPs with it.
  const cleared = structuredClone(cip);
  Object.assign(specOf(cleared), { type: 'ExternalName', externalName: 'example.com', clusterIP: '' });
  assert.equal(specOf(await h.update(cleared)).clusterIPs, undefined);
});

test('status: load balancer ingress written through /status', async () => {
  const o = await h.create(svc({ type: 'LoadBalancer' }));
  assert.equal(cells(o)[3], '<pending>');
  const withLb = structuredClone(o); withLb.status = { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } };
  assert.deepEqual((await h.update(withLb)).status, { loadBalancer: {} });
  const written = await h.update(withLb, { subresource: 'status' });
  assert.equal(cells(written)[3], '203.0.113.7');
});

test('table cells as kubectl prints them', () => {
  const base = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', creationTimestamp: new Date().toISOString() } };
  const row = (spec: Obj) => cells({ ...base, spec }).slice(1, 5).concat(cells({ ...base, spec })[6]);
  assert.deepEqual(row({ type: 'ClusterIP', clusterIPs: ['10.0.0.1'], ports: [{ port: 80, protocol: 'TCP' }], selector: { b: '2', a: '1' } }), ['ClusterIP', '10.0.0.1', '<none>', '80/TCP', 'a=1,b=2']);
  assert.deepEqual(row({ type: 'NodePort', clusterIPs: ['10.0.0.2'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] }), ['NodePort', '10.0.0.2', '<none>', '80:30080/TCP,53/UDP', '<none>']);
  assert.deepEqual(row({ type: 'ExternalName', externalName: 'example.com' }), ['ExternalName', '<none>', 'example.com', '<none>', '<none>']);
  assert.deepEqual(row({ type: 'ClusterIP', clusterIPs: ['None'], externalIPs: ['1.2.3.4'] }), ['ClusterIP', 'None', '1.2.3.4', '<none>', '<none>']);
});
