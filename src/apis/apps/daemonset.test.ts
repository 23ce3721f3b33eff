import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { daemonSetKind as kind, TEMPLATE_GENERATION_ANNOTATION } from './daemonset.ts';
import { kindHarness, rejection, requestContext, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const template = (spec: Obj = {}, labels: Obj = { app: 'agent' }, annotations?: Obj) => ({
  metadata: { labels, ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'agent', image: 'agent:1.0' }], ...spec },
});
const ds = (spec: Obj = {}, name = `ds-${++n}`, annotations?: Obj): ApiObject => ({
  apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name, namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: template(), ...spec },
});
const causes = async (spec: Obj) => (await rejection(h.create(ds(spec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const generationOf = (o: ApiObject) => o.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
const columns = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));
const CRITICAL_POD = 'scheduler.alpha.platform.io/critical-pod';
const CRITICAL_POD_WARNING = `spec.template.metadata.annotations[${CRITICAL_POD}]: non-functional in v1.16+; use the "priorityClassName" field instead`;

test('declaration: apps/v1 daemonsets, short name ds, category all, a status sub-resource and no scale, columns', () => {
  assert.deepEqual([kind.group, kind.kind, kind.plural, kind.singular, kind.namespaced, kind.shortNames, kind.categories], ['apps', 'DaemonSet', 'daemonsets', 'daemonset', true, ['ds'], ['all']]);
  assert.deepEqual(kind.status, {});
  assert.equal(kind.views, undefined);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.type, c.priority ?? 0]), [
    ['Name', 'string', 0], ['Desired', 'integer', 0], ['Current', 'integer', 0], ['Ready', 'integer', 0], ['Up-to-date', 'integer', 0], ['Available', 'integer', 0],
    ['Node Selector', 'string', 0], ['Age', 'string', 0], ['Containers', 'string', 1], ['Images', 'string', 1], ['Selector', 'string', 1],
  ]);
  const schema = kind.versions[0]!.schema as any;
  const spec = schema.properties.spec;
  assert.deepEqual(spec.required, ['selector', 'template']);
  assert.deepEqual(['selector', 'template', 'updateStrategy', 'minReadySeconds', 'revisionHistoryLimit'].map((k) => spec.properties[k]['x-proto']), [1, 2, 3, 4, 6]);
  assert.equal(spec.properties.templateGeneration, undefined);
  const ru = spec.properties.updateStrategy.properties.rollingUpdate;
  assert.deepEqual([ru['x-proto'], ru.properties.maxUnavailable['x-proto'], ru.properties.maxSurge['x-proto']], [2, 1, 2]);
  const status = schema.properties.status;
  assert.deepEqual(status.required, ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady']);
  assert.deepEqual(Object.entries(status.properties).map(([k, v]: [string, any]) => [k, v['x-proto']]), [
    ['currentNumberScheduled', 1], ['numberMisscheduled', 2], ['desiredNumberScheduled', 3], ['numberReady', 4], ['observedGeneration', 5],
    ['updatedNumberScheduled', 6], ['numberAvailable', 7], ['numberUnavailable', 8], ['collisionCount', 9], ['conditions', 10],
  ]);
  assert.deepEqual([status.properties.conditions['x-platform-list-type'], status.properties.conditions['x-platform-list-map-keys']], ['map', ['type']]);
});

