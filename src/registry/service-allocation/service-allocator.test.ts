import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStorage } from '../../storage/sqlite.ts';
import { ResourceStore } from '../store.ts';
import { serviceKind } from '../../apis/core/service.ts';
import { requestContext } from '../../apis/kind-harness.ts';
import { StatusError } from '../../machinery/status.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { ServiceAllocator } from './service-allocator.ts';
import { parseServiceIPRange } from './ip-range.ts';
import { parsePortRange } from './port-range.ts';

type Obj = Record<string, any>;
let storage: SqliteStorage;
let allocator: ServiceAllocator;
let store: ResourceStore;

// A small range keeps the bitmaps easy to read: 10.9.0.1-10.9.0.14 and ports 30000-30019.
before(async () => {
  storage = SqliteStorage.open(':memory:');
  // The free-value scan starts at the lowest offset: a test's requested values are never taken by chance.
  allocator = new ServiceAllocator({ storage, ipRange: parseServiceIPRange('10.9.0.0/28'), portRange: parsePortRange('30000-30019'), random: () => 0 });
  store = new ResourceStore(serviceKind, storage, undefined, allocator.hooks());
  await store.cache.start();
});
after(async () => { store.cache.stop(); await storage.close(); });

const svc = (name: string, spec: Obj = {}): ApiObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } });
const create = async (obj: ApiObject, dryRun = false) => (await store.create('ns', obj, { ctx: requestContext(), dryRun })).object;
const update = async (name: string, change: (o: Obj) => void, dryRun = false) => (await store.update('ns', (cur) => { const o = structuredClone(cur) as Obj; delete o.metadata.resourceVersion; change(o); return o as ApiObject; }, { ctx: requestContext(), dryRun, subresource: '', allowCreate: false, name })).object;
const remove = (name: string) => store.delete('ns', name, { ctx: requestContext(), dryRun: false });
const failure = async (p: Promise<unknown>) => { try { await p; } catch (err) { assert.ok(err instanceof StatusError); return [err.code, err.message]; } assert.fail('no error'); };
const spec = (o: ApiObject) => o.spec as Obj;

test('create: a free address and node ports, or the requested ones; conflicts and ranges refused as Kubernetes words them', async () => {
  const a = await create(svc('a'));
  assert.deepEqual([spec(a).clusterIPs, spec(a).ipFamilies, spec(a).ipFamilyPolicy], [[spec(a).clusterIP], ['IPv4'], 'SingleStack']);
  assert.ok(allocator.ipRange.offsetOf(spec(a).clusterIP) !== undefined);
  const b = await create(svc('b', { clusterIP: '10.9.0.5', type: 'NodePort', ports: [{ name: 'tcp', port: 53, nodePort: 30005 }, { name: 'udp', port: 53, protocol: 'UDP' }, { name: 'web', port: 80 }] }));
  const ports = spec(b).ports.map((p: Obj) => p.nodePort);
  assert.deepEqual(ports.slice(0, 2), [30005, 30005], 'TCP and UDP on one port share the node port');
  assert.ok(ports[2] >= 30000 && ports[2] <= 30019 && ports[2] !== 30005);
  assert.deepEqual(await failure(create(svc('c', { clusterIP: '10.9.0.5' }))), [422, 'Service "c" is invalid: spec.clusterIPs: Invalid value: []string{"10.9.0.5"}: failed to allocate IP 10.9.0.5: provided IP is already allocated']);
  assert.deepEqual(await failure(create(svc('c', { clusterIP: '10.9.0.15' }))), [422, 'Service "c" is invalid: spec.clusterIPs: Invalid value: []string{"10.9.0.15"}: failed to allocate IP 10.9.0.15: the provided IP (10.9.0.15) is not in the valid range. The range of valid IPs is 10.9.0.0/28']);
  assert.deepEqual(await failure(create(svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 30005 }] }))), [422, 'Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 30005: provided port is already allocated']);
  assert.deepEqual(await failure(create(svc('c', { type: 'NodePort', ports: [{ port: 80, nodePort: 31000 }] }))), [422, 'Service "c" is invalid: spec.ports[0].nodePort: Invalid value: 31000: provided port is not in the valid range. The range of valid ports is 30000-30019']);
  assert.deepEqual(await failure(create(svc('c', { clusterIP: 'fd00::5' }))), [422, 'Service "c" is invalid: spec.clusterIPs[0]: Invalid value: []string{"fd00::5"}: IPv6 is not configured on this cluster']);
  assert.deepEqual(await failure(create(svc('c', { ipFamilyPolicy: 'RequireDualStack' }))), [422, 'Service "c" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services']);
  // None of the refused creates kept anything.
  assert.deepEqual((await allocator.allocated()).ips.sort(), [spec(a).clusterIP, '10.9.0.5'].sort());
  assert.deepEqual((await allocator.allocated()).ports.sort(), [30005, ports[2]].sort());
  await remove('a'); await remove('b');
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
});

