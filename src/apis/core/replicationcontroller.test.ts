import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { replicationControllerKind as kind } from './replicationcontroller.ts';
import { kindHarness, rejection, requestContext, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const template = (spec: Obj = {}, labels: Obj = { app: 'web' }) => ({ metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...spec } });
const rc = (spec: Obj = {}, name = `rc-${++n}`): ApiObject => ({
  apiVersion: 'v1', kind: 'ReplicationController', metadata: { name, namespace: 'ns' },
  spec: { template: template(), ...spec },
});
const causes = async (spec: Obj) => (await rejection(h.create(rc(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const scale = kind.views!.find((v) => v.name === 'scale')!;

test('declaration: core/v1 replicationcontrollers, short name rc, category all, stored as controllers, status and scale', () => {
  assert.deepEqual([kind.group, kind.plural, kind.singular, kind.shortNames, kind.categories, kind.storageResource], ['', 'replicationcontrollers', 'replicationcontroller', ['rc'], ['all'], 'controllers']);
  assert.deepEqual(kind.status, {});
  assert.deepEqual([scale.group, scale.version, scale.kind, scale.verbs], ['autoscaling', 'v1', 'Scale', ['get', 'patch', 'update']]);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.type, c.priority ?? 0]), [
    ['Name', 'string', 0], ['Desired', 'integer', 0], ['Current', 'integer', 0], ['Ready', 'integer', 0], ['Age', 'string', 0],
    ['Containers', 'string', 1], ['Images', 'string', 1], ['Selector', 'string', 1],
  ]);
  assert.deepEqual(Object.keys(kind.fieldSelectors!), ['status.replicas']);
  const schema = kind.versions[0]!.schema as any;
  const spec = schema.properties.spec.properties, status = schema.properties.status.properties;
  assert.deepEqual(['replicas', 'selector', 'template', 'minReadySeconds'].map((k) => spec[k]['x-proto']), [1, 2, 3, 4]);
  assert.deepEqual(['replicas', 'fullyLabeledReplicas', 'observedGeneration', 'readyReplicas', 'availableReplicas', 'conditions'].map((k) => status[k]['x-proto']), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(Object.keys(spec), ['replicas', 'minReadySeconds', 'selector', 'template']);
});

test('defaults: selector and labels from the template, 1 replica, the pod template defaults, status.replicas 0', async () => {
  const o = await h.create(rc());
  assert.deepEqual(specOf(o).selector, { app: 'web' });
  assert.deepEqual(o.metadata.labels, { app: 'web' });
  assert.equal(specOf(o).replicas, 1);
  assert.equal(specOf(o).template.spec.restartPolicy, 'Always');
  assert.equal(specOf(o).template.spec.dnsPolicy, 'ClusterFirst');
  assert.equal(specOf(o).template.metadata.creationTimestamp, null);
  assert.deepEqual(o.status, { replicas: 0 });
  assert.equal(o.metadata.generation, 1);
  // Labels and a selector already given are kept; zero replicas stays zero.
  const own = await h.create({ ...rc({ selector: { app: 'web' }, replicas: 0 }), metadata: { name: 'own', namespace: 'ns', labels: { team: 'a' } } });
  assert.deepEqual([own.metadata.labels, specOf(own).selector, specOf(own).replicas], [{ team: 'a' }, { app: 'web' }, 0]);
});

test('selector: required and not empty, matching the template labels', async () => {
  assert.deepEqual(await causes({ template: template({}, {}) }), ['spec.selector: Required value']);
  assert.deepEqual(await causes({ selector: { app: 'db' } }), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']);
  // A selector that asks for fewer labels than the template has is fine.
  const o = await h.create(rc({ selector: { app: 'web' }, template: template({}, { app: 'web', tier: 'front' }) }));
  assert.deepEqual(specOf(o).selector, { app: 'web' });
});

test('template: required; restartPolicy Always, no active deadline; counts not negative', async () => {
  assert.deepEqual(await causes({ template: undefined, selector: { app: 'web' } }), ['spec.template: Required value']);
  assert.deepEqual(await causes({ template: template({ restartPolicy: 'OnFailure' }) }), ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']);
  assert.deepEqual(await causes({ template: template({ activeDeadlineSeconds: 5 }) }), ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported']);
  assert.deepEqual(await causes({ replicas: -1, minReadySeconds: -2 }), [
    'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
    'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  ]);
  assert.deepEqual(await causes({ template: template({ containers: [] }) }), ['spec.template.spec.containers: Required value']);
});

test('update: the spec is validated again, the selector may change, generation follows the spec', async () => {
  const o = await h.create(rc());
  const bad = structuredClone(o); specOf(bad).replicas = -1;
  assert.deepEqual((await rejection(h.update(bad))).causes, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
  const moved = structuredClone(o); specOf(moved).selector = { app: 'web', x: 'y' }; specOf(moved).template.metadata.labels = { app: 'web', x: 'y' };
  const updated = await h.update(moved);
  assert.deepEqual([specOf(updated).selector, updated.metadata.generation], [{ app: 'web', x: 'y' }, 2]);
  const relabelled = structuredClone(updated); relabelled.metadata.labels = { other: 'label' };
  assert.equal((await h.update(relabelled)).metadata.generation, 2);
});

test('update: a selector an older version could not convert cannot change', async () => {
  await h.seed({ ...rc({ selector: { app: 'web' } }, 'legacy'), metadata: { name: 'legacy', namespace: 'ns', annotations: { 'non-convertible.platform.io/spec.selector': 'app in (web)', 'non-convertible.platform.io/spec.other': 'x' } } });
  const old = h.get('legacy', 'ns')!;
  const next = structuredClone(old); specOf(next).selector = { app: 'web', x: 'y' }; specOf(next).template.metadata.labels = { app: 'web', x: 'y' };
  assert.deepEqual((await rejection(h.update(next))).causes, [
    'spec.selector: Invalid value: map[string]string{"app":"web", "x":"y"}: cannot update non-convertible selector',
    'spec.other: Not found: "x": unknown non-convertible field',
  ]);
});

test('status through /status only, counts bounded; columns and scale read the map selector', async () => {
  const o = await h.create(rc({ replicas: 3, selector: { app: 'web' }, template: template({}, { app: 'web', tier: 'front' }) }));
  const withStatus = structuredClone(o); withStatus.status = { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 1, observedGeneration: 1 };
  assert.deepEqual((await h.update(withStatus)).status, { replicas: 0 });
  const written = await h.update(withStatus, { subresource: 'status' });
  assert.deepEqual(written.status, withStatus.status);
  assert.deepEqual(kind.tableColumns!.slice(1, 4).map((c) => c.cell(written)), [3, 3, 2]);
  assert.deepEqual(kind.tableColumns!.slice(5).map((c) => c.cell(written)), ['web', 'nginx:1.27', 'app=web']);
  assert.equal(kind.fieldSelectors!['status.replicas']!(written), '3');
  const bad = structuredClone(written); bad.status = { replicas: 1, readyReplicas: 2, availableReplicas: 3, fullyLabeledReplicas: -1 };
  assert.deepEqual((await rejection(h.update(bad, { subresource: 'status' }))).causes, [
    'status.fullyLabeledReplicas: Invalid value: -1: must be greater than or equal to 0',
    'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
  ]);
  assert.deepEqual(scale.get!(written).status, { replicas: 3, selector: 'app=web' });
  assert.deepEqual(scale.get!(written).spec, { replicas: 3 });
  const scaled = scale.update!(written, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: written.metadata.name }, spec: { replicas: 5 } });
  assert.equal(specOf(scaled).replicas, 5);
});

test('warnings: on create the template; on an update making a new generation, the template it replaces', async () => {
  const DUPLICATE = 'spec.template.spec.imagePullSecrets[1].name: duplicate name "a"';
  const ctx = requestContext();
  const o = rc({ template: template({ imagePullSecrets: [{ name: 'a' }, { name: 'a' }] }) }, 'Not_A_Label');
  kind.defaults!(o);
  assert.deepEqual(kind.validate!(o, ctx), []);
  assert.match(ctx.warnings[0]!, /^metadata\.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: \[/);
  assert.deepEqual(ctx.warnings.slice(1), [DUPLICATE]);
  const fixed = structuredClone(o); specOf(fixed).template.spec.imagePullSecrets = [{ name: 'a' }];
  o.metadata.generation = 1; fixed.metadata.generation = 2;
  const upd = requestContext();
  assert.deepEqual(kind.validateUpdate!(fixed, o, upd), []);
  assert.deepEqual(upd.warnings, [DUPLICATE]);
  const same = requestContext(); o.metadata.generation = 2;
  kind.validateUpdate!(fixed, o, same);
  assert.deepEqual(same.warnings, []);
});
