// End-to-end: server-side apply through a version stored in another shape (autoscaling/v1 HPAs stored as
// autoscaling/v2, events.svc.io/v1 Events stored as core v1). As Kubernetes' field manager does, the
// configuration is merged onto the object read in the request's version, the applier's entry records that
// version's fields, and managers recorded in other versions are compared in their own version.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { startTestServer, type TestServer } from './support/capstan.ts';

interface Entry { manager: string; operation: string; apiVersion: string; time?: string; fieldsType: string; fieldsV1: unknown; subresource?: string }

const APPLY = { 'content-type': 'application/apply-patch+yaml' };
const HPAS_V1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
const HPAS_V2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
const EVENTS = '/apis/events.svc.io/v1/namespaces/default/events';
const CORE_EVENTS = '/api/v1/namespaces/default/events';

function entries(obj: { metadata: { managedFields?: Entry[] } }): Omit<Entry, 'time'>[] {
  return (obj.metadata.managedFields ?? []).map(({ time: _time, ...rest }) => rest);
}

function hpaV1(name: string, spec: Record<string, unknown>): string {
  return YAML.stringify({
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
  });
}

const cpuMetric = (utilization: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: utilization } } });

describe('server-side apply through a version of another shape', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const apply = (path: string, body: string, manager: string, force = false) =>
    s.request('PATCH', `${path}?fieldManager=${manager}${force ? '&force=true' : ''}`, { body, headers: APPLY });

  describe('an autoscaling/v1 HorizontalPodAutoscaler', () => {
    it('is created and updated in its v1 shape: the entry owns targetCPUUtilizationPercentage, the stored form has the cpu metric', async () => {
      const created = await apply(`${HPAS_V1}/hpa-create`, hpaV1('hpa-create', { targetCPUUtilizationPercentage: 50 }), 'alice');
      assert.equal(created.status, 201, created.body);
      assert.equal(created.json().apiVersion, 'autoscaling/v1');
      assert.deepEqual(entries(created.json()), [{
        manager: 'alice', operation: 'Apply', apiVersion: 'autoscaling/v1', fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } },
      }]);
      const updated = await apply(`${HPAS_V1}/hpa-create`, hpaV1('hpa-create', { targetCPUUtilizationPercentage: 65, minReplicas: 2 }), 'alice');
      assert.equal(updated.status, 200, updated.body);
      assert.equal(updated.json().spec.targetCPUUtilizationPercentage, 65);
      assert.deepEqual(entries(updated.json())[0].fieldsV1, { 'f:spec': { 'f:maxReplicas': {}, 'f:minReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } });
      const v2 = (await s.request('GET', `${HPAS_V2}/hpa-create`)).json();
      assert.deepEqual(v2.spec.metrics, [cpuMetric(65)]);
      assert.equal(v2.spec.minReplicas, 2);
    });

    it('re-applying the same configuration changes nothing (same resourceVersion), the entry in its v1 shape', async () => {
      const first = await apply(`${HPAS_V1}/hpa-same`, hpaV1('hpa-same', { targetCPUUtilizationPercentage: 40 }), 'alice');
      assert.equal(first.status, 201, first.body);
      const again = await apply(`${HPAS_V1}/hpa-same`, hpaV1('hpa-same', { targetCPUUtilizationPercentage: 40 }), 'alice');
      assert.equal(again.status, 200, again.body);
      assert.equal(again.json().metadata.resourceVersion, first.json().metadata.resourceVersion);
      assert.deepEqual(entries(again.json()), entries(first.json()));
      assert.deepEqual(entries(again.json())[0].fieldsV1, { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } });
    });

    it('a second applier conflicts on the field a v1 applier set, and takes it with force', async () => {
      assert.equal((await apply(`${HPAS_V1}/hpa-v1`, hpaV1('hpa-v1', { targetCPUUtilizationPercentage: 50 }), 'alice')).status, 201);
      const conflict = await apply(`${HPAS_V1}/hpa-v1`, hpaV1('hpa-v1', { targetCPUUtilizationPercentage: 70 }), 'bob');
      assert.equal(conflict.status, 409, conflict.body);
      const st = conflict.json();
      assert.equal(st.reason, 'Conflict');
      assert.equal(st.message, 'Apply failed with 1 conflict: conflict with "alice": .spec.targetCPUUtilizationPercentage');
      assert.deepEqual(st.details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.targetCPUUtilizationPercentage' }]);

      const forced = await apply(`${HPAS_V1}/hpa-v1`, hpaV1('hpa-v1', { targetCPUUtilizationPercentage: 70 }), 'bob', true);
      assert.equal(forced.status, 200, forced.body);
      assert.equal(forced.json().spec.targetCPUUtilizationPercentage, 70);
      const byManager = Object.fromEntries(entries(forced.json()).map((e) => [e.manager, e.fieldsV1]));
      assert.deepEqual(byManager.alice, { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {} } });
      assert.deepEqual(byManager.bob, { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } });
    });

    it('conflicts with a manager who set the metrics through autoscaling/v2, compared in that manager\'s version', async () => {
      const hpa = {
        apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'hpa-v2' },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, metrics: [cpuMetric(50)] },
      };
      const created = await s.request('POST', `${HPAS_V2}?fieldManager=carol`, { body: JSON.stringify(hpa) });
      assert.equal(created.status, 201, created.body);
      const conflict = await apply(`${HPAS_V1}/hpa-v2`, hpaV1('hpa-v2', { targetCPUUtilizationPercentage: 70 }), 'bob');
      assert.equal(conflict.status, 409, conflict.body);
      assert.equal(conflict.json().message, 'Apply failed with 1 conflict: conflict with "carol" using autoscaling/v2: .spec.metrics');

      // The same value is no conflict: the metrics read in v2 do not change.
      const same = await apply(`${HPAS_V1}/hpa-v2`, hpaV1('hpa-v2', { targetCPUUtilizationPercentage: 50 }), 'bob');
      assert.equal(same.status, 200, same.body);

      const forced = await apply(`${HPAS_V1}/hpa-v2`, hpaV1('hpa-v2', { targetCPUUtilizationPercentage: 70 }), 'bob', true);
      assert.equal(forced.status, 200, forced.body);
      const byManager = Object.fromEntries(entries(forced.json()).map((e) => [e.manager, e]));
      assert.equal(byManager.carol.apiVersion, 'autoscaling/v2');
      assert.ok(!('f:metrics' in (byManager.carol.fieldsV1 as any)['f:spec']), 'carol lost the metrics');
      assert.equal(byManager.bob.apiVersion, 'autoscaling/v1');
      assert.ok('f:targetCPUUtilizationPercentage' in (byManager.bob.fieldsV1 as any)['f:spec']);
      const v2 = (await s.request('GET', `${HPAS_V2}/hpa-v2`)).json();
      assert.deepEqual(v2.spec.metrics, [cpuMetric(70)]);
    });

    it('kubectl apply --server-side of a v1 HPA conflicts with the v2 owner of the metrics', async () => {
      const hpa = {
        apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'hpa-kubectl' },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, metrics: [cpuMetric(50)] },
      };
      assert.equal((await s.request('POST', `${HPAS_V2}?fieldManager=carol`, { body: JSON.stringify(hpa) })).status, 201);
      const manifest = YAML.stringify({ ...YAML.parse(hpaV1('hpa-kubectl', { targetCPUUtilizationPercentage: 75 })), metadata: { name: 'hpa-kubectl', namespace: 'default' } });
      const refused = await s.kubectl(['apply', '--server-side', '-f', '-'], manifest);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /conflict with "carol" using autoscaling\/v2: \.spec\.metrics/);
      const forced = await s.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], manifest);
      assert.equal(forced.code, 0, forced.stderr);
      const got = JSON.parse((await s.kubectl(['get', 'horizontalpodautoscalers.v1.autoscaling', 'hpa-kubectl', '-o', 'json', '--show-managed-fields'])).stdout);
      assert.equal(got.spec.targetCPUUtilizationPercentage, 75);
      const kubectlEntry = entries(got).find((e) => e.manager === 'kubectl')!;
      assert.equal(kubectlEntry.apiVersion, 'autoscaling/v1');
      assert.ok('f:targetCPUUtilizationPercentage' in (kubectlEntry.fieldsV1 as any)['f:spec']);
    });
  });

  describe('an events.svc.io/v1 Event', () => {
    const coreEvent = (name: string, message: string) => JSON.stringify({
      apiVersion: 'v1', kind: 'Event', metadata: { name },
      involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'Started', message, type: 'Normal',
      eventTime: '2026-01-01T00:00:00.000000Z', reportingComponent: 'kubelet', reportingInstance: 'node-1', action: 'Start',
    });
    const eventV1 = (name: string, note: string) => YAML.stringify({
      apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name },
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'Started', note, type: 'Normal',
      eventTime: '2026-01-01T00:00:00.000000Z', reportingController: 'kubelet', reportingInstance: 'node-1', action: 'Start',
    });

    it('is created in its own shape: the entry owns note and regarding, the core Event has message and involvedObject', async () => {
      const created = await apply(`${EVENTS}/ev-create`, eventV1('ev-create', 'hello'), 'alice');
      assert.equal(created.status, 201, created.body);
      const [entry] = entries(created.json());
      assert.equal(entry.apiVersion, 'events.svc.io/v1');
      assert.deepEqual(Object.keys(entry.fieldsV1 as object).sort(), ['f:action', 'f:eventTime', 'f:note', 'f:reason', 'f:regarding', 'f:reportingController', 'f:reportingInstance', 'f:type']);
      const core = (await s.request('GET', `${CORE_EVENTS}/ev-create`)).json();
      assert.equal(core.message, 'hello');
      const again = await apply(`${EVENTS}/ev-create`, eventV1('ev-create', 'hello'), 'alice');
      assert.equal(again.status, 200, again.body);
      assert.equal(again.json().metadata.resourceVersion, created.json().metadata.resourceVersion);
    });

    it('conflicts on note with the core v1 updater of message; the same note is shared; note stays immutable under force', async () => {
      assert.equal((await s.request('POST', `${CORE_EVENTS}?fieldManager=recorder`, { body: coreEvent('ev-conflict', 'first') })).status, 201);
      const updated = await s.request('PATCH', `${CORE_EVENTS}/ev-conflict?fieldManager=updater`, {
        body: JSON.stringify({ message: 'from core' }), headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(updated.status, 200, updated.body);
      const conflict = await apply(`${EVENTS}/ev-conflict`, eventV1('ev-conflict', 'from events'), 'alice');
      assert.equal(conflict.status, 409, conflict.body);
      assert.equal(conflict.json().message, 'Apply failed with 1 conflict: conflict with "updater" using v1: .message');
      assert.deepEqual(conflict.json().details.causes, [{ reason: 'FieldManagerConflict', message: 'conflict with "updater" using v1', field: '.message' }]);

      // Forced, the conflict is gone and the update validation of events.svc.io refuses the changed note.
      const forced = await apply(`${EVENTS}/ev-conflict`, eventV1('ev-conflict', 'from events'), 'alice', true);
      assert.equal(forced.status, 422, forced.body);

      const shared = await apply(`${EVENTS}/ev-conflict`, eventV1('ev-conflict', 'from core'), 'alice');
      assert.equal(shared.status, 200, shared.body);
      const byManager = Object.fromEntries(entries(shared.json()).map((e) => [e.manager, e]));
      assert.equal(byManager.alice.apiVersion, 'events.svc.io/v1');
      assert.ok('f:note' in (byManager.alice.fieldsV1 as object));
      assert.equal(byManager.updater.apiVersion, 'v1');
      assert.deepEqual(byManager.updater.fieldsV1, { 'f:message': {} });
      const again = await apply(`${EVENTS}/ev-conflict`, eventV1('ev-conflict', 'from core'), 'alice');
      assert.equal(again.status, 200, again.body);
      assert.equal(again.json().metadata.resourceVersion, shared.json().metadata.resourceVersion);
    });

    it('force takes a mutable field from its core v1 manager (series), compared in the core shape', async () => {
      const series = (count: number) => ({ count, lastObservedTime: '2026-01-01T00:00:05.000000Z' });
      const withSeries = (count: number) => YAML.stringify({ ...YAML.parse(eventV1('ev-series', 'n')), series: series(count) });
      const core = { ...JSON.parse(coreEvent('ev-series', 'n')), series: series(2) };
      assert.equal((await s.request('POST', `${CORE_EVENTS}?fieldManager=recorder`, { body: JSON.stringify(core) })).status, 201);
      const conflict = await apply(`${EVENTS}/ev-series`, withSeries(3), 'alice');
      assert.equal(conflict.status, 409, conflict.body);
      assert.equal(conflict.json().message, 'Apply failed with 1 conflict: conflict with "recorder" using v1: .series.count');
      const forced = await apply(`${EVENTS}/ev-series`, withSeries(3), 'alice', true);
      assert.equal(forced.status, 200, forced.body);
      assert.equal(forced.json().series.count, 3);
      const byManager = Object.fromEntries(entries(forced.json()).map((e) => [e.manager, e]));
      assert.equal(byManager.alice.apiVersion, 'events.svc.io/v1');
      assert.deepEqual((byManager.alice.fieldsV1 as any)['f:series'], { 'f:count': {}, 'f:lastObservedTime': {} });
      assert.ok('f:note' in (byManager.alice.fieldsV1 as object) && 'f:regarding' in (byManager.alice.fieldsV1 as object), 'the applier owns the events.svc.io fields');
      assert.ok(!('f:message' in (byManager.alice.fieldsV1 as object)));
      assert.deepEqual((byManager.recorder.fieldsV1 as any)['f:series'], { '.': {}, 'f:lastObservedTime': {} });
    });
  });
});
