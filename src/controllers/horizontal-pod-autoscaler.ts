// Kubernetes' horizontal pod autoscaler controller (v1.32, `horizontalpodautoscaling`), for a server that serves
// no metrics API. Every HPA is reconciled when its spec changes and every resync period: the target's scale is
// read through its `scale` sub-resource; a target at zero replicas is left alone (scaling disabled), one
// outside [minReplicas, maxReplicas] is brought to the nearest bound through that sub-resource, and one within
// the range needs metrics, which cannot be fetched: the HPA then reports, as Kubernetes does, why each metric
// failed (conditions, events) and keeps its desired count. Behaviors, stabilization windows and the scale-up
// limit only shape metric-driven recommendations, so they never apply here.
import type { ViewSubresource } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { CacheEvent } from '../storage/cache.ts';
import { metaOf } from '../storage/cached-object.ts';
import { nothingSelector, parseLabelSelector, type LabelSelectorMatcher } from '../machinery/labels.ts';
import { notFound } from '../machinery/status.ts';
import { deepEqual } from '../machinery/schema/walk.ts';
import { formatTimeMs } from '../machinery/apply/managers.ts';
import { parseGroupVersion } from '../machinery/group-version.ts';
import { controllerContext } from './client.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import type { EventRecorder } from './events.ts';
import { metricFailure } from './horizontal-pod-autoscaler-metrics.ts';

type Obj = Record<string, any>;

/** Kubernetes' service account (and event source) of the controller. */
const CONTROLLER_NAME = 'horizontal-pod-autoscaler';
/** Kubernetes' --horizontal-pod-autoscaler-sync-period. */
const DEFAULT_RESYNC_MS = 15_000;
/** Kubernetes' --concurrent-horizontal-pod-autoscaler-syncs. */
const WORKERS = 5;

const ABLE_TO_SCALE = 'AbleToScale';
const SCALING_ACTIVE = 'ScalingActive';

export interface HorizontalPodAutoscalerControllerDeps {
  /** autoscaling HorizontalPodAutoscalers (stored as v2). */
  autoscalers: ResourceStore;
  /** The store of a scale target, by its apiVersion's group and its kind (undefined: not a kind here). */
  storeForKind(group: string, kind: string): ResourceStore | undefined;
  /** The pods, for Kubernetes' check that no two HPAs control the same pods (AmbiguousSelector); the check is
   *  skipped without them. */
  pods?: ResourceStore;
  log(line: string): void;
  /** Default: Kubernetes' --horizontal-pod-autoscaler-sync-period, 15 s. */
  resyncMs?: number;
  /** Clock of conditions and lastScaleTime; Date.now by default. */
  now?: () => number;
  /** Where the controller's Events go (SuccessfulRescale, FailedGetScale, FailedComputeMetricsReplicas ...). */
  events?: EventRecorder;
}

interface HpaCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

const keyOf = (namespace: string, name: string) => `${namespace}/${name}`;
const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** Kubernetes' setCondition: a condition's lastTransitionTime moves only when its status changes. */
function setCondition(status: Obj, type: string, value: 'True' | 'False', reason: string, message: string, now: number): void {
  const conditions: HpaCondition[] = status.conditions ??= [];
  const existing = conditions.find((c) => c.type === type);
  if (!existing) {
    conditions.push({ type, status: value, lastTransitionTime: formatTimeMs(now), reason, message });
    return;
  }
  if (existing.status !== value) existing.lastTransitionTime = formatTimeMs(now);
  existing.status = value;
  existing.reason = reason;
  existing.message = message;
}

/** Kubernetes' setStatus: a new status of the counts, the metrics and what it kept (observedGeneration is
 *  not among them); lastScaleTime moves on a rescale. */
function replaceStatus(status: Obj, currentReplicas: number, desiredReplicas: number, metrics: Obj[] | undefined, rescaled: boolean, now: number): Obj {
  const next: Obj = {};
  const lastScaleTime = rescaled ? formatTimeMs(now) : status.lastScaleTime;
  if (lastScaleTime) next.lastScaleTime = lastScaleTime;
  next.currentReplicas = currentReplicas;
  next.desiredReplicas = desiredReplicas;
  if (metrics) next.currentMetrics = metrics;
  if (status.conditions) next.conditions = status.conditions;
  return next;
}

/** The status as Go would decode it: zero counts and empty lists are the same as none. */
function comparable(status: Obj | undefined): Obj {
  const s = status ?? {};
  return {
    ...s,
    currentReplicas: s.currentReplicas || undefined,
    desiredReplicas: s.desiredReplicas || undefined,
    currentMetrics: s.currentMetrics?.length ? s.currentMetrics : undefined,
    conditions: s.conditions?.length ? s.conditions : undefined,
  };
}