test('a create that fails validation after allocating gives everything back', async () => {
  const [code] = await failure(create(svc('bad', { clusterIP: '10.9.0.7', type: 'NodePort', ports: [{ port: 80, nodePort: 30007 }], sessionAffinity: 'Sometimes' })));
  assert.equal(code, 422);
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
});

test('headless and ExternalName allocate nothing; LoadBalancer: health check port with Local, none without node ports', async () => {
  const h = await create(svc('h', { clusterIP: 'None' }));
  assert.deepEqual([spec(h).clusterIPs, spec(h).ipFamilyPolicy, spec(h).ipFamilies], [['None'], 'RequireDualStack', ['IPv4', 'IPv6']]);
  const hs = await create(svc('hs', { clusterIP: 'None', selector: { app: 'x' } }));
  assert.deepEqual([spec(hs).ipFamilyPolicy, spec(hs).ipFamilies], ['SingleStack', ['IPv4']]);
  const en = await create(svc('en', { type: 'ExternalName', externalName: 'example.com' }));
  assert.equal(spec(en).clusterIP, undefined);
  const lb = await create(svc('lb', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }));
  assert.ok(spec(lb).healthCheckNodePort >= 30000 && spec(lb).ports[0].nodePort >= 30000);
  const quiet = await create(svc('quiet', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false }));
  assert.equal(spec(quiet).ports[0].nodePort, undefined);
  assert.equal((await allocator.allocated()).ips.length, 2);
  assert.equal((await allocator.allocated()).ports.length, 2);
  for (const n of ['h', 'hs', 'en', 'lb', 'quiet']) await remove(n);
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
});

test('dry run answers placeholders and keeps nothing; it still refuses what is taken', async () => {
  const d = await create(svc('d', { type: 'NodePort', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }), true);
  assert.equal(spec(d).clusterIP, '10.9.0.0');
  assert.deepEqual(spec(d).ports.map((p: Obj) => p.nodePort), [32769, 32770]);
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
  await create(svc('taken', { clusterIP: '10.9.0.3' }));
  assert.equal((await failure(create(svc('d', { clusterIP: '10.9.0.3' }), true)))[0], 422);
  const changed = await update('taken', (o) => { o.spec.type = 'NodePort'; }, true);
  assert.equal(spec(changed).ports[0].nodePort, 32769);
  assert.deepEqual(await allocator.allocated(), { ips: ['10.9.0.3'], ports: [] });
  await remove('taken');
});

test('updates: type changes take and give back; kept values are patched in; the IP is released only once written', async () => {
  const s = await create(svc('t'));
  const ip = spec(s).clusterIP;
  const np = await update('t', (o) => { o.spec.type = 'NodePort'; delete o.spec.clusterIP; delete o.spec.clusterIPs; });
  assert.equal(spec(np).clusterIP, ip);
  const nodePort = spec(np).ports[0].nodePort;
  assert.deepEqual(await allocator.allocated(), { ips: [ip], ports: [nodePort] });
  // A client that leaves the node port out keeps it.
  const again = await update('t', (o) => { delete o.spec.ports[0].nodePort; o.metadata.labels = { x: 'y' }; });
  assert.equal(spec(again).ports[0].nodePort, nodePort);
  // Moving to a requested node port frees the old one.
  await update('t', (o) => { o.spec.ports[0].nodePort = 30019; });
  assert.deepEqual((await allocator.allocated()).ports, [30019]);
  const back = await update('t', (o) => { o.spec.type = 'ClusterIP'; });
  assert.equal(spec(back).ports[0].nodePort, undefined);
  assert.equal(spec(back).externalTrafficPolicy, undefined);
  assert.deepEqual(await allocator.allocated(), { ips: [ip], ports: [] });
  const en = await update('t', (o) => { o.spec.type = 'ExternalName'; o.spec.externalName = 'example.com'; });
  assert.deepEqual([spec(en).clusterIP, spec(en).clusterIPs, spec(en).ipFamilies, spec(en).ipFamilyPolicy], [undefined, undefined, undefined, undefined]);
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
  const cip = await update('t', (o) => { o.spec.type = 'ClusterIP'; delete o.spec.externalName; o.spec.clusterIP = ip; });
  assert.deepEqual([spec(cip).clusterIPs, spec(cip).ipFamilies], [[ip], ['IPv4']]);
  // A refused update (the IP may not change) keeps what it had and takes nothing.
  assert.deepEqual(await failure(update('t', (o) => { o.spec.clusterIP = '10.9.0.9'; o.spec.clusterIPs = ['10.9.0.9']; })), [422, 'Service "t" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.9.0.9"}: may not change once set']);
  const lb = await update('t', (o) => { o.spec.type = 'LoadBalancer'; o.spec.externalTrafficPolicy = 'Local'; });
  assert.ok(spec(lb).healthCheckNodePort);
  await update('t', (o) => { o.spec.externalTrafficPolicy = 'Cluster'; });
  assert.deepEqual((await allocator.allocated()).ports, [spec(lb).ports[0].nodePort]);
  await remove('t');
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
});

