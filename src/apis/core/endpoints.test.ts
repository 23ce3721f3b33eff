import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { endpointsKind as kind, endpointsText } from './endpoints.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const ep = (subsets: Obj[] | undefined, name = `ep-${++n}`): ApiObject => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name, namespace: 'ns' }, ...(subsets ? { subsets } : {}) });
const causes = async (subsets: Obj[]) => (await rejection(h.create(ep(subsets)))).causes;
const port = (extra: Obj = {}) => ({ port: 80, ...extra });

test('declaration: core v1 endpoints, namespaced, short name ep, EndpointsList, no status, no generation, PUT creates', () => {
  assert.equal(kind.group, '');
  assert.equal(kind.kind, 'Endpoints');
  assert.equal(kind.listKind, 'EndpointsList');
  assert.equal(kind.plural, 'endpoints');
  assert.equal(kind.singular, 'endpoints');
  assert.equal(kind.namespaced, true);
  assert.deepEqual(kind.shortNames, ['ep']);
  assert.equal(kind.categories, undefined);
  assert.equal(kind.status, undefined);
  assert.equal(kind.trackGeneration, false);
  assert.equal(kind.allowCreateOnUpdate, true);
  assert.notEqual(kind.deleteReturnsObject, true);
});

test('schema: Kubernetes protobuf field numbers, atomic lists and structs, required ip and port', () => {
  const props = (kind.versions[0].schema as unknown as { properties: Obj }).properties;
  assert.equal(props.metadata['x-proto'], 1);
  assert.equal(props.subsets['x-proto'], 2);
  assert.equal(props.subsets['x-platform-list-type'], 'atomic');
  const subset = props.subsets.items;
  assert.equal(subset['x-ref'], 'core.v1.EndpointSubset');
  assert.deepEqual([subset.properties.addresses['x-proto'], subset.properties.notReadyAddresses['x-proto'], subset.properties.ports['x-proto']], [1, 2, 3]);
  for (const k of ['addresses', 'notReadyAddresses', 'ports']) assert.equal(subset.properties[k]['x-platform-list-type'], 'atomic');
  const address = subset.properties.addresses.items;
  assert.equal(address['x-ref'], 'core.v1.EndpointAddress');
  assert.equal(address['x-platform-map-type'], 'atomic');
  assert.deepEqual(address.required, ['ip']);
  assert.deepEqual(['ip', 'hostname', 'nodeName', 'targetRef'].map((k) => address.properties[k]['x-proto']), [1, 3, 4, 2]);
  assert.equal(address.properties.targetRef['x-ref'], 'core.v1.ObjectReference');
  const p = subset.properties.ports.items;
  assert.equal(p['x-ref'], 'core.v1.EndpointPort');
  assert.equal(p['x-platform-map-type'], 'atomic');
  assert.deepEqual(p.required, ['port']);
  assert.deepEqual(['name', 'port', 'protocol', 'appProtocol'].map((k) => p.properties[k]['x-proto']), [1, 2, 3, 4]);
});

test('defaults: a port without protocol is TCP; others are kept', async () => {
  const stored = await h.create(ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [port({ name: 'a' }), port({ name: 'b', port: 53, protocol: 'UDP' })] }]));
  assert.deepEqual(stored.subsets, [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'a', port: 80, protocol: 'TCP' }, { name: 'b', port: 53, protocol: 'UDP' }] }]);
  assert.equal(stored.metadata.generation, undefined);
});

test('an object without subsets, and a subset of not-ready addresses without ports, are valid', async () => {
  const empty = await h.create(ep(undefined));
  assert.equal(empty.subsets, undefined);
  // Empty lists are omitted, as Go's omitempty drops them.
  const dropped = await h.create(ep([]));
  assert.equal(dropped.subsets, undefined);
  const headless = await h.create(ep([{ notReadyAddresses: [{ ip: 'fd00::1', hostname: 'web-0', nodeName: 'node.example', targetRef: { kind: 'Pod', name: 'web-0', namespace: 'ns' } }] }]));
  assert.equal((headless.subsets as Obj[])[0].notReadyAddresses[0].targetRef.name, 'web-0');
});

