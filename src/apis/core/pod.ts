// Pod (core v1, namespaced): containers scheduled together on a node. Created Pending with its QoS class;
// afterwards the spec changes only in the few ways Kubernetes allows, and status only through /status.
import type { KindDefinition, RequestContext } from '../kind.ts';
import { evictionSubresource } from './pod-eviction.ts';
import { bindingSubresource, isBindingWrite } from './pod-binding.ts';
import type { ApiObject } from '../meta/v1.ts';
import { nameColumn, ageColumn, translateTimestampSince, CREATION_TIMESTAMP_DESCRIPTION } from '../meta/table.ts';
import { type FieldError } from '../../machinery/field-errors.ts';
import { dns1123SubdomainErrors } from './volume-validation.ts';
import { PodSchema } from './pod-schema.ts';
import { defaultPodSpec, defaultPodOnly, defaultPodStatus, dropDisabledPodSpecFields, dropDisabledPodStatusFields, canonicalizePodSpec, podQOSClass } from './pod-defaults.ts';
import { podSpecErrors, podOnlyErrors, podCreateErrors, podUpdateErrors } from './pod-validation.ts';
import { nowRfc3339 } from '../../registry/names.ts';
import { podCreateWarnings } from './pod-warnings.ts';
import { podAnnotationErrors, podAnnotationUpdateErrors, hasInvalidDeletionCost } from './pod-annotations.ts';
import { warnWhenValid } from '../warnings.ts';

type Obj = Record<string, any>;
const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;
const statusOf = (o: ApiObject) => (o.status ?? {}) as Obj;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);

function podIP(o: ApiObject): string {
  const s = statusOf(o);
  return list(s.podIPs)[0]?.ip ?? s.podIP ?? '';
}

function isRestartableInit(c: Obj | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

function newer(a: string | undefined, b: string | undefined): string | undefined {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/** printPod: READY, STATUS and RESTARTS as kubectl shows them. */
export function podSummary(pod: ApiObject): { ready: string; status: string; restarts: string } {
  const spec = specOf(pod), status = statusOf(pod);
  let restarts = 0, restartableRestarts = 0, readyContainers = 0;
  let totalContainers = list(spec.containers).length;
  let lastRestart: string | undefined, lastRestartableRestart: string | undefined;
  let reason: string = status.reason || status.phase || '';
  for (const c of list(status.conditions)) if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';

  const inits = new Map<string, Obj>();
  for (const c of list(spec.initContainers)) {
    inits.set(c.name, c);
    if (isRestartableInit(c)) totalContainers++;
  }
  let initializing = false;
  const initStatuses = list(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i];
    restarts += cs.restartCount ?? 0;
    const finished = cs.lastState?.terminated?.finishedAt;
    if (finished) lastRestart = newer(lastRestart, finished);
    const restartable = isRestartableInit(inits.get(cs.name));
    if (restartable) {
      restartableRestarts += cs.restartCount ?? 0;
      if (finished) lastRestartableRestart = newer(lastRestartableRestart, finished);
    }
    const term = cs.state?.terminated, wait = cs.state?.waiting;
    if (term && (term.exitCode ?? 0) === 0) continue;
    if (restartable && cs.started === true) { if (cs.ready) readyContainers++; continue; }
    if (term) reason = term.reason ? `Init:${term.reason}` : term.signal ? `Init:Signal:${term.signal}` : `Init:ExitCode:${term.exitCode ?? 0}`;
    else if (wait?.reason && wait.reason !== 'PodInitializing') reason = `Init:${wait.reason}`;
    else reason = `Init:${i}/${list(spec.initContainers).length}`;
    initializing = true;
    break;
  }
  const initialized = list(status.conditions).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = restartableRestarts;
    lastRestart = lastRestartableRestart;
    let hasRunning = false;
    const statuses = list(status.containerStatuses);
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i];
      restarts += cs.restartCount ?? 0;
      const finished = cs.lastState?.terminated?.finishedAt;
      if (finished) lastRestart = newer(lastRestart, finished);
      const term = cs.state?.terminated, wait = cs.state?.waiting;
      if (wait?.reason) reason = wait.reason;
      else if (term?.reason) reason = term.reason;
      else if (term) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode ?? 0}`;
      else if (cs.ready && cs.state?.running) { hasRunning = true; readyContainers++; }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = list(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && status.phase !== 'Succeeded' && status.phase !== 'Failed') reason = 'Terminating';
  const restartText = restarts !== 0 && lastRestart ? `${restarts} (${translateTimestampSince(lastRestart)} ago)` : String(restarts);
  return { ready: `${readyContainers}/${totalContainers}`, status: reason, restarts: restartText };
}

function readinessGates(pod: ApiObject): string {
  const gates = list(specOf(pod).readinessGates);
  if (gates.length === 0) return '<none>';
  const conditions = list(statusOf(pod).conditions);
  const ready = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${ready}/${gates.length}`;
}

function applySchedulingGatedCondition(obj: ApiObject): void {
  if (list(specOf(obj).schedulingGates).length === 0) return;
  const status = statusOf(obj);
  status.conditions = [...list(status.conditions).filter((c) => c.type !== 'PodScheduled'), {
    type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: nowRfc3339(),
    reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates',
  }];
}

