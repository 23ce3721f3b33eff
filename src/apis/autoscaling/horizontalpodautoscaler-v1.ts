// HorizontalPodAutoscaler in autoscaling/v1 and its conversion to and from the stored autoscaling/v2 form,
// as Kubernetes converts: targetCPUUtilizationPercentage is a cpu Resource metric with a Utilization target;
// the other metrics, the current metrics, the behavior and the conditions travel in v1 as JSON annotations
// (`autoscaling.alpha.platform.io/metrics` and friends) in the old v2beta1-like shapes.
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto, described } from '../core/schema-helpers.ts';

export const METRIC_SPECS_ANNOTATION = 'autoscaling.alpha.platform.io/metrics';
export const METRIC_STATUSES_ANNOTATION = 'autoscaling.alpha.platform.io/current-metrics';
export const BEHAVIOR_ANNOTATION = 'autoscaling.alpha.platform.io/behavior';
export const CONDITIONS_ANNOTATION = 'autoscaling.alpha.platform.io/conditions';
const ROUND_TRIP_ANNOTATIONS = [METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION, BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION];

/** The CPU utilization target an HPA gets when it names no metric. */
export const DEFAULT_CPU_UTILIZATION = 80;

const CrossVersionObjectReferenceV1 = S.object({
  kind: S.string({ proto: 1, description: 'kind is the kind of the referent; More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' }),
  name: S.string({ proto: 2, description: 'name is the name of the referent; More info: https://platform.io/docs/concepts/overview/working-with-objects/names/#names' }),
  apiVersion: S.string({ proto: 3, description: 'apiVersion is the API version of the referent' }),
}, { atomic: true, required: ['kind', 'name'], ref: 'autoscaling.v1.CrossVersionObjectReference', description: 'CrossVersionObjectReference contains enough information to let you identify the referred resource.' });

export const HorizontalPodAutoscalerV1Schema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    scaleTargetRef: described(CrossVersionObjectReferenceV1, 1, 'reference to scaled resource; horizontal pod autoscaler will learn the current resource consumption and will set the desired number of pods by using its Scale subresource.'),
    minReplicas: S.int32({ proto: 2, description: 'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.' }),
    maxReplicas: S.int32({ proto: 3, description: 'maxReplicas is the upper limit for the number of pods that can be set by the autoscaler; cannot be smaller than MinReplicas.' }),
    targetCPUUtilizationPercentage: S.int32({ proto: 4, description: 'targetCPUUtilizationPercentage is the target average CPU utilization (represented as a percentage of requested CPU) over all the pods; if not specified the default autoscaling policy will be used.' }),
  }, { proto: 2, required: ['scaleTargetRef', 'maxReplicas'], ref: 'autoscaling.v1.HorizontalPodAutoscalerSpec', description: 'specification of a horizontal pod autoscaler.' }),
  status: S.object({
    observedGeneration: S.int64({ proto: 1, description: 'observedGeneration is the most recent generation observed by this autoscaler.' }),
    lastScaleTime: S.time({ proto: 2, description: 'lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods; used by the autoscaler to control how often the number of pods is changed.' }),
    currentReplicas: S.int32({ proto: 3, description: 'currentReplicas is the current number of replicas of pods managed by this autoscaler.' }),
    desiredReplicas: S.int32({ proto: 4, description: 'desiredReplicas is the  desired number of replicas of pods managed by this autoscaler.' }),
    currentCPUUtilizationPercentage: S.int32({ proto: 5, description: 'currentCPUUtilizationPercentage is the current average CPU utilization over all pods, represented as a percentage of requested CPU, e.g. 70 means that an average pod is using now 70% of its requested CPU.' }),
  }, { proto: 3, required: ['currentReplicas', 'desiredReplicas'], ref: 'autoscaling.v1.HorizontalPodAutoscalerStatus', description: 'current status of a horizontal pod autoscaler' }),
}, { ref: 'autoscaling.v1.HorizontalPodAutoscaler', description: 'configuration of a horizontal pod autoscaler.' });

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const set = (v: unknown) => v !== undefined && v !== null;

