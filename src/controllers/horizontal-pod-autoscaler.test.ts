import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startHorizontalPodAutoscalerController, statusUnchanged } from './horizontal-pod-autoscaler.ts';
import { goLabelSelector } from './horizontal-pod-autoscaler-metrics.ts';
import type { EventRecorder } from './events.ts';
import { ResourceStore } from '../registry/store.ts';
import { updateObject } from '../registry/update-object.ts';
import { syncCache } from '../registry/list.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { StatusError } from '../machinery/status.ts';
import { horizontalPodAutoscalerKind } from '../apis/autoscaling/horizontalpodautoscaler.ts';
import { deploymentKind } from '../apis/apps/deployment.ts';
import { replicaSetKind } from '../apis/apps/replicaset.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { podKind } from '../apis/core/pod.ts';
import { CONTROLLER_MANAGER_FIELD_MANAGER } from '../apis/kind.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

type Obj = Record<string, any>;

const storage = SqliteStorage.open(':memory:');
const autoscalers = new ResourceStore(horizontalPodAutoscalerKind, storage);
/** Namespaces whose Deployments refuse every update, as a failing API server would. */
const refusing = new Set<string>();
const REFUSAL = 'Internal error occurred: etcdserver: request timed out';
const deployments = new ResourceStore(deploymentKind, storage, undefined, {
  async beginUpdate(obj) {
    if (refusing.has(obj.metadata.namespace ?? '')) throw new StatusError(500, 'InternalError', REFUSAL);
    return async () => {};
  },
});
const replicaSets = new ResourceStore(replicaSetKind, storage);
const configMaps = new ResourceStore(configMapKind, storage);
const pods = new ResourceStore(podKind, storage);
const allStores = [autoscalers, deployments, replicaSets, configMaps, pods];
const byKind = new Map(allStores.map((s) => [`${s.def.group}/${s.def.kind}`, s]));
const opts = { ctx: requestContext(), dryRun: false };

let clock = Date.parse('2025-03-01T10:00:00Z');
const at = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

interface Recorded { namespace: string; name: string; type: string; reason: string; message: string }
const recorded: Recorded[] = [];
const events: EventRecorder = {
  event(object, type, reason, message) {
    recorded.push({ namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '', type, reason, message });
  },
};
const eventsOf = (namespace: string, name: string) =>
  recorded.filter((e) => e.namespace === namespace && e.name === name).map(({ type, reason, message }) => ({ type, reason, message }));

let controller: ReturnType<typeof startHorizontalPodAutoscalerController>;
before(async () => {
  for (const s of allStores) await s.cache.start();
  controller = startHorizontalPodAutoscalerController({
    autoscalers, pods, events, log: () => {},
    storeForKind: (group, kind) => byKind.get(`${group}/${kind}`),
    // Longer than any test: whatever happens, happens because of a change.
    resyncMs: 3_600_000,
    now: () => clock,
  });
});
after(async () => { controller.stop(); for (const s of allStores) s.cache.stop(); await storage.close(); });

// ---- helpers ----

const NO_RESOURCE_METRICS = 'unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.svc.io)';
const NO_CUSTOM_METRICS = 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.svc.io) registered';
const CPU_UNAVAILABLE = `failed to get cpu utilization: unable to get metrics for resource cpu: ${NO_RESOURCE_METRICS}`;

/** Created by a client that records its fields, as kubectl does: later writes record theirs. */
const kubectlCreate = { ctx: { ...requestContext(), fieldManager: 'kubectl-create' }, dryRun: false };

async function createDeployment(namespace: string, name: string, replicas: number): Promise<ApiObject> {
  const labels = { app: name };
  return (await deployments.create(namespace, {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
  } as ApiObject, kubectlCreate)).object;
}

interface HpaOptions { min?: number; max: number; target?: Obj; metrics?: Obj[] }

async function createHpa(namespace: string, name: string, o: HpaOptions): Promise<ApiObject> {
  return (await autoscalers.create(namespace, {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name },
    spec: {
      scaleTargetRef: o.target ?? { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      ...(o.min !== undefined ? { minReplicas: o.min } : {}), maxReplicas: o.max,
      ...(o.metrics ? { metrics: o.metrics } : {}),
    },
  } as ApiObject, opts)).object;
}

const read = async (store: ResourceStore, namespace: string, name: string) => (await store.readNow(namespace, name))!.object as Obj;
const hpaStatus = async (namespace: string, name: string) => (await read(autoscalers, namespace, name)).status as Obj;
const replicasOf = async (store: ResourceStore, namespace: string, name: string) => (await read(store, namespace, name)).spec.replicas;

