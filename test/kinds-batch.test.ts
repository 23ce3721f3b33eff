// End-to-end: the batch group (Job and CronJob, batch/v1) driven by the real kubectl and raw HTTP against a
// real Capstan: kubectl create job / cronjob / job --from=cronjob, apply -f, the columns Kubernetes prints,
// explain, the defaults, the generated selector and labels, the status sub-resource, and the 422s with
// Kubernetes' messages. No controller runs: Jobs stay Running and CronJobs never fire.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { header, row } from './support/kubectl-table.ts';

const MANIFEST = `apiVersion: batch/v1
kind: Job
metadata:
  name: render
spec:
  completions: 3
  parallelism: 2
  template:
    spec:
      restartPolicy: OnFailure
      containers:
      - name: render
        image: blender:4.1
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: backup
spec:
  schedule: "0 3 * * *"
  timeZone: Europe/Paris
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - name: backup
            image: restic:0.16
`;

describe('batch kinds with kubectl', () => {
  let s: TestServer;
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const refused = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded: ${r.stdout}`);
    return r.stderr;
  };
  const get = async (path: string) => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.body);
    return r.json();
  };
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('kubectl create job: defaults, the generated selector and labels', async () => {
    assert.match(await kubectl(['create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-Mbignum=bpi', '-wle', 'print bpi(20)']), /job\.batch\/pi created/);
    const job = await get('/apis/batch/v1/namespaces/default/jobs/pi');
    const uid = job.metadata.uid;
    assert.deepEqual(
      [job.spec.completions, job.spec.parallelism, job.spec.backoffLimit, job.spec.completionMode, job.spec.suspend, job.spec.podReplacementPolicy, job.spec.manualSelector],
      [1, 1, 6, 'NonIndexed', false, 'TerminatingOrFailed', false],
    );
    assert.deepEqual(job.spec.selector, { matchLabels: { 'batch.platform.io/controller-uid': uid } });
    const labels = { 'batch.platform.io/controller-uid': uid, 'batch.platform.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
    assert.deepEqual(job.spec.template.metadata.labels, labels);
    assert.deepEqual(job.metadata.labels, labels);
    assert.equal(job.spec.template.spec.restartPolicy, 'Never');
    assert.deepEqual(job.status, {});
    // The pods' labels select the Job's pods, and only them.
    assert.match(await kubectl(['get', 'jobs', '-l', `job-name=pi`]), /^pi\s/m);
  });

  it('kubectl create cronjob --schedule and create job --from=cronjob', async () => {
    assert.match(await kubectl(['create', 'cronjob', 'hello', '--image=busybox:1.36', '--schedule=*/5 * * * *', '--', 'echo', 'hello']), /cronjob\.batch\/hello created/);
    const cj = await get('/apis/batch/v1/namespaces/default/cronjobs/hello');
    assert.deepEqual([cj.spec.schedule, cj.spec.concurrencyPolicy, cj.spec.suspend, cj.spec.successfulJobsHistoryLimit, cj.spec.failedJobsHistoryLimit], ['*/5 * * * *', 'Allow', false, 3, 1]);
    assert.equal(cj.spec.jobTemplate.spec.template.spec.restartPolicy, 'OnFailure');
    // kubectl names the job template after the CronJob; Go writes its unset creation time as null.
    assert.deepEqual(cj.spec.jobTemplate.metadata, { name: 'hello', creationTimestamp: null });
    assert.equal(cj.spec.jobTemplate.spec.selector, undefined);

    // kubectl reads the CronJob and posts a Job made of its template, owned by it.
    assert.match(await kubectl(['create', 'job', 'hello-manual', '--from=cronjob/hello']), /job\.batch\/hello-manual created/);
    const job = await get('/apis/batch/v1/namespaces/default/jobs/hello-manual');
    assert.deepEqual(job.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cj.metadata.uid, controller: true }]);
    assert.equal(job.metadata.annotations['cronjob.kubernetes.io/instantiate'], 'manual');
    assert.deepEqual(job.spec.template.spec.containers.map((c: any) => [c.name, c.image, c.command]), [['hello', 'busybox:1.36', ['echo', 'hello']]]);
    assert.deepEqual(job.spec.selector, { matchLabels: { 'batch.platform.io/controller-uid': job.metadata.uid } });
    assert.equal(job.spec.template.metadata.labels['job-name'], 'hello-manual');
  });

  it('kubectl apply -f creates, then updates what may change', async () => {
    const created = await kubectl(['apply', '-f', '-'], MANIFEST);
    assert.match(created, /job\.batch\/render created/);
    assert.match(created, /cronjob\.batch\/backup created/);
    const changed = MANIFEST.replace('parallelism: 2', 'parallelism: 3').replace('"0 3 * * *"', '"30 2 * * *"');
    const applied = await kubectl(['apply', '-f', '-'], changed);
    assert.match(applied, /job\.batch\/render configured/);
    assert.match(applied, /cronjob\.batch\/backup configured/);
    assert.equal((await get('/apis/batch/v1/namespaces/default/jobs/render')).spec.parallelism, 3);
    const cj = await get('/apis/batch/v1/namespaces/default/cronjobs/backup');
    assert.deepEqual([cj.spec.schedule, cj.spec.timeZone, cj.metadata.generation], ['30 2 * * *', 'Europe/Paris', 2]);
    // Server-side apply too.
    assert.match(await kubectl(['apply', '--server-side', '--field-manager=ops', '--force-conflicts', '-f', '-'], changed.replace('"30 2 * * *"', '"@daily"')), /cronjob\.batch\/backup serverside-applied/);
    assert.equal((await get('/apis/batch/v1/namespaces/default/cronjobs/backup')).spec.schedule, '@daily');
  });

  it('kubectl get: the columns Kubernetes prints, wide too, and get all', async () => {
    const jobs = await kubectl(['get', 'jobs']);
    assert.deepEqual(header(jobs), ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE']);
    assert.deepEqual(row(jobs, 'render').slice(0, 3), ['render', 'Running', '0/3']);
    const wide = await kubectl(['get', 'job', 'render', '-o', 'wide']);
    assert.deepEqual(header(wide), ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    const uid = (await get('/apis/batch/v1/namespaces/default/jobs/render')).metadata.uid;
    assert.deepEqual(row(wide, 'render').slice(4), ['render', 'blender:4.1', `batch.platform.io/controller-uid=${uid}`]);

    const cronJobs = await kubectl(['get', 'cj']);
    assert.deepEqual(header(cronJobs), ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE']);
    assert.deepEqual(row(cronJobs, 'backup').slice(0, 6), ['backup', '@daily', 'Europe/Paris', 'False', '0', '<none>']);
    assert.deepEqual(row(cronJobs, 'hello').slice(1, 3), ['*/5 * * * *', '<none>']);
    const cronWide = await kubectl(['get', 'cronjobs.batch', 'backup', '-o', 'wide']);
    assert.deepEqual(header(cronWide), ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    assert.deepEqual(row(cronWide, 'backup').slice(7), ['backup', 'restic:0.16', '<none>']);

    const all = await kubectl(['get', 'all']);
    for (const name of ['cronjob.batch/backup', 'cronjob.batch/hello', 'job.batch/render', 'job.batch/pi']) assert.match(all, new RegExp(name.replace(/\./g, '\\.')), all);
  });

  it('kubectl explain', async () => {
    assert.match(await kubectl(['explain', 'job.spec']), /GROUP:\s+batch[\s\S]*FIELD: spec <JobSpec>[\s\S]*podFailurePolicy\s+<PodFailurePolicy>[\s\S]*template\s+<PodTemplateSpec> -required-/);
    assert.match(await kubectl(['explain', 'cj.spec']), /FIELD: spec <CronJobSpec>[\s\S]*jobTemplate\s+<JobTemplateSpec> -required-[\s\S]*schedule\s+<string> -required-[\s\S]*timeZone\s+<string>/);
    assert.match(await kubectl(['explain', 'job.status.uncountedTerminatedPods']), /succeeded\s+<\[\]string>/);
    assert.match(await kubectl(['explain', 'job.spec.podFailurePolicy.rules.onExitCodes']), /operator\s+<string> -required-[\s\S]*values\s+<\[\]integer> -required-/);
  });

  it('422: a bad schedule, a bad time zone, TZ in the schedule, restartPolicy Always, by kubectl and raw HTTP', async () => {
    assert.match(await refused(['create', 'cronjob', 'bad-schedule', '--image=busybox', '--schedule=61 * * * *']),
      /CronJob\.batch "bad-schedule" is invalid: spec\.schedule: Invalid value: "61 \* \* \* \*": end of range \(61\) above maximum \(59\): 61/);
    const cronJob = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'raw' }, spec: { schedule: '@hourly', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } }, ...spec } });
    const post = (body: string) => s.request('POST', '/apis/batch/v1/namespaces/default/cronjobs', { body });
    const tz = await post(cronJob({ timeZone: 'Mars/Olympus_Mons' }));
    assert.equal(tz.status, 422);
    assert.deepEqual([tz.json().reason, tz.json().details.causes], ['Invalid', [{ reason: 'FieldValueInvalid', message: 'Invalid value: "Mars/Olympus_Mons": unknown time zone Mars/Olympus_Mons', field: 'spec.timeZone' }]]);
    const inline = await post(cronJob({ schedule: 'CRON_TZ=Asia/Tokyo 0 9 * * *' }));
    assert.equal(inline.status, 422);
    assert.equal(inline.json().message, 'CronJob.batch "raw" is invalid: spec.schedule: Invalid value: "CRON_TZ=Asia/Tokyo 0 9 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead');
    const longName = await s.request('POST', '/apis/batch/v1/namespaces/default/cronjobs', { body: cronJob({}).replace('"raw"', `"${'n'.repeat(53)}"`) });
    assert.equal(longName.status, 422);
    assert.match(longName.json().message, /metadata\.name: Invalid value: "n{53}": must be no more than 52 characters/);

    const always = `apiVersion: batch/v1\nkind: Job\nmetadata: {name: always}\nspec:\n  template:\n    spec:\n      restartPolicy: Always\n      containers: [{name: c, image: busybox}]\n`;
    assert.match(await refused(['create', '-f', '-'], always), /The Job "always" is invalid: spec\.template\.spec\.restartPolicy: Required value: valid values: "OnFailure", "Never"/);
    const raw = await s.request('POST', '/apis/batch/v1/namespaces/default/jobs', { body: JSON.stringify({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'unset' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } } }) });
    assert.equal(raw.status, 422);
    assert.deepEqual(raw.json().details, { name: 'unset', group: 'batch', kind: 'Job', causes: [{ reason: 'FieldValueRequired', message: 'Required value: valid values: "OnFailure", "Never"', field: 'spec.template.spec.restartPolicy' }] });
    // Nothing was stored.
    assert.equal((await s.request('GET', '/apis/batch/v1/namespaces/default/jobs/unset')).status, 404);
  });

  it('422: immutable fields on update, by kubectl and raw HTTP', async () => {
    assert.match(await refused(['set', 'image', 'job/pi', 'pi=perl:5.36']), /Job\.batch "pi" is invalid: spec\.template: Invalid value: core\.PodTemplateSpec\{.*Image:"perl:5\.36".*\}: field is immutable/);
    const patch = (body: unknown) => s.request('PATCH', '/apis/batch/v1/namespaces/default/jobs/render', { body: JSON.stringify(body), headers: { 'content-type': 'application/merge-patch+json' } });
    const completions = await patch({ spec: { completions: 5 } });
    assert.equal(completions.status, 422);
    assert.equal(completions.json().message, 'Job.batch "render" is invalid: spec.completions: Invalid value: 5: field is immutable');
    const mode = await patch({ spec: { completionMode: 'Indexed' } });
    assert.match(mode.json().message, /spec\.completionMode: Invalid value: "Indexed": field is immutable/);
    const selector = await patch({ spec: { selector: { matchLabels: { app: 'x' } } } });
    assert.equal(selector.status, 422);
    assert.match(selector.json().message, /spec\.selector: Invalid value: v1\.LabelSelector\{.*\}: field is immutable/);
    // Parallelism, the deadline and suspend may change.
    assert.equal((await patch({ spec: { parallelism: 1, activeDeadlineSeconds: 600, suspend: true } })).status, 200);
  });

  it('status through /status, and the status.successful field selector', async () => {
    const job = await get('/apis/batch/v1/namespaces/default/jobs/render');
    const status = { startTime: '2024-05-01T10:00:00Z', completionTime: '2024-05-01T10:01:05Z', succeeded: 3, conditions: [{ type: 'SuccessCriteriaMet', status: 'True' }, { type: 'Complete', status: 'True' }] };
    const put = await s.request('PUT', '/apis/batch/v1/namespaces/default/jobs/render/status', { body: JSON.stringify({ ...job, status }) });
    assert.equal(put.status, 200, put.body);
    assert.deepEqual(row(await kubectl(['get', 'job', 'render']), 'render').slice(0, 4), ['render', 'Complete', '3/3', '65s']);
    assert.match(await kubectl(['get', 'jobs', '--field-selector', 'status.successful=3']), /^render\s/m);
    assert.doesNotMatch(await kubectl(['get', 'jobs', '--field-selector', 'status.successful=3']), /^pi\s/m);
    // A finished Job stays finished.
    const undo = await s.request('PUT', '/apis/batch/v1/namespaces/default/jobs/render/status', { body: JSON.stringify({ ...put.json(), status: { ...status, conditions: [status.conditions[0]] } }) });
    assert.equal(undo.status, 422);
    assert.match(undo.json().message, /status\.conditions: Invalid value: cannot disable the terminal Complete=True condition/);

    const cj = await get('/apis/batch/v1/namespaces/default/cronjobs/hello');
    const active = [{ kind: 'Job', namespace: 'default', name: 'hello-manual', apiVersion: 'batch/v1' }];
    const cjStatus = await s.request('PUT', '/apis/batch/v1/namespaces/default/cronjobs/hello/status', { body: JSON.stringify({ ...cj, status: { active, lastScheduleTime: new Date(Date.now() - 300_000).toISOString().replace(/\.\d+Z$/, 'Z') } }) });
    assert.equal(cjStatus.status, 200, cjStatus.body);
    assert.deepEqual(row(await kubectl(['get', 'cj', 'hello']), 'hello').slice(4, 6), ['1', '5m']);
  });

  it('batch/v1beta1 stays removed', async () => {
    assert.equal((await s.request('GET', '/apis/batch/v1beta1/namespaces/default/cronjobs')).status, 404);
    const group = await get('/apis/batch');
    assert.deepEqual(group.versions, [{ groupVersion: 'batch/v1', version: 'v1' }]);
    const resources = await get('/apis/batch/v1');
    assert.deepEqual(resources.resources.map((r: any) => [r.name, r.shortNames ?? [], r.categories ?? []]), [
      ['cronjobs', ['cj'], ['all']], ['cronjobs/status', [], []], ['jobs', [], ['all']], ['jobs/status', [], []],
    ]);
    // Kubernetes' own hashes of batch/v1 CronJob and Job.
    assert.deepEqual(resources.resources.filter((r: any) => !r.name.includes('/')).map((r: any) => r.storageVersionHash), ['sd5LIXh4Fjs=', 'mudhfqk/qZY=']);
    const unsupported = await s.kubectl(['get', 'jobs', '--field-selector', 'spec.parallelism=1']);
    assert.notEqual(unsupported.code, 0);
  });
});
