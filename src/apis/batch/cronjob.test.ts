import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cronJobKind as kind } from './cronjob.ts';
import { kindHarness, rejection, requestContext, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const podTemplate = (spec: Obj = {}) => ({ spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36' }], ...spec } });
const cronJob = (spec: Obj = {}, name = `cj-${++n}`, jobSpec: Obj = {}): ApiObject => ({
  apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name, namespace: 'ns' },
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: podTemplate(), ...jobSpec } }, ...spec },
});
const causes = async (spec: Obj, jobSpec: Obj = {}, name?: string) => (await rejection(h.create(cronJob(spec, name, jobSpec)))).causes;
const specOf = (o: ApiObject) => o.spec as Obj;
const updateCauses = async (o: ApiObject, edit: (s: Obj) => void) => {
  const next = structuredClone(o);
  edit(specOf(next));
  return (await rejection(h.update(next))).causes;
};

test('declaration: batch/v1 cronjobs, short name cj, category all, status sub-resource, columns', () => {
  assert.deepEqual([kind.group, kind.plural, kind.singular, kind.shortNames, kind.categories, kind.namespaced], ['batch', 'cronjobs', 'cronjob', ['cj'], ['all'], true]);
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.type, c.priority ?? 0]), [
    ['Name', 'string', 0], ['Schedule', 'string', 0], ['Timezone', 'string', 0], ['Suspend', 'boolean', 0], ['Active', 'integer', 0], ['Last Schedule', 'string', 0], ['Age', 'string', 0],
    ['Containers', 'string', 1], ['Images', 'string', 1], ['Selector', 'string', 1],
  ]);
  assert.equal(kind.fieldSelectors, undefined);
  const props = (kind.versions[0]!.schema as any).properties;
  const numbers = (o: Obj) => Object.fromEntries(Object.entries(o).map(([k, v]: [string, any]) => [k, v['x-proto']]));
  assert.deepEqual(numbers(props.spec.properties), {
    schedule: 1, timeZone: 8, startingDeadlineSeconds: 2, concurrencyPolicy: 3, suspend: 4, jobTemplate: 5, successfulJobsHistoryLimit: 6, failedJobsHistoryLimit: 7,
  });
  assert.deepEqual(numbers(props.status.properties), { active: 1, lastScheduleTime: 4, lastSuccessfulTime: 5 });
  assert.equal(props.status.properties.active['x-platform-list-type'], 'atomic');
  assert.deepEqual(numbers(props.spec.properties.jobTemplate.properties), { metadata: 1, spec: 2 });
  assert.deepEqual(props.spec.required, ['schedule', 'jobTemplate']);
});

test('defaults: Allow, not suspended, 3 successful and 1 failed Jobs kept; the job template is not defaulted as a Job', async () => {
  const o = await h.create(cronJob());
  const s = specOf(o);
  assert.deepEqual([s.concurrencyPolicy, s.suspend, s.successfulJobsHistoryLimit, s.failedJobsHistoryLimit], ['Allow', false, 3, 1]);
  assert.deepEqual(s.jobTemplate.metadata, { creationTimestamp: null });
  const jobSpec = s.jobTemplate.spec;
  assert.deepEqual([jobSpec.completions, jobSpec.parallelism, jobSpec.backoffLimit, jobSpec.selector, jobSpec.manualSelector], [undefined, undefined, undefined, undefined, undefined]);
  assert.deepEqual(jobSpec.template.metadata, { creationTimestamp: null });
  assert.equal(jobSpec.template.spec.terminationGracePeriodSeconds, 30);
  assert.deepEqual(o.status, {});
  const kept = specOf(await h.create(cronJob({ concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0 })));
  assert.deepEqual([kept.concurrencyPolicy, kept.suspend, kept.successfulJobsHistoryLimit, kept.failedJobsHistoryLimit], ['Forbid', true, 0, 0]);
  // The pod failure policy's nested defaults apply inside the template.
  const pfp = specOf(await h.create(cronJob({}, undefined, { template: podTemplate({ restartPolicy: 'Never' }), podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] } })));
  assert.deepEqual(pfp.jobTemplate.spec.podFailurePolicy.rules[0].onPodConditions, [{ type: 'DisruptionTarget', status: 'True' }]);
});

