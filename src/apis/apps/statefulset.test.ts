import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statefulSetKind as kind, defaultStatefulSet, dropDisabledFields, maxUnavailableEnabled } from './statefulset.ts';
import { kindHarness, rejection, requestContext, type KindHarness } from '../kind-harness.ts';
import { StatusError } from '../../machinery/status.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const template = (spec: Obj = {}, metadata: Obj = { labels: { app: 'db' } }) => ({ metadata, spec: { containers: [{ name: 'db', image: 'postgres:17' }], ...spec } });
const claim = (storage = '1Gi', extra: Obj = {}) => ({ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } }, ...extra });
const sts = (spec: Obj = {}, name = `sts-${++n}`): ApiObject => ({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: 'ns' },
  spec: { selector: { matchLabels: { app: 'db' } }, serviceName: 'db', template: template(), ...spec },
});
const causes = async (spec: Obj) => (await rejection(h.create(sts(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const scale = kind.views!.find((v) => v.name === 'scale')!;
const IMMUTABLE = "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";
const CRITICAL_POD = 'scheduler.alpha.platform.io/critical-pod';

/** An update of a fresh StatefulSet (its spec as `change` leaves it): the stored object, or the rejection's causes. */
async function updated(change: (spec: Obj) => void, initial: Obj = {}): Promise<ApiObject | string[]> {
  const next = structuredClone(await h.create(sts(initial)));
  change(specOf(next));
  try {
    return await h.update(next);
  } catch (err) {
    if (err instanceof StatusError) return (await rejection(Promise.reject(err))).causes;
    throw err;
  }
}

test('declaration: apps/v1 statefulsets, short name sts, category all, status and scale, DNS label names, columns', () => {
  assert.deepEqual([kind.group, kind.kind, kind.plural, kind.singular, kind.namespaced, kind.shortNames, kind.categories, kind.nameValidation], ['apps', 'StatefulSet', 'statefulsets', 'statefulset', true, ['sts'], ['all'], 'dns-label']);
  assert.deepEqual(kind.status, {});
  assert.deepEqual([scale.group, scale.version, scale.kind, scale.verbs], ['autoscaling', 'v1', 'Scale', ['get', 'patch', 'update']]);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.type, c.priority ?? 0]), [['Name', 'string', 0], ['Ready', 'string', 0], ['Age', 'string', 0], ['Containers', 'string', 1], ['Images', 'string', 1]]);
  const schema = kind.versions[0]!.schema as any;
  const spec = schema.properties.spec;
  assert.deepEqual(spec.required, ['selector', 'template', 'serviceName']);
  assert.deepEqual(Object.entries(spec.properties).map(([k, v]: [string, any]) => [k, v['x-proto']]), [
    ['replicas', 1], ['selector', 2], ['template', 3], ['volumeClaimTemplates', 4], ['serviceName', 5], ['podManagementPolicy', 6],
    ['updateStrategy', 7], ['revisionHistoryLimit', 8], ['minReadySeconds', 9], ['persistentVolumeClaimRetentionPolicy', 10], ['ordinals', 11],
  ]);
  assert.equal(spec.properties.volumeClaimTemplates['x-platform-list-type'], 'atomic');
  assert.equal(spec.properties.volumeClaimTemplates.items['x-ref'], 'core.v1.PersistentVolumeClaim');
  const ru = spec.properties.updateStrategy.properties.rollingUpdate;
  assert.deepEqual([ru['x-proto'], ru.properties.partition['x-proto'], ru.properties.maxUnavailable['x-proto']], [2, 1, 2]);
  const status = schema.properties.status;
  assert.deepEqual(status.required, ['replicas']);
  assert.deepEqual(Object.entries(status.properties).map(([k, v]: [string, any]) => [k, v['x-proto']]), [
    ['observedGeneration', 1], ['replicas', 2], ['readyReplicas', 3], ['currentReplicas', 4], ['updatedReplicas', 5], ['currentRevision', 6],
    ['updateRevision', 7], ['collisionCount', 9], ['conditions', 10], ['availableReplicas', 11],
  ]);
});

test('names are DNS labels: the pods take their hostnames from them', async () => {
  assert.deepEqual((await rejection(h.create(sts({}, 'web.v1')))).causes, ['metadata.name: Invalid value: "web.v1": must not contain dots']);
});

test('defaults: 1 replica, OrderedReady, RollingUpdate from partition 0, 10 revisions, claims retained, an empty service name, zero counts', async () => {
  const o = await h.create(sts({ serviceName: undefined }));
  const s = specOf(o);
  assert.deepEqual([s.replicas, s.podManagementPolicy, s.revisionHistoryLimit, s.serviceName], [1, 'OrderedReady', 10, '']);
  assert.deepEqual(s.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
  assert.deepEqual(s.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
  assert.deepEqual([s.template.metadata.creationTimestamp, s.template.spec.restartPolicy, s.template.spec.terminationGracePeriodSeconds], [null, 'Always', 30]);
  assert.deepEqual([s.ordinals, s.minReadySeconds, s.volumeClaimTemplates], [undefined, undefined, undefined]);
  assert.deepEqual(o.status, { replicas: 0, availableReplicas: 0 });
  // Only what is missing is filled: an explicit RollingUpdate keeps no parameters, OnDelete gets none.
  const partial = specOf(await h.create(sts({ replicas: 0, updateStrategy: { type: 'RollingUpdate' }, persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete' }, ordinals: {}, podManagementPolicy: 'Parallel' })));
  assert.deepEqual([partial.replicas, partial.updateStrategy, partial.persistentVolumeClaimRetentionPolicy, partial.ordinals, partial.podManagementPolicy],
    [0, { type: 'RollingUpdate' }, { whenDeleted: 'Retain', whenScaled: 'Delete' }, { start: 0 }, 'Parallel']);
  assert.deepEqual(specOf(await h.create(sts({ updateStrategy: { type: 'OnDelete' } }))).updateStrategy, { type: 'OnDelete' });
  assert.deepEqual(specOf(await h.create(sts({ updateStrategy: { rollingUpdate: { partition: 2 } } }))).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 2 } });
});

test('claim templates: typed as PersistentVolumeClaims, with their defaults and canonical quantities', async () => {
  const o = await h.create(sts({ volumeClaimTemplates: [claim('1024Mi', { apiVersion: 'v9', kind: 'Other' }), { metadata: { name: 'logs' } }] }));
  assert.deepEqual(specOf(o).volumeClaimTemplates, [
    {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', creationTimestamp: null },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' },
    },
    // Kubernetes v1.32 does not check the claim templates: a claim without access modes or storage is kept.
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'logs', creationTimestamp: null }, spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } },
  ]);
});

test('maxUnavailable needs the alpha gate MaxUnavailableStatefulSet (off), unless the stored object already uses it', async () => {
  assert.equal(maxUnavailableEnabled(), false);
  const o = await h.create(sts({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: 2 } } }));
  assert.deepEqual(specOf(o).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
  const introduced = structuredClone(o);
  specOf(introduced).updateStrategy.rollingUpdate.maxUnavailable = 2;
  assert.deepEqual(specOf(await h.update(introduced)).updateStrategy.rollingUpdate, { partition: 1 });

  await h.seed({ ...o, spec: { ...specOf(o), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1, maxUnavailable: 2 } } } });
  const kept = structuredClone(h.get(o.metadata.name!, 'ns')!);
  specOf(kept).updateStrategy.rollingUpdate.maxUnavailable = '50%';
  assert.deepEqual(specOf(await h.update(kept)).updateStrategy.rollingUpdate, { partition: 1, maxUnavailable: '50%' });
  // The rules of a kept value apply.
  const MAX = 'spec.updateStrategy.rollingUpdate.maxUnavailable';
  for (const [value, errors] of [
    [0, [`${MAX}: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: cannot be 0`]],
    ['0%', [`${MAX}: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: cannot be 0`]],
    ['120%', [`${MAX}: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"120%"}: must not be greater than 100%`]],
    [-1, [`${MAX}: Invalid value: -1: must be greater than or equal to 0`]],
  ] as const) {
    const next = structuredClone(h.get(o.metadata.name!, 'ns')!);
    specOf(next).updateStrategy.rollingUpdate.maxUnavailable = value;
    assert.deepEqual((await rejection(h.update(next))).causes, errors, String(value));
  }

  // With the gate on: the default is 1, and nothing is dropped.
  const on = sts();
  defaultStatefulSet(on, true);
  assert.deepEqual(specOf(on).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } });
  const spec = { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 3 } } };
  dropDisabledFields(spec, undefined, true);
  assert.equal(spec.updateStrategy.rollingUpdate.maxUnavailable, 3);
  dropDisabledFields(spec, undefined, false);
  assert.equal(spec.updateStrategy.rollingUpdate.maxUnavailable, undefined);
});

