// DaemonSet (apps/v1, namespaced): one pod from a template on every node its node selector admits. Defaults
// as Kubernetes sets them (RollingUpdate with maxUnavailable 1 and maxSurge 0, 10 revisions, the pod template's
// defaults); the selector must match the template and cannot change; status through /status. apps/v1 has no
// spec.templateGeneration: it travels as the deprecated.daemonset.template.generation annotation, which starts
// at 1 and goes up by one with every change of the template.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, required, forbidden, notSupported } from '../../machinery/field-errors.ts';
import { validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { labelSelectorFromObject } from '../../machinery/labels.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { errorWithGoValue, goQuote, goStruct, goPointer } from '../../machinery/go-format.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import { PodTemplateSpec } from '../core/pod-schema.ts';
import { podTemplateSpecErrors } from '../core/pod-validation.ts';
import { podTemplateWarnings } from '../core/pod-warnings.ts';
import { warnWhenValid } from '../warnings.ts';
import {
  defaultTemplate, dropDisabledTemplateFields, canonicalizeTemplate, emptySelectorErrors, selectorImmutableErrors, hasInvalidLabelValue,
  nonNegative, collisionCountErrors, containerCells, selectorCell, goStringMap, goIntOrString, intOrPercentValue, positiveIntOrPercentErrors, notMoreThan100PercentErrors,
} from './workload.ts';
import { GROUP } from './deployment.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** Where apps/v1 keeps the internal spec.templateGeneration. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
export const UPDATE_STRATEGY_TYPES = ['RollingUpdate', 'OnDelete'];

const SELECTOR_DESCRIPTION = "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://platform.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";
const DESIRED_DESCRIPTION = 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://platform.io/docs/concepts/workloads/controllers/daemonset/';
const CURRENT_DESCRIPTION = 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://platform.io/docs/concepts/workloads/controllers/daemonset/';
const READY_DESCRIPTION = 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.';
const UPDATED_DESCRIPTION = 'The total number of nodes that are running updated daemon pod';
const AVAILABLE_DESCRIPTION = 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)';
const NODE_SELECTOR_DESCRIPTION = "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://platform.io/docs/concepts/configuration/assign-pod-node/";

const RollingUpdateDaemonSet = S.object({
  maxUnavailable: S.intOrString({ proto: 1, description: 'The maximum number of DaemonSet pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of total number of DaemonSet pods at the start of the update (ex: 10%). Absolute number is calculated from percentage by rounding up. This cannot be 0 if MaxSurge is 0 Default value is 1. Example: when this is set to 30%, at most 30% of the total number of nodes that should be running the daemon pod (i.e. status.desiredNumberScheduled) can have their pods stopped for an update at any given time. The update starts by stopping at most 30% of those DaemonSet pods and then brings up new DaemonSet pods in their place. Once the new pods are available, it then proceeds onto other DaemonSet pods, thus ensuring that at least 70% of original number of DaemonSet pods are available at all times during the update.' }),
  maxSurge: S.intOrString({ proto: 2, description: 'The maximum number of nodes with an existing available DaemonSet pod that can have an updated DaemonSet pod during during an update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up to a minimum of 1. Default value is 0. Example: when this is set to 30%, at most 30% of the total number of nodes that should be running the daemon pod (i.e. status.desiredNumberScheduled) can have their a new pod created before the old pod is marked as deleted. The update starts by launching new pods on 30% of nodes. Once an updated pod is available (Ready for at least minReadySeconds) the old DaemonSet pod on that node is marked deleted. If the old pod becomes unavailable for any reason (Ready transitions to false, is evicted, or is drained) an updated pod is immediatedly created on that node without considering surge limits. Allowing surge implies the possibility that the resources consumed by the daemonset on any given node can double if the readiness check fails, and so resource intensive daemonsets should take into account that they may cause evictions during disruption.' }),
}, { ref: 'apps.v1.RollingUpdateDaemonSet', description: 'Spec to control the desired behavior of daemon set rolling update.' });