test('schedule: required, parsed as robfig/cron parses it, descriptors accepted', async () => {
  assert.deepEqual(await causes({ schedule: '' }), ['spec.schedule: Required value']);
  assert.deepEqual(await causes({ schedule: '61 * * * *' }), ['spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61']);
  assert.deepEqual(await causes({ schedule: '* * * *' }), ['spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]']);
  assert.deepEqual(await causes({ schedule: '@sometimes' }), ['spec.schedule: Invalid value: "@sometimes": unrecognized descriptor: @sometimes']);
  for (const schedule of ['@hourly', '@daily', '@every 1h30m', '0 9-17/2 * JAN-jun mon-FRI', '*/15 * ? * *']) await h.create(cronJob({ schedule }));
});

test('schedule: TZ= and CRON_TZ= are refused, unless an update keeps one the CronJob already had', async () => {
  assert.deepEqual(await causes({ schedule: 'CRON_TZ=UTC 0 * * * *' }), ['spec.schedule: Invalid value: "CRON_TZ=UTC 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead']);
  assert.deepEqual(await causes({ schedule: 'TZ=Mars/Base 0 * * * *' }), [
    'spec.schedule: Invalid value: "TZ=Mars/Base 0 * * * *": provided bad location Mars/Base: unknown time zone Mars/Base',
    'spec.schedule: Invalid value: "TZ=Mars/Base 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
  ]);
  const old = await h.create(cronJob({}, 'legacy-tz'));
  await h.seed({ ...old, spec: { ...specOf(old), schedule: 'TZ=UTC 0 * * * *' } });
  const stored = h.get('legacy-tz', 'ns')!;
  const ctx = requestContext();
  const next = structuredClone(stored); specOf(next).suspend = true;
  const updated = await h.store.update('ns', () => structuredClone(next), { ctx, dryRun: false, subresource: '', allowCreate: false, name: 'legacy-tz' });
  assert.equal(specOf(updated.object).suspend, true);
  assert.deepEqual(ctx.warnings, ['cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://platform.io/docs/concepts/workloads/controllers/cron-jobs/ for more details']);
  assert.deepEqual(await updateCauses(updated.object, (s) => { s.timeZone = 'Europe/Paris'; }), ['spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule']);
  // Taking it out is always fine.
  const fixed = structuredClone(updated.object); specOf(fixed).schedule = '0 * * * *';
  assert.equal(specOf(await h.update(fixed)).schedule, '0 * * * *');
});

