import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { horizontalPodAutoscalerKind as kind, formatHPAMetrics } from './horizontalpodautoscaler.ts';
import { hpaToV1, hpaFromV1, METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION } from './horizontalpodautoscaler-v1.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const hpa = (spec: Obj = {}, name = `hpa-${++n}`): ApiObject => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name, namespace: 'ns' }, spec: { scaleTargetRef: ref, maxReplicas: 5, ...spec },
});
const causes = async (spec: Obj) => (await rejection(h.create(hpa(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const cpu = (averageUtilization: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } } });

test('declaration: autoscaling v2 (storage) and v1, short name hpa, category all, status sub-resource, columns', () => {
  assert.deepEqual(kind.versions.map((v) => v.name), ['v2', 'v1']);
  assert.equal(kind.storageVersion, 'v2');
  assert.ok(kind.versions[1]!.toStorage && kind.versions[1]!.fromStorage);
  assert.deepEqual([kind.shortNames, kind.categories, kind.status], [['hpa'], ['all'], {}]);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age']);
  const spec = (kind.versions[0]!.schema as any).properties.spec.properties;
  assert.deepEqual(['scaleTargetRef', 'minReplicas', 'maxReplicas', 'metrics', 'behavior'].map((k) => spec[k]['x-proto']), [1, 2, 3, 4, 5]);
  const v1 = (kind.versions[1]!.schema as any).properties.spec.properties;
  assert.deepEqual(['scaleTargetRef', 'minReplicas', 'maxReplicas', 'targetCPUUtilizationPercentage'].map((k) => v1[k]['x-proto']), [1, 2, 3, 4]);
});

test('defaults: minReplicas 1, 80% CPU when no metric is named, status desiredReplicas 0', async () => {
  const o = await h.create(hpa());
  assert.equal(specOf(o).minReplicas, 1);
  assert.deepEqual(specOf(o).metrics, [cpu(80)]);
  assert.deepEqual(o.status, { desiredReplicas: 0 });
  assert.deepEqual(specOf(await h.create(hpa({ minReplicas: 2, metrics: [cpu(50)] }))).metrics, [cpu(50)]);
});

test('defaults: behavior rules fill in what is not given (scale up: 0s window, max of 4 pods or 100% per 15s; scale down: 100% per 15s)', async () => {
  const o = await h.create(hpa({ behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } }));
  assert.deepEqual(specOf(o).behavior, {
    scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
    scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }], stabilizationWindowSeconds: 60 },
  });
  const custom = await h.create(hpa({ behavior: { scaleUp: { selectPolicy: 'Disabled', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } } }));
  assert.deepEqual(specOf(custom).behavior.scaleUp, { stabilizationWindowSeconds: 0, selectPolicy: 'Disabled', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] });
  assert.equal(specOf(await h.create(hpa())).behavior, undefined);
});

