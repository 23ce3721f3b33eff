import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deploymentKind as kind } from './deployment.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import { StatusError } from '../../machinery/status.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const template = (spec: Obj = {}, labels: Obj = { app: 'web' }) => ({ metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...spec } });
const deploy = (spec: Obj = {}, name = `d-${++n}`): ApiObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'ns' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: template(), ...spec },
});
const causes = async (spec: Obj) => (await rejection(h.create(deploy(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const scale = kind.views!.find((v) => v.name === 'scale')!;

test('declaration: apps/v1 deployments, short name deploy, category all, status and scale sub-resources, columns', () => {
  assert.equal(kind.group, 'apps');
  assert.deepEqual(kind.shortNames, ['deploy']);
  assert.deepEqual(kind.categories, ['all']);
  assert.deepEqual(kind.status, {});
  assert.deepEqual([scale.group, scale.version, scale.kind, scale.verbs], ['autoscaling', 'v1', 'Scale', ['get', 'patch', 'update']]);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.priority ?? 0]), [
    ['Name', 0], ['Ready', 0], ['Up-to-date', 0], ['Available', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1],
  ]);
  const spec = (kind.versions[0]!.schema as any).properties.spec.properties;
  assert.deepEqual(['replicas', 'selector', 'template', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'].map((k) => spec[k]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 9]);
  assert.equal(spec.strategy['x-platform-patch-strategy'], 'retainKeys');
});

test('defaults: 1 replica, RollingUpdate 25%/25%, 10 revisions, 600s progress deadline', async () => {
  const s = specOf(await h.create(deploy()));
  assert.equal(s.replicas, 1);
  assert.deepEqual(s.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  assert.equal(s.revisionHistoryLimit, 10);
  assert.equal(s.progressDeadlineSeconds, 600);
  const partial = specOf(await h.create(deploy({ replicas: 0, strategy: { rollingUpdate: { maxSurge: 1 } }, revisionHistoryLimit: 0 })));
  assert.deepEqual([partial.replicas, partial.strategy, partial.revisionHistoryLimit], [0, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } }, 0]);
  assert.deepEqual(specOf(await h.create(deploy({ strategy: { type: 'Recreate' } }))).strategy, { type: 'Recreate' });
});

test('defaults: the pod template gets what Kubernetes sets on pod templates (not what only pods get)', async () => {
  const t = specOf(await h.create(deploy({ template: template({ containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }] }] }) }))).template;
  assert.deepEqual(t.metadata, { labels: { app: 'web' }, creationTimestamp: null });
  assert.deepEqual(t.spec, {
    containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], imagePullPolicy: 'Always', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
    dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler',
  });
});

