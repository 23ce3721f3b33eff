// HorizontalPodAutoscaler (autoscaling, namespaced): stored as autoscaling/v2, also served as autoscaling/v1
// (converted both ways, see horizontalpodautoscaler-v1.ts). Defaults as Kubernetes v2 sets them: one
// minimum replica, 80% CPU when no metric is named, and the scaling rules of a given behavior filled in.
import type { KindDefinition, TableColumn } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, forbidden, notSupported, child, index } from '../../machinery/field-errors.ts';
import { isValidPathSegmentName } from '../../machinery/validation/strings.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import { fillGoZeroValues } from '../core/go-zero.ts';
import { dns1123LabelErrors } from '../core/volume-validation.ts';
import { HorizontalPodAutoscalerV1Schema, hpaToV1, hpaFromV1, DEFAULT_CPU_UTILIZATION } from './horizontalpodautoscaler-v1.ts';

export const GROUP = 'autoscaling';
const METRIC_SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];
const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;

const CrossVersionObjectReference = S.object({
  kind: S.string({ proto: 1, description: 'kind is the kind of the referent; More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' }),
  name: S.string({ proto: 2, description: 'name is the name of the referent; More info: https://platform.io/docs/concepts/overview/working-with-objects/names/#names' }),
  apiVersion: S.string({ proto: 3, description: 'apiVersion is the API version of the referent' }),
}, { required: ['kind', 'name'], ref: 'autoscaling.v2.CrossVersionObjectReference', description: 'CrossVersionObjectReference contains enough information to let you identify the referred resource.' });

const MetricIdentifier = S.object({
  name: S.string({ proto: 1, description: 'name is the name of the given metric' }),
  selector: described(LabelSelector, 2, 'selector is the string-encoded form of a standard label selector for the given metric When set, it is passed as an additional parameter to the metrics server for more specific metrics scoping. When unset, just the metricName will be used to gather metrics.'),
}, { required: ['name'], ref: 'autoscaling.v2.MetricIdentifier', description: 'MetricIdentifier defines the name and optionally selector for a metric' });

const MetricTarget = S.object({
  type: S.string({ proto: 1, description: 'type represents whether the metric type is Utilization, Value, or AverageValue' }),
  value: S.quantity({ proto: 2, description: 'value is the target value of the metric (as a quantity).' }),
  averageValue: S.quantity({ proto: 3, description: 'averageValue is the target value of the average of the metric across all relevant pods (as a quantity)' }),
  averageUtilization: S.int32({ proto: 4, description: 'averageUtilization is the target value of the average of the resource metric across all relevant pods, represented as a percentage of the requested value of the resource for the pods. Currently only valid for Resource metric source type' }),
}, { required: ['type'], ref: 'autoscaling.v2.MetricTarget', description: 'MetricTarget defines the target value, average value, or average utilization of a specific metric' });

const MetricValueStatus = S.object({
  value: S.quantity({ proto: 1, description: 'value is the current value of the metric (as a quantity).' }),
  averageValue: S.quantity({ proto: 2, description: 'averageValue is the current value of the average of the metric across all relevant pods (as a quantity)' }),
  averageUtilization: S.int32({ proto: 3, description: 'currentAverageUtilization is the current value of the average of the resource metric across all relevant pods, represented as a percentage of the requested value of the resource for the pods.' }),
}, { ref: 'autoscaling.v2.MetricValueStatus', description: 'MetricValueStatus holds the current value for a metric' });

const target = (n: number) => (described(MetricTarget, n, 'target specifies the target value for the given metric'));
const metric = (n: number) => (described(MetricIdentifier, n, 'metric identifies the target metric by name and selector'));
const current = (n: number) => (described(MetricValueStatus, n, 'current contains the current value for the given metric'));
const RESOURCE_NAME = 'name is the name of the resource in question.';
const CONTAINER = 'container is the name of the container in the pods of the scaling target';