test('replica bounds: minReplicas at least 1, maxReplicas positive and at least minReplicas', async () => {
  assert.deepEqual(await causes({ minReplicas: 3, maxReplicas: 2 }), ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`']);
  assert.deepEqual(await causes({ minReplicas: 0, maxReplicas: 0 }), ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', 'spec.maxReplicas: Invalid value: 0: must be greater than 0']);
});

test('scaleTargetRef: kind and name required, path segment names', async () => {
  assert.deepEqual(await causes({ scaleTargetRef: { kind: '', name: 'a/b' } }), ['spec.scaleTargetRef.kind: Required value', "spec.scaleTargetRef.name: Invalid value: \"a/b\": may not contain '/'"]);
  assert.deepEqual(await causes({ scaleTargetRef: { kind: '..', name: 'x' } }), ["spec.scaleTargetRef.kind: Invalid value: \"..\": may not be '..'"]);
});

test('metrics: the source of the type, one source only, targets set and positive', async () => {
  assert.deepEqual(await causes({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }] }), ['spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization']);
  assert.deepEqual(await causes({ metrics: [cpu(0)] }), ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0']);
  assert.deepEqual(await causes({ metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50, averageValue: '100m' } } }] }), ['spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization']);
  assert.deepEqual(await causes({ metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue' } } }] }), ['spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue']);
  assert.deepEqual(await causes({ metrics: [{ type: 'Pods', resource: cpu(50).resource }] }), ['spec.metrics[0].pods: Required value: must populate information for the given metric source']);
  assert.deepEqual(await causes({ metrics: [{ ...cpu(50), pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } } }] }), ['spec.metrics[0].pods: Forbidden: must populate the given metric source only']);
  assert.deepEqual(await causes({ metrics: [{ type: 'Weird' }] }), ['spec.metrics[0].type: Unsupported value: "Weird": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"']);
  assert.deepEqual(await causes({ metrics: [{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '10', averageValue: '1' } } }] }), ['spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target']);
  assert.deepEqual(await causes({ metrics: [{ type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'Value', value: '-1' } } }] }), ['spec.metrics[0].object.target.value: Invalid value: "-1": must be positive']);
  assert.deepEqual(await causes({ metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } }] }), ['spec.metrics[0].containerResource.container: Required value: must specify a container']);
  assert.deepEqual(await causes({ metrics: [{ type: 'Pods', pods: { metric: { name: '' }, target: { type: 'Bogus', averageValue: '1' } } }] }), [
    'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
    'spec.metrics[0].pods.target.type: Invalid value: "Bogus": must be either Utilization, Value, or AverageValue',
  ]);
});

test('behavior: window and period bounds, known select policies and policy types, at least one policy', async () => {
  assert.deepEqual(await causes({ behavior: { scaleUp: { policies: [], selectPolicy: 'Most', stabilizationWindowSeconds: 4000 } } }), [
    'spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600',
    'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Most": supported values: "Disabled", "Max", "Min"',
    'spec.behavior.scaleUp.policies: Required value: must specify at least one Policy',
  ]);
  assert.deepEqual(await causes({ behavior: { scaleDown: { policies: [{ type: 'Nodes', value: 0, periodSeconds: 2000 }] } } }), [
    'spec.behavior.scaleDown.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
    'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
    'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800',
  ]);
  assert.deepEqual(await causes({ behavior: { scaleDown: { stabilizationWindowSeconds: -1 } } }), ['spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero']);
});

test('status: only through /status, replica counts not negative', async () => {
  const o = await h.create(hpa());
  const s = structuredClone(o); s.status = { currentReplicas: 2, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40, averageValue: '120m' } } }] };
  assert.deepEqual((await h.update(s)).status, { desiredReplicas: 0 });
  const written = await h.update(s, { subresource: 'status' });
  assert.deepEqual(kind.tableColumns!.slice(1, 6).map((c) => c.cell(written)), ['Deployment/web', 'cpu: 40%/80%', '1', 5, 2]);
  const bad = structuredClone(written); (bad.status as Obj).desiredReplicas = -1;
  assert.deepEqual((await rejection(h.update(bad, { subresource: 'status' }))).causes, ['status.desiredReplicasa: Invalid value: -1: must be greater than or equal to 0']);
});

test('v1 -> v2: targetCPUUtilizationPercentage is a cpu Utilization metric; the metrics annotation holds the others (cpu last)', () => {
  const v1: ApiObject = {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'a', namespace: 'ns', annotations: { keep: 'me', [METRIC_SPECS_ANNOTATION]: JSON.stringify([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]) } },
    spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 6, targetCPUUtilizationPercentage: 70 },
  };
  const v2 = hpaFromV1(structuredClone(v1));
  assert.equal(v2.apiVersion, 'autoscaling/v2');
  assert.deepEqual(v2.metadata.annotations, { keep: 'me' });
  assert.deepEqual(v2.spec, {
    scaleTargetRef: ref, minReplicas: 2, maxReplicas: 6,
    metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } }, cpu(70)],
  });
  assert.deepEqual((hpaFromV1({ ...v1, metadata: { name: 'b' }, spec: { scaleTargetRef: ref, maxReplicas: 3 } }).spec as Obj).metrics, [cpu(80)]);
  // An annotation that is not JSON is ignored and kept out.
  assert.deepEqual((hpaFromV1({ ...v1, metadata: { name: 'c', annotations: { [METRIC_SPECS_ANNOTATION]: '{' } } }).spec as Obj).metrics, [cpu(70)]);
});

test('v2 -> v1: cpu utilization to targetCPUUtilizationPercentage; other metrics, current metrics, behavior and conditions to annotations', () => {
  const v2: ApiObject = {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'a', namespace: 'ns' },
    spec: {
      scaleTargetRef: ref, minReplicas: 1, maxReplicas: 4,
      metrics: [cpu(60), { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } },
    },
    status: {
      currentReplicas: 2, desiredReplicas: 3,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 55, averageValue: '110m' } } }],
      conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z', reason: 'ReadyForNewScale' }],
    },
  };
  const v1 = hpaToV1({ ...structuredClone(v2), apiVersion: 'autoscaling/v2' });
  assert.equal(v1.apiVersion, 'autoscaling/v1');
  assert.deepEqual(v1.spec, { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 4, targetCPUUtilizationPercentage: 60 });
  assert.deepEqual(v1.status, { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 55 });
  const a = v1.metadata.annotations!;
  assert.equal(a[METRIC_SPECS_ANNOTATION], '[{"type":"External","external":{"metricName":"queue","targetValue":"30"}}]');
  assert.equal(a[METRIC_STATUSES_ANNOTATION], '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":55,"currentAverageValue":"110m"}}]');
  assert.equal(a[BEHAVIOR_ANNOTATION], '{"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":null,"Policies":[{"Type":"Percent","Value":10,"PeriodSeconds":60}]}}');
  assert.equal(a[CONDITIONS_ANNOTATION], '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-05-01T10:00:00Z","reason":"ReadyForNewScale"}]');
  // And back: the same v2 object, the cpu metric last (as Kubernetes converts).
  const back = hpaFromV1(structuredClone(v1));
  const spec = v2.spec as Obj;
  assert.deepEqual(back.spec, { ...spec, metrics: [spec.metrics[1], spec.metrics[0]] });
  assert.deepEqual((back.status as Obj).currentMetrics, (v2.status as Obj).currentMetrics);
  assert.deepEqual((back.status as Obj).conditions, (v2.status as Obj).conditions);
  assert.equal(back.metadata.annotations, undefined);
});

test('an HPA written in v1 is stored in v2 and validated there', async () => {
  const stored = await h.create(hpaFromV1({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'from-v1', namespace: 'ns' }, spec: { scaleTargetRef: ref, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } }));
  assert.deepEqual(specOf(stored), { scaleTargetRef: ref, maxReplicas: 3, metrics: [cpu(50)], minReplicas: 1 });
  const asV1 = hpaToV1({ ...structuredClone(stored), apiVersion: 'autoscaling/v1' });
  assert.deepEqual(asV1.spec, { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 });
  assert.deepEqual((await rejection(h.create(hpaFromV1({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'bad', namespace: 'ns' }, spec: { scaleTargetRef: ref, minReplicas: 4, maxReplicas: 3 } })))).causes, [
    'spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`',
  ]);
  // Table cells read either form.
  assert.deepEqual(kind.tableColumns!.slice(1, 5).map((c) => c.cell(asV1)), ['Deployment/web', 'cpu: <unknown>/50%', '1', 3]);
});

