// Job (batch/v1, namespaced): runs pods until a number of them succeed. Defaults as Kubernetes v1.32 sets
// them (completions and parallelism 1 when both are unset, 6 retries, NonIndexed, not suspended, a pod
// replacement policy, manualSelector false); on create the system picks a selector of the Job's uid and labels
// the pod template to match, unless manualSelector; the template's restart policy must be OnFailure or Never;
// selector, completion mode, policies and the template (but for the scheduling directives of a suspended Job
// that never started) are immutable; status through /status, with the transition rules Kubernetes enforces
// while JobManagedBy is on. No controller runs Jobs.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { nameColumn, ageColumn, humanDuration } from '../meta/table.ts';
import { type FieldError, invalid, required, duplicate } from '../../machinery/field-errors.ts';
import { errorWithGoValue } from '../../machinery/go-format.ts';
import { labelSelectorFromObject, formatLabelSelector } from '../../machinery/labels.ts';
import { validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { isDNS1123Label } from '../../machinery/validation/strings.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { featureGates } from '../../config/feature-gates.ts';
import { fillGoZeroValues } from '../core/go-zero.ts';
import { defaultTemplate, dropDisabledTemplateFields, canonicalizeTemplate, selectorImmutableErrors, containerCells, goStringMap, goLabelSelector } from '../apps/workload.ts';
import { warnWhenValid } from '../warnings.ts';
import { JobSchema, SUCCEEDED_DESCRIPTION, SELECTOR_DESCRIPTION } from './job-schema.ts';
import {
  jobSpecErrors, jobSpecWarnings, defaultPodFailurePolicy, countIndexes, indexesOverlap, podFailurePolicyValue, successPolicyValue, INDEXED, NON_INDEXED,
} from './job-validation.ts';
import { goPodTemplateSpec, goTime, goUncountedTerminatedPods, GO_NIL } from './go-values.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;

export const GROUP = 'batch';

/** The labels that tie a Job's pods to it: the prefixed ones and those it has always set. */
export const CONTROLLER_UID_LABEL = 'batch.platform.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.platform.io/job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';

const MAX_INT32 = 2 ** 31 - 1;

/**
 * The gates Job obeys, at Kubernetes v1.32's defaults (all beta, on). JobPodFailurePolicy and ElasticIndexedJob
 * are GA and locked on there, so their behaviour is unconditional here.
 */
export const jobFeatureGates = {
  get JobBackoffLimitPerIndex(): boolean { return featureGates.enabled('JobBackoffLimitPerIndex'); },
  get JobManagedBy(): boolean { return featureGates.enabled('JobManagedBy'); },
  get JobPodReplacementPolicy(): boolean { return featureGates.enabled('JobPodReplacementPolicy'); },
  get JobSuccessPolicy(): boolean { return featureGates.enabled('JobSuccessPolicy'); },
};

const specOf = (o: ApiObject) => (isObj(o.spec) ? o.spec : {}) as Obj;
const statusOf = (o: ApiObject) => (isObj(o.status) ? o.status : {}) as Obj;
/** Null and absent alike, as Kubernetes' semantic equality sees decoded Go values. */
const same = (a: unknown, b: unknown) => deepEqual(withoutNulls(a), withoutNulls(b));

function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (!isObj(v)) return v ?? undefined;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) out[k] = withoutNulls(x);
  return out;
}

/** SetDefaults_Job, the defaults of its nested types and of the pod template. */
function defaultJob(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  if (!isSet(spec.completions) && !isSet(spec.parallelism)) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  // A per-index limit is what counts then: the global one is lifted.
  spec.backoffLimit ??= isSet(spec.backoffLimitPerIndex) ? MAX_INT32 : 6;
  spec.completionMode ??= NON_INDEXED;
  spec.suspend ??= false;
  if (jobFeatureGates.JobPodReplacementPolicy) spec.podReplacementPolicy ??= isSet(spec.podFailurePolicy) ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
  defaultPodFailurePolicy(spec);
  defaultTemplate(spec);
  copyTemplateLabels(obj);
  obj.status ??= {};
  fillGoZeroValues(obj, JobSchema);
}

/** A Job without labels takes its template's (SetDefaults_Job; Kubernetes also applies it when it reads the
 *  Job back from storage, which is how a new Job shows the labels the selector generation added). */
