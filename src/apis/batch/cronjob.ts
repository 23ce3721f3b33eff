// CronJob (batch/v1, namespaced, short name cj): makes Jobs from a template on a cron schedule. Defaults as
// Kubernetes v1.32 sets them (concurrencyPolicy Allow, not suspended, 3 successful and 1 failed Jobs kept);
// the schedule is parsed as robfig/cron's ParseStandard parses it, a TZ= or CRON_TZ= prefix is refused (kept
// only by updates of CronJobs that already had one), timeZone must be an IANA zone, the name at most 52
// characters (the controller appends 11 to name its Jobs), and the job template is a Job spec whose selector
// will be generated. Status through /status. No controller schedules CronJobs.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, ObjectReference } from '../meta/v1.ts';
import { nameColumn, ageColumn, translateTimestampSince } from '../meta/table.ts';
import { type FieldError, invalid, required, notSupported } from '../../machinery/field-errors.ts';
import { errorWithGoValue } from '../../machinery/go-format.ts';
import { formatLabelSelector } from '../../machinery/labels.ts';
import { validateNonnegativeField } from '../../machinery/validation/objectmeta.ts';
import { isDNS1123Label } from '../../machinery/validation/strings.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import { fillGoZeroValues } from '../core/go-zero.ts';
import { templateMetadata } from '../core/pod-defaults.ts';
import { defaultTemplate, dropDisabledTemplateFields, canonicalizeTemplate, containerCells, goLabelSelector } from '../apps/workload.ts';
import { warnWhenValid } from '../warnings.ts';
import { JobTemplateSpec, SELECTOR_DESCRIPTION } from './job-schema.ts';
import { jobSpecErrors, jobSpecWarnings, defaultPodFailurePolicy } from './job-validation.ts';
import { parseStandardSchedule, loadLocationError } from './cron-schedule.ts';
import { GROUP } from './job.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];

/** The controller names a CronJob's Jobs `<name>-<11 characters>`, and Job names are DNS labels (63). */
const MAX_NAME_LENGTH = 63 - 11;

const D = {
  schedule: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
  timeZone: 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://platform.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
  suspend: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
  active: 'A list of pointers to currently running jobs.',
  lastScheduleTime: 'Information when was the last time the job was successfully scheduled.',
};

export const CronJobSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    schedule: S.string({ proto: 1, description: D.schedule }),
    timeZone: S.string({ proto: 8, description: D.timeZone }),
    startingDeadlineSeconds: S.int64({ proto: 2, description: 'Optional deadline in seconds for starting the job if it misses scheduled time for any reason.  Missed jobs executions will be counted as failed ones.' }),
    concurrencyPolicy: S.string({ proto: 3, description: 'Specifies how to treat concurrent executions of a Job. Valid values are:\n\n- "Allow" (default): allows CronJobs to run concurrently; - "Forbid": forbids concurrent runs, skipping next run if previous run hasn\'t finished yet; - "Replace": cancels currently running job and replaces it with a new one' }),
    suspend: S.bool({ proto: 4, description: D.suspend }),
    jobTemplate: described(JobTemplateSpec, 5, 'Specifies the job that will be created when executing a CronJob.'),
    successfulJobsHistoryLimit: S.int32({ proto: 6, description: 'The number of successful finished jobs to retain. Value must be non-negative integer. Defaults to 3.' }),
    failedJobsHistoryLimit: S.int32({ proto: 7, description: 'The number of failed finished jobs to retain. Value must be non-negative integer. Defaults to 1.' }),
  }, { proto: 2, required: ['schedule', 'jobTemplate'], ref: 'batch.v1.CronJobSpec', description: 'CronJobSpec describes how the job execution will look like and when it will actually run.' }),
  status: S.object({
    active: S.list(ObjectReference, { proto: 1, listType: 'atomic', description: D.active }),
    lastScheduleTime: S.time({ proto: 4, description: D.lastScheduleTime }),
    lastSuccessfulTime: S.time({ proto: 5, description: 'Information when was the last time the job successfully completed.' }),
  }, { proto: 3, ref: 'batch.v1.CronJobStatus', description: 'CronJobStatus represents the current state of a cron job.' }),
}, { ref: 'batch.v1.CronJob', description: 'CronJob represents the configuration of a single cron job.' });

