import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ingressKind as kind } from './ingress.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const backend = { service: { name: 'web', port: { number: 80 } } };
const ing = (spec: Obj, annotations?: Record<string, string>, name = `ing-${++n}`): ApiObject => ({ apiVersion: 'networking.svc.io/v1', kind: 'Ingress', metadata: { name, namespace: 'ns', ...(annotations ? { annotations } : {}) }, spec });
const withPath = (p: Obj) => ({ rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend, ...p }] } }] });
const causes = async (spec: Obj, annotations?: Record<string, string>) => (await rejection(h.create(ing(spec, annotations)))).causes;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));
const AT = 'spec.rules[0].http.paths[0]';

test('declaration: ingresses, short name ing, status sub-resource, columns NAME CLASS HOSTS ADDRESS PORTS AGE', () => {
  assert.deepEqual([kind.group, kind.plural, kind.shortNames, kind.categories, kind.status], ['networking.svc.io', 'ingresses', ['ing'], undefined, {}]);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
  const p = (kind.versions[0]!.schema as any).properties.spec.properties;
  assert.deepEqual(['defaultBackend', 'tls', 'rules', 'ingressClassName'].map((k) => p[k]['x-proto']), [1, 2, 3, 4]);
});

test('a rule or a default backend is required; status always written', async () => {
  assert.deepEqual(await causes({}), ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']);
  const o = await h.create(ing({ defaultBackend: backend }));
  assert.deepEqual(o.status, { loadBalancer: {} });
});

test('paths: pathType required and known; Exact and Prefix paths absolute without // /./ /../ or a trailing /. or /..', async () => {
  assert.deepEqual(await causes(withPath({ pathType: undefined })), [`${AT}.pathType: Required value: pathType must be specified`]);
  assert.deepEqual(await causes(withPath({ pathType: 'Fuzzy' })), [`${AT}.pathType: Unsupported value: "Fuzzy": supported values: "Exact", "ImplementationSpecific", "Prefix"`]);
  assert.deepEqual(await causes(withPath({ path: 'api', pathType: 'Exact' })), [`${AT}.path: Invalid value: "api": must be an absolute path`]);
  assert.deepEqual(await causes(withPath({ path: '/a//b' })), [`${AT}.path: Invalid value: "/a//b": must not contain '//'`]);
  assert.deepEqual(await causes(withPath({ path: '/a/..' })), [`${AT}.path: Invalid value: "/a/..": cannot end with '/..'`]);
  await h.create(ing(withPath({ path: '', pathType: 'ImplementationSpecific' })));
  assert.deepEqual(await causes(withPath({ path: 'rel', pathType: 'ImplementationSpecific' })), [`${AT}.path: Invalid value: "rel": must be an absolute path`]);
  assert.deepEqual(await causes({ rules: [{ http: { paths: [] } }] }), ['spec.rules[0].http.paths: Required value']);
});

test('backends: a service or a resource, not both; a service port by name or number, not both', async () => {
  assert.deepEqual(await causes(withPath({ backend: {} })), [`${AT}.backend: Invalid value: "": resource or service backend is required`]);
  assert.deepEqual(await causes({ defaultBackend: { ...backend, resource: { kind: 'Bucket', name: 'b' } } }), ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends']);
  assert.deepEqual(await causes({ defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } }), ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']);
  assert.deepEqual(await causes({ defaultBackend: { service: { name: 'web' } } }), ['spec.defaultBackend: Required value: port name or number is required']);
  assert.deepEqual(await causes({ defaultBackend: { service: { name: '', port: { number: 70000 } } } }), [
    'spec.defaultBackend.service.name: Required value',
    'spec.defaultBackend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
  ]);
  assert.equal((await causes({ defaultBackend: { service: { name: '1web', port: { number: 80 } } } }))[0]!.startsWith('spec.defaultBackend.service.name: Invalid value: "1web": a DNS-1035 label must consist of'), true);
  await h.create(ing({ defaultBackend: { resource: { apiGroup: 'storage.example.com', kind: 'Bucket', name: 'static' } } }));
});

test('hosts: DNS names (wildcards as the first label), not IP addresses; TLS hosts and secret names', async () => {
  assert.deepEqual(await causes({ defaultBackend: backend, rules: [{ host: '1.2.3.4' }] }), ['spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address']);
  await h.create(ing({ defaultBackend: backend, rules: [{ host: '*.example.com' }] }));
  assert.equal((await causes({ defaultBackend: backend, rules: [{ host: 'a.*.com' }] }))[0]!.startsWith('spec.rules[0].host: Invalid value: "a.*.com": a wildcard DNS-1123 subdomain must start with \'*.\''), true);
  assert.equal((await causes({ defaultBackend: backend, tls: [{ hosts: ['Bad_Host'] }] }))[0]!.startsWith('spec.tls[0].hosts[0]: Invalid value: "Bad_Host": a lowercase RFC 1123 subdomain'), true);
  assert.equal((await causes({ defaultBackend: backend, tls: [{ secretName: 'Bad_Secret' }] }))[0]!.startsWith('spec.tls[0].secretName: Invalid value: "Bad_Secret"'), true);
});

test('ingressClassName: a DNS subdomain that matches the legacy annotation when both are set', async () => {
  assert.equal((await causes({ defaultBackend: backend, ingressClassName: 'Bad_Class' }))[0]!.startsWith('spec.ingressClassName: Invalid value: "Bad_Class"'), true);
  assert.deepEqual(await causes({ defaultBackend: backend, ingressClassName: 'traefik' }, { 'platform.io/ingress.class': 'nginx' }), [
    'annotations.platform.io/ingress.class: Invalid value: "nginx": must match `ingressClassName` when both are specified',
  ]);
  await h.create(ing({ defaultBackend: backend, ingressClassName: 'nginx' }, { 'platform.io/ingress.class': 'nginx' }));
});

test('status through /status with valid addresses; columns', async () => {
  const o = await h.create(ing({ ingressClassName: 'nginx', rules: [{ host: 'a.example.com', http: withPath({}).rules[0]!.http }, { host: 'b.example.com', http: withPath({}).rules[0]!.http }], tls: [{ hosts: ['a.example.com'] }] }));
  const s = structuredClone(o); s.status = { loadBalancer: { ingress: [{ ip: '203.0.113.9' }, { hostname: 'lb.example.com' }] } };
  assert.deepEqual((await h.update(s)).status, { loadBalancer: {} });
  const written = await h.update(s, { subresource: 'status' });
  assert.deepEqual(cells(written).slice(1, 5), ['nginx', 'a.example.com,b.example.com', '203.0.113.9,lb.example.com', '80, 443']);
  const bad = structuredClone(written); (bad.status as Obj).loadBalancer.ingress = [{ ip: '300.1.1.1' }, { hostname: '10.0.0.1' }];
  const r = (await rejection(h.update(bad, { subresource: 'status' }))).causes;
  assert.equal(r[0], 'status.loadBalancer.ingress[0].ip: Invalid value: "300.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)');
  assert.equal(r.at(-1), 'status.loadBalancer.ingress[1].hostname: Invalid value: "10.0.0.1": must be a DNS name, not an IP address');
  const plain = await h.create(ing({ defaultBackend: backend }));
  assert.deepEqual(cells(plain).slice(1, 5), ['<none>', '*', '', '80']);
  const many = await h.create(ing({ defaultBackend: backend, rules: ['a', 'b', 'c', 'd', 'e'].map((x) => ({ host: `${x}.example.com` })) }));
  assert.equal(cells(many)[2], 'a.example.com,b.example.com,c.example.com + 2 more...');
});