function copyTemplateLabels(obj: ApiObject): void {
  const labels = specOf(obj).template?.metadata?.labels;
  if (isObj(labels) && Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...labels };
}

/** generateSelector: pod labels of the Job's name and uid, and a selector of its uid, unless manualSelector. */
function generateSelector(obj: ApiObject): void {
  const spec = specOf(obj);
  if (spec.manualSelector === true) return;
  const template = spec.template;
  const labels = (template.metadata.labels = isObj(template.metadata.labels) ? template.metadata.labels : {}) as Record<string, string>;
  // Labels the user set are kept: validation refuses them if they differ.
  const name = obj.metadata.name ?? '', uid = obj.metadata.uid ?? '';
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = uid;
  const selector = (spec.selector = isObj(spec.selector) ? spec.selector : {});
  const matchLabels = (selector.matchLabels = isObj(selector.matchLabels) ? selector.matchLabels : {});
  if (!Object.hasOwn(matchLabels, CONTROLLER_UID_LABEL)) matchLabels[CONTROLLER_UID_LABEL] = uid;
}

/** Fields of features that are off are dropped (on update, unless the Job already used them). */
function dropDisabledFields(spec: Obj, old: Obj | undefined): void {
  const gates = jobFeatureGates;
  if (!old && !gates.JobManagedBy) delete spec.managedBy;
  if (!gates.JobSuccessPolicy && !isSet(old?.successPolicy)) delete spec.successPolicy;
  if (!gates.JobBackoffLimitPerIndex) {
    if (!isSet(old?.backoffLimitPerIndex)) delete spec.backoffLimitPerIndex;
    if (!isSet(old?.maxFailedIndexes)) delete spec.maxFailedIndexes;
    // An update keeps them: the policy is immutable, and the old Job had a per-index limit if it used them.
    if (!old && isObj(spec.podFailurePolicy) && Array.isArray(spec.podFailurePolicy.rules)) {
      spec.podFailurePolicy.rules = spec.podFailurePolicy.rules.filter((r: Obj) => r?.action !== 'FailIndex');
    }
  }
  if (!gates.JobPodReplacementPolicy && !isSet(old?.podReplacementPolicy)) delete spec.podReplacementPolicy;
  dropDisabledTemplateFields(spec, old);
}

/** ValidateHasLabel: the label must be there, with this value. */
function hasLabelErrors(labels: Record<string, string> | undefined, key: string, expected: string): FieldError[] {
  const path = `spec.template.metadata.labels[${key}]`;
  if (!labels || !Object.hasOwn(labels, key)) return [required(path, expected)];
  if (labels[key] !== expected) return [errorWithGoValue('FieldValueInvalid', path, labels, goStringMap(labels), `must be '${expected}'`)];
  return [];
}

/** validateGeneratedSelector: a generated selector and the template's labels must be the Job's own. */
function generatedSelectorErrors(obj: ApiObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = specOf(obj);
  if (spec.manualSelector === true || !isObj(spec.selector)) return [];
  const errs: FieldError[] = [];
  const uid = obj.metadata.uid ?? '', name = obj.metadata.name ?? '';
  if (!uid) errs.push(required('metadata.uid'));
  const labels = spec.template?.metadata?.labels as Record<string, string> | undefined;
  errs.push(...hasLabelErrors(labels, LEGACY_CONTROLLER_UID_LABEL, uid), ...hasLabelErrors(labels, LEGACY_JOB_NAME_LABEL, name));
  const expected: Record<string, string> = {};
  if (requirePrefixedLabels) {
    errs.push(...hasLabelErrors(labels, CONTROLLER_UID_LABEL, uid), ...hasLabelErrors(labels, JOB_NAME_LABEL, name));
    expected[CONTROLLER_UID_LABEL] = uid;
    expected[JOB_NAME_LABEL] = name;
  }
  expected[LEGACY_CONTROLLER_UID_LABEL] = uid;
  expected[LEGACY_JOB_NAME_LABEL] = name;
  try {
    if (!labelSelectorFromObject(spec.selector).matches(expected)) {
      errs.push(errorWithGoValue('FieldValueInvalid', 'spec.selector', spec.selector, goLabelSelector(spec.selector), '`selector` not auto-generated'));
    }
  } catch {
    // An unparsable selector is reported by the spec's checks.
  }
  return errs;
}