test('timeZone: an IANA name, not Local, not empty', async () => {
  for (const timeZone of ['Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'UTC']) assert.equal(specOf(await h.create(cronJob({ timeZone }))).timeZone, timeZone);
  assert.deepEqual(await causes({ timeZone: 'Europe/Pariss' }), ['spec.timeZone: Invalid value: "Europe/Pariss": unknown time zone Europe/Pariss']);
  assert.deepEqual(await causes({ timeZone: 'europe/paris' }), ['spec.timeZone: Invalid value: "europe/paris": unknown time zone europe/paris']);
  assert.deepEqual(await causes({ timeZone: '' }), ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string']);
  assert.deepEqual(await causes({ timeZone: 'Local' }), ['spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones']);
  assert.deepEqual(await causes({ timeZone: 'local' }), [
    'spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
    'spec.timeZone: Invalid value: "local": unknown time zone local',
  ]);
  for (const timeZone of ['+05:00', 'Europe/../etc', 'America/VeryLongCityNameHere', '-Europe']) {
    assert.deepEqual(await causes({ timeZone }), [`spec.timeZone: Invalid value: "${timeZone}": unknown time zone ${timeZone}`], timeZone);
  }
  // A zone that is no longer known (the database changed) is checked again only when the field changes.
  const o = await h.create(cronJob({ timeZone: 'Europe/Paris' }, 'stale-zone'));
  await h.seed({ ...o, spec: { ...specOf(o), timeZone: 'Atlantis/Capital' } });
  const stale = structuredClone(h.get('stale-zone', 'ns')!); specOf(stale).suspend = true;
  assert.equal(specOf(await h.update(stale)).suspend, true);
  assert.deepEqual(await updateCauses(h.get('stale-zone', 'ns')!, (s) => { s.timeZone = 'Atlantis/Harbour'; }), ['spec.timeZone: Invalid value: "Atlantis/Harbour": unknown time zone Atlantis/Harbour']);
});

test('history limits, deadline and concurrency policy', async () => {
  assert.deepEqual(await causes({ successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2, startingDeadlineSeconds: -3 }), [
    'spec.startingDeadlineSeconds: Invalid value: -3: must be greater than or equal to 0',
    'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    'spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
  ]);
  assert.deepEqual(await causes({ concurrencyPolicy: 'Sometimes' }), ['spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"']);
});

test('name: at most 52 characters on create (the Jobs add 11)', async () => {
  const name = 'c'.repeat(53);
  assert.deepEqual(await causes({}, {}, name), [`metadata.name: Invalid value: "${name}": must be no more than 52 characters`]);
  await h.create(cronJob({}, 'c'.repeat(52)));
  // Older CronJobs with longer names can still be updated.
  const long = await h.create(cronJob({}, 'tmp-long'));
  await h.seed({ ...long, metadata: { ...long.metadata, name } });
  const stored = h.get(name, 'ns')!;
  const next = structuredClone(stored); specOf(next).suspend = true;
  assert.equal(specOf(await h.update(next)).suspend, true);
});

test('job template: a Job spec whose selector will be generated', async () => {
  assert.deepEqual(await causes({}, { selector: { matchLabels: { app: 'x' } } }), [
    'spec.jobTemplate.spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` will be auto-generated',
  ]);
  assert.deepEqual(await causes({}, { manualSelector: true }), ['spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"']);
  assert.deepEqual(await causes({}, { template: podTemplate({ restartPolicy: 'Always' }) }), ['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
  assert.deepEqual(await causes({}, { template: { spec: { containers: [{ name: 'hello', image: 'busybox' }] } } }), ['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
  assert.deepEqual(await causes({}, { backoffLimit: -1, completionMode: 'Indexed' }), [
    'spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0',
    'spec.jobTemplate.spec.completions: Required value: when completion mode is Indexed',
  ]);
  await h.create(cronJob({}, undefined, { manualSelector: false, completions: 3, parallelism: 2, backoffLimit: 2 }));
});

test('update: everything in the spec may change; the generation follows', async () => {
  const o = await h.create(cronJob({}, 'mutable'));
  const next = structuredClone(o);
  Object.assign(specOf(next), { schedule: '@daily', timeZone: 'Asia/Tokyo', suspend: true });
  specOf(next).jobTemplate.spec.template.spec.containers[0].image = 'busybox:1.37';
  const u = await h.update(next);
  assert.deepEqual([specOf(u).schedule, specOf(u).timeZone, u.metadata.generation], ['@daily', 'Asia/Tokyo', 2]);
  assert.deepEqual(await updateCauses(u, (s) => { s.schedule = '* * *'; }), ['spec.schedule: Invalid value: "* * *": expected exactly 5 fields, found 3: [* * *]']);
});

test('status: only through /status, not validated; columns', async () => {
  const o = await h.create(cronJob({ timeZone: 'Europe/Paris' }, 'st', { template: podTemplate({ containers: [{ name: 'a', image: 'img-a' }, { name: 'b', image: 'img-b' }] }) }));
  const status = { active: [{ kind: 'Job', name: 'st-1', namespace: 'ns', apiVersion: 'batch/v1' }], lastScheduleTime: new Date(Date.now() - 120_000).toISOString().replace(/\.\d+Z$/, 'Z') };
  assert.deepEqual((await h.update({ ...structuredClone(o), status })).status, {});
  const written = await h.update({ ...structuredClone(o), status }, { subresource: 'status' });
  assert.deepEqual((written.status as Obj).active, status.active);
  assert.deepEqual(kind.tableColumns!.map((c) => c.cell(written)).filter((_, i) => i !== 6), ['st', '*/5 * * * *', 'Europe/Paris', 'False', 1, '2m', 'a,b', 'img-a,img-b', '<none>']);
  assert.deepEqual(kind.tableColumns!.slice(2, 6).map((c) => c.cell(o)), ['Europe/Paris', 'False', 0, '<none>']);
  assert.equal(kind.tableColumns![3]!.cell({ ...o, spec: { ...specOf(o), suspend: undefined } }), '<unset>');
  assert.equal(kind.tableColumns![2]!.cell({ ...o, spec: { ...specOf(o), timeZone: undefined } }), '<none>');
});

test('warnings: the name as a DNS label and the job template\'s pod template', async () => {
  const ctx = requestContext();
  const obj = cronJob({}, 'Dotted.Name', { template: podTemplate({ volumes: [{ name: 'repo', gitRepo: { repository: 'r' } }] }) });
  kind.defaults!(obj);
  kind.prepareForCreate!(obj, ctx);
  assert.deepEqual(kind.validate!(obj, ctx), []);
  assert.equal(ctx.warnings.length, 2);
  assert.match(ctx.warnings[0]!, /^metadata\.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: \[/);
  assert.equal(ctx.warnings[1], 'spec.jobTemplate.spec.template.spec.volumes[0].gitRepo: deprecated in v1.11');
});
