// Managers recorded in another version than the write's: the objects are compared in each manager's own
// version (an autoscaling/v1 HPA over the stored autoscaling/v2 form, events.svc.io Events over core v1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { horizontalPodAutoscalerKind as hpaKind } from '../../apis/autoscaling/horizontalpodautoscaler.ts';
import { eventKind } from '../../apis/core/event.ts';
import { eventsEventKind } from '../../apis/events/event.ts';
import { deploymentKind } from '../../apis/apps/deployment.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { applyObject, recordUpdate } from './field-manager.ts';
import { convertedScope, fieldManagerScope, versionConverterOf } from './kind-scope.ts';

const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = (n: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });
const stored = (metrics: unknown[]): ApiObject => ({
  apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'ns', uid: 'u' },
  spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, metrics },
} as unknown as ApiObject);
const v1Config = (target: number): ApiObject => ({
  apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: target },
} as unknown as ApiObject);
const managers = (obj: ApiObject) => Object.fromEntries((obj.metadata.managedFields ?? []).map((e) => [e.manager, e]));

describe('VersionConverter', () => {
  it('is made only for kinds with a version of another shape, and knows the versions of kinds stored alike', () => {
    assert.equal(versionConverterOf(deploymentKind), undefined);
    const hpa = versionConverterOf(hpaKind)!;
    assert.ok(hpa.differ('autoscaling/v2', 'autoscaling/v1'));
    assert.ok(!hpa.differ('autoscaling/v2', 'autoscaling/v2'));
    assert.equal(hpa.typeOf('autoscaling/v9'), undefined);
    assert.equal(hpa.convert({ spec: {} }, 'autoscaling/v2', 'autoscaling/v9'), undefined, 'an unknown version does not convert');
    const asV1 = hpa.convert(stored([cpu(60)]), 'autoscaling/v2', 'autoscaling/v1') as { spec: Record<string, unknown> };
    assert.equal(asV1.spec.targetCPUUtilizationPercentage, 60);
    assert.equal(asV1.spec.metrics, undefined);
    // The core Event kind reads managers of events.svc.io/v1 in their shape, and the other way round.
    const core = versionConverterOf(eventKind)!;
    assert.ok(core.differ('v1', 'events.svc.io/v1'));
    const asEvents = core.convert({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, message: 'm' }, 'v1', 'events.svc.io/v1') as Record<string, unknown>;
    assert.equal(asEvents.note, 'm');
    assert.ok(versionConverterOf(eventsEventKind)!.differ('events.svc.io/v1', 'v1'));
  });

  it('converts a copy and leaves an empty object (the live side of a create) alone', () => {
    const hpa = versionConverterOf(hpaKind)!;
    const obj = stored([cpu(60)]);
    const before = structuredClone(obj);
    hpa.convert(obj, 'autoscaling/v2', 'autoscaling/v1');
    assert.deepEqual(obj, before);
    const empty = { metadata: {} };
    assert.equal(hpa.convert(empty, 'autoscaling/v2', 'autoscaling/v1'), empty);
  });
});

describe('apply through autoscaling/v1', () => {
  const converted = convertedScope(hpaKind, 'v1', '')!;

  it('conflicts with an autoscaling/v2 updater of the metrics, naming the field in that manager\'s version', () => {
    const live = stored([cpu(50)]);
    recordUpdate(fieldManagerScope(hpaKind, 'v2', ''), undefined, live, 'carol');
    const view = converted.fromStorage(live);
    assert.throws(() => applyObject(converted.scope, view, v1Config(70), { manager: 'bob', force: false }), {
      code: 409, message: 'Apply failed with 1 conflict: conflict with "carol" using autoscaling/v2: .spec.metrics',
    });
    const forced = applyObject(converted.scope, view, v1Config(70), { manager: 'bob', force: true });
    const m = managers(forced);
    assert.equal(m.bob.apiVersion, 'autoscaling/v1');
    assert.ok('f:targetCPUUtilizationPercentage' in (m.bob.fieldsV1 as any)['f:spec']);
    assert.ok(!('f:metrics' in (m.carol.fieldsV1 as any)['f:spec']));
    assert.deepEqual((converted.toStorage(forced).spec as any).metrics, [cpu(70)]);
  });

  it('an autoscaling/v2 update takes targetCPUUtilizationPercentage from its autoscaling/v1 applier', () => {
    const view = applyObject(converted.scope, undefined, v1Config(50), { manager: 'alice', force: false });
    const live = converted.toStorage(view);
    const next = structuredClone(live);
    (next.spec as any).metrics = [cpu(90)];
    recordUpdate(fieldManagerScope(hpaKind, 'v2', ''), live, next, 'dave');
    const m = managers(next);
    assert.deepEqual(m.alice.fieldsV1, { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {} } });
    assert.deepEqual(m.dave.fieldsV1, { 'f:spec': { 'f:metrics': {} } });
  });

});

describe('apply through events.svc.io/v1', () => {
  it('prunes what the applier last applied through core v1 (message) when it leaves the note out', () => {
    const coreScope = fieldManagerScope(eventKind, 'v1', '');
    const converted = convertedScope(eventsEventKind, 'v1', '')!;
    const involved = { kind: 'Pod', name: 'p', namespace: 'ns' };
    const coreConfig = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns' }, involvedObject: involved, reason: 'Started', message: 'hello' } as unknown as ApiObject;
    const live = applyObject(coreScope, undefined, coreConfig, { manager: 'erin', force: false });
    assert.deepEqual(managers(live).erin.fieldsV1, { 'f:involvedObject': {}, 'f:message': {}, 'f:reason': {} });
    const config = { apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns' }, regarding: involved, reason: 'Started' } as unknown as ApiObject;
    const out = applyObject(converted.scope, converted.fromStorage(live), config, { manager: 'erin', force: false });
    assert.equal(out.note, undefined);
    assert.equal(out.reason, 'Started');
    const m = managers(out);
    assert.equal(m.erin.apiVersion, 'events.svc.io/v1');
    assert.deepEqual(m.erin.fieldsV1, { 'f:reason': {}, 'f:regarding': {} });
    assert.equal(converted.toStorage(out).message, undefined);
  });
});
