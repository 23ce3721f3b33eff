// What the apps workloads (Deployments, ReplicaSets, DaemonSets, StatefulSets) and core's ReplicationController
// share: the pod template (defaults, Kubernetes' template checks), the selector rules, the ReplicaSet strategy,
// status checks and columns, the int-or-percent rules of rolling updates and the Go renderings of values their
// messages show.
import type { ApiObject } from '../meta/v1.ts';
import type { KindDefinition, TableColumn } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, forbidden, notSupported } from '../../machinery/field-errors.ts';
import { validateLabelSelector, validateNonnegativeField } from '../../machinery/validation/objectmeta.ts';
import { isValidLabelValue, isValidPercent } from '../../machinery/validation/strings.ts';
import { labelSelectorFromObject } from '../../machinery/labels.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { goQuote, goStringSlice, errorWithGoValue } from '../../machinery/go-format.ts';
import { defaultPodSpec, dropDisabledPodSpecFields, canonicalizePodSpec, templateMetadata } from '../core/pod-defaults.ts';
import { podTemplateSpecErrors } from '../core/pod-validation.ts';
import { readOnlyPersistentDiskErrors } from '../core/volume-validation.ts';
import { workloadCreateWarnings } from '../core/pod-warnings.ts';
import { warnWhenValid } from '../warnings.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Go's `%#v` of a map[string]string: keys sorted. */
export function goStringMap(m: Record<string, string> | undefined | null): string {
  if (m === undefined || m === null) return 'map[string]string(nil)';
  return 'map[string]string{' + Object.keys(m).sort().map((k) => `${goQuote(k)}:${goQuote(String(m[k]))}`).join(', ') + '}';
}

/** Go's `%#v` of a metav1.LabelSelector. */
export function goLabelSelector(sel: Obj): string {
  const exprs = Array.isArray(sel.matchExpressions)
    ? '[]v1.LabelSelectorRequirement{' + sel.matchExpressions.map((e: Obj) => `v1.LabelSelectorRequirement{Key:${goQuote(e?.key ?? '')}, Operator:${goQuote(e?.operator ?? '')}, Values:${goStringSlice(Array.isArray(e?.values) ? e.values : undefined)}}`).join(', ') + '}'
    : '[]v1.LabelSelectorRequirement(nil)';
  return `v1.LabelSelector{MatchLabels:${goStringMap(sel.matchLabels)}, MatchExpressions:${exprs}}`;
}

/** The template defaults a workload's pods get (SetDefaults_PodSpec); the template is a struct in Go. */
export function defaultTemplate(spec: Obj): void {
  const tpl = isObj(spec.template) ? spec.template : (spec.template = {});
  templateMetadata(tpl);
  if (!isObj(tpl.spec)) tpl.spec = {};
  defaultPodSpec(tpl.spec);
}

export function dropDisabledTemplateFields(spec: Obj, old: Obj | undefined): void {
  if (isObj(spec.template?.spec)) dropDisabledPodSpecFields(spec.template.spec, old?.template?.spec);
}

export function canonicalizeTemplate(spec: Obj): void {
  if (isObj(spec.template?.spec)) canonicalizePodSpec(spec.template.spec);
}

/** A selector object without requirements, which would select every pod: `owner` names the workload in the message. */
export function emptySelectorErrors(sel: unknown, owner: string): FieldError[] {
  if (!isObj(sel)) return [];
  const count = Object.keys(sel.matchLabels ?? {}).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0);
  return count === 0 ? [errorWithGoValue('FieldValueInvalid', 'spec.selector', sel, goLabelSelector(sel), `empty selector is invalid for ${owner}`)] : [];
}

/** The selector rules of Deployments, ReplicaSets and StatefulSets: required, valid, not empty. (Kubernetes names
 *  the Deployment in the ReplicaSet's message too.) */
export function selectorErrors(spec: Obj, owner = 'deployment'): FieldError[] {
  const sel = spec.selector;
  if (!isObj(sel)) return sel === undefined ? [] : [required('spec.selector')];
  return [...validateLabelSelector(sel, 'spec.selector'), ...emptySelectorErrors(sel, owner)];
}

/** metav1 LabelSelectorHasInvalidLabelValue: a stored selector with such values may keep them on update. */
export function hasInvalidLabelValue(sel: unknown): boolean {
  if (!isObj(sel) || !Array.isArray(sel.matchExpressions)) return false;
  return sel.matchExpressions.some((e: Obj) => Array.isArray(e?.values) && e.values.some((v: unknown) => isValidLabelValue(String(v)).length > 0));
}

