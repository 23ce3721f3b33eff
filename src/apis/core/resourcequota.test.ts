import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { resourceQuotaKind as kind, quotaColumns } from './resourcequota.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const quota = (spec: Obj, name = `q-${++n}`): ApiObject => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec });
const causes = async (spec: Obj) => (await rejection(h.create(quota(spec)))).causes;
const EXISTS_ONLY = "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity";

test('declaration: resourcequotas, short name quota, status sub-resource, columns NAME AGE REQUEST LIMIT', () => {
  assert.equal(kind.plural, 'resourcequotas');
  assert.deepEqual(kind.shortNames, ['quota']);
  assert.equal(kind.categories, undefined);
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Age', 'Request', 'Limit']);
  const p = (kind.versions[0]!.schema as any).properties;
  assert.deepEqual([p.spec.properties.hard['x-proto'], p.spec.properties.scopes['x-proto'], p.spec.properties.scopeSelector['x-proto'], p.status.properties.hard['x-proto'], p.status.properties.used['x-proto']], [1, 2, 3, 1, 2]);
});

test('quantities are stored canonical; spec and status always written', async () => {
  const o = await h.create(quota({ hard: { cpu: '1000m', memory: '1024Mi', 'requests.cpu': '0.5', pods: '10', 'count/deployments.apps': '5' } }));
  assert.deepEqual(o.spec, { hard: { cpu: '1', memory: '1Gi', 'requests.cpu': '500m', pods: '10', 'count/deployments.apps': '5' } });
  assert.deepEqual(o.status, {});
  assert.deepEqual((await h.create(quota(undefined as unknown as Obj))).spec, {});
});

test('resource names are standard for quota or fully qualified; quantities not negative', async () => {
  assert.deepEqual(await causes({ hard: { gpu: '1' } }), [
    'spec.hard[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
    'spec.hard[gpu]: Invalid value: "gpu": must be a standard resource for quota',
  ]);
  assert.deepEqual(await causes({ hard: { cpu: '-1' } }), ['spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0']);
  await h.create(quota({ hard: { 'example.com/widgets': '3', 'requests.hugepages-2Mi': '1Gi' } }));
});

test('scopes: known, applicable to the tracked resources, not conflicting', async () => {
  assert.deepEqual(await causes({ hard: { pods: '1' }, scopes: ['Weird'] }), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Weird"}: unsupported scope']);
  assert.deepEqual(await causes({ hard: { cpu: '1' }, scopes: ['BestEffort'] }), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource']);
  assert.deepEqual(await causes({ hard: { 'requests.storage': '1Gi' }, scopes: ['Terminating'] }), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating"}: unsupported scope applied to resource']);
  assert.deepEqual(await causes({ hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort'] }), ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort", "NotBestEffort"}: conflicting scopes']);
  await h.create(quota({ hard: { pods: '5' }, scopes: ['BestEffort', 'NotTerminating'] }));
});

test('scopeSelector: operators, values, Exists-only scopes, conflicts', async () => {
  const sel = (...matchExpressions: Obj[]) => ({ hard: { pods: '1' }, scopeSelector: { matchExpressions } });
  await h.create(quota(sel({ scopeName: 'PriorityClass', operator: 'In', values: ['high'] })));
  assert.deepEqual(await causes(sel({ scopeName: 'PriorityClass', operator: 'In' })), ["spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"]);
  assert.deepEqual(await causes(sel({ scopeName: 'BestEffort', operator: 'In', values: ['x'] })), [`spec.scopeSelector.matchExpressions.operator: Invalid value: "In": ${EXISTS_ONLY}`]);
  assert.deepEqual(await causes(sel({ scopeName: 'Terminating', operator: 'Exists', values: ['x'] })), ["spec.scopeSelector.matchExpressions.values: Invalid value: []string{\"x\"}: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"]);
  assert.deepEqual(await causes(sel({ scopeName: 'PriorityClass', operator: 'Like', values: ['x'] })), ['spec.scopeSelector.matchExpressions.operator: Invalid value: "Like": not a valid selector operator']);
  assert.deepEqual(await causes(sel({ scopeName: 'Weird', operator: 'Exists' })), ['spec.scopeSelector.matchExpressions.scopeName: Invalid value: "Weird": unsupported scope']);
  assert.deepEqual(await causes(sel({ scopeName: 'Terminating', operator: 'Exists' }, { scopeName: 'NotTerminating', operator: 'Exists' })), ['spec.scopeSelector.matchExpressions: Invalid value: []core.ResourceQuotaScope(nil): conflicting scopes']);
});

test('scopes are immutable; hard limits may change', async () => {
  const o = await h.create(quota({ hard: { pods: '5' }, scopes: ['BestEffort'] }));
  const more = structuredClone(o); (more.spec as Obj).hard.pods = '10';
  assert.equal(((await h.update(more)).spec as Obj).hard.pods, '10');
  const other = structuredClone(o); (other.spec as Obj).scopes = ['NotBestEffort'];
  assert.deepEqual((await rejection(h.update(other))).causes, ['spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotBestEffort"}: field is immutable']);
  const reordered = await h.create(quota({ hard: { pods: '5' }, scopes: ['BestEffort', 'NotTerminating'] }));
  (reordered.spec as Obj).scopes = ['NotTerminating', 'BestEffort'];
  await h.update(reordered);
});

test('status: written through /status only, validated and canonical; columns show used/hard', async () => {
  const o = await h.create(quota({ hard: { cpu: '2', 'limits.memory': '2Gi', pods: '10' } }));
  const withStatus = structuredClone(o);
  withStatus.status = { hard: { cpu: '2', 'limits.memory': '2Gi', pods: '10' }, used: { cpu: '500m', 'limits.memory': '1024Mi', pods: '3' } };
  assert.deepEqual((await h.update(withStatus)).status, {});
  const written = await h.update(withStatus, { subresource: 'status' });
  assert.deepEqual((written.status as Obj).used, { cpu: '500m', 'limits.memory': '1Gi', pods: '3' });
  assert.deepEqual(quotaColumns(written), { request: 'cpu: 500m/2, pods: 3/10', limit: 'limits.memory: 1Gi/2Gi' });
  const bad = structuredClone(written); (bad.status as Obj).used.cpu = '-1';
  assert.deepEqual((await rejection(h.update(bad, { subresource: 'status' }))).causes, ['status.used[cpu]: Invalid value: "-1": must be greater than or equal to 0']);
});
