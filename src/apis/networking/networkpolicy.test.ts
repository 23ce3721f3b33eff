import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { networkPolicyKind as kind } from './networkpolicy.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const np = (spec: Obj, name = `np-${++n}`): ApiObject => ({ apiVersion: 'networking.svc.io/v1', kind: 'NetworkPolicy', metadata: { name, namespace: 'ns' }, spec });
const causes = async (spec: Obj) => (await rejection(h.create(np(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const from = (...peers: Obj[]) => ({ ingress: [{ from: peers }] });
const ports = (...p: Obj[]) => ({ ingress: [{ ports: p }] });

test('declaration: networkpolicies, short name netpol, no status, columns NAME POD-SELECTOR AGE', () => {
  assert.deepEqual([kind.group, kind.plural, kind.shortNames, kind.categories, kind.status], ['networking.svc.io', 'networkpolicies', ['netpol'], undefined, undefined]);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Pod-Selector', 'Age']);
  const p = (kind.versions[0]!.schema as any).properties.spec.properties;
  assert.deepEqual(['podSelector', 'ingress', 'egress', 'policyTypes'].map((k) => p[k]['x-proto']), [1, 2, 3, 4]);
});

test('defaults: empty pod selector, protocol TCP, policyTypes by content', async () => {
  assert.deepEqual(specOf(await h.create(np({}))), { podSelector: {}, policyTypes: ['Ingress'] });
  const egress = await h.create(np({ egress: [{ ports: [{ port: 53 }, { port: 53, protocol: 'UDP' }] }] }));
  assert.deepEqual(specOf(egress).egress[0].ports, [{ port: 53, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }]);
  assert.deepEqual(specOf(egress).policyTypes, ['Ingress', 'Egress']);
  assert.deepEqual(specOf(await h.create(np({ egress: [{}], policyTypes: ['Egress'] }))).policyTypes, ['Egress']);
  assert.deepEqual(specOf(await h.create(np({ ingress: [{ ports: [{ port: 80 }] }] }))).ingress[0].ports, [{ port: 80, protocol: 'TCP' }]);
});

test('ports: protocols, numbers and names; endPort at least port, only with a numeric port', async () => {
  const P = 'spec.ingress[0].ports[0]';
  assert.deepEqual(await causes(ports({ port: 80, protocol: 'ICMP' })), [`${P}.protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"`]);
  assert.deepEqual(await causes(ports({ port: 80, endPort: 70 })), [`${P}.endPort: Invalid value: 80: must be greater than or equal to \`port\``]);
  assert.deepEqual(await causes(ports({ port: 80, endPort: 70000 })), [`${P}.endPort: Invalid value: 70000: must be between 1 and 65535, inclusive`]);
  assert.deepEqual(await causes(ports({ port: 'http', endPort: 90 })), [`${P}.endPort: Invalid value: 90: may not be specified when \`port\` is non-numeric`]);
  assert.deepEqual(await causes(ports({ endPort: 90 })), [`${P}.endPort: Invalid value: 90: may not be specified when \`port\` is not specified`]);
  assert.deepEqual(await causes(ports({ port: 0 })), [`${P}.port: Invalid value: 0: must be between 1 and 65535, inclusive`]);
  await h.create(np(ports({ port: 32000, endPort: 32768 }, { port: 'metrics' })));
});

test('ipBlock: a valid CIDR; every exception a valid CIDR strictly inside it', async () => {
  const B = 'spec.ingress[0].from[0].ipBlock';
  assert.deepEqual(await causes(from({ ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8'] } })), [`${B}.except[0]: Invalid value: "10.0.0.0/8": must be a strict subset of \`cidr\``]);
  assert.deepEqual(await causes(from({ ipBlock: { cidr: '10.0.0.0/8', except: ['192.168.0.0/16'] } })), [`${B}.except[0]: Invalid value: "192.168.0.0/16": must be a strict subset of \`cidr\``]);
  assert.deepEqual(await causes(from({ ipBlock: { cidr: '10.0.0.0/33' } })), [`${B}.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`]);
  assert.deepEqual(await causes(from({ ipBlock: { cidr: '' } })), [`${B}.cidr: Required value`]);
  await h.create(np(from({ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', '10.2.3.0/24'] } })));
  await h.create(np(from({ ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48'] } })));
});

test('peers: at least one selector or block; an ipBlock alone', async () => {
  assert.deepEqual(await causes(from({})), ['spec.ingress[0].from[0]: Required value: must specify a peer']);
  assert.deepEqual(await causes(from({ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} })), ['spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer']);
  await h.create(np({ egress: [{ to: [{ podSelector: { matchLabels: { app: 'db' } }, namespaceSelector: { matchLabels: { team: 'a' } } }] }] }));
  assert.deepEqual(await causes({ podSelector: { matchLabels: { 'bad key!': 'x' } } }).then((c) => c.length > 0), true);
});

test('policyTypes: Ingress and Egress, at most two', async () => {
  assert.deepEqual(await causes({ policyTypes: ['Sideways'] }), ['spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"']);
  assert.deepEqual(await causes({ policyTypes: ['Ingress', 'Egress', 'Ingress'] }), ['spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes']);
});

test('updates are validated the same way; POD-SELECTOR column', async () => {
  const o = await h.create(np({ podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] } }));
  assert.equal(kind.tableColumns![1]!.cell(o), 'app=web,tier');
  assert.equal(kind.tableColumns![1]!.cell(await h.create(np({}))), '<none>');
  const bad = structuredClone(o); specOf(bad).ingress = [{ ports: [{ endPort: 5 }] }];
  assert.deepEqual((await rejection(h.update(bad))).causes, ['spec.ingress[0].ports[0].endPort: Invalid value: 5: may not be specified when `port` is not specified']);
});