/** Kubernetes' updateStatusIfNeeded test (semantic equality). */
export const statusUnchanged = (before: Obj | undefined, after: Obj): boolean => deepEqual(comparable(before), comparable(after));

/** A target's scale, read through its `scale` sub-resource, and what writes it back. */
interface ScaleTarget {
  store: ResourceStore;
  view: ViewSubresource;
  scale: ApiObject;
}

/** What one reconcile knows: the HPA as read, its key, the status being built and its target's count. */
interface Pass {
  hpa: ApiObject;
  key: string;
  status: Obj;
  currentReplicas: number;
  /** `Kind/namespace/name` of the target, for the log. */
  reference: string;
}

export function startHorizontalPodAutoscalerController(deps: HorizontalPodAutoscalerControllerDeps): { stop(): void; queue: WorkQueue } {
  const { autoscalers } = deps;
  const now = deps.now ?? Date.now;
  const statusCtx = controllerContext(CONTROLLER_NAME, 'status');
  const scaleCtx = controllerContext(CONTROLLER_NAME, 'scale');
  /** Each HPA's pod selector as last read from its target (Kubernetes' hpaSelectors): none matches until then. */
  const hpaSelectors = new Map<string, LabelSelectorMatcher>();

  const warn = (hpa: ApiObject, reason: string, message: string) => deps.events?.event(hpa, 'Warning', reason, message);
  const report = (key: string, message: string) => deps.log(`horizontal pod autoscaler controller: ${key}: ${message}`);

  // ---- the target's scale ----

  /** Kubernetes' RESTMappings and scale GET: the scale, or the error the HPA reports. */
  async function readScale(hpa: ApiObject): Promise<ScaleTarget | { error: string }> {
    const ref = ((hpa.spec as Obj | undefined)?.scaleTargetRef ?? {}) as Obj;
    const gv = parseGroupVersion(String(ref.apiVersion ?? ''));
    if (!gv) return { error: `unexpected GroupVersion string: ${ref.apiVersion}` };
    const group = gv.group;
    const kind = String(ref.kind ?? ''), name = String(ref.name ?? '');
    const store = deps.storeForKind(group, kind);
    if (!store) return { error: `no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(group)}` };
    const view = store.def.views?.find((v) => v.name === 'scale');
    // A kind without the sub-resource: the API server's answer to an unknown path.
    if (!view?.get || !view.update) return { error: 'the server could not find the requested resource' };
    try {
      const found = await store.readNow(hpa.metadata.namespace ?? '', name);
      if (!found) return { error: notFound(store.gr, name).message };
      return { store, view, scale: view.get(found.object as ApiObject) };
    } catch (err) {
      return { error: asError(err).message };
    }
  }

  /** Writes the new count as a Scale update would: conditional on the version read. */
  async function writeScale(target: ScaleTarget, replicas: number): Promise<void> {
    const { store, view } = target;
    const { namespace = '', name = '' } = target.scale.metadata;
    const scale = structuredClone(target.scale);
    scale.spec = { ...(scale.spec as Obj), replicas };
    await store.update(namespace, (current) => {
      if (!current) throw notFound(store.gr, name);
      return view.update!(current, scale);
    }, { ctx: scaleCtx, dryRun: false, subresource: '', allowCreate: false, name });
  }

  // ---- the selector ----

  /** The HPAs of the namespace whose last known selectors match a pod that `selector` selects. */
  function hpasControllingPods(namespace: string, selector: LabelSelectorMatcher): string[] {
    const pods = deps.pods;
    if (!pods) return [];
    const found = new Set<string>();
    for (const pod of pods.cache.list(pods.listPrefix(namespace))) {
      const labels = (pod.meta ?? metaOf(pod.object.metadata)).labels;
      if (!selector.matches(labels)) continue;
      for (const [key, hpaSelector] of hpaSelectors) {
        if (key.startsWith(`${namespace}/`) && hpaSelector.matches(labels)) found.add(key);
      }
    }
    return [...found].sort();
  }

  /** Kubernetes' validateAndParseSelector: the error that stops the metrics, or nothing. */
  function selectorProblem(hpa: ApiObject, key: string, status: Obj, selectorText: string): string | undefined {
    const at = now();
    if (!selectorText) {
      warn(hpa, 'SelectorRequired', 'selector is required');
      setCondition(status, SCALING_ACTIVE, 'False', 'InvalidSelector', "the HPA target's scale is missing a selector", at);
      return 'selector is required';
    }
    let selector: LabelSelectorMatcher;
    try {
      selector = parseLabelSelector(selectorText);
    } catch (err) {
      const message = `couldn't convert selector into a corresponding internal selector object: ${asError(err).message}`;
      warn(hpa, 'InvalidSelector', message);
      setCondition(status, SCALING_ACTIVE, 'False', 'InvalidSelector', message, at);
      return message;
    }
    if (hpaSelectors.has(key)) hpaSelectors.set(key, selector);
    const controlling = hpasControllingPods(hpa.metadata.namespace ?? '', selector);
    if (controlling.length > 1) {
      const message = `pods by selector ${selectorText} are controlled by multiple HPAs: [${controlling.join(' ')}]`;
      warn(hpa, 'AmbiguousSelector', message);
      setCondition(status, SCALING_ACTIVE, 'False', 'AmbiguousSelector', message, at);
      return message;
    }
    return undefined;
  }

  // ---- the metrics ----

  /**
   * Kubernetes' computeReplicasForMetrics, where every metric fails: each failure is recorded as an event,
   * the first one sets ScalingActive, and the statuses are one empty entry per metric. Answers the error.
   */
  function metricsProblem(hpa: ApiObject, status: Obj): { error: string; statuses: Obj[] } | undefined {
    const metrics = ((hpa.spec as Obj | undefined)?.metrics ?? []) as Obj[];
    // Defaulting gives every stored HPA a metric; with none there is no failure to report.
    if (!metrics.length) return undefined;
    const failures = metrics.map((m) => metricFailure(m ?? {}, hpa.metadata.namespace ?? ''));
    for (const f of failures) warn(hpa, f.reason, f.message);
    const first = failures[0];
    setCondition(status, SCALING_ACTIVE, 'False', first.reason, `the HPA was unable to compute the replica count: ${first.message}`, now());
    return {
      error: `invalid metrics (${failures.length} invalid out of ${metrics.length}), first error is: ${first.error}`,
      statuses: metrics.map(() => ({ type: '' })),
    };
  }

  // ---- status ----

  /** Kubernetes' updateStatusIfNeeded: an UpdateStatus of the version read, skipped when nothing changed. */
  async function writeStatusIfChanged(hpa: ApiObject, key: string, status: Obj): Promise<void> {
    if (statusUnchanged(hpa.status as Obj | undefined, status)) return;
    const namespace = hpa.metadata.namespace ?? '', name = hpa.metadata.name ?? '';
    try {
      await autoscalers.update(namespace, (current) => {
        if (!current || current.metadata.uid !== hpa.metadata.uid) throw notFound(autoscalers.gr, name);
        current.metadata.resourceVersion = hpa.metadata.resourceVersion;
        current.status = status;
        return current;
      }, { ctx: statusCtx, dryRun: false, subresource: 'status', allowCreate: false, name });
    } catch (err) {
      warn(hpa, 'FailedUpdateStatus', asError(err).message);
      report(key, `failed to update status for ${name}: ${asError(err).message}`);
    }
  }

  // ---- reconcile ----

  /** The count the min/max rules ask for, and why; undefined when the target is within range. */
  function boundsRule(currentReplicas: number, minReplicas: number, maxReplicas: number): { desired: number; reason: string } | undefined {
    if (currentReplicas > maxReplicas) return { desired: maxReplicas, reason: 'Current number of replicas above Spec.MaxReplicas' };
    if (currentReplicas < minReplicas) return { desired: minReplicas, reason: 'Current number of replicas below Spec.MinReplicas' };
    return undefined;
  }

  /** Within range, the metrics decide; none can be fetched, so the HPA reports why and keeps its desired count. */
  async function reportMissingMetrics(pass: Pass, target: ScaleTarget): Promise<void> {
    const { hpa, key, status } = pass;
    const selectorText = String((target.scale.status as Obj | undefined)?.selector ?? '');
    const problem = selectorProblem(hpa, key, status, selectorText);
    const failed = problem === undefined ? metricsProblem(hpa, status) : { error: problem, statuses: undefined };
    await writeStatusIfChanged(hpa, key, replaceStatus(status, pass.currentReplicas, status.desiredReplicas ?? 0, failed?.statuses, false, now()));
    if (!failed) return;
    warn(hpa, 'FailedComputeMetricsReplicas', failed.error);
    report(key, `failed to compute desired number of replicas based on listed metrics for ${pass.reference}: ${failed.error}`);
  }

  /** Brings the target to the count a min/max rule asks for, through its scale sub-resource. */
  async function rescale(pass: Pass, target: ScaleTarget, rule: { desired: number; reason: string }): Promise<void> {
    const { hpa, key, status, currentReplicas } = pass;
    try {
      await writeScale(target, rule.desired);
    } catch (err) {
      const message = asError(err).message;
      warn(hpa, 'FailedRescale', `New size: ${rule.desired}; reason: ${rule.reason}; error: ${message}`);
      setCondition(status, ABLE_TO_SCALE, 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${message}`, now());
      await writeStatusIfChanged(hpa, key, replaceStatus(status, currentReplicas, status.desiredReplicas ?? 0, undefined, false, now()));
      report(key, `failed to rescale ${pass.reference}: ${message}`);
      return;
    }
    setCondition(status, ABLE_TO_SCALE, 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${rule.desired}`, now());
    deps.events?.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${rule.desired}; reason: ${rule.reason}`);
    await writeStatusIfChanged(hpa, key, replaceStatus(status, currentReplicas, rule.desired, undefined, true, now()));
  }

  /** Kubernetes' reconcileAutoscaler, without metrics. */
  async function reconcile(hpa: ApiObject, key: string): Promise<void> {
    const spec = (hpa.spec ?? {}) as Obj;
    const ref = (spec.scaleTargetRef ?? {}) as Obj;
    const reference = `${ref.kind ?? ''}/${hpa.metadata.namespace ?? ''}/${ref.name ?? ''}`;
    const status = structuredClone((hpa.status ?? {}) as Obj);

    const target = await readScale(hpa);
    if ('error' in target) {
      warn(hpa, 'FailedGetScale', target.error);
      setCondition(status, ABLE_TO_SCALE, 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${target.error}`, now());
      await writeStatusIfChanged(hpa, key, status);
      report(key, `failed to query scale subresource for ${reference}: ${target.error}`);
      return;
    }
    setCondition(status, ABLE_TO_SCALE, 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale", now());
    const currentReplicas = ((target.scale.spec as Obj | undefined)?.replicas ?? 0) as number;
    const minReplicas = (spec.minReplicas ?? 1) as number;
    const pass: Pass = { hpa, key, status, currentReplicas, reference };

    if (currentReplicas === 0 && minReplicas !== 0) {
      setCondition(status, SCALING_ACTIVE, 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero', now());
      await writeStatusIfChanged(hpa, key, replaceStatus(status, currentReplicas, currentReplicas, undefined, false, now()));
      return;
    }
    const rule = boundsRule(currentReplicas, minReplicas, (spec.maxReplicas ?? 0) as number);
    if (rule) await rescale(pass, target, rule);
    else await reportMissingMetrics(pass, target);
  }

  async function syncAutoscaler(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const hpa = autoscalers.current(key.slice(0, slash), key.slice(slash + 1))?.object as ApiObject | undefined;
    if (!hpa) return;
    // Failures are reported, never retried sooner: Kubernetes looks at every HPA again after the resync
    // period, whatever happened.
    try {
      await reconcile(hpa, key);
    } catch (err) {
      report(key, asError(err).message);
    }
  }

  const queue = new WorkQueue(syncAutoscaler, { name: 'horizontal pod autoscaler controller', log: deps.log, workers: WORKERS });

  // ---- events ----

  /** Kubernetes' enqueueHPA: known from now on, selecting no pod until its target's selector is read. */
  function enqueue(key: string): void {
    if (!hpaSelectors.has(key)) hpaSelectors.set(key, nothingSelector());
    queue.add(key);
  }

  function onAutoscalerEvent(e: CacheEvent): void {
    const key = keyOf(e.current.namespace, e.current.name);
    if (e.deleted) {
      hpaSelectors.delete(key);
      return;
    }
    // The controller's own status writes (and other changes outside the spec) wait for the resync.
    const previous = e.previous?.object;
    if (previous && previous.metadata?.uid === e.current.object.metadata?.uid && deepEqual(previous.spec, e.current.object.spec)) return;
    enqueue(key);
  }

  const informer = startInformer({
    stores: [autoscalers],
    onEvent: (_store, e) => onAutoscalerEvent(e),
    resync() {
      for (const hpa of autoscalers.cache.unordered()) enqueue(keyOf(hpa.namespace, hpa.name));
    },
    resyncMs: deps.resyncMs ?? DEFAULT_RESYNC_MS,
    log: deps.log,
    name: 'horizontal pod autoscaler controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
