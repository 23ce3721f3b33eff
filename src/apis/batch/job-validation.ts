// What Jobs and CronJobs' job templates share: Kubernetes v1.32's validateJobSpec (counts, completion modes,
// pod failure and success policies, the pod template and its restart policy), the defaults of a JobSpec's
// nested types, and the warnings of a JobSpec. pkg/apis/batch/validation and pkg/api/job, by their rules and
// messages.
import { type FieldError, invalid, required, notSupported, tooMany, tooLong, duplicate } from '../../machinery/field-errors.ts';
import { errorWithGoValue, goQuote, goQuoteList } from '../../machinery/go-format.ts';
import { validateNonnegativeField } from '../../machinery/validation/objectmeta.ts';
import { isDomainPrefixedPath, isQualifiedName } from '../../machinery/validation/strings.ts';
import { podTemplateSpecErrors } from '../core/pod-validation.ts';
import { podTemplateWarnings } from '../core/pod-warnings.ts';
import { goPodFailurePolicy, goSuccessPolicy, goInt32Slice } from './go-values.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export const NON_INDEXED = 'NonIndexed';
export const INDEXED = 'Indexed';

/** The most parallelism an Indexed Job may have: it bounds the length of status.completedIndexes. */
const MAX_PARALLELISM_FOR_INDEXED = 100_000;
const MAX_FAILED_INDEXES_FOR_INDEXED = 100_000;
/** Above this many completions a per-index backoff limit needs tighter bounds. */
const COMPLETIONS_SOFT_LIMIT = 100_000;
const PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
const MAX_POD_FAILURE_POLICY_RULES = 20;
const MAX_EXIT_CODE_VALUES = 255;
const MAX_ON_POD_CONDITIONS = 20;
const MAX_MANAGED_BY_LENGTH = 63;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const MAX_SUCCESS_POLICY_RULES = 20;

const POD_FAILURE_ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_CODE_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const POD_REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];

const child = (path: string, name: string) => `${path}.${name}`;

/** The defaults of a JobSpec's nested types (SetDefaults_PodFailurePolicyOnPodConditionsPattern), and the
 *  pointers Go writes as `null` because their JSON names lack `omitempty` (a rule's onExitCodes, containerName). */
export function defaultPodFailurePolicy(spec: Obj): void {
  if (!isObj(spec.podFailurePolicy)) return;
  for (const rule of list(spec.podFailurePolicy.rules)) {
    for (const pattern of list(rule.onPodConditions)) pattern.status ||= 'True';
    if (rule.onExitCodes === undefined) rule.onExitCodes = null;
    if (isObj(rule.onExitCodes) && rule.onExitCodes.containerName === undefined) rule.onExitCodes.containerName = null;
  }
}

/** strconv.Atoi's acceptance: an optional sign and decimal digits. */
const decimal = (s: string): number | undefined => (/^[+-]?\d+$/.test(s) ? Number(s) : undefined);

/** parseIndexInterval: `x` or `x-y` below `completions`, increasing. */
function parseIndexInterval(interval: string, completions: number): [number, number] {
  const limits = interval.split('-');
  if (limits.length > 2) throw new Error(`the fragment ${goQuote(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`);
  const x = decimal(limits[0]!);
  if (x === undefined) throw new Error(`cannot convert string to integer for index: ${goQuote(limits[0]!)}`);
  if (x >= completions) throw new Error(`too large index: ${goQuote(limits[0]!)}`);
  if (limits.length === 1) return [x, x];
  const y = decimal(limits[1]!);
  if (y === undefined) throw new Error(`cannot convert string to integer for index: ${goQuote(limits[1]!)}`);
  if (y >= completions) throw new Error(`too large index: ${goQuote(limits[1]!)}`);
  if (x >= y) throw new Error(`non-increasing order, previous: ${x}, current: ${y}`);
  return [x, y];
}

/** validateIndexesFormat: how many indexes "1,3-5,7" holds, or an Error saying what is wrong with it. */
export function countIndexes(indexes: string, completions: number): number {
  if (indexes === '') return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of indexes.split(',')) {
    const [x, y] = parseIndexInterval(interval, completions);
    if (last !== undefined && last >= x) throw new Error(`non-increasing order, previous: ${last}, current: ${x}`);
    total += y - x + 1;
    last = y;
  }
  return total;
}