const DaemonSetUpdateStrategy = S.object({
  type: S.string({ proto: 1, description: 'Type of daemon set update. Can be "RollingUpdate" or "OnDelete". Default is RollingUpdate.' }),
  rollingUpdate: described(RollingUpdateDaemonSet, 2, 'Rolling update config params. Present only if type = "RollingUpdate".'),
}, { ref: 'apps.v1.DaemonSetUpdateStrategy', description: 'DaemonSetUpdateStrategy is a struct used to control the update strategy for a DaemonSet.' });

const DaemonSetCondition = S.object({
  type: S.string({ proto: 1, description: 'Type of DaemonSet condition.' }),
  status: S.string({ proto: 2, description: 'Status of the condition, one of True, False, Unknown.' }),
  lastTransitionTime: S.time({ proto: 3, description: 'Last time the condition transitioned from one status to another.' }),
  reason: S.string({ proto: 4, description: "The reason for the condition's last transition." }),
  message: S.string({ proto: 5, description: 'A human readable message indicating details about the transition.' }),
}, { required: ['type', 'status'], ref: 'apps.v1.DaemonSetCondition', description: 'DaemonSetCondition describes the state of a DaemonSet at a certain point.' });

const DaemonSetSpec = S.object({
  selector: described(LabelSelector, 1, SELECTOR_DESCRIPTION),
  template: described(PodTemplateSpec, 2, 'An object that describes the pod that will be created. The DaemonSet will create exactly one copy of this pod on every node that matches the template\'s node selector (or on every node if no node selector is specified). The only allowed template.spec.restartPolicy value is "Always". More info: https://platform.io/docs/concepts/workloads/controllers/replicationcontroller#pod-template'),
  updateStrategy: described(DaemonSetUpdateStrategy, 3, 'An update strategy to replace existing DaemonSet pods with new pods.'),
  minReadySeconds: S.int32({ proto: 4, description: 'The minimum number of seconds for which a newly created DaemonSet pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready).' }),
  revisionHistoryLimit: S.int32({ proto: 6, description: 'The number of old history to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.' }),
}, { required: ['selector', 'template'], ref: 'apps.v1.DaemonSetSpec', description: 'DaemonSetSpec is the specification of a daemon set.' });