/** ValidateJobSpec: validateJobSpec, then the selector, which must match the template's labels. */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs = jobSpecErrors(spec, 'spec');
  if (!isObj(spec.selector)) errs.push(required('spec.selector'));
  else errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  const labels = spec.template?.metadata?.labels as Record<string, string> | undefined;
  let matches: boolean | undefined;
  try {
    // No selector selects nothing.
    matches = isObj(spec.selector) ? labelSelectorFromObject(spec.selector).matches(labels ?? {}) : false;
  } catch {
    matches = undefined;
  }
  if (matches === false) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.template.metadata.labels', labels, goStringMap(labels), '`selector` does not match template `labels`'));
  return errs;
}

/** ValidateJob: the generated selector, the spec, and (Indexed) the hostname of the last index's pod. */
function jobErrors(obj: ApiObject, requirePrefixedLabels: boolean): FieldError[] {
  const spec = specOf(obj);
  const errs = [...generatedSelectorErrors(obj, requirePrefixedLabels), ...specErrors(obj)];
  if (spec.completionMode === INDEXED && typeof spec.completions === 'number' && spec.completions > 0) {
    const hostname = `${obj.metadata.name}-${spec.completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) errs.push(invalid('metadata.name', obj.metadata.name, `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  return errs;
}

/** ValidateImmutableField, with the value as Kubernetes prints it. */
function immutable(path: string, now: unknown, before: unknown, render: (v: unknown) => string | undefined = () => undefined): FieldError[] {
  if (same(now, before)) return [];
  if (!isSet(now)) return [errorWithGoValue('FieldValueInvalid', path, null, GO_NIL, 'field is immutable')];
  const rendered = render(now);
  return [rendered === undefined ? invalid(path, now, 'field is immutable') : errorWithGoValue('FieldValueInvalid', path, now, rendered, 'field is immutable')];
}

/** The template of a suspended Job that never started may change its scheduling directives. */
function templateUpdateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const template = specOf(obj).template ?? {};
  let before = specOf(old).template ?? {};
  if (specOf(old).suspend === true && !isSet(statusOf(old).startTime)) {
    before = structuredClone(before);
    const now = (template.spec ?? {}) as Obj, was = (before.spec ??= {}) as Obj;
    if (!isSet(now.affinity) && isObj(was.affinity)) {
      delete was.affinity.nodeAffinity;
      if (Object.keys(withoutNulls(was.affinity) as Obj).length === 0) delete was.affinity;
    } else if (isObj(now.affinity) && !isSet(was.affinity)) {
      was.affinity = isSet(now.affinity.nodeAffinity) ? { nodeAffinity: now.affinity.nodeAffinity } : {};
    } else if (isObj(now.affinity) && isObj(was.affinity)) {
      was.affinity.nodeAffinity = now.affinity.nodeAffinity;
    }
    for (const f of ['nodeSelector', 'tolerations', 'schedulingGates']) was[f] = now[f];
    const meta = (before.metadata ??= {}) as Obj;
    meta.annotations = template.metadata?.annotations;
    meta.labels = template.metadata?.labels;
  }
  return immutable('spec.template', template, before, goPodTemplateSpec);
}

/** validateCompletions: fixed, but an Indexed Job may scale with completions and parallelism kept equal. */
function completionsErrors(spec: Obj, oldSpec: Obj): FieldError[] {
  if (spec.completionMode !== INDEXED) return immutable('spec.completions', spec.completions, oldSpec.completions);
  if (same(spec.completions, oldSpec.completions) || !isSet(spec.completions)) return [];
  if (spec.completions !== spec.parallelism) return [invalid('spec.completions', spec.completions, 'can only be modified in tandem with spec.parallelism')];
  return [];
}

/** ValidateJobSpecUpdate beyond the spec's own checks. */
function specUpdateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const spec = specOf(obj), oldSpec = specOf(old);
  return [
    ...completionsErrors(spec, oldSpec),
    ...(same(spec.selector, oldSpec.selector) ? [] : selectorImmutableErrors(obj, old)),
    ...templateUpdateErrors(obj, old),
    ...immutable('spec.completionMode', spec.completionMode, oldSpec.completionMode),
    ...immutable('spec.podFailurePolicy', spec.podFailurePolicy, oldSpec.podFailurePolicy, podFailurePolicyValue),
    ...immutable('spec.backoffLimitPerIndex', spec.backoffLimitPerIndex, oldSpec.backoffLimitPerIndex),
    ...immutable('spec.managedBy', spec.managedBy, oldSpec.managedBy),
    ...immutable('spec.successPolicy', spec.successPolicy, oldSpec.successPolicy, successPolicyValue),
  ];
}