test('defaults: RollingUpdate with maxUnavailable 1 and maxSurge 0, 10 revisions, the template defaults, template generation 1, zero counts', async () => {
  const o = await h.create(ds());
  const s = specOf(o);
  assert.deepEqual(s.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.equal(s.revisionHistoryLimit, 10);
  assert.deepEqual([s.template.metadata.creationTimestamp, s.template.spec.restartPolicy, s.template.spec.dnsPolicy, s.template.spec.containers[0].imagePullPolicy], [null, 'Always', 'ClusterFirst', 'IfNotPresent']);
  assert.equal(s.replicas, undefined);
  assert.deepEqual(o.status, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
  assert.deepEqual(o.metadata.annotations, { [TEMPLATE_GENERATION_ANNOTATION]: '1' });
  assert.equal(o.metadata.generation, 1);
  // Only what is missing is filled; OnDelete gets no rolling update parameters.
  assert.deepEqual(specOf(await h.create(ds({ updateStrategy: { rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } }, revisionHistoryLimit: 0 }))).updateStrategy,
    { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '10%' } });
  assert.deepEqual(specOf(await h.create(ds({ updateStrategy: { type: 'RollingUpdate' } }))).updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
  assert.deepEqual(specOf(await h.create(ds({ updateStrategy: { type: 'OnDelete' } }))).updateStrategy, { type: 'OnDelete' });
});

test('template generation: kept from the client on create, one more with each template change, never the client\'s on update', async () => {
  const o = await h.create(ds({}, undefined, { [TEMPLATE_GENERATION_ANNOTATION]: '7', note: 'x' }));
  assert.deepEqual(o.metadata.annotations, { [TEMPLATE_GENERATION_ANNOTATION]: '7', note: 'x' });
  assert.equal(generationOf(await h.create(ds({}, undefined, { [TEMPLATE_GENERATION_ANNOTATION]: '-3' }))), '1');

  const newImage = structuredClone(o);
  specOf(newImage).template.spec.containers[0].image = 'agent:2.0';
  const afterImage = await h.update(newImage);
  assert.deepEqual([generationOf(afterImage), afterImage.metadata.generation], ['8', 2]);

  // A spec change outside the template is a new generation, not a new template generation.
  const slower = structuredClone(afterImage);
  specOf(slower).minReadySeconds = 5;
  const afterSlower = await h.update(slower);
  assert.deepEqual([generationOf(afterSlower), afterSlower.metadata.generation], ['8', 3]);

  // A quantity written another way is the same template.
  const withCpu = structuredClone(afterSlower);
  specOf(withCpu).template.spec.containers[0].resources = { requests: { cpu: '1000m' } };
  const afterCpu = await h.update(withCpu);
  assert.deepEqual([generationOf(afterCpu), afterCpu.metadata.generation, specOf(afterCpu).template.spec.containers[0].resources], ['9', 4, { requests: { cpu: '1' } }]);
  assert.deepEqual([generationOf(await h.update(withCpu)), h.get(o.metadata.name!, 'ns')!.metadata.generation], ['9', 4]);
  specOf(withCpu).template.spec.containers[0].resources = {};
  const reverted = await h.update(withCpu);
  assert.deepEqual([generationOf(reverted), reverted.metadata.generation], ['10', 5]);

  // Whatever the client writes (or leaves out), the server's value stays.
  const forged = structuredClone(reverted);
  forged.metadata.annotations = { [TEMPLATE_GENERATION_ANNOTATION]: '99' };
  assert.deepEqual((await h.update(forged)).metadata.annotations, { [TEMPLATE_GENERATION_ANNOTATION]: '10' });
  const dropped = structuredClone(reverted);
  delete dropped.metadata.annotations;
  const afterDrop = await h.update(dropped);
  assert.deepEqual([afterDrop.metadata.annotations, afterDrop.metadata.generation], [{ [TEMPLATE_GENERATION_ANNOTATION]: '10' }, 5]);
  const statusWrite = structuredClone(afterDrop);
  delete statusWrite.metadata.annotations;
  statusWrite.status = { currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1 };
  assert.deepEqual((await h.update(statusWrite, { subresource: 'status' })).metadata.annotations, { [TEMPLATE_GENERATION_ANNOTATION]: '10' });
});

test('selector: not required by Kubernetes\' own rules, but a missing one matches no template; not empty; valid', async () => {
  // The `Required value` is the schema's (Kubernetes' OpenAPI marks the field required); its own check only finds the mismatch.
  assert.deepEqual(await causes({ selector: undefined }), [
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`',
  ]);
  assert.deepEqual(await causes({ selector: {} }), ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset']);
  assert.deepEqual(await causes({ selector: { matchLabels: { app: 'other' } } }), ['spec.template.metadata.labels: Invalid value: map[string]string{"app":"agent"}: `selector` does not match template `labels`']);
  // A selector that cannot be built is reported once, without the template check.
  assert.deepEqual(await causes({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] } }), ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"]);
  await h.create(ds({ selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } }));
});

test('the selector is immutable; a stored selector with invalid values may keep them', async () => {
  const o = await h.create(ds());
  const moved = structuredClone(o);
  specOf(moved).selector = { matchLabels: { app: 'agent', tier: 'node' } };
  specOf(moved).template.metadata.labels = { app: 'agent', tier: 'node' };
  assert.deepEqual((await rejection(h.update(moved))).causes, ['spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"agent", "tier":"node"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable']);

  const invalidValue = { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['not valid!'] }] };
  assert.deepEqual(await causes({ selector: invalidValue }), [
    'spec.selector.matchExpressions[0].values[0]: Invalid value: "not valid!": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
  ]);
  const created = await h.create(ds({}, 'legacy'));
  await h.seed({ ...created, spec: { ...specOf(created), selector: invalidValue } });
  const relabeled = structuredClone(h.get('legacy', 'ns')!);
  relabeled.metadata.labels = { touched: 'yes' };
  assert.deepEqual((await h.update(relabeled)).metadata.labels, { touched: 'yes' });
});

test('template: fields of features that are off are dropped, on create and on update, unless the stored template has them', async () => {
  const o = await h.create(ds({ template: template({ hostUsers: false }) }));
  assert.equal(specOf(o).template.spec.hostUsers, undefined);
  const next = structuredClone(o);
  specOf(next).template.spec.hostUsers = false;
  assert.equal(specOf(await h.update(next)).template.spec.hostUsers, undefined);
});

test('template: the pod template is checked as a pod\'s; restartPolicy only Always; no active deadline', async () => {
  assert.deepEqual(await causes({ template: template({ restartPolicy: 'OnFailure' }) }), ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"']);
  assert.deepEqual(await causes({ template: template({ activeDeadlineSeconds: 30 }) }), ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported']);
  assert.deepEqual(await causes({ template: template({ containers: [] }) }), ['spec.template.spec.containers: Required value']);
  assert.deepEqual(await causes({ template: template({ containers: [{ name: 'agent' }] }) }), ['spec.template.spec.containers[0].image: Required value']);
  assert.deepEqual(await causes({ template: template({ ephemeralContainers: [{ name: 'x', image: 'y' }] }) }), ['spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template']);
});

test('update strategy: exactly one of maxUnavailable and maxSurge non-zero, valid numbers, at most 100%, known types', async () => {
  const RU = 'spec.updateStrategy.rollingUpdate';
  const strategy = (rollingUpdate: Obj) => ({ updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
  assert.deepEqual(await causes(strategy({ maxUnavailable: 0, maxSurge: 0 })), [`${RU}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`]);
  assert.deepEqual(await causes(strategy({ maxUnavailable: '0%', maxSurge: '0%' })), [`${RU}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`]);
  assert.deepEqual(await causes(strategy({ maxUnavailable: 1, maxSurge: '20%' })), [`${RU}.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"20%"}: may not be set when maxUnavailable is non-zero`]);
  assert.deepEqual(await causes(strategy({ maxUnavailable: '110%', maxSurge: 0 })), [`${RU}.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"110%"}: must not be greater than 100%`]);
  assert.deepEqual(await causes(strategy({ maxUnavailable: 0, maxSurge: '150%' })), [`${RU}.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%`]);
  assert.deepEqual(await causes(strategy({ maxUnavailable: -1, maxSurge: 0 })), [`${RU}.maxUnavailable: Invalid value: -1: must be greater than or equal to 0`]);
  assert.deepEqual(await causes(strategy({ maxUnavailable: 'some', maxSurge: 0 })), [
    `${RU}.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"some"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    `${RU}.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`,
  ]);
  // A number written as text is still the number for the zero rule (Go's Atoi), though no valid percentage.
  assert.deepEqual(await causes(strategy({ maxUnavailable: '5', maxSurge: 0 })), [
    `${RU}.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
  ]);
  assert.deepEqual(await causes({ updateStrategy: { type: 'Recreate' } }), ['spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Recreate", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"']);
  // OnDelete ignores rolling update parameters rather than refusing them.
  assert.deepEqual(specOf(await h.create(ds({ updateStrategy: { type: 'OnDelete', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } }))).updateStrategy.type, 'OnDelete');
  await h.create(ds(strategy({ maxUnavailable: 0, maxSurge: 1 })));
});

test('counts: minReadySeconds and revisionHistoryLimit not negative', async () => {
  assert.deepEqual(await causes({ minReadySeconds: -1 }), ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(await causes({ revisionHistoryLimit: -1 }), ['spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0']);
});

test('status: only through /status; counts not negative; the collision count never goes down; the columns read it', async () => {
  const o = await h.create(ds());
  const written = structuredClone(o);
  written.status = { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 4, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 1, numberUnavailable: 3, observedGeneration: 1, collisionCount: 2 };
  assert.deepEqual((await h.update(written)).status, o.status);
  const stored = await h.update(written, { subresource: 'status' });
  assert.deepEqual(stored.status, written.status);
  assert.deepEqual(columns(stored).slice(1, 7), [4, 3, 2, 3, 1, '<none>']);
  // The four counts Go always writes read 0 when a status write leaves them out.
  const partial = structuredClone(stored);
  partial.status = { desiredNumberScheduled: 5, collisionCount: 2 };
  assert.deepEqual((await h.update(partial, { subresource: 'status' })).status, { desiredNumberScheduled: 5, collisionCount: 2, currentNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 });
  const bad = structuredClone(stored);
  bad.status = { currentNumberScheduled: -1, numberMisscheduled: -2, desiredNumberScheduled: 0, numberReady: 0, numberUnavailable: -3, collisionCount: 1 };
  assert.deepEqual((await rejection(h.update(bad, { subresource: 'status' }))).causes, [
    'status.currentNumberScheduled: Invalid value: -1: must be greater than or equal to 0',
    'status.numberMisscheduled: Invalid value: -2: must be greater than or equal to 0',
    'status.numberUnavailable: Invalid value: -3: must be greater than or equal to 0',
    'status.collisionCount: Invalid value: 1: cannot be decremented',
  ]);
});

test('warnings: the template\'s on create (no name warning: pods get generated names), on update only with a new template generation', async () => {
  const warned = ds({ template: template({}, { app: 'agent' }, { [CRITICAL_POD]: '' }) }, 'name.with.dots');
  const ctx = requestContext();
  const created = await h.create(warned);
  assert.deepEqual(kind.validate!(created, ctx), []);
  assert.deepEqual(ctx.warnings, [CRITICAL_POD_WARNING]);

  const relabeled = structuredClone(created);
  relabeled.metadata.labels = { x: 'y' };
  const same = await h.update(relabeled);
  const quiet = requestContext();
  kind.validateUpdate!(same, created, quiet);
  assert.deepEqual(quiet.warnings, []);

  const newImage = structuredClone(same);
  specOf(newImage).template.spec.containers[0].image = 'agent:2.0';
  const changed = await h.update(newImage);
  const loud = requestContext();
  kind.validateUpdate!(changed, same, loud);
  assert.deepEqual(loud.warnings, [CRITICAL_POD_WARNING]);
  // An invalid object gets no warnings.
  const invalid = requestContext();
  assert.notDeepEqual(kind.validate!({ ...created, spec: { ...specOf(created), minReadySeconds: -1 } }, invalid), []);
  assert.deepEqual(invalid.warnings, []);
});

test('columns: the node selector as labels, the wide containers, images and selector', async () => {
  const o = await h.create(ds({
    selector: { matchLabels: { app: 'agent' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] },
    template: template({ nodeSelector: { zone: 'a', disk: 'ssd' }, containers: [{ name: 'agent', image: 'agent:1.0' }, { name: 'log', image: 'fluentd' }] }),
  }));
  assert.deepEqual(columns(o).slice(1, 7), [0, 0, 0, 0, 0, 'disk=ssd,zone=a']);
  assert.deepEqual(columns(o).slice(8), ['agent,log', 'agent:1.0,fluentd', 'app=agent,tier notin (db)']);
});