function isCPUUtilization(m: Obj): boolean {
  return m.type === 'Resource' && isObj(m.resource) && m.resource.name === 'cpu' && set(m.resource.target?.averageUtilization);
}

function ref(r: Obj | undefined): Obj {
  const out: Obj = { kind: r?.kind ?? '', name: r?.name ?? '' };
  if (r?.apiVersion) out.apiVersion = r.apiVersion;
  return out;
}

// ---- v2 (stored) -> v1 annotation shapes, fields in Go's struct order ----

function metricSpecToV1(m: Obj): Obj {
  const out: Obj = { type: m.type ?? '' };
  if (isObj(m.object)) {
    const t = m.object.target ?? {};
    out.object = {
      target: ref(m.object.describedObject), metricName: m.object.metric?.name ?? '', targetValue: t.value ?? '0',
      ...(set(m.object.metric?.selector) ? { selector: m.object.metric.selector } : {}), ...(set(t.averageValue) ? { averageValue: t.averageValue } : {}),
    };
  }
  if (isObj(m.pods)) {
    out.pods = { metricName: m.pods.metric?.name ?? '', targetAverageValue: m.pods.target?.averageValue ?? '0', ...(set(m.pods.metric?.selector) ? { selector: m.pods.metric.selector } : {}) };
  }
  if (isObj(m.resource)) {
    const t = m.resource.target ?? {};
    out.resource = { name: m.resource.name ?? '', ...(set(t.averageUtilization) ? { targetAverageUtilization: t.averageUtilization } : {}), ...(set(t.averageValue) ? { targetAverageValue: t.averageValue } : {}) };
  }
  if (isObj(m.containerResource)) {
    const t = m.containerResource.target ?? {};
    out.containerResource = {
      name: m.containerResource.name ?? '', ...(set(t.averageUtilization) ? { targetAverageUtilization: t.averageUtilization } : {}),
      ...(set(t.averageValue) ? { targetAverageValue: t.averageValue } : {}), container: m.containerResource.container ?? '',
    };
  }
  if (isObj(m.external)) {
    const t = m.external.target ?? {};
    out.external = {
      metricName: m.external.metric?.name ?? '', ...(set(m.external.metric?.selector) ? { metricSelector: m.external.metric.selector } : {}),
      ...(set(t.value) ? { targetValue: t.value } : {}), ...(set(t.averageValue) ? { targetAverageValue: t.averageValue } : {}),
    };
  }
  return out;
}

function metricStatusToV1(m: Obj): Obj {
  const out: Obj = { type: m.type ?? '' };
  if (isObj(m.object)) {
    const c = m.object.current ?? {};
    out.object = {
      target: ref(m.object.describedObject), metricName: m.object.metric?.name ?? '', currentValue: c.value ?? '0',
      ...(set(m.object.metric?.selector) ? { selector: m.object.metric.selector } : {}), ...(set(c.averageValue) ? { averageValue: c.averageValue } : {}),
    };
  }
  if (isObj(m.pods)) {
    out.pods = { metricName: m.pods.metric?.name ?? '', currentAverageValue: m.pods.current?.averageValue ?? '0', ...(set(m.pods.metric?.selector) ? { selector: m.pods.metric.selector } : {}) };
  }
  for (const kind of ['resource', 'containerResource'] as const) {
    if (!isObj(m[kind])) continue;
    const c = m[kind].current ?? {};
    out[kind] = {
      name: m[kind].name ?? '', ...(set(c.averageUtilization) ? { currentAverageUtilization: c.averageUtilization } : {}),
      currentAverageValue: c.averageValue ?? '0', ...(kind === 'containerResource' ? { container: m[kind].container ?? '' } : {}),
    };
  }
  if (isObj(m.external)) {
    const c = m.external.current ?? {};
    out.external = {
      metricName: m.external.metric?.name ?? '', ...(set(m.external.metric?.selector) ? { metricSelector: m.external.metric.selector } : {}),
      currentValue: c.value ?? '0', ...(set(c.averageValue) ? { currentAverageValue: c.averageValue } : {}),
    };
  }
  return out;
}

