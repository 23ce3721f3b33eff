import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { jobKind as kind } from './job.ts';
import { kindHarness, rejection, requestContext, type KindHarness } from '../kind-harness.ts';
import { featureGates } from '../../config/feature-gates.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); featureGates.reset(); });

type Obj = Record<string, any>;
let n = 0;
const template = (spec: Obj = {}, labels?: Obj) => ({ ...(labels ? { metadata: { labels } } : {}), spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox:1.36' }], ...spec } });
const job = (spec: Obj = {}, name = `j-${++n}`): ApiObject => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace: 'ns' }, spec: { template: template(), ...spec } });
const causes = async (spec: Obj, name?: string) => (await rejection(h.create(job(spec, name)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const column = (name: string) => kind.tableColumns!.find((c) => c.name === name)!;
const warningsOf = async (obj: ApiObject) => {
  const ctx = requestContext();
  const created = structuredClone(obj);
  kind.defaults!(created);
  created.metadata.uid = 'u';
  kind.prepareForCreate!(created, ctx);
  assert.deepEqual(kind.validate!(created, ctx), []);
  return ctx.warnings;
};

test('declaration: batch/v1 jobs, category all, no short name, status sub-resource, columns, status.successful', () => {
  assert.deepEqual([kind.group, kind.plural, kind.singular, kind.shortNames, kind.categories, kind.namespaced], ['batch', 'jobs', 'job', undefined, ['all'], true]);
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.priority ?? 0]), [
    ['Name', 0], ['Status', 0], ['Completions', 0], ['Duration', 0], ['Age', 0], ['Containers', 1], ['Images', 1], ['Selector', 1],
  ]);
  assert.deepEqual(Object.keys(kind.fieldSelectors!), ['status.successful']);
});

test('schema: protobuf numbers, list types and merge keys as Kubernetes has them', () => {
  const props = (kind.versions[0]!.schema as any).properties;
  const spec = props.spec.properties, status = props.status.properties;
  const numbers = (o: Obj) => Object.fromEntries(Object.entries(o).map(([k, v]: [string, any]) => [k, v['x-proto']]));
  assert.deepEqual(numbers(spec), {
    parallelism: 1, completions: 2, activeDeadlineSeconds: 3, podFailurePolicy: 11, successPolicy: 16, backoffLimit: 7, backoffLimitPerIndex: 12,
    maxFailedIndexes: 13, selector: 4, manualSelector: 5, template: 6, ttlSecondsAfterFinished: 8, completionMode: 9, suspend: 10, podReplacementPolicy: 14, managedBy: 15,
  });
  assert.deepEqual(numbers(status), {
    conditions: 1, startTime: 2, completionTime: 3, active: 4, succeeded: 5, failed: 6, terminating: 11, completedIndexes: 7, failedIndexes: 10, uncountedTerminatedPods: 8, ready: 9,
  });
  assert.deepEqual([status.conditions['x-platform-list-type'], status.conditions['x-platform-patch-merge-key'], status.conditions['x-platform-patch-strategy']], ['atomic', 'type', 'merge']);
  assert.equal(status.uncountedTerminatedPods.properties.succeeded['x-platform-list-type'], 'set');
  const rule = spec.podFailurePolicy.properties.rules.items.properties;
  assert.deepEqual(numbers(rule), { action: 1, onExitCodes: 2, onPodConditions: 3 });
  assert.deepEqual(numbers(rule.onExitCodes.properties), { containerName: 1, operator: 2, values: 3 });
  assert.equal(rule.onExitCodes.properties.values['x-platform-list-type'], 'set');
  assert.deepEqual(numbers(spec.successPolicy.properties.rules.items.properties), { succeededIndexes: 1, succeededCount: 2 });
  assert.deepEqual(spec.podFailurePolicy.required, ['rules']);
  assert.deepEqual(props.spec.required, ['template']);
});