const specOf = (o: ApiObject) => (isObj(o.spec) ? o.spec : {}) as Obj;
const statusOf = (o: ApiObject) => (isObj(o.status) ? o.status : {}) as Obj;
/** The job template's spec (a struct in Go: always there once defaulted). */
const jobSpecOf = (o: ApiObject) => (isObj(specOf(o).jobTemplate?.spec) ? specOf(o).jobTemplate.spec : {}) as Obj;

/** SetDefaults_CronJob, and the defaults of what the job template holds (not SetDefaults_Job's). */
function defaultCronJob(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  spec.concurrencyPolicy ||= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jobTemplate = isObj(spec.jobTemplate) ? spec.jobTemplate : (spec.jobTemplate = {});
  templateMetadata(jobTemplate);
  const jobSpec = isObj(jobTemplate.spec) ? jobTemplate.spec : (jobTemplate.spec = {});
  defaultPodFailurePolicy(jobSpec);
  defaultTemplate(jobSpec);
  obj.status ??= {};
  fillGoZeroValues(obj, CronJobSchema);
}

/** The IANA naming rules a time zone name must follow before it is looked up (letters, digits, . - _ +). */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** validateTimeZone. */
function timeZoneErrors(timeZone: unknown): FieldError[] {
  if (timeZone === undefined || timeZone === null) return [];
  const path = 'spec.timeZone';
  const zone = String(timeZone);
  if (zone === '') return [invalid(path, zone, 'timeZone must be nil or non-empty string')];
  for (const part of zone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part)) return [invalid(path, zone, `unknown time zone ${zone}`)];
  }
  const errs: FieldError[] = [];
  if (zone.toLowerCase() === 'local') errs.push(invalid(path, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  const problem = loadLocationError(zone);
  if (problem) errs.push(invalid(path, zone, problem));
  return errs;
}

/** validateScheduleFormat: robfig/cron must parse it; TZ in it only where an old schedule had it. */
function scheduleErrors(schedule: string, allowTZ: boolean, timeZone: unknown): FieldError[] {
  const errs: FieldError[] = [];
  try {
    parseStandardSchedule(schedule);
  } catch (err) {
    errs.push(invalid('spec.schedule', schedule, (err as Error).message));
  }
  if (schedule.includes('TZ')) {
    if (allowTZ && timeZone !== undefined && timeZone !== null) errs.push(invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
    if (!allowTZ) errs.push(invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  }
  return errs;
}

/** ValidateJobTemplateSpec: a Job spec whose selector the Job will generate. */
function jobTemplateErrors(obj: ApiObject): FieldError[] {
  const jobSpec = jobSpecOf(obj);
  const path = 'spec.jobTemplate.spec';
  const errs = jobSpecErrors(jobSpec, path);
  if (jobSpec.selector !== undefined && jobSpec.selector !== null) {
    errs.push(errorWithGoValue('FieldValueInvalid', `${path}.selector`, jobSpec.selector, goLabelSelector(isObj(jobSpec.selector) ? jobSpec.selector : {}), '`selector` will be auto-generated'));
  }
  if (jobSpec.manualSelector === true) errs.push(notSupported(`${path}.manualSelector`, true, ['nil', 'false']));
  return errs;
}

/** validateCronJobSpec; `old` for updates (the time zone is checked only when it changed). */
function specErrors(obj: ApiObject, old?: ApiObject): FieldError[] {
  const spec = specOf(obj), oldSpec = old ? specOf(old) : undefined;
  const errs: FieldError[] = [];
  const schedule = typeof spec.schedule === 'string' ? spec.schedule : '';
  if (schedule === '') errs.push(required('spec.schedule'));
  else errs.push(...scheduleErrors(schedule, String(oldSpec?.schedule ?? '').includes('TZ'), spec.timeZone));
  if (typeof spec.startingDeadlineSeconds === 'number') errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, 'spec.startingDeadlineSeconds'));
  if (!oldSpec || (spec.timeZone ?? null) !== (oldSpec.timeZone ?? null)) errs.push(...timeZoneErrors(spec.timeZone));
  const policy = spec.concurrencyPolicy ?? '';
  if (policy === '') errs.push(required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(policy)) errs.push(notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  errs.push(...jobTemplateErrors(obj));
  for (const f of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    if (typeof spec[f] === 'number') errs.push(...validateNonnegativeField(spec[f], `spec.${f}`));
  }
  return errs;
}

/** ValidateCronJobCreate: the spec, and a name short enough for the Jobs' names. */
function createErrors(obj: ApiObject): FieldError[] {
  const errs = specErrors(obj);
  const name = obj.metadata.name ?? '';
  if (name.length > MAX_NAME_LENGTH) errs.push(invalid('metadata.name', name, `must be no more than ${MAX_NAME_LENGTH} characters`));
  return errs;
}

function createWarnings(obj: ApiObject): string[] {
  const warnings: string[] = [];
  const nameProblems = isDNS1123Label(String(obj.metadata.name ?? ''));
  if (nameProblems.length) warnings.push(`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${nameProblems.join(' ')}]`);
  return [...warnings, ...jobSpecWarnings(jobSpecOf(obj), 'spec.jobTemplate.spec')];
}

function updateWarnings(obj: ApiObject, old: ApiObject): string[] {
  const warnings = obj.metadata.generation === old.metadata.generation ? [] : jobSpecWarnings(jobSpecOf(obj), 'spec.jobTemplate.spec');
  // The path is Kubernetes' own (`spec.spec.schedule`).
  if (String(specOf(obj).schedule ?? '').includes('TZ')) warnings.push('cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://platform.io/docs/concepts/workloads/controllers/cron-jobs/ for more details');
  return warnings;
}

/** printBoolPtr. */
const boolCell = (v: unknown) => (v === true ? 'True' : v === false ? 'False' : '<unset>');
const templateOf = (o: ApiObject): ApiObject => ({ metadata: {}, spec: jobSpecOf(o) });

export const cronJobKind: KindDefinition = {
  group: GROUP,
  kind: 'CronJob',
  plural: 'cronjobs',
  singular: 'cronjob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: CronJobSchema }],
  storageVersion: 'v1',
  status: {},

  defaults: defaultCronJob,
  prepareForCreate(obj) {
    obj.status = {};
    dropDisabledTemplateFields(jobSpecOf(obj), undefined);
  },
  prepareForUpdate(obj, old, ctx: RequestContext) {
    if (ctx.subresource !== 'status') dropDisabledTemplateFields(jobSpecOf(obj), jobSpecOf(old));
  },
  validate: (obj, ctx) => warnWhenValid(createErrors(obj), ctx, () => createWarnings(obj)),
  validateUpdate(obj, old, ctx) {
    // Kubernetes checks nothing of a CronJob's status.
    if (ctx.subresource === 'status') return [];
    // The name limit is for new CronJobs: older ones with longer names can still be updated.
    return warnWhenValid(specErrors(obj, old), ctx, () => updateWarnings(obj, old));
  },
  canonicalize: (obj) => canonicalizeTemplate(jobSpecOf(obj)),

  tableColumns: [
    nameColumn,
    { name: 'Schedule', type: 'string', description: D.schedule, cell: (o) => specOf(o).schedule ?? '' },
    { name: 'Timezone', type: 'string', description: D.timeZone, cell: (o) => specOf(o).timeZone ?? '<none>' },
    { name: 'Suspend', type: 'boolean', description: D.suspend, cell: (o) => boolCell(specOf(o).suspend) },
    { name: 'Active', type: 'integer', description: D.active, cell: (o) => (Array.isArray(statusOf(o).active) ? statusOf(o).active.length : 0) },
    { name: 'Last Schedule', type: 'string', description: D.lastScheduleTime, cell: (o) => (statusOf(o).lastScheduleTime ? translateTimestampSince(statusOf(o).lastScheduleTime) : '<none>') },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(templateOf(o)).names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(templateOf(o)).images },
    { name: 'Selector', type: 'string', priority: 1, description: SELECTOR_DESCRIPTION, cell: (o) => formatLabelSelector(jobSpecOf(o).selector) },
  ],
};