// ---- status ----

const conditionTrue = (o: ApiObject, type: string) => (Array.isArray(statusOf(o).conditions) ? statusOf(o).conditions : []).some((c: Obj) => c?.type === type && c?.status === 'True');
const isComplete = (o: ApiObject) => conditionTrue(o, 'Complete');
const isFailed = (o: ApiObject) => conditionTrue(o, 'Failed');
const isFinished = (o: ApiObject) => isComplete(o) || isFailed(o);
const successCriteriaMet = (o: ApiObject) => conditionTrue(o, 'SuccessCriteriaMet');
const failureTarget = (o: ApiObject) => conditionTrue(o, 'FailureTarget');
const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : undefined);
const count = (status: Obj, f: string) => (typeof status[f] === 'number' ? status[f] : 0);

interface StatusRules {
  rejectDecreasingSucceeded: boolean;
  rejectDecreasingFailed: boolean;
  rejectDisablingTerminalCondition: boolean;
  rejectInvalidCompletedIndexes: boolean;
  rejectInvalidFailedIndexes: boolean;
  rejectFailedIndexesOverlappingCompleted: boolean;
  rejectCompletedIndexesForNonIndexedJob: boolean;
  rejectFailedIndexesForNoBackoffLimitPerIndex: boolean;
  rejectFinishedJobWithActivePods: boolean;
  rejectFinishedJobWithoutStartTime: boolean;
  rejectFinishedJobWithUncountedTerminatedPods: boolean;
  rejectStartTimeUpdateForUnsuspendedJob: boolean;
  rejectCompletionTimeBeforeStartTime: boolean;
  rejectMutatingCompletionTime: boolean;
  rejectCompleteJobWithoutCompletionTime: boolean;
  rejectNotCompleteJobWithCompletionTime: boolean;
  rejectCompleteJobWithFailedCondition: boolean;
  rejectCompleteJobWithFailureTargetCondition: boolean;
  allowSuccessCriteriaMetInExtendedScope: boolean;
}

/**
 * getStatusValidationOptions: with JobManagedBy on, a status write may not break what clients rely on (a
 * finished Job stays finished, counters do not go down ...); each rule but a few runs only when the fields
 * it reads changed, so that a status already off the rules can still be written.
 */