test('repair marks what stored Services hold, and rebuilds the bitmap of a changed range', async () => {
  await create(svc('r', { clusterIP: '10.9.0.11', type: 'NodePort', ports: [{ port: 80, nodePort: 30011 }] }));
  // The stored bitmaps lost (as after a crash between a write and its reservation): repair restores them.
  await storage.delete('/registry/ranges/serviceips');
  await storage.delete('/registry/ranges/servicenodeports');
  const services = store.cache.list().map((c) => c.object as ApiObject);
  await allocator.repair(services);
  assert.deepEqual(await allocator.allocated(), { ips: ['10.9.0.11'], ports: [30011] });
  const wider = new ServiceAllocator({ storage, ipRange: parseServiceIPRange('10.9.0.0/24'), portRange: parsePortRange('30000-30019') });
  await wider.repair(services);
  assert.deepEqual(await wider.allocated(), { ips: ['10.9.0.11'], ports: [30011] });
  await allocator.repair(services);
  await remove('r');
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
});

test('repair as the sole writer frees what no stored Service holds; shared, it only marks', async () => {
  await create(svc('held', { clusterIP: '10.9.0.12', type: 'NodePort', ports: [{ port: 80, nodePort: 30012 }] }));
  // A reservation whose Service was never written (a crash between the two, or a failed give-back).
  await allocator.beginCreate(svc('never', { clusterIP: '10.9.0.13', type: 'NodePort', ports: [{ port: 80, nodePort: 30013 }] }), false);
  const services = () => store.cache.list().map((c) => c.object as ApiObject);
  await allocator.repair(services());
  assert.deepEqual(await allocator.allocated(), { ips: ['10.9.0.12', '10.9.0.13'], ports: [30012, 30013] });
  await allocator.repair(services(), { soleWriter: true });
  assert.deepEqual(await allocator.allocated(), { ips: ['10.9.0.12'], ports: [30012] });
  await remove('held');
  assert.deepEqual(await allocator.allocated(), { ips: [], ports: [] });
});

test('a full range is a 500 with Kubernetes\' text', async () => {
  const tiny = new ServiceAllocator({ storage, ipRange: parseServiceIPRange('10.8.0.0/29'), portRange: parsePortRange('30000-30019') });
  const s = new ResourceStore(serviceKind, storage, store.cache, tiny.hooks());
  for (let i = 0; i < 6; i++) await s.create('full', svc(`f${i}`), { ctx: requestContext(), dryRun: false });
  assert.deepEqual(await failure(s.create('full', svc('f6'), { ctx: requestContext(), dryRun: false })), [500, 'Internal error occurred: failed to allocate a serviceIP: range is full']);
  for (let i = 0; i < 6; i++) await s.delete('full', `f${i}`, { ctx: requestContext(), dryRun: false });
});

test('an update attempt that loses the compare-and-swap gives back what it took before the retry takes again', async () => {
  await create(svc('race'));
  let raced = false;
  const np = (await store.update('ns', async (cur) => {
    const o = structuredClone(cur) as Obj;
    delete o.metadata.resourceVersion;
    o.spec.type = 'NodePort';
    if (!raced) {
      raced = true;
      // Another writer changes the Service under this attempt, whose write then fails and is tried again.
      await update('race', (other) => { other.metadata.labels = { by: 'other' }; });
    }
    return o as ApiObject;
  }, { ctx: requestContext(), dryRun: false, subresource: '', allowCreate: false, name: 'race' })).object;
  assert.equal(np.metadata?.labels?.by, 'other');
  assert.deepEqual((await allocator.allocated()).ports, [spec(np).ports[0].nodePort]);
  await remove('race');
});

test('a Service a finalizer holds keeps its values until the update that removes the finalizer deletes it', async () => {
  const held = svc('held', { type: 'NodePort' });
  held.metadata!.finalizers = ['example.com/hold'];
  const s = await create(held);
  const ip = spec(s).clusterIP, nodePort = spec(s).ports[0].nodePort;
  const holds = async () => { const a = await allocator.allocated(); return [a.ips.includes(ip), a.ports.includes(nodePort)]; };
  await remove('held');
  assert.deepEqual(await holds(), [true, true]);
  await update('held', (o) => { o.metadata.finalizers = []; });
  assert.equal(await store.readNow('ns', 'held'), undefined);
  assert.deepEqual(await holds(), [false, false]);
});