function prepareForCreate(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  dropDisabledPodSpecFields(spec, undefined);
  obj.status = { phase: 'Pending', qosClass: podQOSClass(spec) };
  applySchedulingGatedCondition(obj);
}

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  // A binding is written as it was made (pod-binding.ts), as Kubernetes writes it to storage.
  if (isBindingWrite(ctx)) return;
  if (ctx.subresource === 'status') {
    obj.spec = structuredClone(old.spec);
    dropDisabledPodStatusFields(statusOf(obj), statusOf(old));
    return;
  }
  dropDisabledPodSpecFields(specOf(obj), specOf(old));
}

function statusErrors(obj: ApiObject): FieldError[] {
  const nominated = statusOf(obj).nominatedNodeName;
  return typeof nominated === 'string' && nominated ? dns1123SubdomainErrors(nominated, 'status.nominatedNodeName') : [];
}

export const podKind: KindDefinition = {
  group: '',
  kind: 'Pod',
  plural: 'pods',
  singular: 'pod',
  namespaced: true,
  shortNames: ['po'],
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: PodSchema }],
  storageVersion: 'v1',
  status: {},
  views: [evictionSubresource, bindingSubresource],
  trackGeneration: false,
  deleteReturnsObject: true,

  defaults(obj) {
    const spec = (obj.spec ??= {}) as Obj;
    defaultPodSpec(spec);
    defaultPodOnly(spec);
    obj.status ??= {};
    defaultPodStatus(statusOf(obj));
  },
  prepareForCreate,
  prepareForUpdate,
  validate(obj, ctx) {
    const spec = specOf(obj);
    const errs = [
      ...podAnnotationErrors(obj.metadata.annotations, spec),
      ...podSpecErrors(spec, 'spec', { podName: obj.metadata.name, isPod: true }), ...podOnlyErrors(spec), ...podCreateErrors(spec),
    ];
    // Only a create warns: Kubernetes skips a pod update's warnings (a frequent path humans rarely take).
    return warnWhenValid(errs, ctx, () => podCreateWarnings(obj));
  },
  validateUpdate(obj, old, ctx) {
    if (isBindingWrite(ctx)) return [];
    const spec = specOf(obj);
    const annotations = obj.metadata.annotations, oldAnnotations = old.metadata.annotations;
    const annotationErrs = podAnnotationErrors(annotations, spec, hasInvalidDeletionCost(oldAnnotations));
    if (ctx.subresource === 'status') return [...podAnnotationUpdateErrors(annotations, oldAnnotations), ...annotationErrs, ...statusErrors(obj)];
    return [
      ...annotationErrs,
      ...podSpecErrors(spec, 'spec', { podName: obj.metadata.name, isPod: true, oldSpec: specOf(old) }), ...podOnlyErrors(spec),
      ...podAnnotationUpdateErrors(annotations, oldAnnotations),
      ...podUpdateErrors(spec, specOf(old)),
    ];
  },
  canonicalize: (obj) => canonicalizePodSpec(specOf(obj)),

  fieldSelectors: {
    'spec.nodeName': (o) => specOf(o).nodeName ?? '',
    'spec.restartPolicy': (o) => specOf(o).restartPolicy ?? '',
    'spec.schedulerName': (o) => specOf(o).schedulerName ?? '',
    'spec.serviceAccountName': (o) => specOf(o).serviceAccountName ?? '',
    'spec.hostNetwork': (o) => String(specOf(o).hostNetwork === true),
    'status.phase': (o) => statusOf(o).phase ?? '',
    'status.podIP': podIP,
    'status.nominatedNodeName': (o) => statusOf(o).nominatedNodeName ?? '',
  },
  tableColumns: [
    nameColumn,
    { name: 'Ready', type: 'string', description: 'The aggregate readiness state of this pod for accepting traffic.', cell: (o) => podSummary(o).ready },
    { name: 'Status', type: 'string', description: 'The aggregate status of the containers in this pod.', cell: (o) => podSummary(o).status },
    { name: 'Restarts', type: 'string', description: 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.', cell: (o) => podSummary(o).restarts },
    { ...ageColumn, description: CREATION_TIMESTAMP_DESCRIPTION },
    { name: 'IP', type: 'string', priority: 1, description: 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', cell: (o) => podIP(o) || '<none>' },
    { name: 'Node', type: 'string', priority: 1, description: 'NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate for scheduling by the scheduler defined in schedulerName. Once this field is set, the node agent for this node becomes responsible for the lifecycle of this pod. This field should not be used to express a desire for the pod to be scheduled on a specific node. https://platform.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename', cell: (o) => specOf(o).nodeName || '<none>' },
    { name: 'Nominated Node', type: 'string', priority: 1, description: 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods. This field does not guarantee that the pod will be scheduled on this node. Scheduler may decide to place the pod elsewhere if other nodes become available sooner. Scheduler may also decide to give the resources on this node to a higher priority pod that is created after preemption. As a result, this field may be different than PodSpec.nodeName when the pod is scheduled.', cell: (o) => statusOf(o).nominatedNodeName || '<none>' },
    { name: 'Readiness Gates', type: 'string', priority: 1, description: 'If specified, all readiness gates will be evaluated for pod readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness gates have status equal to "True" More info: https://git.svc.io/enhancements/keps/sig-network/580-pod-readiness-gates', cell: readinessGates },
  ],
};