/** Kubernetes marshals the behavior of its internal type: Go field names, nil pointers as null. */
function behaviorToAnnotation(b: Obj): string {
  const rules = (r: Obj | undefined) => (r === undefined ? null : {
    StabilizationWindowSeconds: r.stabilizationWindowSeconds ?? null,
    SelectPolicy: r.selectPolicy ?? null,
    Policies: Array.isArray(r.policies) ? r.policies.map((p: Obj) => ({ Type: p.type ?? '', Value: p.value ?? 0, PeriodSeconds: p.periodSeconds ?? 0 })) : null,
  });
  return JSON.stringify({ ScaleUp: rules(b.scaleUp), ScaleDown: rules(b.scaleDown) });
}

/** ObjectMeta's fields that Kubernetes encodes after annotations. */
const AFTER_ANNOTATIONS = new Set(['ownerReferences', 'finalizers', 'managedFields']);

/** `metadata` with these annotations (none: left out) where ObjectMeta's field order puts them, keys sorted
 *  as Go encodes a map. */
function withAnnotations(metadata: ApiObject['metadata'], annotations: Record<string, string>): ApiObject['metadata'] {
  const keys = Object.keys(annotations).sort();
  const out: Record<string, unknown> = {};
  let placed = keys.length === 0;
  const place = () => {
    out.annotations = Object.fromEntries(keys.map((k) => [k, annotations[k]]));
    placed = true;
  };
  for (const [k, v] of Object.entries(metadata)) {
    if (k === 'annotations') { if (!placed) place(); continue; }
    if (!placed && AFTER_ANNOTATIONS.has(k)) place();
    out[k] = v;
  }
  if (!placed) place();
  return out as ApiObject['metadata'];
}

/** The stored (v2) object as autoscaling/v1 shows it. */
export function hpaToV1(obj: ApiObject): ApiObject {
  const spec = (obj.spec ?? {}) as Obj;
  const status = (obj.status ?? {}) as Obj;
  const metrics = list(spec.metrics);
  const annotations: Record<string, string> = { ...(obj.metadata.annotations ?? {}) };
  for (const a of ROUND_TRIP_ANNOTATIONS) delete annotations[a];
  const other = metrics.filter((m) => !isCPUUtilization(m)).map(metricSpecToV1);
  if (other.length) annotations[METRIC_SPECS_ANNOTATION] = JSON.stringify(other);
  const currentMetrics = list(status.currentMetrics);
  if (currentMetrics.length) annotations[METRIC_STATUSES_ANNOTATION] = JSON.stringify(currentMetrics.map(metricStatusToV1));
  if (isObj(spec.behavior)) annotations[BEHAVIOR_ANNOTATION] = behaviorToAnnotation(spec.behavior);
  const conditions = list(status.conditions);
  if (conditions.length) {
    annotations[CONDITIONS_ANNOTATION] = JSON.stringify(conditions.map((c) => ({
      type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null,
      ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}),
    })));
  }
  const metadata = withAnnotations(obj.metadata, annotations);
  const cpu = metrics.find(isCPUUtilization);
  const outSpec: Obj = { scaleTargetRef: ref(spec.scaleTargetRef) };
  if (set(spec.minReplicas)) outSpec.minReplicas = spec.minReplicas;
  outSpec.maxReplicas = spec.maxReplicas ?? 0;
  if (cpu) outSpec.targetCPUUtilizationPercentage = cpu.resource.target.averageUtilization;
  const outStatus: Obj = {};
  if (status.observedGeneration) outStatus.observedGeneration = status.observedGeneration;
  if (set(status.lastScaleTime)) outStatus.lastScaleTime = status.lastScaleTime;
  outStatus.currentReplicas = status.currentReplicas ?? 0;
  outStatus.desiredReplicas = status.desiredReplicas ?? 0;
  const cpuStatus = currentMetrics.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu' && set(m.resource?.current?.averageUtilization));
  if (cpuStatus) outStatus.currentCPUUtilizationPercentage = cpuStatus.resource.current.averageUtilization;
  return { kind: obj.kind, apiVersion: 'autoscaling/v1', metadata, spec: outSpec, status: outStatus };
}