const MetricSpec = S.object({
  type: S.string({ proto: 1, description: 'type is the type of metric source.  It should be one of "ContainerResource", "External", "Object", "Pods" or "Resource", each mapping to a matching field in the object.' }),
  object: S.object({
    describedObject: described(CrossVersionObjectReference, 1, 'describedObject specifies the descriptions of a object,such as kind,name apiVersion'),
    target: target(2),
    metric: metric(3),
  }, { proto: 2, required: ['describedObject', 'target', 'metric'], ref: 'autoscaling.v2.ObjectMetricSource', description: 'ObjectMetricSource indicates how to scale on a metric describing a kubernetes object (for example, hits-per-second on an Ingress object).' }),
  pods: S.object({ metric: metric(1), target: target(2) }, { proto: 3, required: ['metric', 'target'], ref: 'autoscaling.v2.PodsMetricSource', description: 'PodsMetricSource indicates how to scale on a metric describing each pod in the current scale target (for example, transactions-processed-per-second). The values will be averaged together before being compared to the target value.' }),
  resource: S.object({ name: S.string({ proto: 1, description: RESOURCE_NAME }), target: target(2) }, { proto: 4, required: ['name', 'target'], ref: 'autoscaling.v2.ResourceMetricSource', description: 'ResourceMetricSource indicates how to scale on a resource metric known to the platform, as specified in requests and limits, describing each pod in the current scale target (e.g. CPU or memory).  The values will be averaged together before being compared to the target.  Such metrics are built in to the platform, and have special scaling options on top of those available to normal per-pod metrics using the "pods" source.  Only one "target" type should be set.' }),
  containerResource: S.object({ name: S.string({ proto: 1, description: RESOURCE_NAME }), target: target(2), container: S.string({ proto: 3, description: CONTAINER }) }, { proto: 7, required: ['name', 'target', 'container'], ref: 'autoscaling.v2.ContainerResourceMetricSource', description: 'ContainerResourceMetricSource indicates how to scale on a resource metric known to the platform, as specified in requests and limits, describing each pod in the current scale target (e.g. CPU or memory).  The values will be averaged together before being compared to the target.  Only one "target" type should be set.' }),
  external: S.object({ metric: metric(1), target: target(2) }, { proto: 5, required: ['metric', 'target'], ref: 'autoscaling.v2.ExternalMetricSource', description: 'ExternalMetricSource indicates how to scale on a metric not associated with any Kubernetes object (for example length of queue in cloud messaging service, or QPS from loadbalancer running outside of cluster).' }),
}, { required: ['type'], ref: 'autoscaling.v2.MetricSpec', description: 'MetricSpec specifies how to scale based on a single metric (only `type` and one other matching field should be set at once).' });

const MetricStatus = S.object({
  type: S.string({ proto: 1, description: 'type is the type of metric source.  It will be one of "ContainerResource", "External", "Object", "Pods" or "Resource", each corresponds to a matching field in the object.' }),
  object: S.object({ metric: metric(1), current: current(2), describedObject: described(CrossVersionObjectReference, 3, 'DescribedObject specifies the descriptions of a object,such as kind,name apiVersion') }, { proto: 2, required: ['metric', 'current', 'describedObject'], ref: 'autoscaling.v2.ObjectMetricStatus', description: 'ObjectMetricStatus indicates the current value of a metric describing a kubernetes object (for example, hits-per-second on an Ingress object).' }),
  pods: S.object({ metric: metric(1), current: current(2) }, { proto: 3, required: ['metric', 'current'], ref: 'autoscaling.v2.PodsMetricStatus', description: 'PodsMetricStatus indicates the current value of a metric describing each pod in the current scale target (for example, transactions-processed-per-second).' }),
  resource: S.object({ name: S.string({ proto: 1, description: RESOURCE_NAME }), current: current(2) }, { proto: 4, required: ['name', 'current'], ref: 'autoscaling.v2.ResourceMetricStatus', description: 'ResourceMetricStatus indicates the current value of a resource metric known to the platform, as specified in requests and limits, describing each pod in the current scale target (e.g. CPU or memory).' }),
  containerResource: S.object({ name: S.string({ proto: 1, description: RESOURCE_NAME }), current: current(2), container: S.string({ proto: 3, description: CONTAINER }) }, { proto: 7, required: ['name', 'current', 'container'], ref: 'autoscaling.v2.ContainerResourceMetricStatus', description: 'ContainerResourceMetricStatus indicates the current value of a resource metric known to the platform, as specified in requests and limits, describing a single container in each pod in the current scale target (e.g. CPU or memory).' }),
  external: S.object({ metric: metric(1), current: current(2) }, { proto: 5, required: ['metric', 'current'], ref: 'autoscaling.v2.ExternalMetricStatus', description: 'ExternalMetricStatus indicates the current value of a global metric not associated with any Kubernetes object.' }),
}, { required: ['type'], ref: 'autoscaling.v2.MetricStatus', description: 'MetricStatus describes the last-read state of a single metric.' });

