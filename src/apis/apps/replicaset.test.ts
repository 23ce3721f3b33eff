import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { replicaSetKind as kind } from './replicaset.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const template = (spec: Obj = {}) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...spec } });
const rs = (spec: Obj = {}, name = `rs-${++n}`): ApiObject => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: 'ns' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});
const causes = async (spec: Obj) => (await rejection(h.create(rs(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const scale = kind.views!.find((v) => v.name === 'scale')!;

test('declaration: apps/v1 replicasets, short name rs, category all, status and scale, columns, status.replicas field selector', () => {
  assert.deepEqual([kind.group, kind.plural, kind.shortNames, kind.categories], ['apps', 'replicasets', ['rs'], ['all']]);
  assert.deepEqual(kind.status, {});
  assert.deepEqual([scale.group, scale.version, scale.kind], ['autoscaling', 'v1', 'Scale']);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.priority ?? 0]), [
    ['Name', 0], ['Desired', 0], ['Current', 0], ['Ready', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1],
  ]);
  assert.deepEqual(Object.keys(kind.fieldSelectors!), ['status.replicas']);
  const spec = (kind.versions[0]!.schema as any).properties.spec.properties;
  assert.deepEqual(['replicas', 'selector', 'template', 'minReadySeconds'].map((k) => spec[k]['x-proto']), [1, 2, 3, 4]);
});

test('defaults: 1 replica, the pod template defaults, status.replicas 0', async () => {
  const o = await h.create(rs());
  assert.equal(specOf(o).replicas, 1);
  assert.equal(specOf(o).template.spec.restartPolicy, 'Always');
  assert.deepEqual(o.status, { replicas: 0 });
  assert.equal(kind.fieldSelectors!['status.replicas']!(o), '0');
});

test('selector: required, not empty, matching the template', async () => {
  assert.deepEqual(await causes({ selector: undefined }), [
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(await causes({ selector: {} }), ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']);
  assert.deepEqual(await causes({ selector: { matchLabels: { app: 'db' } } }), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']);
});

test('template: restartPolicy Always, no active deadline; counts not negative', async () => {
  assert.deepEqual(await causes({ template: template({ restartPolicy: 'Never' }) }), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']);
  assert.deepEqual(await causes({ template: template({ activeDeadlineSeconds: 1 }) }), ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported']);
  assert.deepEqual(await causes({ replicas: -2 }), ['spec.replicas: Invalid value: -2: must be greater than or equal to 0']);
  assert.deepEqual(await causes({ minReadySeconds: -1 }), ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0']);
});

test('the selector is immutable', async () => {
  const o = await h.create(rs());
  const moved = structuredClone(o); specOf(moved).selector = { matchLabels: { app: 'web', x: 'y' } }; specOf(moved).template.metadata.labels = { app: 'web', x: 'y' };
  assert.deepEqual((await rejection(h.update(moved))).causes, ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "x":"y"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable']);
});

test('status through /status, counts bounded; columns DESIRED CURRENT READY', async () => {
  const o = await h.create(rs({ replicas: 3 }));
  const withStatus = structuredClone(o); withStatus.status = { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 };
  assert.deepEqual((await h.update(withStatus)).status, { replicas: 0 });
  const written = await h.update(withStatus, { subresource: 'status' });
  assert.deepEqual(kind.tableColumns!.slice(1, 4).map((c) => c.cell(written)), [3, 3, 2]);
  assert.equal(kind.fieldSelectors!['status.replicas']!(written), '3');
  const bad = structuredClone(written); bad.status = { replicas: 1, readyReplicas: 2, availableReplicas: 0 };
  assert.deepEqual((await rejection(h.update(bad, { subresource: 'status' }))).causes, ['status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas']);
  assert.deepEqual(scale.get!(written).status, { replicas: 3, selector: 'app=web' });
  assert.deepEqual(scale.get!(written).spec, { replicas: 3 });
});