test('defaults: completions and parallelism 1 when both unset, 6 retries, NonIndexed, not suspended, TerminatingOrFailed, manualSelector false', async () => {
  const s = specOf(await h.create(job()));
  assert.deepEqual([s.completions, s.parallelism, s.backoffLimit, s.completionMode, s.suspend, s.podReplacementPolicy, s.manualSelector], [1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed', false]);
  // Only parallelism set: completions stay unset; only completions set: parallelism is 1.
  const p = specOf(await h.create(job({ parallelism: 3 })));
  assert.deepEqual([p.completions, p.parallelism], [undefined, 3]);
  const c = specOf(await h.create(job({ completions: 5 })));
  assert.deepEqual([c.completions, c.parallelism], [5, 1]);
  // A per-index limit lifts the global one; a pod failure policy means replacing only failed pods.
  const indexed = specOf(await h.create(job({ completionMode: 'Indexed', completions: 3, backoffLimitPerIndex: 1 })));
  assert.equal(indexed.backoffLimit, 2147483647);
  const pfp = specOf(await h.create(job({ podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } })));
  assert.equal(pfp.podReplacementPolicy, 'Failed');
  // A pod condition pattern's status is True by default; Go writes the unset pointers of a rule as null.
  assert.deepEqual(pfp.podFailurePolicy.rules, [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }], onExitCodes: null }]);
  const codes = specOf(await h.create(job({ podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1, 2] } }] } })));
  assert.deepEqual(codes.podFailurePolicy.rules[0], { action: 'FailJob', onExitCodes: { operator: 'In', values: [1, 2], containerName: null }, onPodConditions: null });
  // The template gets the pod template defaults, restartPolicy Always included (which validation refuses).
  assert.equal(specOf(await h.create(job())).template.spec.terminationGracePeriodSeconds, 30);
});

test('defaults: the pod replacement policy follows its gate', async () => {
  featureGates.set({ JobPodReplacementPolicy: false });
  try {
    const s = specOf(await h.create(job({ podReplacementPolicy: 'Failed' })));
    assert.equal(s.podReplacementPolicy, undefined);
  } finally {
    featureGates.set({ JobPodReplacementPolicy: true });
  }
});

test('create: the selector is generated from the uid, the template labelled with name and uid, the Job labelled from its template', async () => {
  const o = await h.create(job({}, 'pi'));
  const uid = o.metadata.uid!;
  assert.deepEqual(specOf(o).selector, { matchLabels: { 'batch.platform.io/controller-uid': uid } });
  const expected = { 'batch.platform.io/controller-uid': uid, 'batch.platform.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
  assert.deepEqual(specOf(o).template.metadata.labels, expected);
  assert.deepEqual(o.metadata.labels, expected);
  assert.deepEqual(o.status, {});
  // Labels of its own win: the template's are copied only into a Job without labels.
  const own = await h.create({ ...job({ template: template({}, { app: 'web' }) }, 'own'), metadata: { name: 'own', namespace: 'ns', labels: { team: 'a' } } });
  assert.deepEqual(own.metadata.labels, { team: 'a' });
  assert.deepEqual(Object.keys(specOf(own).template.metadata.labels).sort(), ['app', 'batch.platform.io/controller-uid', 'batch.platform.io/job-name', 'controller-uid', 'job-name']);
  const fromTemplate = await h.create(job({ template: template({}, { app: 'web' }) }));
  assert.deepEqual(fromTemplate.metadata.labels, { app: 'web' });
});

test('manualSelector: the selector is the user\'s and must match the template', async () => {
  const o = await h.create(job({ manualSelector: true, selector: { matchLabels: { app: 'batch' } }, template: template({}, { app: 'batch' }) }));
  assert.deepEqual(specOf(o).selector, { matchLabels: { app: 'batch' } });
  assert.deepEqual(specOf(o).template.metadata.labels, { app: 'batch' });
  assert.deepEqual(await causes({ manualSelector: true }), [
    'spec.selector: Required value',
    'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
  ]);
  assert.deepEqual(await causes({ manualSelector: true, selector: { matchLabels: { app: 'x' } }, template: template({}, { app: 'y' }) }), [
    'spec.template.metadata.labels: Invalid value: map[string]string{"app":"y"}: `selector` does not match template `labels`',
  ]);
});

test('generated selector: conflicting labels or selector are refused', async () => {
  const [wrongUid] = await causes({ template: template({}, { 'controller-uid': 'other' }) }, 'clash');
  assert.match(wrongUid!, /^spec\.template\.metadata\.labels\[controller-uid\]: Invalid value: map\[string\]string\{.*"controller-uid":"other".*\}: must be '[0-9a-f-]{36}'$/);
  const selector = await causes({ selector: { matchLabels: { app: 'web' } }, template: template({}, { app: 'web' }) }, 'sel');
  assert.deepEqual(selector.map((c) => c.replace(/[0-9a-f-]{36}/g, 'UID')), [
    'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "batch.platform.io/controller-uid":"UID"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated',
  ]);
});

test('template: restartPolicy OnFailure or Never (unset is Always), Never with a pod failure policy, containers required', async () => {
  for (const restart of [undefined, 'Always']) {
    assert.deepEqual(await causes({ template: template({ restartPolicy: restart }) }), ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
  }
  assert.deepEqual(await causes({ template: template({ restartPolicy: 'Sometimes' }) }), [
    'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"',
  ]);
  await h.create(job({ template: template({ restartPolicy: 'OnFailure' }) }));
  assert.deepEqual(await causes({ template: template({ restartPolicy: 'OnFailure' }), podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }] } }), [
    'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
  ]);
  assert.deepEqual(await causes({ template: template({ containers: [] }) }), ['spec.template.spec.containers: Required value']);
});