/** ValidatePodTemplateSpecForReplicaSet. */
export function templateForReplicaSetErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const tpl = isObj(spec.template) ? spec.template : {};
  const labels = tpl.metadata?.labels as Record<string, string> | undefined;
  let matches = false;
  let parsed = true;
  try {
    const selector = labelSelectorFromObject(isObj(spec.selector) ? spec.selector : null);
    matches = selector.matches(labels ?? {});
    // An empty (select-everything) selector is reported on its own; it matches any labels here.
    if (isObj(spec.selector) && Object.keys(spec.selector.matchLabels ?? {}).length + (spec.selector.matchExpressions?.length ?? 0) === 0) matches = true;
  } catch {
    parsed = false;
    errs.push(errorWithGoValue('FieldValueInvalid', 'spec.selector', spec.selector, goLabelSelector(spec.selector), 'invalid label selector'));
  }
  if (parsed && !matches) errs.push(templateLabelsMismatch(labels));
  if (parsed) errs.push(...replicatedTemplateErrors(tpl, spec.replicas, 'ReplicaSet'));
  return errs;
}

/** The template's labels do not satisfy the workload's selector. */
export function templateLabelsMismatch(labels: Record<string, string> | undefined): FieldError {
  return errorWithGoValue('FieldValueInvalid', 'spec.template.metadata.labels', labels, goStringMap(labels), '`selector` does not match template `labels`');
}

/** What ValidatePodTemplateSpecForReplicaSet and ValidatePodTemplateSpecForRC check of the template itself, after
 *  the selector: a valid pod template, read-only disks when replicated, restartPolicy Always, no active deadline
 *  (`owner` names the kind in that message). */
export function replicatedTemplateErrors(tpl: Obj, replicas: unknown, owner: string): FieldError[] {
  const errs = podTemplateSpecErrors(tpl, 'spec.template');
  if (typeof replicas === 'number' && replicas > 1) errs.push(...readOnlyPersistentDiskErrors(tpl.spec?.volumes, 'spec.template.spec.volumes'));
  const restart = tpl.spec?.restartPolicy;
  if (restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart ?? '', ['Always']));
  if (typeof tpl.spec?.activeDeadlineSeconds === 'number') errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', `activeDeadlineSeconds in ${owner} is not Supported`));
  return errs;
}

/** Once created, a workload's selector cannot change. */
export function selectorImmutableErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const sel = (obj.spec as Obj | undefined)?.selector, oldSel = (old.spec as Obj | undefined)?.selector;
  if (deepEqual(sel ?? null, oldSel ?? null)) return [];
  return [errorWithGoValue('FieldValueInvalid', 'spec.selector', sel, isObj(sel) ? goLabelSelector(sel) : '(*v1.LabelSelector)(nil)', 'field is immutable')];
}

export function nonNegative(obj: Obj, fields: string[], path: string): FieldError[] {
  return fields.flatMap((f) => validateNonnegativeField(obj[f], `${path}.${f}`));
}

/** ValidateReplicaSetStatus, which ValidateReplicationControllerStatus repeats: counts not negative, none above
 *  status.replicas, available not above ready. */