const HPAScalingRules = S.object({
  stabilizationWindowSeconds: S.int32({ proto: 3, description: 'stabilizationWindowSeconds is the number of seconds for which past recommendations should be considered while scaling up or scaling down. StabilizationWindowSeconds must be greater than or equal to zero and less than or equal to 3600 (one hour). If not set, use the default values: - For scale up: 0 (i.e. no stabilization is done). - For scale down: 300 (i.e. the stabilization window is 300 seconds long).' }),
  selectPolicy: S.string({ proto: 1, description: 'selectPolicy is used to specify which policy should be used. If not set, the default value Max is used.' }),
  policies: S.list(S.object({
    type: S.string({ proto: 1, description: 'type is used to specify the scaling policy.' }),
    value: S.int32({ proto: 2, description: 'value contains the amount of change which is permitted by the policy. It must be greater than zero' }),
    periodSeconds: S.int32({ proto: 3, description: 'periodSeconds specifies the window of time for which the policy should hold true. PeriodSeconds must be greater than zero and less than or equal to 1800 (30 min).' }),
  }, { required: ['type', 'value', 'periodSeconds'], ref: 'autoscaling.v2.HPAScalingPolicy', description: 'HPAScalingPolicy is a single policy which must hold true for a specified past interval.' }), { proto: 2, listType: 'atomic', description: 'policies is a list of potential scaling polices which can be used during scaling. At least one policy must be specified, otherwise the HPAScalingRules will be discarded as invalid' }),
}, { ref: 'autoscaling.v2.HPAScalingRules', description: 'HPAScalingRules configures the scaling behavior for one direction. These Rules are applied after calculating DesiredReplicas from metrics for the HPA. They can limit the scaling velocity by specifying scaling policies. They can prevent flapping by specifying the stabilization window, so that the number of replicas is not set instantly, instead, the safest value from the stabilization window is chosen.' });

const SCALE_TARGET_REF_DESCRIPTION = 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.';
const METRICS_DESCRIPTION = 'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.';
const MIN_DESCRIPTION = 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.';
const MAX_DESCRIPTION = 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.';
const CURRENT_DESCRIPTION = 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.';

export const HorizontalPodAutoscalerSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    scaleTargetRef: described(CrossVersionObjectReference, 1, SCALE_TARGET_REF_DESCRIPTION),
    minReplicas: S.int32({ proto: 2, description: MIN_DESCRIPTION }),
    maxReplicas: S.int32({ proto: 3, description: MAX_DESCRIPTION }),
    metrics: S.list(MetricSpec, { proto: 4, listType: 'atomic', description: METRICS_DESCRIPTION }),
    behavior: S.object({
      scaleUp: described(HPAScalingRules, 1, 'scaleUp is scaling policy for scaling Up. If not set, the default value is the higher of:\n  * increase no more than 4 pods per 60 seconds\n  * double the number of pods per 60 seconds\nNo stabilization is used.'),
      scaleDown: described(HPAScalingRules, 2, 'scaleDown is scaling policy for scaling Down. If not set, the default value is to allow to scale down to minReplicas pods, with a 300 second stabilization window (i.e., the highest recommendation for the last 300sec is used).'),
    }, { proto: 5, ref: 'autoscaling.v2.HorizontalPodAutoscalerBehavior', description: 'HorizontalPodAutoscalerBehavior configures the scaling behavior of the target in both Up and Down directions (scaleUp and scaleDown fields respectively).' }),
  }, { proto: 2, required: ['scaleTargetRef', 'maxReplicas'], ref: 'autoscaling.v2.HorizontalPodAutoscalerSpec', description: 'HorizontalPodAutoscalerSpec describes the desired functionality of the HorizontalPodAutoscaler.' }),
  status: S.object({
    observedGeneration: S.int64({ proto: 1, description: 'observedGeneration is the most recent generation observed by this autoscaler.' }),
    lastScaleTime: S.time({ proto: 2, description: 'lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods, used by the autoscaler to control how often the number of pods is changed.' }),
    currentReplicas: S.int32({ proto: 3, description: CURRENT_DESCRIPTION }),
    desiredReplicas: S.int32({ proto: 4, description: 'desiredReplicas is the desired number of replicas of pods managed by this autoscaler, as last calculated by the autoscaler.' }),
    currentMetrics: S.list(MetricStatus, { proto: 5, listType: 'atomic', description: 'currentMetrics is the last read state of the metrics used by this autoscaler.' }),
    conditions: S.list(S.object({
      type: S.string({ proto: 1, description: 'type describes the current condition' }),
      status: S.string({ proto: 2, description: 'status is the status of the condition (True, False, Unknown)' }),
      lastTransitionTime: S.time({ proto: 3, description: 'lastTransitionTime is the last time the condition transitioned from one status to another' }),
      reason: S.string({ proto: 4, description: "reason is the reason for the condition's last transition." }),
      message: S.string({ proto: 5, description: 'message is a human-readable explanation containing details about the transition' }),
    }, { required: ['type', 'status'], ref: 'autoscaling.v2.HorizontalPodAutoscalerCondition', description: 'HorizontalPodAutoscalerCondition describes the state of a HorizontalPodAutoscaler at a certain point.' }), { proto: 6, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: 'conditions is the set of conditions required for this autoscaler to scale its target, and indicates whether or not those conditions are met.' }),
  }, { proto: 3, required: ['desiredReplicas'], ref: 'autoscaling.v2.HorizontalPodAutoscalerStatus', description: 'HorizontalPodAutoscalerStatus describes the current status of a horizontal pod autoscaler.' }),
}, { ref: 'autoscaling.v2.HorizontalPodAutoscaler', description: 'HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler, which automatically manages the replica count of any resource implementing the scale subresource based on the metrics specified.' });

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const set = (v: unknown): boolean => v !== undefined && v !== null;

/** GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: the given rules over the defaults. */
function defaultRules(given: unknown, up: boolean): Obj {
  const out: Obj = up
    ? { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] }
    : { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };
  if (isObj(given)) {
    if (set(given.selectPolicy)) out.selectPolicy = given.selectPolicy;
    if (set(given.stabilizationWindowSeconds)) out.stabilizationWindowSeconds = given.stabilizationWindowSeconds;
    if (Array.isArray(given.policies)) out.policies = given.policies;
  }
  return out;
}

/** SetDefaults_HorizontalPodAutoscaler (autoscaling/v2). */
function defaultHPA(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  spec.minReplicas ??= 1;
  if (list(spec.metrics).length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (isObj(spec.behavior)) {
    spec.behavior = { scaleUp: defaultRules(spec.behavior.scaleUp, true), scaleDown: defaultRules(spec.behavior.scaleDown, false) };
  }
  obj.status ??= {};
  fillGoZeroValues(obj, HorizontalPodAutoscalerSchema);
}

function crossVersionRefErrors(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    const v = String(ref[f] ?? '');
    if (!v) errs.push(required(child(path, f)));
    else errs.push(...isValidPathSegmentName(v).map((m) => invalid(child(path, f), v, m)));
  }
  return errs;
}

function metricIdentifierErrors(id: Obj, path: string): FieldError[] {
  const name = String(id?.name ?? '');
  if (!name) return [required(child(path, 'name'), 'must specify a metric name')];
  return isValidPathSegmentName(name).map((m) => invalid(child(path, 'name'), name, m));
}

function sign(q: unknown): number {
  try { return quantityFromJSON(q).sign(); } catch { return 1; }
}