test('counts are not negative; Indexed needs completions and bounds parallelism; per-index limits need Indexed', async () => {
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) {
    assert.deepEqual(await causes({ [f]: -1 }), [`spec.${f}: Invalid value: -1: must be greater than or equal to 0`], f);
  }
  assert.deepEqual(await causes({ completionMode: 'Indexed', completions: undefined, parallelism: 200000 }), [
    'spec.completions: Required value: when completion mode is Indexed',
    'spec.parallelism: Invalid value: 200000: must be less than or equal to 100000 when completion mode is Indexed',
  ]);
  assert.deepEqual(await causes({ completionMode: 'Sometimes' }), ['spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"']);
  assert.deepEqual(await causes({ backoffLimitPerIndex: 1, maxFailedIndexes: 2 }), [
    'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
    'spec.maxFailedIndexes: Invalid value: 2: requires indexed completion mode',
  ]);
  assert.deepEqual(await causes({ completionMode: 'Indexed', completions: 3, maxFailedIndexes: 4 }), [
    'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
    'spec.maxFailedIndexes: Invalid value: 4: must be less than or equal to completions',
  ]);
  assert.deepEqual(await causes({ completionMode: 'Indexed', completions: 200000, parallelism: 20000, backoffLimitPerIndex: 1 }), [
    'spec.maxFailedIndexes: Required value: must be specified when completions is above 100000',
    'spec.parallelism: Invalid value: 20000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
  ]);
  assert.deepEqual(await causes({ completionMode: 'Indexed', completions: 200000, parallelism: 1, backoffLimitPerIndex: 1, maxFailedIndexes: 20000 }), [
    'spec.maxFailedIndexes: Invalid value: 20000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index',
  ]);
  // The last index's pod is named after the Job: the name and the index must make a DNS label.
  const long = 'x'.repeat(62);
  assert.deepEqual(await causes({ completionMode: 'Indexed', completions: 10 }, long), [`metadata.name: Invalid value: "${long}": will not able to create pod with invalid DNS label: ${long}-9`]);
});

test('managedBy: a domain-prefixed path of at most 63 characters', async () => {
  await h.create(job({ managedBy: 'example.com/my-controller' }));
  assert.deepEqual(await causes({ managedBy: 'nodomain' }), ['spec.managedBy: Invalid value: "nodomain": must be a domain-prefixed path (such as "acme.io/foo")']);
  assert.deepEqual(await causes({ managedBy: `example.com/${'a'.repeat(60)}` }), ['spec.managedBy: Too long: may not be more than 63 bytes']);
});

