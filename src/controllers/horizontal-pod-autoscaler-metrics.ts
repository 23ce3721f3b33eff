// What Kubernetes' HPA controller (v1.32) reports about a metric it cannot fetch, for a cluster that serves
// none of the metrics APIs, as this server: no resource metrics (metrics.svc.io, which Kubernetes' client
// meets as a 404 of an unknown path), no custom metrics (custom.metrics.svc.io, absent from discovery) and no
// external metrics (external.metrics.svc.io, a 404 again). Each metric of an HPA then fails with the reason
// and the nested error texts of horizontal.go, replica_calculator.go and metrics/client.go.
import { labelSelectorFromObject } from '../machinery/labels.ts';

type Obj = Record<string, any>;

/** One metric that could not be computed. */
export interface MetricFailure {
  /** The reason of the ScalingActive condition and of the Warning event (FailedGetResourceMetric ...). */
  reason: string;
  /** What the event says, and the condition after "the HPA was unable to compute the replica count: ". */
  message: string;
  /** The metric's error as computeReplicasForMetrics gathers it (the first one ends the summary). */
  error: string;
}

const RESOURCE_METRICS_UNAVAILABLE = 'unable to fetch metrics from resource metrics API: the server could not find the requested resource (get pods.metrics.svc.io)';
const CUSTOM_METRICS_UNAVAILABLE = 'unable to fetch metrics from custom metrics API: no custom metrics API (custom.metrics.svc.io) registered';
const externalMetricsUnavailable = (metric: string) =>
  `unable to fetch metrics from external metrics API: the server could not find the requested resource (get ${metric}.external.metrics.svc.io)`;

const isSet = (v: unknown) => v !== undefined && v !== null;
const asObj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? v as Obj : {});

/** metav1.LabelSelectorAsSelector's error for a metric selector, if any. */
function selectorError(selector: unknown): string | undefined {
  try {
    labelSelectorFromObject(selector as Obj | undefined);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Go's `%+v` of a *metav1.LabelSelector: its generated String(), `nil` for none. */
export function goLabelSelector(selector: unknown): string {
  if (!isSet(selector)) return 'nil';
  const sel = asObj(selector);
  const labels = asObj(sel.matchLabels);
  const labelText = Object.keys(labels).sort().map((k) => `${k}: ${labels[k]},`).join('');
  const expressions = (Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []).map((e: Obj) => {
    const values = Array.isArray(e?.values) ? e.values.join(' ') : '';
    return `LabelSelectorRequirement{Key:${e?.key ?? ''},Operator:${e?.operator ?? ''},Values:[${values}],},`;
  }).join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labelText}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

/** computeStatusForResourceMetricGeneric: the usage (averageValue) or the utilization could not be read. */
function resourceMetricError(source: Obj): string {
  const name = String(source.name ?? '');
  const target = asObj(source.target);
  const unavailable = `unable to get metrics for resource ${name}: ${RESOURCE_METRICS_UNAVAILABLE}`;
  if (isSet(target.averageValue)) return `failed to get ${name} usage: ${unavailable}`;
  if (!isSet(target.averageUtilization)) return 'invalid resource metric source: neither an average utilization target nor an average value (usage) target was set';
  return `failed to get ${name} utilization: ${unavailable}`;
}

function resourceFailure(metric: Obj): MetricFailure {
  const source = asObj(metric.resource);
  const message = resourceMetricError(source);
  return { reason: 'FailedGetResourceMetric', message, error: `failed to get ${source.name ?? ''} resource metric value: ${message}` };
}

function containerResourceFailure(metric: Obj): MetricFailure {
  const source = asObj(metric.containerResource);
  const message = resourceMetricError(source);
  return { reason: 'FailedGetContainerResourceMetric', message, error: `failed to get ${source.container ?? ''} container metric value: ${message}` };
}

function podsFailure(metric: Obj): MetricFailure {
  const id = asObj(asObj(metric.pods).metric);
  const message = selectorError(id.selector) ?? `unable to get metric ${id.name ?? ''}: ${CUSTOM_METRICS_UNAVAILABLE}`;
  return { reason: 'FailedGetPodsMetric', message, error: `failed to get pods metric value: ${message}` };
}

function objectFailure(metric: Obj, namespace: string): MetricFailure {
  const source = asObj(metric.object);
  const id = asObj(source.metric), target = asObj(source.target), described = asObj(source.describedObject);
  const reason = 'FailedGetObjectMetric';
  const wrap = (text: string) => `failed to get object metric value: ${text}`;
  const badSelector = selectorError(id.selector);
  if (badSelector) return { reason, message: badSelector, error: wrap(badSelector) };
  // Kubernetes' format string puts the arguments out of place: this is the text it prints.
  const message = `unable to get metric ${id.name ?? ''}: ${described.kind ?? ''} on ${namespace} ${described.name ?? ''}/${CUSTOM_METRICS_UNAVAILABLE}`;
  if (target.type === 'Value' && isSet(target.value)) return { reason, message, error: wrap(message) };
  if (target.type === 'AverageValue' && isSet(target.averageValue)) return { reason, message, error: wrap(`failed to get ${id.name ?? ''} object metric: ${message}`) };
  const invalid = 'invalid object metric source: neither a value target nor an average value target was set';
  return { reason, message: invalid, error: wrap(invalid) };
}

function externalFailure(metric: Obj, namespace: string): MetricFailure {
  const source = asObj(metric.external);
  const id = asObj(source.metric), target = asObj(source.target);
  const name = String(id.name ?? '');
  const reason = 'FailedGetExternalMetric';
  const wrap = (text: string) => `failed to get ${name} external metric value: ${text}`;
  const message = selectorError(id.selector)
    ?? `unable to get external metric ${namespace}/${name}/${goLabelSelector(id.selector)}: ${externalMetricsUnavailable(name)}`;
  if (isSet(target.averageValue)) return { reason, message, error: wrap(`failed to get ${name} external metric: ${message}`) };
  if (isSet(target.value)) return { reason, message, error: wrap(`failed to get external metric ${name}: ${message}`) };
  const invalid = 'invalid external metric source: neither a value target nor an average value target was set';
  return { reason, message: invalid, error: wrap(invalid) };
}

/** Why one metric of an HPA in `namespace` yields no replica count here. */
export function metricFailure(metric: Obj, namespace: string): MetricFailure {
  switch (metric.type) {
    case 'Object': return objectFailure(metric, namespace);
    case 'Pods': return podsFailure(metric);
    case 'Resource': return resourceFailure(metric);
    case 'ContainerResource': return containerResourceFailure(metric);
    case 'External': return externalFailure(metric, namespace);
    default: {
      // Validation refuses other types; Kubernetes still names them.
      const message = `unknown metric source type ${JSON.stringify(String(metric.type ?? ''))}`;
      return { reason: 'InvalidMetricSourceType', message, error: message };
    }
  }
}