// ---- v1 -> v2 (stored) ----

/** An annotation's JSON; Kubernetes ignores one it cannot parse. */
function parseAnnotation(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try { return JSON.parse(text); } catch { return undefined; }
}

/** Go's json.Unmarshal matches struct fields case-insensitively (the behavior annotation has Go's names). */
function field(o: Obj, name: string): unknown {
  if (name in o) return o[name];
  const lower = name.toLowerCase();
  for (const k of Object.keys(o)) if (k.toLowerCase() === lower) return o[k];
  return undefined;
}

function metricSpecFromV1(m: Obj): Obj {
  const out: Obj = { type: m.type ?? '' };
  if (isObj(m.object)) {
    const o = m.object;
    out.object = {
      describedObject: ref(o.target),
      target: { type: set(o.averageValue) ? 'AverageValue' : 'Value', value: o.targetValue ?? '0', ...(set(o.averageValue) ? { averageValue: o.averageValue } : {}) },
      metric: { name: o.metricName ?? '', ...(set(o.selector) ? { selector: o.selector } : {}) },
    };
  }
  if (isObj(m.pods)) {
    out.pods = { metric: { name: m.pods.metricName ?? '', ...(set(m.pods.selector) ? { selector: m.pods.selector } : {}) }, target: { type: 'AverageValue', averageValue: m.pods.targetAverageValue ?? '0' } };
  }
  for (const kind of ['resource', 'containerResource'] as const) {
    if (!isObj(m[kind])) continue;
    const r = m[kind];
    const target: Obj = { type: set(r.targetAverageUtilization) ? 'Utilization' : 'AverageValue' };
    if (set(r.targetAverageValue)) target.averageValue = r.targetAverageValue;
    if (set(r.targetAverageUtilization)) target.averageUtilization = r.targetAverageUtilization;
    out[kind] = { name: r.name ?? '', target, ...(kind === 'containerResource' ? { container: r.container ?? '' } : {}) };
  }
  if (isObj(m.external)) {
    const e = m.external;
    const target: Obj = { type: set(e.targetValue) ? 'Value' : 'AverageValue' };
    if (set(e.targetValue)) target.value = e.targetValue;
    if (set(e.targetAverageValue)) target.averageValue = e.targetAverageValue;
    out.external = { metric: { name: e.metricName ?? '', ...(set(e.metricSelector) ? { selector: e.metricSelector } : {}) }, target };
  }
  return out;
}

function metricStatusFromV1(m: Obj): Obj {
  const out: Obj = { type: m.type ?? '' };
  if (isObj(m.object)) {
    const o = m.object;
    out.object = { metric: { name: o.metricName ?? '', ...(set(o.selector) ? { selector: o.selector } : {}) }, current: { value: o.currentValue ?? '0', ...(set(o.averageValue) ? { averageValue: o.averageValue } : {}) }, describedObject: ref(o.target) };
  }
  if (isObj(m.pods)) {
    out.pods = { metric: { name: m.pods.metricName ?? '', ...(set(m.pods.selector) ? { selector: m.pods.selector } : {}) }, current: { averageValue: m.pods.currentAverageValue ?? '0' } };
  }
  for (const kind of ['resource', 'containerResource'] as const) {
    if (!isObj(m[kind])) continue;
    const r = m[kind];
    out[kind] = {
      name: r.name ?? '', current: { averageValue: r.currentAverageValue ?? '0', ...(set(r.currentAverageUtilization) ? { averageUtilization: r.currentAverageUtilization } : {}) },
      ...(kind === 'containerResource' ? { container: r.container ?? '' } : {}),
    };
  }
  if (isObj(m.external)) {
    const e = m.external;
    out.external = { metric: { name: e.metricName ?? '', ...(set(e.metricSelector) ? { selector: e.metricSelector } : {}) }, current: { value: e.currentValue ?? '0', ...(set(e.currentAverageValue) ? { averageValue: e.currentAverageValue } : {}) } };
  }
  return out;
}