/** Waits until the controller has nothing left to do: caches current, queue empty, nothing written meanwhile. */
async function settled(): Promise<void> {
  for (;;) {
    const revision = await storage.currentRevision();
    for (const s of allStores) await syncCache(s, storage);
    await controller.queue.idle();
    if (await storage.currentRevision() === revision) return;
  }
}

/** Reconciles one HPA now, as the resync would. */
async function resync(namespace: string, name: string): Promise<void> {
  controller.queue.add(`${namespace}/${name}`);
  await settled();
}

const condition = (type: string, status: string, reason: string, message: string, since: number) =>
  ({ type, status, lastTransitionTime: at(since), reason, message });

// ---- the rules ----

test('a Deployment below minReplicas is scaled up to it through its scale sub-resource', async () => {
  const ns = 'below-min';
  await createDeployment(ns, 'web', 1);
  await createHpa(ns, 'web', { min: 3, max: 5 });
  await settled();

  const deployment = await read(deployments, ns, 'web');
  assert.equal(deployment.spec.replicas, 3);
  const scaleWrite = deployment.metadata.managedFields.find((f: Obj) => f.subresource === 'scale');
  assert.equal(scaleWrite?.manager, CONTROLLER_MANAGER_FIELD_MANAGER, 'written through /scale by the controller manager');
  assert.equal(scaleWrite?.operation, 'Update');
  assert.deepEqual(await hpaStatus(ns, 'web'), {
    lastScaleTime: at(clock), currentReplicas: 1, desiredReplicas: 3,
    conditions: [condition('AbleToScale', 'True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 3', clock)],
  });
  assert.deepEqual(eventsOf(ns, 'web'), [
    { type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 3; reason: Current number of replicas below Spec.MinReplicas' },
  ]);
});

test('a Deployment above maxReplicas is scaled down to it', async () => {
  const ns = 'above-max';
  await createDeployment(ns, 'web', 8);
  await createHpa(ns, 'web', { min: 2, max: 5 });
  await settled();

  assert.equal(await replicasOf(deployments, ns, 'web'), 5);
  const status = await hpaStatus(ns, 'web');
  assert.equal(status.currentReplicas, 8);
  assert.equal(status.desiredReplicas, 5);
  assert.equal(status.lastScaleTime, at(clock));
  assert.deepEqual(eventsOf(ns, 'web'), [
    { type: 'Normal', reason: 'SuccessfulRescale', message: 'New size: 5; reason: Current number of replicas above Spec.MaxReplicas' },
  ]);
});

test('a ReplicaSet above maxReplicas is scaled down to it', async () => {
  const ns = 'replicaset';
  const labels = { app: 'rs' };
  await replicaSets.create(ns, {
    apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' },
    spec: { replicas: 6, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
  } as ApiObject, opts);
  await createHpa(ns, 'rs', { max: 4, target: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs' } });
  await settled();

  assert.equal(await replicasOf(replicaSets, ns, 'rs'), 4);
  assert.equal((await hpaStatus(ns, 'rs')).desiredReplicas, 4);
});

test('within range: the metrics cannot be fetched, so nothing is scaled and the HPA says why', async () => {
  const ns = 'in-range';
  const before = await createDeployment(ns, 'web', 2);
  await createHpa(ns, 'web', { min: 1, max: 5 });
  await settled();

  const deployment = await read(deployments, ns, 'web');
  assert.equal(deployment.spec.replicas, 2);
  assert.equal(deployment.metadata.resourceVersion, before.metadata.resourceVersion, 'the target is not written');
  assert.deepEqual(await hpaStatus(ns, 'web'), {
    currentReplicas: 2, desiredReplicas: 0,
    // One empty status per metric, as Kubernetes leaves them.
    currentMetrics: [{ type: '' }],
    conditions: [
      condition('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", clock),
      condition('ScalingActive', 'False', 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${CPU_UNAVAILABLE}`, clock),
    ],
  });
  assert.deepEqual(eventsOf(ns, 'web'), [
    { type: 'Warning', reason: 'FailedGetResourceMetric', message: CPU_UNAVAILABLE },
    { type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${CPU_UNAVAILABLE}` },
  ]);
});

test('within range: every metric type fails with its own reason, the first one sets the condition', async () => {
  const ns = 'metric-types';
  await createDeployment(ns, 'web', 2);
  await createHpa(ns, 'web', {
    max: 5,
    metrics: [
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Pods', pods: { metric: { name: 'packets' }, target: { type: 'AverageValue', averageValue: '1k' } } },
      { type: 'Object', object: { describedObject: { apiVersion: 'networking.svc.io/v1', kind: 'Ingress', name: 'main' }, metric: { name: 'requests' }, target: { type: 'Value', value: '10k' } } },
      { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'jobs' } } }, target: { type: 'AverageValue', averageValue: '30' } } },
    ],
  });
  await settled();

  const memory = `failed to get memory usage: unable to get metrics for resource memory: ${NO_RESOURCE_METRICS}`;
  const external = 'unable to get external metric metric-types/queue/&LabelSelector{MatchLabels:map[string]string{q: jobs,},MatchExpressions:[]LabelSelectorRequirement{},}: '
    + 'unable to fetch metrics from external metrics API: the server could not find the requested resource (get queue.external.metrics.svc.io)';
  assert.deepEqual(eventsOf(ns, 'web'), [
    { type: 'Warning', reason: 'FailedGetResourceMetric', message: memory },
    { type: 'Warning', reason: 'FailedGetContainerResourceMetric', message: CPU_UNAVAILABLE },
    { type: 'Warning', reason: 'FailedGetPodsMetric', message: `unable to get metric packets: ${NO_CUSTOM_METRICS}` },
    { type: 'Warning', reason: 'FailedGetObjectMetric', message: `unable to get metric requests: Ingress on metric-types main/${NO_CUSTOM_METRICS}` },
    { type: 'Warning', reason: 'FailedGetExternalMetric', message: external },
    { type: 'Warning', reason: 'FailedComputeMetricsReplicas', message: `invalid metrics (5 invalid out of 5), first error is: failed to get memory resource metric value: ${memory}` },
  ]);
  const status = await hpaStatus(ns, 'web');
  assert.equal(status.currentMetrics.length, 5);
  assert.deepEqual(status.conditions[1], condition('ScalingActive', 'False', 'FailedGetResourceMetric', `the HPA was unable to compute the replica count: ${memory}`, clock));
});

test('a target at zero replicas: scaling is disabled, nothing is scaled', async () => {
  const ns = 'zero';
  await createDeployment(ns, 'web', 0);
  await createHpa(ns, 'web', { min: 2, max: 5 });
  await settled();

  assert.equal(await replicasOf(deployments, ns, 'web') ?? 0, 0);
  assert.deepEqual(await hpaStatus(ns, 'web'), {
    desiredReplicas: 0,
    conditions: [
      condition('AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", clock),
      condition('ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', clock),
    ],
  });
  assert.deepEqual(eventsOf(ns, 'web'), []);
});

test('a target that cannot be read: AbleToScale False with Kubernetes\' reason and message', async () => {
  const ns = 'no-target';
  await configMaps.create(ns, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } } as ApiObject, opts);
  const cases = [
    { name: 'missing', target: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'absent' }, error: 'deployments.apps "absent" not found' },
    { name: 'unknown-kind', target: { apiVersion: 'apps/v1', kind: 'Widget', name: 'w' }, error: 'no matches for kind "Widget" in group "apps"' },
    { name: 'no-scale', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'settings' }, error: 'the server could not find the requested resource' },
    { name: 'bad-version', target: { apiVersion: 'apps/v1/beta', kind: 'Deployment', name: 'web' }, error: 'unexpected GroupVersion string: apps/v1/beta' },
  ];
  for (const c of cases) await createHpa(ns, c.name, { max: 3, target: c.target });
  await settled();

  for (const c of cases) {
    assert.deepEqual(await hpaStatus(ns, c.name), {
      desiredReplicas: 0,
      conditions: [condition('AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${c.error}`, clock)],
    }, c.name);
    assert.deepEqual(eventsOf(ns, c.name), [{ type: 'Warning', reason: 'FailedGetScale', message: c.error }], c.name);
  }
});

test('a failed scale write: FailedRescale, AbleToScale False FailedUpdateScale, then a later success', async () => {
  const ns = 'refused';
  refusing.add(ns);
  await createDeployment(ns, 'web', 1);
  await createHpa(ns, 'web', { min: 3, max: 5 });
  await settled();

  assert.equal(await replicasOf(deployments, ns, 'web'), 1);
  const failedAt = clock;
  assert.deepEqual(await hpaStatus(ns, 'web'), {
    currentReplicas: 1, desiredReplicas: 0,
    conditions: [condition('AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${REFUSAL}`, failedAt)],
  });
  assert.deepEqual(eventsOf(ns, 'web'), [
    { type: 'Warning', reason: 'FailedRescale', message: `New size: 3; reason: Current number of replicas below Spec.MinReplicas; error: ${REFUSAL}` },
  ]);

  refusing.delete(ns);
  clock += 60_000;
  await resync(ns, 'web');
  assert.equal(await replicasOf(deployments, ns, 'web'), 3);
  const status = await hpaStatus(ns, 'web');
  assert.equal(status.lastScaleTime, at(clock));
  assert.deepEqual(status.conditions, [condition('AbleToScale', 'True', 'SucceededRescale', 'the HPA controller was able to update the target scale to 3', clock)]);
});

test('two HPAs over the same pods: the one that finds the other gets AmbiguousSelector', async () => {
  const ns = 'ambiguous';
  await createDeployment(ns, 'web', 2);
  await pods.create(ns, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } as ApiObject, opts);
  await createHpa(ns, 'first', { max: 5 });
  await settled();
  assert.equal((await hpaStatus(ns, 'first')).conditions[1].reason, 'FailedGetResourceMetric', 'alone, the first one only lacks metrics');

  await createHpa(ns, 'second', { max: 5 });
  await settled();
  const message = 'pods by selector app=web are controlled by multiple HPAs: [ambiguous/first ambiguous/second]';
  const status = await hpaStatus(ns, 'second');
  assert.equal(status.currentMetrics, undefined);
  assert.deepEqual(status.conditions[1], condition('ScalingActive', 'False', 'AmbiguousSelector', message, clock));
  assert.deepEqual(eventsOf(ns, 'second'), [
    { type: 'Warning', reason: 'AmbiguousSelector', message },
    { type: 'Warning', reason: 'FailedComputeMetricsReplicas', message },
  ]);
});

// ---- changes and rewrites ----

test('a change of the HPA is acted on at once, without waiting for the resync', async () => {
  const ns = 'changed';
  await createDeployment(ns, 'web', 2);
  await createHpa(ns, 'web', { min: 1, max: 5 });
  await settled();
  assert.equal(await replicasOf(deployments, ns, 'web'), 2);

  await updateObject(autoscalers, requestContext(), ns, 'web', (hpa) => { (hpa.spec as Obj).minReplicas = 4; });
  await settled();
  assert.equal(await replicasOf(deployments, ns, 'web'), 4);
  const status = await hpaStatus(ns, 'web');
  assert.equal(status.desiredReplicas, 4);
  assert.equal(eventsOf(ns, 'web').at(-1)?.message, 'New size: 4; reason: Current number of replicas below Spec.MinReplicas');
});

test('nothing is rewritten when nothing changed, even as the clock moves', async () => {
  const ns = 'steady';
  const deployment = await createDeployment(ns, 'web', 2);
  await createHpa(ns, 'web', { max: 5 });
  await settled();
  const hpaVersion = (await read(autoscalers, ns, 'web')).metadata.resourceVersion;
  const seen = eventsOf(ns, 'web').length;

  clock += 5 * 60_000;
  await resync(ns, 'web');
  assert.equal(eventsOf(ns, 'web').length, seen * 2, 'reconciled again, with the same events');
  assert.equal((await read(autoscalers, ns, 'web')).metadata.resourceVersion, hpaVersion);
  assert.equal((await read(deployments, ns, 'web')).metadata.resourceVersion, deployment.metadata.resourceVersion);
});

test('a condition\'s lastTransitionTime moves only when its status does', async () => {
  const ns = 'transitions';
  await createHpa(ns, 'web', { max: 5 });
  await settled();
  const missingAt = clock;
  assert.equal((await hpaStatus(ns, 'web')).conditions[0].lastTransitionTime, at(missingAt));

  clock += 60_000;
  const foundAt = clock;
  await createDeployment(ns, 'web', 2);
  await resync(ns, 'web');
  assert.deepEqual((await hpaStatus(ns, 'web')).conditions.map((c: Obj) => [c.type, c.status, c.reason, c.lastTransitionTime]), [
    ['AbleToScale', 'True', 'SucceededGetScale', at(foundAt)],
    ['ScalingActive', 'False', 'FailedGetResourceMetric', at(foundAt)],
  ]);

  clock += 60_000;
  await updateObject(deployments, requestContext(), ns, 'web', (d) => { (d.spec as Obj).replicas = 0; });
  await resync(ns, 'web');
  assert.deepEqual((await hpaStatus(ns, 'web')).conditions.map((c: Obj) => [c.type, c.status, c.reason, c.lastTransitionTime]), [
    ['AbleToScale', 'True', 'SucceededGetScale', at(foundAt)],
    ['ScalingActive', 'False', 'ScalingDisabled', at(foundAt)],
  ]);
});

// ---- pieces ----

test('statusUnchanged treats zero counts and empty lists as absent, as Go decodes them', () => {
  assert.ok(statusUnchanged({ desiredReplicas: 0 }, { currentReplicas: 0, desiredReplicas: 0, conditions: [] }));
  assert.ok(!statusUnchanged({ desiredReplicas: 0 }, { desiredReplicas: 1 }));
  assert.ok(!statusUnchanged({ desiredReplicas: 1, currentMetrics: [{ type: '' }] }, { desiredReplicas: 1 }));
});

test('goLabelSelector prints a metric selector as Go prints a *LabelSelector', () => {
  assert.equal(goLabelSelector(undefined), 'nil');
  assert.equal(goLabelSelector({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }] }),
    '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}');
});