function statusRules(obj: ApiObject, old: ApiObject): StatusRules {
  const none: StatusRules = {
    rejectDecreasingSucceeded: false, rejectDecreasingFailed: false, rejectDisablingTerminalCondition: false, rejectInvalidCompletedIndexes: false,
    rejectInvalidFailedIndexes: false, rejectFailedIndexesOverlappingCompleted: false, rejectCompletedIndexesForNonIndexedJob: false,
    rejectFailedIndexesForNoBackoffLimitPerIndex: false, rejectFinishedJobWithActivePods: false, rejectFinishedJobWithoutStartTime: false,
    rejectFinishedJobWithUncountedTerminatedPods: false, rejectStartTimeUpdateForUnsuspendedJob: false, rejectCompletionTimeBeforeStartTime: false,
    rejectMutatingCompletionTime: false, rejectCompleteJobWithoutCompletionTime: false, rejectNotCompleteJobWithCompletionTime: false,
    rejectCompleteJobWithFailedCondition: false, rejectCompleteJobWithFailureTargetCondition: false,
    allowSuccessCriteriaMetInExtendedScope: successCriteriaMet(old),
  };
  if (!jobFeatureGates.JobManagedBy) return jobFeatureGates.JobPodReplacementPolicy ? { ...none, allowSuccessCriteriaMetInExtendedScope: true } : none;
  const spec = specOf(obj), status = statusOf(obj), oldStatus = statusOf(old);
  const changed = (f: string) => !same(status[f], oldStatus[f]);
  const finishedChanged = isFinished(old) !== isFinished(obj);
  const completeChanged = isComplete(old) !== isComplete(obj);
  const completedIndexesChanged = (oldStatus.completedIndexes ?? '') !== (status.completedIndexes ?? '');
  const failedIndexesChanged = changed('failedIndexes');
  const startTimeChanged = changed('startTime'), completionTimeChanged = changed('completionTime');
  return {
    // Elastic Indexed Jobs scale down: their succeeded count may then go down.
    rejectDecreasingSucceeded: spec.completionMode !== INDEXED || spec.completions !== spec.parallelism,
    rejectDecreasingFailed: true,
    rejectDisablingTerminalCondition: true,
    rejectInvalidCompletedIndexes: completedIndexesChanged,
    rejectInvalidFailedIndexes: failedIndexesChanged,
    rejectCompletedIndexesForNonIndexedJob: completedIndexesChanged,
    rejectFailedIndexesForNoBackoffLimitPerIndex: failedIndexesChanged,
    rejectFailedIndexesOverlappingCompleted: failedIndexesChanged || completedIndexesChanged,
    rejectFinishedJobWithActivePods: finishedChanged || count(status, 'active') !== count(oldStatus, 'active'),
    rejectFinishedJobWithoutStartTime: finishedChanged || startTimeChanged,
    rejectFinishedJobWithUncountedTerminatedPods: finishedChanged || changed('uncountedTerminatedPods'),
    rejectStartTimeUpdateForUnsuspendedJob: startTimeChanged,
    rejectCompletionTimeBeforeStartTime: startTimeChanged || completionTimeChanged,
    rejectMutatingCompletionTime: true,
    rejectNotCompleteJobWithCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithoutCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithFailedCondition: completeChanged || isFailed(old) !== isFailed(obj),
    rejectCompleteJobWithFailureTargetCondition: completeChanged || failureTarget(old) !== failureTarget(obj),
    allowSuccessCriteriaMetInExtendedScope: true,
  };
}

/** An error on status.conditions that prints no value. */
const conditionsError = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field: 'status.conditions', hasValue: false, detail });
const timeError = (path: string, value: string, detail: string) => errorWithGoValue('FieldValueInvalid', path, value, goTime(value), detail);