test('selector: required, not empty, valid, matching the template labels', async () => {
  assert.deepEqual(await causes({ selector: undefined }), [
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"db"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(await causes({ selector: {} }), ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset']);
  assert.deepEqual(await causes({ selector: { matchLabels: { app: 'web' } } }), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"db"}: `selector` does not match template `labels`']);
  assert.deepEqual(await causes({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }), [
    "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"In", Values:[]string(nil)}}}',
  ]);
  await h.create(sts({ selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['db', 'cache'] }] } }));
});

test('template: selector match, labels and annotations are checked, restartPolicy only Always, no active deadline; the pod spec is not', async () => {
  assert.deepEqual(await causes({ template: template({ restartPolicy: 'Never' }) }), ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"']);
  assert.deepEqual(await causes({ template: template({ activeDeadlineSeconds: 10 }) }), ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported']);
  assert.deepEqual(await causes({ selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] }, template: template({}, { labels: { app: 'db', 'bad key!': 'x' } }) }), [
    "spec.template.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
  assert.deepEqual(await causes({ template: template({}, { labels: { app: 'db' }, annotations: { 'controller.platform.io/pod-deletion-cost': 'high' } }) }), [
    'spec.template.annotations[controller.platform.io/pod-deletion-cost]: Invalid value: "high": must be a 32bit integer',
  ]);
  // A stored template with an invalid deletion cost may keep it.
  const legacy = await h.create(sts());
  await h.seed({ ...legacy, spec: { ...specOf(legacy), template: template({}, { labels: { app: 'db' }, annotations: { 'controller.platform.io/pod-deletion-cost': 'high' } }) } });
  const rescaled = structuredClone(h.get(legacy.metadata.name!, 'ns')!);
  specOf(rescaled).replicas = 2;
  assert.equal(specOf(await h.update(rescaled)).replicas, 2);
  // Kubernetes v1.32 leaves the pod spec to the pods: a container without name or image, an ephemeral container pass.
  const o = await h.create(sts({ template: template({ containers: [{}], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }) }));
  assert.deepEqual(specOf(o).template.spec.containers[0].name, '');
});

test('strategy, policies and counts: Kubernetes\' messages', async () => {
  assert.deepEqual(await causes({ podManagementPolicy: 'Sometimes' }), ['spec.podManagementPolicy: Invalid value: "Sometimes": must be \'OrderedReady\' or \'Parallel\'']);
  assert.deepEqual(await causes({ updateStrategy: { type: 'Recreate' } }), ['spec.updateStrategy: Invalid value: apps.StatefulSetUpdateStrategy{Type:"Recreate", RollingUpdate:(*apps.RollingUpdateStatefulSetStrategy)(nil)}: must be \'RollingUpdate\' or \'OnDelete\'']);
  assert.deepEqual(await causes({ updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 3 } } }), ["spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:3, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'"]);
  assert.deepEqual(await causes({ updateStrategy: { rollingUpdate: { partition: -1 } } }), ['spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(await causes({ persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Keep', whenScaled: 'Drop' } }), [
    'spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
    'spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Drop": supported values: "Retain", "Delete"',
  ]);
  assert.deepEqual(await causes({ replicas: -1, minReadySeconds: -2, ordinals: { start: -3 } }), [
    'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
    'spec.ordinals.start: Invalid value: -3: must be greater than or equal to 0',
  ]);
  // Kubernetes v1.32 takes a negative revision history limit.
  assert.equal(specOf(await h.create(sts({ revisionHistoryLimit: -1 }))).revisionHistoryLimit, -1);
});