test('a subset needs an address, ready or not', async () => {
  assert.deepEqual(await causes([{ ports: [port()] }]), ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`']);
});

test('addresses: a valid IP, not unspecified, loopback or link-local', async () => {
  assert.deepEqual(await causes([{ addresses: [{ ip: 'nope' }] }]), [
    'subsets[0].addresses[0].ip: Invalid value: "nope": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    'subsets[0].addresses[0].ip: Invalid value: "nope": must be a valid IP address',
  ]);
  assert.deepEqual(await causes([{ addresses: [{ ip: '0.0.0.0' }, { ip: '127.0.0.1' }, { ip: '::1' }] }]), [
    'subsets[0].addresses[0].ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)',
    'subsets[0].addresses[1].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    'subsets[0].addresses[2].ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
  ]);
  assert.deepEqual(await causes([{ notReadyAddresses: [{ ip: '169.254.1.1' }, { ip: 'fe80::1' }, { ip: '224.0.0.5' }] }]), [
    'subsets[0].notReadyAddresses[0].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    'subsets[0].notReadyAddresses[1].ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    'subsets[0].notReadyAddresses[2].ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)',
  ]);
});

test('an address without ip is refused on the ip, as Go reads it empty', async () => {
  assert.deepEqual(await causes([{ addresses: [{}] }]), [
    'subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    'subsets[0].addresses[0].ip: Invalid value: "": must be a valid IP address',
  ]);
});

test('addresses: hostname is a DNS label, nodeName a DNS subdomain', async () => {
  assert.deepEqual(await causes([{ addresses: [{ ip: '10.0.0.1', hostname: 'a.b', nodeName: 'Node_1' }] }]), [
    'subsets[0].addresses[0].hostname: Invalid value: "a.b": must not contain dots',
    "subsets[0].addresses[0].nodeName: Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
});

test('ports: name required when more than one, DNS label, port range, protocol, appProtocol', async () => {
  assert.deepEqual(await causes([{ addresses: [{ ip: '10.0.0.1' }], ports: [port(), port({ name: 'UP', port: 0, protocol: 'ICMP', appProtocol: 'a/b/c' })] }]), [
    'subsets[0].ports[0].name: Required value',
    "subsets[0].ports[1].name: Invalid value: \"UP\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    'subsets[0].ports[1].port: Invalid value: 0: must be between 1 and 65535, inclusive',
    'subsets[0].ports[1].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
    "subsets[0].ports[1].appProtocol: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  // One port needs no name; names need not be unique.
  await h.create(ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [port({ port: 65535, appProtocol: 'platform.io/h2c' })] }]));
  await h.create(ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [port({ name: 'a' }), port({ name: 'a', port: 81 })] }]));
});

test('an absent port is port 0', async () => {
  assert.deepEqual(await causes([{ addresses: [{ ip: '10.0.0.1' }], ports: [{ name: 'a' }] }]), ['subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive']);
});

test('the informational annotations are not checked', async () => {
  const obj = ep([{ addresses: [{ ip: '10.0.0.1' }] }]);
  obj.metadata.annotations = { 'endpoints.platform.io/last-change-trigger-time': 'not a time', 'endpoints.platform.io/over-capacity': 'truncated' };
  const stored = await h.create(obj);
  assert.equal(stored.metadata.annotations!['endpoints.platform.io/over-capacity'], 'truncated');
});

test('update: validated as on create, node names and addresses may change; PUT of a missing object creates it', async () => {
  const created = await h.create(ep([{ addresses: [{ ip: '10.0.0.1', nodeName: 'a' }], ports: [port()] }], 'upd'));
  const moved = await h.update({ ...created, subsets: [{ addresses: [{ ip: '10.0.0.2', nodeName: 'b' }], ports: [port({ port: 8080 })] }] });
  assert.deepEqual(moved.subsets, [{ addresses: [{ ip: '10.0.0.2', nodeName: 'b' }], ports: [{ port: 8080, protocol: 'TCP' }] }]);
  assert.equal(moved.metadata.generation, undefined);
  const bad = await rejection(h.update({ ...created, subsets: [{ addresses: [{ ip: '127.0.0.2' }] }] }));
  assert.deepEqual(bad.causes, ['subsets[0].addresses[0].ip: Invalid value: "127.0.0.2": may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  const made = await h.update(ep([{ addresses: [{ ip: '10.0.0.9' }] }], 'put-made'));
  assert.equal(made.metadata.name, 'put-made');
});

test('ENDPOINTS column: up to three ip:port pairs, then how many more; <none> without subsets', () => {
  const cell = (subsets?: Obj[]) => endpointsText(ep(subsets));
  assert.equal(cell(), '<none>');
  assert.equal(cell([{ notReadyAddresses: [{ ip: '10.0.0.1' }], ports: [port()] }]), '');
  assert.equal(cell([{ addresses: [{ ip: '10.0.0.1' }], ports: [port()] }]), '10.0.0.1:80');
  assert.equal(cell([{ addresses: [{ ip: '10.0.0.1' }, { ip: 'fd00::2' }], ports: [port(), port({ port: 443 })] }]), '10.0.0.1:80,[fd00::2]:80,10.0.0.1:443 + 1 more...');
  // Port by port, address by address, across subsets; a subset without ports shows bare IPs.
  assert.equal(cell([{ addresses: [{ ip: '10.0.0.1' }] }, { addresses: [{ ip: '10.0.0.2' }, { ip: '10.0.0.3' }], ports: [port({ port: 53 })] }]), '10.0.0.1,10.0.0.2:53,10.0.0.3:53');
  assert.equal(cell([{ addresses: [1, 2, 3, 4, 5].map((i) => ({ ip: `10.0.0.${i}` })) }, { addresses: [{ ip: '10.1.0.1' }], ports: [port()] }]), '10.0.0.1,10.0.0.2,10.0.0.3 + 3 more...');
});

test('table: Name, Endpoints, Age', () => {
  const cols = kind.tableColumns!;
  assert.deepEqual(cols.map((c) => c.name), ['Name', 'Endpoints', 'Age']);
  const obj = ep([{ addresses: [{ ip: '10.0.0.1' }], ports: [port()] }], 'tbl');
  obj.metadata.creationTimestamp = new Date(Date.now() - 65_000).toISOString();
  assert.deepEqual(cols.map((c) => c.cell(obj)), ['tbl', '10.0.0.1:80', '65s']);
  assert.match(cols[1].description, /^The set of all endpoints is the union of all subsets/);
});