test('pod failure policy: actions, exit codes and pod conditions', async () => {
  const rules = async (r: Obj[], spec: Obj = {}) => causes({ podFailurePolicy: { rules: r }, ...spec });
  assert.deepEqual(await rules([{ onExitCodes: { operator: 'In', values: [1] } }]), ['spec.podFailurePolicy.rules[0].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]']);
  assert.deepEqual(await rules([{ action: 'Retry', onExitCodes: { operator: 'In', values: [1] } }]), ['spec.podFailurePolicy.rules[0].action: Unsupported value: "Retry": supported values: "Count", "FailIndex", "FailJob", "Ignore"']);
  assert.deepEqual(await rules([{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }]), ['spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set']);
  assert.deepEqual(await rules([{ action: 'Count', onExitCodes: { operator: 'Is', values: [0, 3, 3, 2], containerName: 'other' } }]), [
    'spec.podFailurePolicy.rules[0].onExitCodes.operator: Unsupported value: "Is": supported values: "In", "NotIn"',
    'spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "other": must be one of the container or initContainer names in the pod template',
    'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
    'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32{0, 3, 3, 2}: must be ordered',
  ]);
  assert.deepEqual(await rules([{ action: 'Count', onExitCodes: { operator: 'In', values: [0] } }]), ['spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator']);
  assert.deepEqual(await rules([{ action: 'Count', onExitCodes: { values: [] } }]), [
    'spec.podFailurePolicy.rules[0].onExitCodes.operator: Required value: valid values: ["In" "NotIn"]',
    'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: []int32(nil): at least one value is required',
  ]);
  assert.deepEqual(await rules([{ action: 'Ignore', onPodConditions: [{ type: 'bad type', status: 'Maybe' }] }]), [
    'spec.podFailurePolicy.rules[0].onPodConditions[0].type: Invalid value: "bad type": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
  ]);
  assert.deepEqual(await rules([{ action: 'Ignore' }, { action: 'Ignore', onExitCodes: { operator: 'In', values: [1] }, onPodConditions: [{ type: 'Ready' }] }]), [
    'spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
    'spec.podFailurePolicy.rules[1]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
  ]);
  const many = Array.from({ length: 21 }, () => ({ action: 'Ignore', onPodConditions: [{ type: 'Ready' }] }));
  assert.deepEqual(await rules(many), ['spec.podFailurePolicy.rules: Too many: 21: must have at most 20 items']);
  assert.deepEqual(await rules([{ action: 'Ignore', onPodConditions: [{ type: 'Ready' }] }], { podReplacementPolicy: 'TerminatingOrFailed' }), [
    'spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"',
  ]);
  await h.create(job({ completionMode: 'Indexed', completions: 2, backoffLimitPerIndex: 1, podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { containerName: 'work', operator: 'NotIn', values: [0] } }] } }));
});

test('pod replacement policy: Failed or TerminatingOrFailed', async () => {
  assert.deepEqual(await causes({ podReplacementPolicy: 'Never' }), ['spec.podReplacementPolicy: Unsupported value: "Never": supported values: "Failed", "TerminatingOrFailed"']);
});