test('updates: replicas, ordinals, template, updateStrategy, the retention policy and minReadySeconds change; the rest is fixed', async () => {
  const allowed: [string, (s: Obj) => void][] = [
    ['replicas', (s) => { s.replicas = 3; }],
    ['ordinals', (s) => { s.ordinals = { start: 5 }; }],
    ['template', (s) => { s.template.spec.containers[0].image = 'postgres:18'; }],
    ['updateStrategy', (s) => { s.updateStrategy = { type: 'OnDelete' }; }],
    ['retention', (s) => { s.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Delete' }; }],
    ['minReadySeconds', (s) => { s.minReadySeconds = 10; }],
  ];
  for (const [what, change] of allowed) {
    const o = await updated(change);
    assert.ok(!Array.isArray(o), `${what}: ${o}`);
    assert.equal(o.metadata.generation, 2, what);
  }
  const fixed: [string, (s: Obj) => void, Obj?][] = [
    ['serviceName', (s) => { s.serviceName = 'other'; }],
    ['podManagementPolicy', (s) => { s.podManagementPolicy = 'Parallel'; }],
    ['revisionHistoryLimit', (s) => { s.revisionHistoryLimit = 3; }],
    ['volumeClaimTemplates added', (s) => { s.volumeClaimTemplates = [claim()]; }],
    ['volumeClaimTemplates resized', (s) => { s.volumeClaimTemplates[0].spec.resources.requests.storage = '2Gi'; }, { volumeClaimTemplates: [claim()] }],
    ['selector', (s) => { s.selector = { matchLabels: { app: 'db', v: '2' } }; s.template.metadata.labels = { app: 'db', v: '2' }; }],
  ];
  for (const [what, change, initial] of fixed) assert.deepEqual(await updated(change, initial), [IMMUTABLE], what);
  // Equal values written differently are no change: a claim template without its type and defaults, quantities in other units.
  const same = await updated((s) => { s.volumeClaimTemplates = [claim('1024Mi')]; s.template.spec.containers[0].resources = { limits: { memory: '1024Mi' } }; }, {
    volumeClaimTemplates: [claim('1Gi')], template: template({ containers: [{ name: 'db', image: 'postgres:17', resources: { limits: { memory: '1Gi' } } }] }),
  });
  assert.ok(!Array.isArray(same), String(same));
  assert.equal(same.metadata.generation, 1);
});

test('status: only through /status; counts bounded by status.replicas and available by ready; the collision count never goes down', async () => {
  const o = await h.create(sts({ replicas: 3 }));
  const written = structuredClone(o);
  written.status = { observedGeneration: 1, replicas: 3, readyReplicas: 2, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 2, currentRevision: 'r1', updateRevision: 'r1', collisionCount: 1 };
  assert.deepEqual((await h.update(written)).status, { replicas: 0, availableReplicas: 0 });
  const stored = await h.update(written, { subresource: 'status' });
  assert.deepEqual(stored.status, written.status);
  assert.deepEqual(kind.tableColumns!.map((c) => c.cell(stored)).filter((_, i) => i !== 2), [o.metadata.name, '2/3', 'db', 'postgres:17']);
  // replicas and availableReplicas, which Go always writes, read 0 when a status write leaves them out.
  const partial = structuredClone(stored);
  partial.status = { collisionCount: 1 };
  assert.deepEqual((await h.update(partial, { subresource: 'status' })).status, { collisionCount: 1, replicas: 0, availableReplicas: 0 });
  const bad = structuredClone(stored);
  bad.status = { replicas: 1, readyReplicas: 2, currentReplicas: -1, updatedReplicas: 2, availableReplicas: 3, collisionCount: 0 };
  assert.deepEqual((await rejection(h.update(bad, { subresource: 'status' }))).causes, [
    'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
    'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
    'status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas',
    'status.collisionCount: Invalid value: 0: cannot be decremented',
  ]);
});

test('scale view: spec.replicas, status.replicas and the selector; updates set spec.replicas', async () => {
  const o = await h.create(sts({ replicas: 2 }));
  const view = scale.get!(o);
  assert.deepEqual([view.spec, view.status], [{ replicas: 2 }, { replicas: 0, selector: 'app=db' }]);
  assert.equal(specOf(scale.update!(o, { ...view, spec: { replicas: 5 } })).replicas, 5);
});

test('warnings: the template\'s and the claim templates\' on create; on update the template\'s only with a new generation', async () => {
  const o = await h.create(sts({ template: template({}, { labels: { app: 'db' }, annotations: { [CRITICAL_POD]: '' } }), volumeClaimTemplates: [claim('1500m')] }));
  const ctx = requestContext();
  assert.deepEqual(kind.validate!(o, ctx), []);
  assert.deepEqual(ctx.warnings, [
    `spec.template.metadata.annotations[${CRITICAL_POD}]: non-functional in v1.16+; use the "priorityClassName" field instead`,
    'spec.volumeClaimTemplates[0].resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
  ]);
  const relabeled = structuredClone(o);
  relabeled.metadata.labels = { x: 'y' };
  const same = await h.update(relabeled);
  const quiet = requestContext();
  kind.validateUpdate!(same, o, quiet);
  // Kubernetes' update path names the claim's spec `Spec`.
  assert.deepEqual(quiet.warnings, ['spec.volumeClaimTemplates[0].Spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer']);
  const scaled = structuredClone(same);
  specOf(scaled).replicas = 4;
  const next = await h.update(scaled);
  const loud = requestContext();
  kind.validateUpdate!(next, same, loud);
  assert.equal(loud.warnings.length, 2);
});