/** validateFailedIndexesNotOverlapCompleted: the first index both lists hold, as an error message. */
export function indexesOverlap(completed: string, failed: string, completions: number): string | undefined {
  if (completed === '' || failed === '') return undefined;
  const parse = (s: string): [number, number] | undefined => { try { return parseIndexInterval(s, completions); } catch { return undefined; } };
  const cs = completed.split(','), fs = failed.split(',');
  let ci = 0, fi = 0;
  let c = parse(cs[0]!), f = parse(fs[0]!);
  while (ci < cs.length && fi < fs.length) {
    // Intervals that do not parse are skipped here; their format is reported on its own.
    if (!c) { ci++; if (ci < cs.length) c = parse(cs[ci]!); continue; }
    if (!f) { fi++; if (fi < fs.length) f = parse(fs[fi]!); continue; }
    if (c[0] <= f[1] && f[0] <= c[1]) return `failedIndexes and completedIndexes overlap at index: ${Math.max(c[0], f[0])}`;
    if (c[0] <= f[0]) { ci++; if (ci < cs.length) c = parse(cs[ci]!); } else { fi++; if (fi < fs.length) f = parse(fs[fi]!); }
  }
  return undefined;
}

function exitCodesErrors(onExitCodes: Obj, path: string, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = onExitCodes.operator ?? '';
  if (operator === '') errs.push(required(child(path, 'operator'), `valid values: ${goQuoteList(EXIT_CODE_OPERATORS)}`));
  else if (!EXIT_CODE_OPERATORS.includes(operator)) errs.push(notSupported(child(path, 'operator'), operator, EXIT_CODE_OPERATORS));
  if (isSet(onExitCodes.containerName) && !containerNames.has(onExitCodes.containerName)) {
    errs.push(invalid(child(path, 'containerName'), onExitCodes.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const valuesPath = child(path, 'values');
  const values: number[] = Array.isArray(onExitCodes.values) ? onExitCodes.values : [];
  if (values.length === 0) errs.push(errorWithGoValue('FieldValueInvalid', valuesPath, onExitCodes.values, goInt32Slice(onExitCodes.values), 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODE_VALUES) errs.push(tooMany(valuesPath, values.length, MAX_EXIT_CODE_VALUES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalid(`${valuesPath}[${j}]`, v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(`${valuesPath}[${j}]`, v)); else seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) errs.push(errorWithGoValue('FieldValueInvalid', valuesPath, values, goInt32Slice(values), 'must be ordered'));
  return errs;
}

function onPodConditionsErrors(patterns: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > MAX_ON_POD_CONDITIONS) errs.push(tooMany(path, patterns.length, MAX_ON_POD_CONDITIONS));
  patterns.forEach((p, j) => {
    const at = `${path}[${j}]`;
    const type = String(p.type ?? '');
    errs.push(...isQualifiedName(type).map((m) => invalid(child(at, 'type'), type, m)));
    const status = p.status ?? '';
    if (status === '') errs.push(required(child(at, 'status'), `valid values: ${goQuoteList(CONDITION_STATUSES)}`));
    else if (!CONDITION_STATUSES.includes(status)) errs.push(notSupported(child(at, 'status'), status, CONDITION_STATUSES));
  });
  return errs;
}

function podFailurePolicyErrors(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rulesPath = child(path, 'rules');
  const rules = list(spec.podFailurePolicy.rules);
  if (rules.length > MAX_POD_FAILURE_POLICY_RULES) errs.push(tooMany(rulesPath, rules.length, MAX_POD_FAILURE_POLICY_RULES));
  const podSpec = isObj(spec.template?.spec) ? spec.template.spec : {};
  const containerNames = new Set([...list(podSpec.containers), ...list(podSpec.initContainers)].map((c) => c.name));
  rules.forEach((rule, i) => {
    const at = `${rulesPath}[${i}]`;
    const action = rule.action ?? '';
    if (action === '') errs.push(required(child(at, 'action'), `valid values: ${goQuoteList(POD_FAILURE_ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (!isSet(spec.backoffLimitPerIndex)) errs.push(invalid(child(at, 'action'), action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!POD_FAILURE_ACTIONS.includes(action)) errs.push(notSupported(child(at, 'action'), action, POD_FAILURE_ACTIONS));
    const conditions = list(rule.onPodConditions);
    if (isObj(rule.onExitCodes)) errs.push(...exitCodesErrors(rule.onExitCodes, child(at, 'onExitCodes'), containerNames));
    if (conditions.length > 0) errs.push(...onPodConditionsErrors(conditions, child(at, 'onPodConditions')));
    const omitted = (detail: string): FieldError => ({ type: 'FieldValueInvalid', field: at, hasValue: false, detail });
    if (isObj(rule.onExitCodes) && conditions.length > 0) errs.push(omitted('specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!isObj(rule.onExitCodes) && conditions.length === 0) errs.push(omitted('specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

function successPolicyErrors(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const rulesPath = child(path, 'rules');
  const rules = list(spec.successPolicy.rules);
  if (rules.length === 0) errs.push(required(rulesPath, 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_SUCCESS_POLICY_RULES) errs.push(tooMany(rulesPath, rules.length, MAX_SUCCESS_POLICY_RULES));
  // Indexed Jobs require completions (reported on its own); Kubernetes would dereference the nil here.
  const completions = num(spec.completions) ?? 0;
  rules.forEach((rule, i) => {
    const at = `${rulesPath}[${i}]`;
    if (!isSet(rule.succeededCount) && !isSet(rule.succeededIndexes)) errs.push(required(at, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (isSet(rule.succeededIndexes)) {
      const indexes = String(rule.succeededIndexes);
      const indexesPath = child(at, 'succeededIndexes');
      if (indexes.length > MAX_SUCCEEDED_INDEXES_LENGTH) errs.push(tooLong(indexesPath, indexes, MAX_SUCCEEDED_INDEXES_LENGTH));
      try {
        total = countIndexes(indexes, completions);
      } catch (err) {
        errs.push(invalid(indexesPath, indexes, `error parsing succeededIndexes: ${(err as Error).message}`));
      }
    }
    if (isSet(rule.succeededCount)) {
      const countPath = child(at, 'succeededCount');
      const count = Number(rule.succeededCount);
      errs.push(...validateNonnegativeField(count, countPath));
      if (count > completions) errs.push(invalid(countPath, count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (isSet(rule.succeededIndexes) && count > total) errs.push(invalid(countPath, count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  });
  return errs;
}

function podReplacementPolicyErrors(spec: Obj, path: string): FieldError[] {
  const policy = spec.podReplacementPolicy;
  if (!isSet(policy)) return [];
  if (isSet(spec.podFailurePolicy)) return policy === 'Failed' ? [] : [notSupported(path, policy, ['Failed'])];
  return POD_REPLACEMENT_POLICIES.includes(policy) ? [] : [notSupported(path, policy, POD_REPLACEMENT_POLICIES)];
}

/** validateJobSpec: what a Job's spec and a CronJob's job template must both satisfy. `path` is the spec's. */
export function jobSpecErrors(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex']) {
    if (isSet(spec[f])) errs.push(...validateNonnegativeField(spec[f], child(path, f)));
  }
  const parallelism = num(spec.parallelism), completions = num(spec.completions), maxFailed = num(spec.maxFailedIndexes);
  const perIndex = isSet(spec.backoffLimitPerIndex);
  if (maxFailed !== undefined) {
    errs.push(...validateNonnegativeField(maxFailed, child(path, 'maxFailedIndexes')));
    if (!perIndex) errs.push(required(child(path, 'backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (isSet(spec.managedBy)) {
    const managedBy = String(spec.managedBy);
    errs.push(...isDomainPrefixedPath(child(path, 'managedBy'), managedBy));
    if (managedBy.length > MAX_MANAGED_BY_LENGTH) errs.push(tooLong(child(path, 'managedBy'), managedBy, MAX_MANAGED_BY_LENGTH));
  }
  const mode = spec.completionMode;
  if (isSet(mode)) {
    if (mode !== NON_INDEXED && mode !== INDEXED) errs.push(notSupported(child(path, 'completionMode'), mode, [NON_INDEXED, INDEXED]));
    if (mode === INDEXED) {
      if (completions === undefined) errs.push(required(child(path, 'completions'), `when completion mode is ${INDEXED}`));
      if (parallelism !== undefined && parallelism > MAX_PARALLELISM_FOR_INDEXED) {
        errs.push(invalid(child(path, 'parallelism'), parallelism, `must be less than or equal to ${MAX_PARALLELISM_FOR_INDEXED} when completion mode is ${INDEXED}`));
      }
      if (completions !== undefined && maxFailed !== undefined && maxFailed > completions) errs.push(invalid(child(path, 'maxFailedIndexes'), maxFailed, 'must be less than or equal to completions'));
      if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_FOR_INDEXED) errs.push(invalid(child(path, 'maxFailedIndexes'), maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES_FOR_INDEXED}`));
      if (completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT && perIndex) {
        if (maxFailed === undefined) errs.push(required(child(path, 'maxFailedIndexes'), `must be specified when completions is above ${COMPLETIONS_SOFT_LIMIT}`));
        const highCompletions = `when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
        if (parallelism !== undefined && parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(invalid(child(path, 'parallelism'), parallelism, `must be less than or equal to ${PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} ${highCompletions}`));
        }
        if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS) {
          errs.push(invalid(child(path, 'maxFailedIndexes'), maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} ${highCompletions}`));
        }
      }
    }
  }
  if (!isSet(mode) || mode === NON_INDEXED) {
    if (perIndex) errs.push(invalid(child(path, 'backoffLimitPerIndex'), spec.backoffLimitPerIndex, 'requires indexed completion mode'));
    if (maxFailed !== undefined) errs.push(invalid(child(path, 'maxFailedIndexes'), maxFailed, 'requires indexed completion mode'));
  }
  if (isObj(spec.podFailurePolicy)) errs.push(...podFailurePolicyErrors(spec, child(path, 'podFailurePolicy')));
  if (isObj(spec.successPolicy)) {
    if ((mode ?? NON_INDEXED) !== INDEXED) {
      errs.push(errorWithGoValue('FieldValueInvalid', child(path, 'successPolicy'), spec.successPolicy, goSuccessPolicy(spec.successPolicy), 'requires indexed completion mode'));
    } else {
      errs.push(...successPolicyErrors(spec, child(path, 'successPolicy')));
    }
  }
  errs.push(...podReplacementPolicyErrors(spec, child(path, 'podReplacementPolicy')));
  errs.push(...podTemplateSpecErrors(spec.template, child(path, 'template')));
  // The pod spec's defaults made an unset restart policy Always: both are refused the same way.
  const restartPath = child(path, 'template.spec.restartPolicy');
  const restart = spec.template?.spec?.restartPolicy ?? '';
  if (restart === 'Always' || restart === '') errs.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restart !== 'OnFailure' && restart !== 'Never') errs.push(notSupported(restartPath, restart, ['OnFailure', 'Never']));
  else if (isSet(spec.podFailurePolicy) && restart !== 'Never') errs.push(invalid(restartPath, restart, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** A pod failure policy as its immutability error prints it. */
export const podFailurePolicyValue = (v: unknown) => (isObj(v) ? goPodFailurePolicy(v) : undefined);
export const successPolicyValue = (v: unknown) => (isObj(v) ? goSuccessPolicy(v) : undefined);

/** WarningsForJobSpec: many indexes with much parallelism, then the pod template's warnings. */
export function jobSpecWarnings(spec: Obj, path: string): string[] {
  const warnings: string[] = [];
  if (spec.completionMode === INDEXED && (num(spec.completions) ?? 0) > COMPLETIONS_SOFT_LIMIT && (num(spec.parallelism) ?? 0) > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
    warnings.push(`${path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`);
  }
  warnings.push(...podTemplateWarnings(spec.template, child(path, 'template')));
  return warnings;
}