const DaemonSetStatus = S.object({
  currentNumberScheduled: S.int32({ proto: 1, description: CURRENT_DESCRIPTION }),
  numberMisscheduled: S.int32({ proto: 2, description: 'The number of nodes that are running the daemon pod, but are not supposed to run the daemon pod. More info: https://platform.io/docs/concepts/workloads/controllers/daemonset/' }),
  desiredNumberScheduled: S.int32({ proto: 3, description: DESIRED_DESCRIPTION }),
  numberReady: S.int32({ proto: 4, description: READY_DESCRIPTION }),
  observedGeneration: S.int64({ proto: 5, description: 'The most recent generation observed by the daemon set controller.' }),
  updatedNumberScheduled: S.int32({ proto: 6, description: UPDATED_DESCRIPTION }),
  numberAvailable: S.int32({ proto: 7, description: AVAILABLE_DESCRIPTION }),
  numberUnavailable: S.int32({ proto: 8, description: 'The number of nodes that should be running the daemon pod and have none of the daemon pod running and available (ready for at least spec.minReadySeconds)' }),
  collisionCount: S.int32({ proto: 9, description: 'Count of hash collisions for the DaemonSet. The DaemonSet controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ControllerRevision.' }),
  conditions: S.list(DaemonSetCondition, { proto: 10, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "Represents the latest available observations of a DaemonSet's current state." }),
}, { required: ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'], ref: 'apps.v1.DaemonSetStatus', description: 'DaemonSetStatus represents the current status of a daemon set.' });

export const DaemonSetSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: described(DaemonSetSpec, 2, 'The desired behavior of this daemon set. More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
  status: described(DaemonSetStatus, 3, 'The current status of this daemon set. This data may be out of date by some window of time. Populated by the system. Read-only. More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status'),
}, { ref: 'apps.v1.DaemonSet', description: 'DaemonSet represents the configuration of a daemon set.' });

const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;
const statusOf = (o: ApiObject) => (o.status ?? {}) as Obj;

/** The counts Go always writes, even when 0. */
const REQUIRED_COUNTS = ['currentNumberScheduled', 'numberMisscheduled', 'desiredNumberScheduled', 'numberReady'];
const zeroCounts = () => Object.fromEntries(REQUIRED_COUNTS.map((f) => [f, 0]));

/** SetDefaults_DaemonSet and the pod template's defaults. */
function defaultDaemonSet(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  const strategy = isObj(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultTemplate(spec);
  // Quantities are canonical from the start, as Kubernetes parses them: a template that only writes one
  // differently is no new template.
  canonicalizeTemplate(spec);
  const status = (obj.status ??= {}) as Obj;
  for (const f of REQUIRED_COUNTS) status[f] ??= 0;
  // Every apps/v1 DaemonSet carries its template generation; a write that leaves it out sets it (to what the
  // prepare hooks then decide), as the conversion from the internal object does in Kubernetes.
  const annotations = (obj.metadata.annotations ??= {});
  annotations[TEMPLATE_GENERATION_ANNOTATION] ??= '0';
}

/** The template generation an object carries (0 when it has none, or none that parses). */
export function templateGeneration(obj: ApiObject): number {
  const text = obj.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return text !== undefined && /^[+-]?\d+$/.test(text) ? Number(text) : 0;
}

function setTemplateGeneration(obj: ApiObject, generation: number): void {
  obj.metadata.annotations = { ...obj.metadata.annotations, [TEMPLATE_GENERATION_ANNOTATION]: String(generation) };
}

function prepareForCreate(obj: ApiObject): void {
  obj.status = zeroCounts();
  setTemplateGeneration(obj, Math.max(templateGeneration(obj), 1));
  dropDisabledTemplateFields(specOf(obj), undefined);
}

/** The template generation is the server's: kept on every write, one more when the template changed. */
function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  if (ctx.subresource === 'status') {
    setTemplateGeneration(obj, templateGeneration(old));
    return;
  }
  dropDisabledTemplateFields(specOf(obj), specOf(old));
  const templateChanged = !deepEqual(specOf(obj).template ?? null, specOf(old).template ?? null);
  setTemplateGeneration(obj, templateGeneration(old) + (templateChanged ? 1 : 0));
}

/** ValidateRollingUpdateDaemonSet: valid numbers, at most 100%, and exactly one of the two non-zero. */
function rollingUpdateErrors(ru: Obj, path: string): FieldError[] {
  const errs = [
    ...positiveIntOrPercentErrors(ru.maxUnavailable, `${path}.maxUnavailable`),
    ...positiveIntOrPercentErrors(ru.maxSurge, `${path}.maxSurge`),
    ...notMoreThan100PercentErrors(ru.maxUnavailable, `${path}.maxUnavailable`),
    ...notMoreThan100PercentErrors(ru.maxSurge, `${path}.maxSurge`),
  ];
  const hasUnavailable = intOrPercentValue(ru.maxUnavailable) !== 0;
  const hasSurge = intOrPercentValue(ru.maxSurge) !== 0;
  if (hasUnavailable && hasSurge) {
    errs.push(errorWithGoValue('FieldValueInvalid', `${path}.maxSurge`, ru.maxSurge, goIntOrString(ru.maxSurge), 'may not be set when maxUnavailable is non-zero'));
  } else if (!hasUnavailable && !hasSurge) {
    errs.push(required(`${path}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
  }
  return errs;
}

/** ValidateDaemonSetUpdateStrategy. */
function updateStrategyErrors(strategy: Obj): FieldError[] {
  const path = 'spec.updateStrategy';
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate':
      return isObj(strategy.rollingUpdate) ? rollingUpdateErrors(strategy.rollingUpdate, `${path}.rollingUpdate`) : [required(`${path}.rollingUpdate`)];
    default: {
      const rendered = goStruct('apps.DaemonSetUpdateStrategy', [['Type', goQuote(String(strategy.type ?? ''))], ['RollingUpdate', goPointer('apps.RollingUpdateDaemonSet', isObj(strategy.rollingUpdate))]]);
      return [errorWithGoValue('FieldValueNotSupported', path, strategy, rendered, 'supported values: "RollingUpdate", "OnDelete"')];
    }
  }
}

/** ValidateDaemonSetSpec: the selector (not required here: a missing one matches no template), the template, the counts and the strategy. */
function specErrors(obj: ApiObject, allowInvalidLabelValueInSelector: boolean): FieldError[] {
  const spec = specOf(obj);
  const tpl = isObj(spec.template) ? spec.template : {};
  const labels = tpl.metadata?.labels as Record<string, string> | undefined;
  const errs = validateLabelSelector(isObj(spec.selector) ? spec.selector : null, 'spec.selector', { allowInvalidLabelValueInSelector });
  let matches = true;
  try {
    matches = labelSelectorFromObject(isObj(spec.selector) ? spec.selector : null).matches(labels ?? {});
  } catch {
    // A selector Kubernetes cannot build is reported by the checks above alone.
  }
  if (!matches) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.template.metadata.labels', labels, goStringMap(labels), '`selector` does not match template `labels`'));
  errs.push(...emptySelectorErrors(spec.selector, 'daemonset'));
  errs.push(...podTemplateSpecErrors(tpl, 'spec.template'));
  const restart = tpl.spec?.restartPolicy;
  if (restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart ?? '', ['Always']));
  if (typeof tpl.spec?.activeDeadlineSeconds === 'number') errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'));
  errs.push(...nonNegative(spec, ['minReadySeconds'], 'spec'));
  errs.push(...updateStrategyErrors(isObj(spec.updateStrategy) ? spec.updateStrategy : {}));
  errs.push(...nonNegative(spec, ['revisionHistoryLimit'], 'spec'));
  return errs;
}

/** ValidateDaemonSetStatusUpdate: no negative count, and a collision count that never goes down. */
function statusErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const status = statusOf(obj);
  const errs = nonNegative(status, [...REQUIRED_COUNTS, 'observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'collisionCount'], 'status');
  return [...errs, ...collisionCountErrors(status, statusOf(old))];
}

/** labels.FormatLabels: `k=v` pairs sorted by key, `<none>` when there are none. */
function formatLabels(labels: unknown): string {
  const m = isObj(labels) ? labels : {};
  const keys = Object.keys(m).sort();
  return keys.length ? keys.map((k) => `${k}=${m[k]}`).join(',') : '<none>';
}

export const daemonSetKind: KindDefinition = {
  group: GROUP,
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: DaemonSetSchema }],
  storageVersion: 'v1',
  status: {},

  defaults: defaultDaemonSet,
  prepareForCreate,
  prepareForUpdate,
  validate: (obj, ctx) => warnWhenValid(specErrors(obj, false), ctx, () => podTemplateWarnings(specOf(obj).template, 'spec.template')),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return statusErrors(obj, old);
    const errs = [...specErrors(obj, hasInvalidLabelValue(specOf(old).selector)), ...selectorImmutableErrors(obj, old)];
    return warnWhenValid(errs, ctx, () => (templateGeneration(obj) !== templateGeneration(old) ? podTemplateWarnings(specOf(obj).template, 'spec.template') : []));
  },

  tableColumns: [
    nameColumn,
    { name: 'Desired', type: 'integer', description: DESIRED_DESCRIPTION, cell: (o) => statusOf(o).desiredNumberScheduled ?? 0 },
    { name: 'Current', type: 'integer', description: CURRENT_DESCRIPTION, cell: (o) => statusOf(o).currentNumberScheduled ?? 0 },
    { name: 'Ready', type: 'integer', description: READY_DESCRIPTION, cell: (o) => statusOf(o).numberReady ?? 0 },
    { name: 'Up-to-date', type: 'integer', description: UPDATED_DESCRIPTION, cell: (o) => statusOf(o).updatedNumberScheduled ?? 0 },
    { name: 'Available', type: 'integer', description: AVAILABLE_DESCRIPTION, cell: (o) => statusOf(o).numberAvailable ?? 0 },
    { name: 'Node Selector', type: 'string', description: NODE_SELECTOR_DESCRIPTION, cell: (o) => formatLabels(specOf(o).template?.spec?.nodeSelector) },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o).names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o).images },
    { name: 'Selector', type: 'string', priority: 1, description: SELECTOR_DESCRIPTION, cell: selectorCell },
  ],
};
