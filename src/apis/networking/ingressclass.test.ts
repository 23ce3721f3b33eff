import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ingressClassKind as kind } from './ingressclass.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const cls = (spec: Obj, name = `class-${++n}`): ApiObject => ({ apiVersion: 'networking.svc.io/v1', kind: 'IngressClass', metadata: { name }, spec });
const causes = async (spec: Obj) => (await rejection(h.create(cls(spec)))).causes;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));

test('declaration: cluster-scoped ingressclasses, columns NAME CONTROLLER PARAMETERS AGE', () => {
  assert.deepEqual([kind.group, kind.plural, kind.namespaced, kind.shortNames, kind.categories, kind.status], ['networking.svc.io', 'ingressclasses', false, undefined, undefined, undefined]);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Controller', 'Parameters', 'Age']);
  const p = (kind.versions[0]!.schema as any).properties.spec.properties;
  assert.deepEqual([p.controller['x-proto'], p.parameters['x-proto']], [1, 2]);
  assert.deepEqual(['apiGroup', 'kind', 'name', 'scope', 'namespace'].map((k) => p.parameters.properties[k]['x-proto']), [1, 2, 3, 4, 5]);
});

test('controller: required, a domain-prefixed path of at most 250 characters', async () => {
  assert.deepEqual(await causes({}), ['spec.controller: Required value']);
  assert.deepEqual(await causes({ controller: 'nginx' }), ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']);
  assert.deepEqual(await causes({ controller: `example.com/${'a'.repeat(250)}` }), ['spec.controller: Too long: may not be more than 250 bytes']);
  await h.create(cls({ controller: `example.com/${'a'.repeat(238)}` }));
});

test('parameters: scope defaults to Cluster; Namespace needs a namespace, Cluster forbids one; kind and name required', async () => {
  const o = await h.create(cls({ controller: 'example.com/x', parameters: { kind: 'Params', name: 'p' } }));
  assert.deepEqual((o.spec as Obj).parameters, { kind: 'Params', name: 'p', scope: 'Cluster' });
  assert.deepEqual(await causes({ controller: 'example.com/x', parameters: { kind: 'Params', name: 'p', scope: 'Namespace' } }), ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"]);
  assert.deepEqual(await causes({ controller: 'example.com/x', parameters: { kind: 'Params', name: 'p', scope: 'Cluster', namespace: 'ns' } }), ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]);
  assert.deepEqual(await causes({ controller: 'example.com/x', parameters: { kind: 'Params', name: 'p', scope: 'Galaxy' } }), ['spec.parameters.scope: Unsupported value: "Galaxy": supported values: "Cluster", "Namespace"']);
  assert.deepEqual(await causes({ controller: 'example.com/x', parameters: { kind: '', name: 'a/b' } }), ['spec.parameters.kind: Required value: kind is required', "spec.parameters.name: Invalid value: \"a/b\": may not contain '/'"]);
  const ns = await h.create(cls({ controller: 'example.com/x', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p', scope: 'Namespace', namespace: 'ingress' } }));
  assert.deepEqual(cells(ns).slice(1, 3), ['example.com/x', 'Params.k8s.example.com/p']);
  assert.deepEqual(cells(o).slice(1, 3), ['example.com/x', 'Params/p']);
});

test('controller is immutable; parameters may change', async () => {
  const o = await h.create(cls({ controller: 'example.com/a' }));
  const moved = structuredClone(o); (moved.spec as Obj).controller = 'example.com/b';
  assert.deepEqual((await rejection(h.update(moved))).causes, ['spec.controller: Invalid value: "example.com/b": field is immutable']);
  const params = structuredClone(o); (params.spec as Obj).parameters = { kind: 'P', name: 'q' };
  assert.deepEqual(((await h.update(params)).spec as Obj).parameters, { kind: 'P', name: 'q', scope: 'Cluster' });
  assert.equal(cells(o)[2], '<none>');
});