function behaviorFromAnnotation(b: Obj): Obj | undefined {
  const rules = (r: unknown) => {
    if (!isObj(r)) return undefined;
    const out: Obj = {};
    const window = field(r, 'stabilizationWindowSeconds'), select = field(r, 'selectPolicy'), policies = field(r, 'policies');
    if (set(window)) out.stabilizationWindowSeconds = window;
    if (set(select)) out.selectPolicy = select;
    if (Array.isArray(policies)) out.policies = policies.filter(isObj).map((p) => ({ type: field(p, 'type') ?? '', value: field(p, 'value') ?? 0, periodSeconds: field(p, 'periodSeconds') ?? 0 }));
    return out;
  };
  const up = rules(field(b, 'scaleUp')), down = rules(field(b, 'scaleDown'));
  if (!up && !down) return undefined;
  return { ...(up ? { scaleUp: up } : {}), ...(down ? { scaleDown: down } : {}) };
}

/** An autoscaling/v1 object in the stored (v2) form. */
export function hpaFromV1(obj: ApiObject): ApiObject {
  const spec = (obj.spec ?? {}) as Obj;
  const status = (obj.status ?? {}) as Obj;
  const inAnnotations = obj.metadata.annotations ?? {};
  const annotations: Record<string, string> = { ...inAnnotations };
  for (const a of ROUND_TRIP_ANNOTATIONS) delete annotations[a];
  const metadata = { ...obj.metadata };
  if (Object.keys(annotations).length) metadata.annotations = annotations; else delete metadata.annotations;

  let metrics: Obj[] = [];
  const cpu = set(spec.targetCPUUtilizationPercentage)
    ? { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: spec.targetCPUUtilizationPercentage } } }
    : undefined;
  const other = parseAnnotation(inAnnotations[METRIC_SPECS_ANNOTATION]);
  if (Array.isArray(other)) metrics = other.filter(isObj).map(metricSpecFromV1);
  if (cpu) metrics.push(cpu);
  // v1 autoscalers used to get 80% CPU from the controller; the conversion makes it explicit.
  if (metrics.length === 0) metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];

  const outSpec: Obj = { scaleTargetRef: ref(spec.scaleTargetRef) };
  if (set(spec.minReplicas)) outSpec.minReplicas = spec.minReplicas;
  outSpec.maxReplicas = spec.maxReplicas ?? 0;
  outSpec.metrics = metrics;
  const behavior = parseAnnotation(inAnnotations[BEHAVIOR_ANNOTATION]);
  if (isObj(behavior)) {
    const b = behaviorFromAnnotation(behavior);
    if (b) outSpec.behavior = b;
  }

  const outStatus: Obj = {};
  if (status.observedGeneration) outStatus.observedGeneration = status.observedGeneration;
  if (set(status.lastScaleTime)) outStatus.lastScaleTime = status.lastScaleTime;
  if (status.currentReplicas) outStatus.currentReplicas = status.currentReplicas;
  outStatus.desiredReplicas = status.desiredReplicas ?? 0;
  // v1's one current metric is CPU utilization; the annotation, when present, carries them all.
  if (set(status.currentCPUUtilizationPercentage)) outStatus.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: status.currentCPUUtilizationPercentage } } }];
  const current = parseAnnotation(inAnnotations[METRIC_STATUSES_ANNOTATION]);
  if (Array.isArray(current)) outStatus.currentMetrics = current.filter(isObj).map(metricStatusFromV1);
  const conditions = parseAnnotation(inAnnotations[CONDITIONS_ANNOTATION]);
  if (Array.isArray(conditions)) {
    outStatus.conditions = conditions.filter(isObj).map((c) => ({
      type: c.type ?? '', status: c.status ?? '', lastTransitionTime: c.lastTransitionTime ?? null,
      ...(c.reason ? { reason: c.reason } : {}), ...(c.message ? { message: c.message } : {}),
    }));
  }
  return { kind: obj.kind, apiVersion: 'autoscaling/v2', metadata, spec: outSpec, status: outStatus };
}