function metricTargetErrors(t: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = String(t?.type ?? '');
  if (!type) errs.push(required(child(path, 'type'), 'must specify a metric target type'));
  if (!['Utilization', 'Value', 'AverageValue'].includes(type)) errs.push(invalid(child(path, 'type'), type, 'must be either Utilization, Value, or AverageValue'));
  if (set(t?.value) && sign(t.value) !== 1) errs.push(invalid(child(path, 'value'), String(t.value), 'must be positive'));
  if (set(t?.averageValue) && sign(t.averageValue) !== 1) errs.push(invalid(child(path, 'averageValue'), String(t.averageValue), 'must be positive'));
  if (set(t?.averageUtilization) && t.averageUtilization < 1) errs.push(invalid(child(path, 'averageUtilization'), t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function resourceSourceErrors(src: Obj, path: string, container: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!src.name) errs.push(required(child(path, 'name'), 'must specify a resource name'));
  if (container) {
    if (!src.container) errs.push(required(child(path, 'container'), 'must specify a container'));
    else errs.push(...dns1123LabelErrors(src.container, child(path, 'container')));
  }
  const t = isObj(src.target) ? src.target : {};
  errs.push(...metricTargetErrors(t, child(path, 'target')));
  if (!set(t.averageUtilization) && !set(t.averageValue)) errs.push(required(child(child(path, 'target'), 'averageUtilization'), 'must set either a target raw value or a target utilization'));
  if (set(t.averageUtilization) && set(t.averageValue)) errs.push(forbidden(child(child(path, 'target'), 'averageValue'), 'may not set both a target raw value and a target utilization'));
  return errs;
}

const SOURCE_OF: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };

/** validateMetricSpec. */
function metricSpecErrors(m: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = String(m.type ?? '');
  if (!type) errs.push(required(child(path, 'type'), 'must specify a metric source type'));
  if (!METRIC_SOURCE_TYPES.includes(type)) errs.push(notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));
  const present = new Set<string>();
  if (isObj(m.object)) {
    present.add('object');
    if (present.size === 1) {
      const o = m.object, at = child(path, 'object');
      errs.push(...crossVersionRefErrors(isObj(o.describedObject) ? o.describedObject : {}, child(at, 'describedObject')), ...metricIdentifierErrors(o.metric, child(at, 'metric')));
      const t = isObj(o.target) ? o.target : {};
      errs.push(...metricTargetErrors(t, child(at, 'target')));
      if (!set(t.value) && !set(t.averageValue)) errs.push(required(child(child(at, 'target'), 'averageValue'), 'must set either a target value or averageValue'));
    }
  }
  if (isObj(m.external)) {
    present.add('external');
    if (type === 'External') {
      const at = child(path, 'external'), t = isObj(m.external.target) ? m.external.target : {};
      errs.push(...metricIdentifierErrors(m.external.metric, child(at, 'metric')), ...metricTargetErrors(t, child(at, 'target')));
      if (!set(t.value) && !set(t.averageValue)) errs.push(required(child(child(at, 'target'), 'averageValue'), 'must set either a target value for metric or a per-pod target'));
      if (set(t.value) && set(t.averageValue)) errs.push(forbidden(child(child(at, 'target'), 'value'), 'may not set both a target value for metric and a per-pod target'));
    }
  }
  if (isObj(m.pods)) {
    present.add('pods');
    if (type === 'Pods') {
      const at = child(path, 'pods'), t = isObj(m.pods.target) ? m.pods.target : {};
      errs.push(...metricIdentifierErrors(m.pods.metric, child(at, 'metric')), ...metricTargetErrors(t, child(at, 'target')));
      if (!set(t.averageValue)) errs.push(required(child(child(at, 'target'), 'averageValue'), 'must specify a positive target averageValue'));
    }
  }
  if (isObj(m.resource)) {
    present.add('resource');
    if (type === 'Resource') errs.push(...resourceSourceErrors(m.resource, child(path, 'resource'), false));
  }
  if (isObj(m.containerResource)) {
    present.add('containerResource');
    if (type === 'ContainerResource') errs.push(...resourceSourceErrors(m.containerResource, child(path, 'containerResource'), true));
  }
  const expected = SOURCE_OF[type];
  if (expected) {
    if (!present.has(expected)) errs.push(required(child(path, expected), 'must populate information for the given metric source'));
  } else {
    errs.push(notSupported(child(path, 'type'), type, METRIC_SOURCE_TYPES));
  }
  if (present.size !== 1) {
    present.delete(expected ?? '');
    for (const f of present) errs.push(forbidden(child(path, f), 'must populate the given metric source only'));
  }
  return errs;
}