test('TARGETS as kubectl prints them', () => {
  const m = (type: string, body: Obj) => ({ type, [type === 'ContainerResource' ? 'containerResource' : type.toLowerCase()]: body });
  assert.equal(formatHPAMetrics([], []), '<none>');
  assert.equal(formatHPAMetrics([cpu(80)], []), 'cpu: <unknown>/80%');
  assert.equal(formatHPAMetrics([m('Resource', { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } })], [m('Resource', { name: 'memory', current: { averageValue: '256Mi' } })]), 'memory: 256Mi/512Mi');
  assert.equal(formatHPAMetrics([m('Pods', { metric: { name: 'qps' }, target: { averageValue: '10' } })], [m('Pods', { current: { averageValue: '4' } })]), '4/10');
  assert.equal(formatHPAMetrics([m('External', { metric: { name: 'q' }, target: { averageValue: '30' } })], []), '<unknown>/30 (avg)');
  assert.equal(formatHPAMetrics([cpu(10), cpu(20), cpu(30), cpu(40)], []), 'cpu: <unknown>/10%, cpu: <unknown>/20% + 2 more...');
});

test('v2 -> v1: annotations sit where ObjectMeta puts them (before managedFields), keys sorted as Go writes a map', () => {
  const stored = {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'o', namespace: 'ns', uid: 'u', managedFields: [] as unknown[] },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3,
      metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Mi' } } }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 60 } },
    },
  };
  const v1 = hpaToV1(structuredClone(stored) as never);
  assert.deepEqual(Object.keys(v1.metadata), ['name', 'namespace', 'uid', 'annotations', 'managedFields']);
  assert.deepEqual(Object.keys(v1.metadata.annotations!), [BEHAVIOR_ANNOTATION, METRIC_SPECS_ANNOTATION]);
  const withUser = hpaToV1({ ...structuredClone(stored), metadata: { name: 'o', annotations: { z: '1' }, labels: { a: 'b' } } } as never);
  assert.deepEqual(Object.keys(withUser.metadata), ['name', 'annotations', 'labels']);
  assert.deepEqual(Object.keys(withUser.metadata.annotations!), [BEHAVIOR_ANNOTATION, METRIC_SPECS_ANNOTATION, 'z']);
});