/** validateJobStatus. */
function jobStatusErrors(obj: ApiObject, rules: StatusRules): FieldError[] {
  const errs: FieldError[] = [];
  const spec = specOf(obj), status = statusOf(obj);
  for (const f of ['active', 'succeeded', 'failed', 'ready', 'terminating']) {
    if (typeof status[f] === 'number' && status[f] < 0) errs.push(invalid(`status.${f}`, status[f], 'must be greater than or equal to 0'));
  }
  if (isObj(status.uncountedTerminatedPods)) {
    const seen = new Set<string>();
    for (const which of ['succeeded', 'failed']) {
      const uids = status.uncountedTerminatedPods[which];
      (Array.isArray(uids) ? uids : []).forEach((uid: string, i: number) => {
        const at = `status.uncountedTerminatedPods.${which}[${i}]`;
        if (uid === '') errs.push(invalid(at, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(duplicate(at, uid));
        else seen.add(uid);
      });
    }
  }
  const complete = isComplete(obj), failed = isFailed(obj), finished = complete || failed;
  if (rules.rejectCompleteJobWithFailedCondition && complete && failed) errs.push(conditionsError('cannot set Complete=True and Failed=true conditions'));
  if (rules.rejectCompleteJobWithFailureTargetCondition && complete && failureTarget(obj)) errs.push(conditionsError('cannot set Complete=True and FailureTarget=true conditions'));
  if (rules.rejectNotCompleteJobWithCompletionTime && isSet(status.completionTime) && !complete) {
    errs.push(timeError('status.completionTime', status.completionTime, 'cannot set completionTime when there is no Complete=True condition'));
  }
  if (rules.rejectCompleteJobWithoutCompletionTime && !isSet(status.completionTime) && complete) errs.push(required('status.completionTime', 'completionTime is required for Complete jobs'));
  if (rules.rejectCompletionTimeBeforeStartTime && isSet(status.startTime) && isSet(status.completionTime) && time(status.completionTime)! < time(status.startTime)!) {
    errs.push(timeError('status.completionTime', status.completionTime, 'completionTime cannot be set before startTime'));
  }
  if (rules.rejectFinishedJobWithActivePods && count(status, 'active') > 0 && finished) errs.push(invalid('status.active', status.active, 'active>0 is invalid for finished job'));
  if (rules.rejectFinishedJobWithoutStartTime && !isSet(status.startTime) && finished) errs.push(required('status.startTime', 'startTime is required for finished job'));
  const uncounted = status.uncountedTerminatedPods;
  if (rules.rejectFinishedJobWithUncountedTerminatedPods && finished && isObj(uncounted) && (uncounted.failed?.length ?? 0) + (uncounted.succeeded?.length ?? 0) > 0) {
    errs.push(errorWithGoValue('FieldValueInvalid', 'status.uncountedTerminatedPods', uncounted, goUncountedTerminatedPods(uncounted), 'uncountedTerminatedPods needs to be empty for finished job'));
  }
  const completions = typeof spec.completions === 'number' ? spec.completions : undefined;
  const completedIndexes = String(status.completedIndexes ?? '');
  if (rules.rejectInvalidCompletedIndexes && completions !== undefined) {
    try { countIndexes(completedIndexes, completions); } catch (err) { errs.push(invalid('status.completedIndexes', completedIndexes, `error parsing completedIndexes: ${(err as Error).message}`)); }
  }
  if (rules.rejectInvalidFailedIndexes && completions !== undefined && isSet(spec.backoffLimitPerIndex) && isSet(status.failedIndexes)) {
    try { countIndexes(status.failedIndexes, completions); } catch (err) { errs.push(invalid('status.failedIndexes', status.failedIndexes, `error parsing failedIndexes: ${(err as Error).message}`)); }
  }
  const indexed = spec.completionMode === INDEXED;
  if (rules.rejectCompletedIndexesForNonIndexedJob && completedIndexes !== '' && !indexed) {
    errs.push(invalid('status.completedIndexes', completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  if (rules.rejectFailedIndexesForNoBackoffLimitPerIndex && !isSet(spec.backoffLimitPerIndex) && isSet(status.failedIndexes)) {
    errs.push(invalid('status.failedIndexes', status.failedIndexes, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if (rules.rejectFailedIndexesOverlappingCompleted && completions !== undefined && isSet(status.failedIndexes)) {
    const overlap = indexesOverlap(completedIndexes, String(status.failedIndexes), completions);
    if (overlap) errs.push(invalid('status.failedIndexes', status.failedIndexes, overlap));
  }
  const met = successCriteriaMet(obj);
  if (!rules.allowSuccessCriteriaMetInExtendedScope && !indexed && met) errs.push(conditionsError('cannot set SuccessCriteriaMet to NonIndexed Job'));
  if (met && failed) errs.push(conditionsError('cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (met && failureTarget(obj)) errs.push(conditionsError('cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (!rules.allowSuccessCriteriaMetInExtendedScope && !isSet(spec.successPolicy) && met) errs.push(conditionsError('cannot set SuccessCriteriaMet=True for Job without SuccessPolicy'));
  if (isSet(spec.successPolicy) && !met && complete) errs.push(conditionsError('cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  return errs;
}

/** ValidateJobStatusUpdate. */
function statusUpdateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const rules = statusRules(obj, old);
  const errs = jobStatusErrors(obj, rules);
  const status = statusOf(obj), oldStatus = statusOf(old);
  if (rules.rejectDisablingTerminalCondition) {
    for (const type of ['Failed', 'Complete', 'FailureTarget']) {
      if (conditionTrue(old, type) && !conditionTrue(obj, type)) errs.push(conditionsError(`cannot disable the terminal ${type}=True condition`));
    }
  }
  if (rules.rejectDecreasingFailed && count(status, 'failed') < count(oldStatus, 'failed')) errs.push(invalid('status.failed', count(status, 'failed'), 'cannot decrease the failed counter'));
  if (rules.rejectDecreasingSucceeded && count(status, 'succeeded') < count(oldStatus, 'succeeded')) errs.push(invalid('status.succeeded', count(status, 'succeeded'), 'cannot decrease the succeeded counter'));
  if (rules.rejectMutatingCompletionTime && isSet(status.completionTime) && isSet(oldStatus.completionTime) && time(status.completionTime) !== time(oldStatus.completionTime)) {
    errs.push(timeError('status.completionTime', status.completionTime, 'completionTime cannot be mutated'));
  }
  if (rules.rejectStartTimeUpdateForUnsuspendedJob && isSet(oldStatus.startTime) && time(oldStatus.startTime) !== time(status.startTime) && specOf(obj).suspend !== true) {
    errs.push(required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  }
  if (successCriteriaMet(old) && !successCriteriaMet(obj)) errs.push(conditionsError('cannot disable the SuccessCriteriaMet=True condition'));
  if (isComplete(old) && !successCriteriaMet(old) && successCriteriaMet(obj)) errs.push(conditionsError('cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  return errs;
}

/** WarningsOnCreate: the name is used in pod names and hostnames, then the spec's warnings. */
function createWarnings(obj: ApiObject): string[] {
  const warnings: string[] = [];
  const nameProblems = isDNS1123Label(String(obj.metadata.name ?? ''));
  if (nameProblems.length) warnings.push(`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${nameProblems.join(' ')}]`);
  return [...warnings, ...jobSpecWarnings(specOf(obj), 'spec')];
}

// ---- table ----

/** hasJobCondition as the printer reads it: the first condition of that type decides. */
function printedCondition(obj: ApiObject, type: string): boolean {
  const c = (Array.isArray(statusOf(obj).conditions) ? statusOf(obj).conditions : []).find((x: Obj) => x?.type === type);
  return c?.status === 'True';
}

function statusCell(obj: ApiObject): string {
  if (printedCondition(obj, 'Complete')) return 'Complete';
  if (printedCondition(obj, 'Failed')) return 'Failed';
  if (obj.metadata.deletionTimestamp) return 'Terminating';
  if (printedCondition(obj, 'Suspended')) return 'Suspended';
  if (printedCondition(obj, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

function completionsCell(obj: ApiObject): string {
  const spec = specOf(obj), succeeded = count(statusOf(obj), 'succeeded');
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = typeof spec.parallelism === 'number' ? spec.parallelism : 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function durationCell(obj: ApiObject): string {
  const start = time(statusOf(obj).startTime);
  if (start === undefined || Number.isNaN(start)) return '';
  const end = time(statusOf(obj).completionTime);
  return humanDuration((end ?? Date.now()) - start);
}

export const jobKind: KindDefinition = {
  group: GROUP,
  kind: 'Job',
  plural: 'jobs',
  singular: 'job',
  namespaced: true,
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: JobSchema }],
  storageVersion: 'v1',
  status: {},

  defaults: defaultJob,
  prepareForCreate(obj) {
    obj.status = {};
    dropDisabledFields(specOf(obj), undefined);
    generateSelector(obj);
    copyTemplateLabels(obj);
  },
  prepareForUpdate(obj, old, ctx: RequestContext) {
    if (ctx.subresource !== 'status') dropDisabledFields(specOf(obj), specOf(old));
  },
  validate: (obj, ctx) => warnWhenValid(jobErrors(obj, true), ctx, () => createWarnings(obj)),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return statusUpdateErrors(obj, old);
    // Jobs made before the prefixed labels existed are not held to them.
    const oldLabels = specOf(old).template?.metadata?.labels ?? {};
    const requirePrefixedLabels = Object.hasOwn(oldLabels, JOB_NAME_LABEL) && Object.hasOwn(oldLabels, CONTROLLER_UID_LABEL);
    const errs = [...jobErrors(obj, requirePrefixedLabels), ...specUpdateErrors(obj, old)];
    return warnWhenValid(errs, ctx, () => (obj.metadata.generation === old.metadata.generation ? [] : jobSpecWarnings(specOf(obj), 'spec')));
  },
  canonicalize: (obj) => canonicalizeTemplate(specOf(obj)),

  fieldSelectors: { 'status.successful': (o) => String(count(statusOf(o), 'succeeded')) },
  tableColumns: [
    nameColumn,
    { name: 'Status', type: 'string', description: 'Status of the job.', cell: statusCell },
    { name: 'Completions', type: 'string', description: SUCCEEDED_DESCRIPTION, cell: completionsCell },
    { name: 'Duration', type: 'string', description: 'Time required to complete the job.', cell: durationCell },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o).names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o).images },
    { name: 'Selector', type: 'string', priority: 1, description: SELECTOR_DESCRIPTION, cell: (o) => formatLabelSelector(specOf(o).selector) },
  ],
};