test('selector: required, not empty, matching the template labels', async () => {
  assert.deepEqual(await causes({ selector: undefined }), [
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(await causes({ selector: {} }), ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment']);
  assert.deepEqual(await causes({ selector: { matchLabels: { app: 'api' } } }), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']);
  assert.deepEqual(await causes({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }), [
    "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"In", Values:[]string(nil)}}}: invalid label selector',
  ]);
  await h.create(deploy({ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }] } }));
});

test('strategy: maxSurge and maxUnavailable not both 0, percentages valid and at most 100%, Recreate without rollingUpdate, known types', async () => {
  const MAX = 'spec.strategy.rollingUpdate.maxUnavailable';
  assert.deepEqual(await causes({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } }), [`${MAX}: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when \`maxSurge\` is 0`]);
  assert.deepEqual(await causes({ strategy: { rollingUpdate: { maxSurge: '0%', maxUnavailable: '0%' } } }), [`${MAX}: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when \`maxSurge\` is 0`]);
  assert.deepEqual(await causes({ strategy: { rollingUpdate: { maxUnavailable: '110%' } } }), [`${MAX}: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%`]);
  assert.deepEqual(await causes({ strategy: { rollingUpdate: { maxSurge: 'lots' } } }), [
    "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"lots\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
  ]);
  assert.deepEqual(await causes({ strategy: { rollingUpdate: { maxSurge: -1 } } }), ['spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(await causes({ strategy: { type: 'Recreate', rollingUpdate: {} } }), ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"]);
  assert.deepEqual(await causes({ strategy: { type: 'BlueGreen' } }), ['spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"']);
  await h.create(deploy({ strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } }));
});

test('template: restartPolicy only Always, no activeDeadlineSeconds, containers required, each with an image', async () => {
  assert.deepEqual(await causes({ template: template({ restartPolicy: 'OnFailure' }) }), ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']);
  assert.deepEqual(await causes({ template: template({ activeDeadlineSeconds: 5 }) }), ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported']);
  assert.deepEqual(await causes({ template: template({ containers: [] }) }), ['spec.template.spec.containers: Required value']);
  assert.deepEqual(await causes({ template: template({ ephemeralContainers: [{ name: 'x', image: 'y' }] }) }), ['spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template']);
  // validateContainerCommon requires an image in templates too (only the whitespace check is for pods).
  assert.deepEqual(await causes({ template: template({ containers: [{ name: 'web' }] }) }), ['spec.template.spec.containers[0].image: Required value']);
  // The pod-specific annotation checks apply to templates, under the template's path.
  const annotated = template();
  (annotated.metadata as Obj).annotations = { 'controller.platform.io/pod-deletion-cost': 'high' };
  const [cost] = await causes({ template: annotated });
  assert.match(cost, /^spec\.template\.annotations\[controller\.platform\.io\/pod-deletion-cost\]: Invalid value: "high": /);
});

test('counts: replicas, minReadySeconds and revisionHistoryLimit not negative; progress deadline above minReadySeconds', async () => {
  assert.deepEqual(await causes({ replicas: -1 }), ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(await causes({ revisionHistoryLimit: -1 }), ['spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(await causes({ minReadySeconds: 10, progressDeadlineSeconds: 10 }), ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds']);
});

test('the selector is immutable; annotations count as a new generation', async () => {
  const o = await h.create(deploy({ selector: { matchLabels: { app: 'web' } } }));
  assert.equal(o.metadata.generation, 1);
  const moved = structuredClone(o);
  specOf(moved).selector = { matchLabels: { app: 'web', tier: 'front' } };
  specOf(moved).template.metadata.labels = { app: 'web', tier: 'front' };
  assert.deepEqual((await rejection(h.update(moved))).causes, ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"front"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable']);
  const annotated = structuredClone(o); annotated.metadata.annotations = { note: 'x' };
  assert.equal((await h.update(annotated)).metadata.generation, 2);
  const scaled = structuredClone(o); specOf(scaled).replicas = 4;
  const u = await h.update(scaled);
  assert.deepEqual([specOf(u).replicas, u.metadata.generation], [4, 3]);
});

test('status: only through /status; counts bounded by status.replicas; collision count never decreases', async () => {
  const o = await h.create(deploy({ replicas: 3 }));
  const withStatus = structuredClone(o);
  withStatus.status = { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2, collisionCount: 1 };
  assert.deepEqual((await h.update(withStatus)).status, {});
  const written = await h.update(withStatus, { subresource: 'status' });
  assert.deepEqual(kind.tableColumns!.slice(1, 4).map((c) => c.cell(written)), ['2/3', 3, 2]);
  const bad = structuredClone(written);
  bad.status = { replicas: 1, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 2, collisionCount: 0 };
  assert.deepEqual((await rejection(h.update(bad, { subresource: 'status' }))).causes, [
    'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
    'status.collisionCount: Invalid value: 0: cannot be decremented',
  ]);
});

test('scale view: spec.replicas, status.replicas and the selector as a string; updates set spec.replicas', async () => {
  const o = await h.create(deploy({ replicas: 2, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] } }));
  const view = scale.get!(o);
  assert.deepEqual(view, {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name: o.metadata.name, namespace: 'ns', uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion, creationTimestamp: o.metadata.creationTimestamp },
    spec: { replicas: 2 }, status: { replicas: 0, selector: 'app=web,tier notin (db)' },
  });
  const next = scale.update!(o, { ...view, spec: { replicas: 5 } });
  assert.equal(specOf(next).replicas, 5);
  assert.equal(next.metadata.resourceVersion, o.metadata.resourceVersion);
  assert.throws(() => scale.update!(o, { ...view, spec: { replicas: -1 } }), (e: unknown) => e instanceof StatusError && e.code === 422 && e.message === 'Scale.autoscaling "' + o.metadata.name + '" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  assert.throws(() => scale.update!(o, { ...view, metadata: { ...view.metadata, uid: 'other' } }), (e: unknown) => e instanceof StatusError && e.code === 409);
  assert.deepEqual(scale.get!({ ...o, spec: { ...specOf(o), replicas: 0 } }).spec, {});
});

test('wide columns: containers, images, selector', async () => {
  const o = await h.create(deploy({ template: template({ containers: [{ name: 'web', image: 'nginx:1.27' }, { name: 'log', image: 'fluentd' }] }) }));
  assert.deepEqual(kind.tableColumns!.slice(5).map((c) => c.cell(o)), ['web,log', 'nginx:1.27,fluentd', 'app=web']);
});