test('success policy: Indexed only, rules with indexes within completions', async () => {
  assert.deepEqual(await causes({ successPolicy: { rules: [{ succeededCount: 1 }] } }), [
    'spec.successPolicy: Invalid value: batch.SuccessPolicy{Rules:[]batch.SuccessPolicyRule{batch.SuccessPolicyRule{SucceededIndexes:(*string)(nil), SucceededCount:(*int32)(0xc000000000)}}}: requires indexed completion mode',
  ]);
  const indexed = (rules: Obj[]) => causes({ completionMode: 'Indexed', completions: 5, successPolicy: { rules } });
  assert.deepEqual(await indexed([]), ['spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified']);
  assert.deepEqual(await indexed([{}]), ['spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified']);
  assert.deepEqual(await indexed([{ succeededIndexes: '0,2-7' }]), ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "0,2-7": error parsing succeededIndexes: too large index: "7"']);
  assert.deepEqual(await indexed([{ succeededIndexes: '3,1' }]), ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "3,1": error parsing succeededIndexes: non-increasing order, previous: 3, current: 1']);
  assert.deepEqual(await indexed([{ succeededIndexes: 'a' }]), ['spec.successPolicy.rules[0].succeededIndexes: Invalid value: "a": error parsing succeededIndexes: cannot convert string to integer for index: "a"']);
  assert.deepEqual(await indexed([{ succeededIndexes: '0-1', succeededCount: 3 }, { succeededCount: 6 }]), [
    'spec.successPolicy.rules[0].succeededCount: Invalid value: 3: must be less than or equal to 2 (the number of indexes in the specified succeededIndexes field)',
    'spec.successPolicy.rules[1].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)',
  ]);
  await h.create(job({ completionMode: 'Indexed', completions: 5, successPolicy: { rules: [{ succeededIndexes: '0,2-4', succeededCount: 2 }] } }));
});

test('gated fields are dropped when their gate is off', async () => {
  featureGates.set({ JobManagedBy: false, JobSuccessPolicy: false, JobBackoffLimitPerIndex: false });
  try {
    const s = specOf(await h.create(job({ managedBy: 'example.com/x', completionMode: 'Indexed', completions: 2, successPolicy: { rules: [{ succeededCount: 1 }] }, backoffLimitPerIndex: 1, maxFailedIndexes: 1,
      podFailurePolicy: { rules: [{ action: 'FailIndex', onExitCodes: { operator: 'In', values: [1] } }, { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } })));
    assert.deepEqual([s.managedBy, s.successPolicy, s.backoffLimitPerIndex, s.maxFailedIndexes, s.podFailurePolicy.rules.map((r: Obj) => r.action)], [undefined, undefined, undefined, undefined, ['Ignore']]);
  } finally {
    featureGates.reset();
  }
});

test('update: selector, completion mode, policies, managedBy and the template are immutable; completions too unless Indexed and in tandem', async () => {
  const o = await h.create(job({ completions: 2, parallelism: 2, managedBy: 'example.com/x' }, 'imm'));
  const change = async (edit: (s: Obj) => void) => {
    const next = structuredClone(o);
    edit(specOf(next));
    return (await rejection(h.update(next))).causes;
  };
  assert.deepEqual(await change((s) => { s.completions = 3; }), ['spec.completions: Invalid value: 3: field is immutable']);
  assert.deepEqual(await change((s) => { delete s.completions; }), ['spec.completions: Invalid value: "null": field is immutable']);
  assert.deepEqual(await change((s) => { s.completionMode = 'Indexed'; }), ['spec.completionMode: Invalid value: "Indexed": field is immutable']);
  assert.deepEqual(await change((s) => { s.managedBy = 'example.com/y'; }), ['spec.managedBy: Invalid value: "example.com/y": field is immutable']);
  const [templateChange] = await change((s) => { s.template.spec.containers[0].image = 'busybox:1.37'; });
  assert.match(templateChange!, /^spec\.template: Invalid value: core\.PodTemplateSpec\{ObjectMeta:v1\.ObjectMeta\{.*Image:"busybox:1\.37".*\}: field is immutable$/);
  const selector = await change((s) => { s.selector.matchLabels.extra = 'x'; s.template.metadata.labels.extra = 'x'; });
  // The template's labels changed with it: the template is immutable too.
  assert.equal(selector.length, 3);
  assert.match(selector[2]!, /^spec\.template: Invalid value: core\.PodTemplateSpec\{/);
  assert.match(selector[0]!, /^spec\.selector: Invalid value: v1\.LabelSelector\{.*"extra":"x".*\}: `selector` not auto-generated$/);
  assert.match(selector[1]!, /^spec\.selector: Invalid value: v1\.LabelSelector\{.*"extra":"x".*\}: field is immutable$/);
  assert.deepEqual(await change((s) => { s.podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] }; s.podReplacementPolicy = 'Failed'; }), [
    'spec.podFailurePolicy: Invalid value: batch.PodFailurePolicy{Rules:[]batch.PodFailurePolicyRule{batch.PodFailurePolicyRule{Action:"Ignore", OnExitCodes:(*batch.PodFailurePolicyOnExitCodesRequirement)(nil), OnPodConditions:[]batch.PodFailurePolicyOnPodConditionsPattern{batch.PodFailurePolicyOnPodConditionsPattern{Type:"DisruptionTarget", Status:"True"}}}}}: field is immutable',
  ]);
  // What may change: parallelism, the deadline, suspend, labels and annotations of the Job.
  const next = structuredClone(o);
  Object.assign(specOf(next), { parallelism: 5, activeDeadlineSeconds: 100, suspend: true, ttlSecondsAfterFinished: 10 });
  const updated = await h.update(next);
  assert.deepEqual([specOf(updated).parallelism, updated.metadata.generation], [5, 2]);

  const indexed = await h.create(job({ completionMode: 'Indexed', completions: 2, parallelism: 2 }, 'elastic'));
  const scaled = structuredClone(indexed); Object.assign(specOf(scaled), { completions: 4, parallelism: 4 });
  assert.equal(specOf(await h.update(scaled)).completions, 4);
  const uneven = structuredClone(scaled); Object.assign(specOf(uneven), { completions: 6 });
  delete uneven.metadata.resourceVersion;
  assert.deepEqual((await rejection(h.update(uneven))).causes, ['spec.completions: Invalid value: 6: can only be modified in tandem with spec.parallelism']);
});

test('update: a suspended Job that never started may change its scheduling directives, labels and annotations', async () => {
  const o = await h.create(job({ suspend: true }, 'queued'));
  const next = structuredClone(o);
  const tpl = specOf(next).template;
  tpl.spec.nodeSelector = { zone: 'a' };
  tpl.spec.tolerations = [{ key: 'k', operator: 'Exists' }];
  tpl.spec.affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } };
  tpl.metadata.annotations = { queue: 'q1' };
  tpl.spec.schedulingGates = [{ name: 'example.com/gate' }];
  const updated = await h.update(next);
  assert.deepEqual(specOf(updated).template.spec.nodeSelector, { zone: 'a' });
  const image = structuredClone(updated); specOf(image).template.spec.containers[0].image = 'other';
  assert.match((await rejection(h.update(image))).causes[0]!, /^spec\.template: Invalid value: core\.PodTemplateSpec\{/);
  // Once resumed (or started) the template is fixed again.
  const running = await h.create(job({}, 'running'));
  const moved = structuredClone(running); specOf(moved).template.spec.nodeSelector = { zone: 'b' };
  assert.match((await rejection(h.update(moved))).causes[0]!, /^spec\.template: Invalid value:/);
});

test('status: only through /status; counters, conditions, times and indexes follow Kubernetes\' transition rules', async () => {
  const o = await h.create(job({ completionMode: 'Indexed', completions: 3, parallelism: 3 }, 'st'));
  const withStatus = (status: Obj) => ({ ...structuredClone(o), status });
  assert.deepEqual((await h.update(withStatus({ active: 1 }))).status, {});
  const started = await h.update(withStatus({ active: 2, ready: 1, startTime: '2024-05-01T10:00:00Z', completedIndexes: '0', uncountedTerminatedPods: {} }), { subresource: 'status' });
  assert.deepEqual(started.status, { active: 2, ready: 1, startTime: '2024-05-01T10:00:00Z', completedIndexes: '0', uncountedTerminatedPods: {} });
  const bad = async (status: Obj, from: ApiObject = started) => (await rejection(h.update({ ...structuredClone(from), status }, { subresource: 'status' }))).causes;
  assert.deepEqual(await bad({ active: -1, startTime: '2024-05-01T10:00:00Z', completedIndexes: '0' }), ['status.active: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(await bad({ startTime: '2024-05-01T10:00:00Z', completedIndexes: '0-5' }), ['status.completedIndexes: Invalid value: "0-5": error parsing completedIndexes: too large index: "5"']);
  assert.deepEqual(await bad({ startTime: '2024-05-01T10:00:00Z', completedIndexes: '0', uncountedTerminatedPods: { succeeded: ['a', ''], failed: ['a'] } }), [
    'status.uncountedTerminatedPods.succeeded[1]: Invalid value: "": must not be empty',
    'status.uncountedTerminatedPods.failed[0]: Duplicate value: "a"',
  ]);
  assert.deepEqual(await bad({ startTime: '2024-05-01T11:00:00Z', completedIndexes: '0' }), ['status.startTime: Required value: startTime cannot be removed for unsuspended job']);
  assert.deepEqual(await bad({ startTime: '2024-05-01T10:00:00Z', completedIndexes: '0', failedIndexes: '1' }), ['status.failedIndexes: Invalid value: "1": cannot set non-null failedIndexes when backoffLimitPerIndex is null']);
  const complete = { type: 'Complete', status: 'True' }, scm = { type: 'SuccessCriteriaMet', status: 'True' };
  assert.deepEqual(await bad({ active: 1, startTime: '2024-05-01T10:00:00Z', completedIndexes: '0', conditions: [scm, complete] }), [
    'status.completionTime: Required value: completionTime is required for Complete jobs',
    'status.active: Invalid value: 1: active>0 is invalid for finished job',
  ]);
  assert.deepEqual(await bad({ startTime: '2024-05-01T10:00:00Z', completionTime: '2024-05-01T09:00:00Z', completedIndexes: '0-2', succeeded: 3, conditions: [scm, complete, { type: 'Failed', status: 'True' }] }), [
    'status.conditions: Invalid value: cannot set Complete=True and Failed=true conditions',
    'status.completionTime: Invalid value: 2024-05-01 09:00:00 +0000 UTC: completionTime cannot be set before startTime',
    'status.conditions: Invalid value: cannot set SuccessCriteriaMet=True and Failed=true conditions',
  ]);
  const done = await h.update(withStatus({ startTime: '2024-05-01T10:00:00Z', completionTime: '2024-05-01T10:02:30Z', completedIndexes: '0-2', succeeded: 3, conditions: [scm, complete] }), { subresource: 'status' });
  assert.deepEqual(kind.tableColumns!.slice(1, 4).map((c) => c.cell(done)), ['Complete', '3/3', '2m30s']);
  assert.equal(kind.fieldSelectors!['status.successful']!(done), '3');
  assert.deepEqual(await bad({ startTime: '2024-05-01T10:00:00Z', completionTime: '2024-05-01T10:05:00Z', completedIndexes: '0-2', succeeded: 2, conditions: [scm] }, done), [
    'status.completionTime: Invalid value: 2024-05-01 10:05:00 +0000 UTC: cannot set completionTime when there is no Complete=True condition',
    'status.conditions: Invalid value: cannot disable the terminal Complete=True condition',
    'status.completionTime: Invalid value: 2024-05-01 10:05:00 +0000 UTC: completionTime cannot be mutated',
  ]);
  // Only an elastic Indexed Job (completions equal to parallelism) may see its succeeded count go down.
  const plain = await h.create(job({ completions: 2 }, 'plain'));
  const counted = await h.update({ ...structuredClone(plain), status: { startTime: '2024-05-01T10:00:00Z', succeeded: 2, failed: 1 } }, { subresource: 'status' });
  assert.deepEqual(await bad({ startTime: '2024-05-01T10:00:00Z', succeeded: 1 }, counted), [
    'status.failed: Invalid value: 0: cannot decrease the failed counter',
    'status.succeeded: Invalid value: 1: cannot decrease the succeeded counter',
  ]);
});

test('status: with JobManagedBy off only the counters, conditions of success and uids are checked', async () => {
  const o = await h.create(job({}, 'loose'));
  featureGates.set({ JobManagedBy: false });
  try {
    const s = await h.update({ ...structuredClone(o), status: { active: 1, conditions: [{ type: 'Complete', status: 'True' }] } }, { subresource: 'status' });
    assert.equal((s.status as Obj).active, 1);
    assert.deepEqual((await rejection(h.update({ ...structuredClone(o), status: { failed: -2 } }, { subresource: 'status' }))).causes, ['status.failed: Invalid value: -2: must be greater than or equal to 0']);
  } finally {
    featureGates.reset();
  }
});

test('columns: status from the conditions, completions, duration, wide containers, images and selector', async () => {
  const o = await h.create(job({ parallelism: 3, template: template({ containers: [{ name: 'a', image: 'img-a' }, { name: 'b', image: 'img-b' }] }) }, 'cols'));
  const cells = (x: ApiObject) => kind.tableColumns!.map((c) => c.cell(x));
  assert.deepEqual(cells(o).slice(1, 4), ['Running', '0/1 of 3', '']);
  assert.deepEqual(cells(o).slice(5), ['a,b', 'img-a,img-b', `batch.platform.io/controller-uid=${o.metadata.uid}`]);
  const conditions = (list: Obj[]) => ({ ...o, status: { conditions: list } });
  assert.equal(column('Status').cell(conditions([{ type: 'Failed', status: 'True' }])), 'Failed');
  assert.equal(column('Status').cell(conditions([{ type: 'Suspended', status: 'True' }])), 'Suspended');
  assert.equal(column('Status').cell(conditions([{ type: 'FailureTarget', status: 'True' }])), 'FailureTarget');
  assert.equal(column('Status').cell({ ...o, metadata: { ...o.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } }), 'Terminating');
  assert.equal(column('Completions').cell({ ...o, spec: { ...specOf(o), parallelism: 1 } }), '0/1');
  assert.match(String(column('Duration').cell({ ...o, status: { startTime: new Date(Date.now() - 65_000).toISOString() } })), /^6[45]s$/);
});

test('warnings: the name as a DNS label, the pod template, many indexes with much parallelism', async () => {
  const w = await warningsOf(job({ completionMode: 'Indexed', completions: 200000, parallelism: 20000, backoffLimit: 1, template: template({ volumes: [{ name: 'repo', gitRepo: { repository: 'r' } }], containers: [{ name: 'work', image: 'busybox', volumeMounts: [{ name: 'repo', mountPath: '/r' }] }] }) }, 'wide'));
  assert.deepEqual(w, [
    'spec: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail',
    'spec.template.spec.volumes[0].gitRepo: deprecated in v1.11',
  ]);
  assert.match((await warningsOf(job({}, 'Upper.Case')))[0]!, /^metadata\.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: \[/);
});