function scalingRulesErrors(rules: unknown, path: string): FieldError[] {
  if (!isObj(rules)) return [];
  const errs: FieldError[] = [];
  const w = rules.stabilizationWindowSeconds;
  if (typeof w === 'number' && w < 0) errs.push(invalid(child(path, 'stabilizationWindowSeconds'), w, 'must be greater than or equal to zero'));
  if (typeof w === 'number' && w > MAX_STABILIZATION_WINDOW_SECONDS) errs.push(invalid(child(path, 'stabilizationWindowSeconds'), w, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  if (set(rules.selectPolicy) && !SELECT_POLICIES.includes(rules.selectPolicy)) errs.push(notSupported(child(path, 'selectPolicy'), rules.selectPolicy, SELECT_POLICIES));
  const policies = list(rules.policies);
  const pPath = child(path, 'policies');
  if (policies.length === 0) errs.push(required(pPath, 'must specify at least one Policy'));
  policies.forEach((p, i) => {
    const at = index(pPath, i);
    if (!POLICY_TYPES.includes(p.type)) errs.push(notSupported(child(at, 'type'), p.type ?? '', POLICY_TYPES));
    if (!((p.value ?? 0) > 0)) errs.push(invalid(child(at, 'value'), p.value ?? 0, 'must be greater than zero'));
    if (!((p.periodSeconds ?? 0) > 0)) errs.push(invalid(child(at, 'periodSeconds'), p.periodSeconds ?? 0, 'must be greater than zero'));
    if ((p.periodSeconds ?? 0) > MAX_PERIOD_SECONDS) errs.push(invalid(child(at, 'periodSeconds'), p.periodSeconds, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  });
  return errs;
}

/** validateHorizontalPodAutoscalerSpec (scale to zero off: minReplicas at least 1). */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Obj;
  const errs: FieldError[] = [];
  const min = spec.minReplicas, max = spec.maxReplicas ?? 0;
  if (typeof min === 'number' && min < 1) errs.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errs.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  const refErrs = crossVersionRefErrors(isObj(spec.scaleTargetRef) ? spec.scaleTargetRef : {}, 'spec.scaleTargetRef');
  if (refErrs.length) return [...errs, ...refErrs];
  const metricErrs = list(spec.metrics).flatMap((m, i) => metricSpecErrors(m, index('spec.metrics', i)));
  if (metricErrs.length) return [...errs, ...metricErrs];
  if (isObj(spec.behavior)) errs.push(...scalingRulesErrors(spec.behavior.scaleUp, 'spec.behavior.scaleUp'), ...scalingRulesErrors(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  return errs;
}

function statusErrors(obj: ApiObject): FieldError[] {
  const status = (obj.status ?? {}) as Obj;
  const errs: FieldError[] = [];
  // Kubernetes reports a negative desiredReplicas under the misspelt path `status.desiredReplicasa`.
  for (const [f, path] of [['currentReplicas', 'status.currentReplicas'], ['desiredReplicas', 'status.desiredReplicasa']]) {
    if (typeof status[f] === 'number' && status[f] < 0) errs.push(invalid(path, status[f], 'must be greater than or equal to 0'));
  }
  return errs;
}

function quantityText(q: unknown): string {
  try { return quantityFromJSON(q).toString(); } catch { return String(q); }
}

/** formatHPAMetrics: `<current>/<target>` per metric, at most two, then `+ N more...`. */
export function formatHPAMetrics(specs: Obj[], statuses: Obj[]): string {
  if (specs.length === 0) return '<none>';
  const out: string[] = [];
  specs.forEach((spec, i) => {
    const st = statuses[i];
    switch (spec.type) {
      case 'External': {
        const t = spec.external?.target ?? {};
        if (set(t.averageValue)) out.push(`${set(st?.external?.current?.averageValue) ? quantityText(st.external.current.averageValue) : '<unknown>'}/${quantityText(t.averageValue)} (avg)`);
        else out.push(`${st?.external ? quantityText(st.external.current?.value ?? '0') : '<unknown>'}/${quantityText(t.value ?? '0')}`);
        break;
      }
      case 'Pods':
        out.push(`${st?.pods ? quantityText(st.pods.current?.averageValue ?? '0') : '<unknown>'}/${quantityText(spec.pods?.target?.averageValue ?? '0')}`);
        break;
      case 'Object': {
        const t = spec.object?.target ?? {};
        if (set(t.averageValue)) out.push(`${set(st?.object?.current?.averageValue) ? quantityText(st.object.current.averageValue) : '<unknown>'}/${quantityText(t.averageValue)} (avg)`);
        else out.push(`${st?.object ? quantityText(st.object.current?.value ?? '0') : '<unknown>'}/${quantityText(t.value ?? '0')}`);
        break;
      }
      case 'Resource':
      case 'ContainerResource': {
        const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
        const src = spec[key] ?? {}, cur = st?.[key];
        const t = src.target ?? {};
        if (set(t.averageValue)) {
          out.push(`${src.name}: ${cur ? quantityText(cur.current?.averageValue ?? '0') : '<unknown>'}/${quantityText(t.averageValue)}`);
        } else {
          const now = set(cur?.current?.averageUtilization) ? `${cur.current.averageUtilization}%` : '<unknown>';
          const goal = set(t.averageUtilization) ? `${t.averageUtilization}%` : '<auto>';
          out.push(`${src.name}: ${now}/${goal}`);
        }
        break;
      }
      default:
        out.push('<unknown type>');
    }
  });
  if (out.length > 2) return `${out.slice(0, 2).join(', ')} + ${out.length - 2} more...`;
  return out.join(', ');
}

/** Cells read the stored (v2) form; objects served as autoscaling/v1 are converted back first. */
const asV2 = (o: ApiObject): Obj => (o.apiVersion === 'autoscaling/v1' ? hpaFromV1(structuredClone(o)) : o);

const columns: TableColumn[] = [
  nameColumn,
  { name: 'Reference', type: 'string', description: SCALE_TARGET_REF_DESCRIPTION, cell: (o) => { const r = asV2(o).spec?.scaleTargetRef ?? {}; return `${r.kind ?? ''}/${r.name ?? ''}`; } },
  { name: 'Targets', type: 'string', description: METRICS_DESCRIPTION, cell: (o) => { const h = asV2(o); return formatHPAMetrics(list(h.spec?.metrics), list(h.status?.currentMetrics)); } },
  { name: 'MinPods', type: 'string', description: MIN_DESCRIPTION, cell: (o) => { const m = asV2(o).spec?.minReplicas; return typeof m === 'number' ? String(m) : '<unset>'; } },
  { name: 'MaxPods', type: 'string', description: MAX_DESCRIPTION, cell: (o) => asV2(o).spec?.maxReplicas ?? 0 },
  { name: 'Replicas', type: 'string', description: CURRENT_DESCRIPTION, cell: (o) => asV2(o).status?.currentReplicas ?? 0 },
  ageColumn,
];

export const horizontalPodAutoscalerKind: KindDefinition = {
  group: GROUP,
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  namespaced: true,
  shortNames: ['hpa'],
  categories: ['all'],
  versions: [
    { name: 'v2', stability: 'stable', schema: HorizontalPodAutoscalerSchema },
    { name: 'v1', stability: 'stable', schema: HorizontalPodAutoscalerV1Schema, toStorage: hpaFromV1, fromStorage: hpaToV1 },
  ],
  storageVersion: 'v2',
  status: {},
  trackGeneration: false,

  defaults: defaultHPA,
  prepareForCreate(obj) {
    obj.status = { desiredReplicas: 0 };
  },
  validate: specErrors,
  validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? statusErrors(obj) : specErrors(obj)),

  tableColumns: columns,
};