export function replicaSetStatusErrors(status: Obj): FieldError[] {
  return [
    ...nonNegative(status, ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'], 'status'),
    ...replicaCountErrors(status, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']),
  ];
}

/** The replica counts a status reports may not exceed status.replicas, nor available exceed ready. */
export function replicaCountErrors(status: Obj, counted: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const replicas = status.replicas ?? 0;
  for (const f of counted) {
    if ((status[f] ?? 0) > replicas) errs.push(invalid(`status.${f}`, status[f], 'cannot be greater than status.replicas'));
  }
  if ((status.availableReplicas ?? 0) > (status.readyReplicas ?? 0)) errs.push(invalid('status.availableReplicas', status.availableReplicas, 'cannot be greater than readyReplicas'));
  return errs;
}

/** A collision count never goes down (apivalidation.IsDecremented: dropping a set count is going down to 0). */
export function collisionCountErrors(status: Obj, oldStatus: Obj): FieldError[] {
  const before = oldStatus.collisionCount;
  const now = typeof status.collisionCount === 'number' ? status.collisionCount : undefined;
  return typeof before === 'number' && (now === undefined || now < before) ? [invalid('status.collisionCount', now ?? 0, 'cannot be decremented')] : [];
}

/** The names and images of the template's containers, as the wide columns show them. */
export function containerCells(obj: ApiObject): { names: string; images: string } {
  const ctrs = ((obj.spec as Obj | undefined)?.template?.spec?.containers ?? []) as Obj[];
  return { names: ctrs.map((c) => c?.name ?? '').join(','), images: ctrs.map((c) => c?.image ?? '').join(',') };
}

/** A ReplicaSetCondition or ReplicationControllerCondition: the same fields, described for the kind. */
export function replicaSetConditionSchema(o: { typeDescription: string; ref: string; description: string }) {
  return S.object({
    type: S.string({ proto: 1, description: o.typeDescription }),
    status: S.string({ proto: 2, description: 'Status of the condition, one of True, False, Unknown.' }),
    lastTransitionTime: S.time({ proto: 3, description: 'The last time the condition transitioned from one status to another.' }),
    reason: S.string({ proto: 4, description: "The reason for the condition's last transition." }),
    message: S.string({ proto: 5, description: 'A human readable message indicating details about the transition.' }),
  }, { required: ['type', 'status'], ref: o.ref, description: o.description });
}

/** What a ReplicaSet's or a ReplicationController's strategy adds to its checks on update, besides the spec's. */
export interface ReplicaSetRules {
  specErrors(obj: ApiObject): FieldError[];
  updateErrors(obj: ApiObject, old: ApiObject): FieldError[];
  updateWarnings(obj: ApiObject, old: ApiObject): string[];
}

/** The strategy hooks ReplicaSets and ReplicationControllers share: status cleared to `{replicas: 0}` on create,
 *  the template's disabled fields dropped, the spec checked on create (with the workload warnings) and update,
 *  a /status write checked as ValidateReplicaSetStatus, the template canonical, a `status.replicas` field
 *  selector. */
export function replicaSetStrategy(rules: ReplicaSetRules): Pick<KindDefinition, 'prepareForCreate' | 'prepareForUpdate' | 'validate' | 'validateUpdate' | 'canonicalize' | 'fieldSelectors'> {
  const spec = (o: ApiObject) => (o.spec ?? {}) as Obj;
  const status = (o: ApiObject) => (o.status ?? {}) as Obj;
  return {
    prepareForCreate(obj) {
      obj.status = { replicas: 0 };
      dropDisabledTemplateFields(spec(obj), undefined);
    },
    prepareForUpdate(obj, old, ctx) {
      if (ctx.subresource !== 'status') dropDisabledTemplateFields(spec(obj), spec(old));
    },
    validate: (obj, ctx) => warnWhenValid(rules.specErrors(obj), ctx, () => workloadCreateWarnings(obj)),
    validateUpdate(obj, old, ctx) {
      if (ctx.subresource === 'status') return replicaSetStatusErrors(status(obj));
      return warnWhenValid([...rules.specErrors(obj), ...rules.updateErrors(obj, old)], ctx, () => rules.updateWarnings(obj, old));
    },
    canonicalize: (obj) => canonicalizeTemplate(spec(obj)),
    fieldSelectors: { 'status.replicas': (o) => String(status(o).replicas ?? 0) },
  };
}

/** The columns kubectl shows for a ReplicaSet and a ReplicationController, described by the kind's own fields. */
export function replicaSetColumns(describe: { desired: string; current: string; ready: string; selector: string }, selector: (obj: ApiObject) => string): TableColumn[] {
  const spec = (o: ApiObject) => (o.spec ?? {}) as Obj;
  const status = (o: ApiObject) => (o.status ?? {}) as Obj;
  return [
    nameColumn,
    { name: 'Desired', type: 'integer', description: describe.desired, cell: (o) => spec(o).replicas ?? 0 },
    { name: 'Current', type: 'integer', description: describe.current, cell: (o) => status(o).replicas ?? 0 },
    { name: 'Ready', type: 'integer', description: describe.ready, cell: (o) => status(o).readyReplicas ?? 0 },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o).names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o).images },
    { name: 'Selector', type: 'string', priority: 1, description: describe.selector, cell: selector },
  ];
}

export function selectorCell(obj: ApiObject): string {
  try {
    return labelSelectorFromObject((obj.spec as Obj | undefined)?.selector ?? null).toString();
  } catch {
    return '<invalid>';
  }
}

/** intstr.IntOrString as `%#v` shows it. */
export function goIntOrString(v: unknown): string {
  if (typeof v === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`;
  return `intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`;
}

/** The number an int-or-percent stands for (getIntOrPercentValue): '25%' is 25, another text what Atoi makes of it. */
export function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  const text = String(v ?? '');
  const percent = /^(\d+)%$/.exec(text);
  if (percent) return Number(percent[1]);
  return /^[+-]?\d+$/.test(text) ? Number(text) : 0;
}

/** ValidatePositiveIntOrPercent: a number not below 0, or a valid percentage. */
export function positiveIntOrPercentErrors(v: unknown, path: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => errorWithGoValue('FieldValueInvalid', path, v, goIntOrString(v), m));
  return typeof v === 'number' ? validateNonnegativeField(v, path) : [];
}

/** IsNotMoreThan100Percent: a percentage may not exceed 100%. */
export function notMoreThan100PercentErrors(v: unknown, path: string): FieldError[] {
  if (typeof v !== 'string' || !/^\d+%$/.test(v) || intOrPercentValue(v) <= 100) return [];
  return [errorWithGoValue('FieldValueInvalid', path, v, goIntOrString(v), 'must not be greater than 100%')];
}
