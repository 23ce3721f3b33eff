// What an object counts against a ResourceQuota, as Kubernetes' quota evaluators say (pkg/quota/v1): every
// object counts 1 of `count/<resource>[.<group>]`; configmaps, secrets, resourcequotas, replication
// controllers, services, persistentvolumeclaims and pods also under their bare names; pods their compute
// requests and limits, services their node ports and load balancers, claims their storage. The
// ResourceQuota controller and admission plugin share these.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { KindDefinition } from '../apis/kind.ts';
import { Quantity, quantityFromJSON } from '../machinery/quantity.ts';
import { isExtendedResourceName } from '../apis/core/resource-quantity.ts';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../apis/core/persistentvolume-common.ts';

export type ResourceList = Map<string, Quantity>;
type Obj = Record<string, any>;

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.svc.io/';
/** Kinds whose object count also has a bare quota name. */
const LEGACY_COUNT_NAMES: Record<string, string> = {
  configmaps: 'configmaps', secrets: 'secrets', resourcequotas: 'resourcequotas', replicationcontrollers: 'replicationcontrollers',
  services: 'services', persistentvolumeclaims: 'persistentvolumeclaims',
};
const POD_RESOURCES = new Set([
  'count/pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods',
]);
const SERVICE_RESOURCES = new Set(['count/services', 'services', 'services.nodeports', 'services.loadbalancers']);
const PVC_RESOURCES = new Set(['count/persistentvolumeclaims', 'persistentvolumeclaims', 'requests.storage']);
/** Compute resources a pod must request in every container once a quota tracks them. */
const CONSTRAINED = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** The quota name of an object count: `count/<resource>` for the core group, `count/<resource>.<group>` otherwise. */
export function objectCountName(group: string, resource: string): string {
  return group ? `count/${resource}.${group}` : `count/${resource}`;
}

export interface QuotaScopeSelector { scopeName: string; operator: string; values?: string[] }

/** Who evaluates objects of one kind. */
export interface Evaluator {
  /** Kind (group and plural) evaluated. */
  group: string;
  resource: string;
  /** The quota resource names, among `names`, that objects of this kind count. */
  matchingResources(names: Iterable<string>): string[];
  /** Whether a write of this operation changes usage (only creates, for most kinds). */
  handles(operation: string): boolean;
  usage(obj: ApiObject, now?: number): ResourceList;
  /** Whether the quota's scopes cover this object (only pods have scopes; scoped quotas match nothing else). */
  matchesScopes(scopes: QuotaScopeSelector[], obj: ApiObject): boolean;
  /** Why this object may not be admitted under a quota that tracks `required` (pods without requests). */
  constraintProblem(required: string[], obj: ApiObject): string | undefined;
}

/** The evaluator of a kind: a generic object counter, or the pod, service and claim evaluators. */
export function evaluatorFor(def: Pick<KindDefinition, 'group' | 'plural'> & { storedAs?: { group: string } }): Evaluator {
  const group = def.group, resource = def.plural;
  const count = objectCountName(group, resource);
  if (group === '' && resource === 'pods') return podEvaluator();
  const legacy = group === '' ? LEGACY_COUNT_NAMES[resource] : undefined;
  const base = {
    group, resource,
    matchesScopes: (scopes: QuotaScopeSelector[]) => scopes.length === 0,
    constraintProblem: () => undefined,
  };
  if (group === '' && resource === 'services') {
    return {
      ...base,
      matchingResources: (names) => [...names].filter((n) => SERVICE_RESOURCES.has(n)),
      handles: (op) => op === 'CREATE' || op === 'UPDATE',
      usage: serviceUsage,
    };
  }
  if (group === '' && resource === 'persistentvolumeclaims') {
    return {
      ...base,
      matchingResources: (names) => [...names].filter((n) => PVC_RESOURCES.has(n) || (n.includes(STORAGE_CLASS_SUFFIX) && (n.endsWith('/requests.storage') || n.endsWith('/persistentvolumeclaims')))),
      handles: (op) => op === 'CREATE' || op === 'UPDATE',
      usage: claimUsage,
    };
  }
  return {
    ...base,
    matchingResources: (names) => [...names].filter((n) => n === count || (legacy !== undefined && n === legacy)),
    handles: (op) => op === 'CREATE',
    usage: () => {
      const out: ResourceList = new Map([[count, Quantity.fromInt(1)]]);
      if (legacy) out.set(legacy, Quantity.fromInt(1));
      return out;
    },
  };
}

function serviceUsage(obj: ApiObject): ResourceList {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const ports = list(spec.ports);
  const out: ResourceList = new Map([
    ['count/services', Quantity.fromInt(1)],
    ['services', Quantity.fromInt(1)],
    ['services.loadbalancers', Quantity.fromInt(0)],
    ['services.nodeports', Quantity.fromInt(0)],
  ]);
  if (spec.type === 'NodePort') out.set('services.nodeports', Quantity.fromInt(ports.length));
  if (spec.type === 'LoadBalancer') {
    // Without node port allocation only the ports that ask for one count.
    const counted = spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length;
    out.set('services.nodeports', Quantity.fromInt(counted));
    out.set('services.loadbalancers', Quantity.fromInt(1));
  }
  return out;
}

function quantityOf(v: unknown): Quantity | undefined {
  if (v === undefined || v === null) return undefined;
  try { return quantityFromJSON(v); } catch { return undefined; }
}

function claimUsage(obj: ApiObject): ResourceList {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const status = isObj(obj.status) ? obj.status : {};
  const storageClass: string = typeof spec.storageClassName === 'string' ? spec.storageClassName : (obj.metadata?.annotations?.[BETA_STORAGE_CLASS_ANNOTATION] ?? '');
  const out: ResourceList = new Map([['count/persistentvolumeclaims', Quantity.fromInt(1)], ['persistentvolumeclaims', Quantity.fromInt(1)]]);
  if (storageClass) out.set(`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, Quantity.fromInt(1));
  // The larger of what is requested and what a resize already allocated.
  const requested = quantityOf(spec.resources?.requests?.storage);
  const allocated = quantityOf(status.allocatedResources?.storage);
  const storage = requested && allocated ? (allocated.cmp(requested) > 0 ? allocated : requested) : requested ?? allocated;
  if (storage) {
    out.set('requests.storage', storage);
    if (storageClass) out.set(`${storageClass}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
  return out;
}

// ---- pods ----

function podEvaluator(): Evaluator {
  return {
    group: '', resource: 'pods',
    matchingResources: (names) => [...names].filter((n) => POD_RESOURCES.has(n) || n.startsWith('hugepages-') || n.startsWith('requests.hugepages-') || isExtendedQuotaName(n)),
    handles: (op) => op === 'CREATE',
    usage: podUsage,
    matchesScopes: (scopes, obj) => scopes.every((s) => podMatchesScope(s, obj)),
    constraintProblem: podConstraintProblem,
  };
}

/** `requests.<extended resource>`: the only quota form of an extended resource. */
function isExtendedQuotaName(name: string): boolean {
  return name.startsWith('requests.') && isExtendedResourceName(name.slice('requests.'.length));
}

/** A container's resource list; requests default to limits as pod defaulting does. */
function containerResources(c: Obj): { requests: Record<string, unknown>; limits: Record<string, unknown> } {
  const limits = isObj(c.resources?.limits) ? c.resources.limits : {};
  const requests = { ...limits, ...(isObj(c.resources?.requests) ? c.resources.requests : {}) };
  return { requests, limits };
}

function addInto(target: ResourceList, source: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(source)) {
    const q = quantityOf(v);
    if (!q) continue;
    const cur = target.get(k);
    target.set(k, cur ? cur.add(q) : q);
  }
}

function maxInto(target: ResourceList, source: ResourceList): void {
  for (const [k, q] of source) {
    const cur = target.get(k);
    if (!cur || q.cmp(cur) > 0) target.set(k, q);
  }
}

/** PodRequests / PodLimits: the containers' sum, at least each init container (sidecars add up), plus overhead. */
function podTotals(pod: ApiObject, which: 'requests' | 'limits'): ResourceList {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const sum: ResourceList = new Map();
  for (const c of list(spec.containers)) addInto(sum, containerResources(c)[which]);
  const sidecars: ResourceList = new Map();
  const initMax: ResourceList = new Map();
  for (const c of list(spec.initContainers)) {
    const own: ResourceList = new Map();
    addInto(own, containerResources(c)[which]);
    if (c.restartPolicy === 'Always') {
      for (const [k, q] of own) sum.set(k, sum.has(k) ? sum.get(k)!.add(q) : q);
      for (const [k, q] of own) sidecars.set(k, sidecars.has(k) ? sidecars.get(k)!.add(q) : q);
      maxInto(initMax, sidecars);
    } else {
      const withSidecars = new Map(own);
      for (const [k, q] of sidecars) withSidecars.set(k, withSidecars.has(k) ? withSidecars.get(k)!.add(q) : q);
      maxInto(initMax, withSidecars);
    }
  }
  maxInto(sum, initMax);
  if (isObj(spec.overhead)) addInto(sum, spec.overhead);
  return sum;
}

/** QuotaV1Pod: terminal pods, and pods past their deletion grace period, no longer count. */
function podCounts(pod: ApiObject, now: number): boolean {
  const phase = (pod.status as Obj | undefined)?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return false;
  const meta = pod.metadata;
  if (meta?.deletionTimestamp && typeof meta.deletionGracePeriodSeconds === 'number') {
    if (now > Date.parse(meta.deletionTimestamp) + meta.deletionGracePeriodSeconds * 1000) return false;
  }
  return true;
}

function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', Quantity.fromInt(1)]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const r = requests.get(name);
    if (r) { out.set(name, r); out.set(`requests.${name}`, r); }
    const l = limits.get(name);
    if (l) out.set(`limits.${name}`, l);
  }
  for (const [name, q] of requests) {
    if (name.startsWith('hugepages-')) { out.set(name, q); out.set(`requests.${name}`, q); }
    if (isExtendedResourceName(name)) out.set(`requests.${name}`, q);
  }
  return out;
}

function podUsage(pod: ApiObject, now = Date.now()): ResourceList {
  const out: ResourceList = new Map([['count/pods', Quantity.fromInt(1)]]);
  if (!podCounts(pod, now)) return out;
  for (const [k, q] of computeUsage(podTotals(pod, 'requests'), podTotals(pod, 'limits'))) out.set(k, q);
  return out;
}

function podConstraintProblem(required: string[], pod: ApiObject): string | undefined {
  const needed = required.filter((r) => CONSTRAINED.has(r));
  if (!needed.length) return undefined;
  const spec = isObj(pod.spec) ? pod.spec : {};
  const missing = new Map<string, Set<string>>();
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    const { requests, limits } = containerResources(c);
    const have = computeUsage(new Map(Object.entries(requests).flatMap(([k, v]) => (quantityOf(v) ? [[k, quantityOf(v)!]] : []))), new Map(Object.entries(limits).flatMap(([k, v]) => (quantityOf(v) ? [[k, quantityOf(v)!]] : []))));
    for (const r of needed) {
      if (have.has(r)) continue;
      if (!missing.has(r)) missing.set(r, new Set());
      missing.get(r)!.add(String(c.name ?? ''));
    }
  }
  if (!missing.size) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

function isBestEffort(pod: ApiObject): boolean {
  const spec = isObj(pod.spec) ? pod.spec : {};
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    for (const l of [c.resources?.requests, c.resources?.limits]) {
      if (!isObj(l)) continue;
      for (const name of ['cpu', 'memory']) {
        const q = quantityOf(l[name]);
        if (q && !q.isZero()) return false;
      }
    }
  }
  return true;
}

function crossNamespaceAffinity(pod: ApiObject): boolean {
  const affinity = (pod.spec as Obj | undefined)?.affinity;
  if (!isObj(affinity)) return false;
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const a = affinity[kind];
    if (!isObj(a)) continue;
    const terms = [...list(a.requiredDuringSchedulingIgnoredDuringExecution), ...list(a.preferredDuringSchedulingIgnoredDuringExecution).map((w) => (isObj(w.podAffinityTerm) ? w.podAffinityTerm : {}))];
    if (terms.some((t) => (Array.isArray(t.namespaces) && t.namespaces.length > 0) || isObj(t.namespaceSelector))) return true;
  }
  return false;
}

function podMatchesScope(s: QuotaScopeSelector, pod: ApiObject): boolean {
  const spec = isObj(pod.spec) ? pod.spec : {};
  switch (s.scopeName) {
    case 'Terminating': return typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating': return typeof spec.activeDeadlineSeconds !== 'number';
    case 'BestEffort': return isBestEffort(pod);
    case 'NotBestEffort': return !isBestEffort(pod);
    case 'CrossNamespacePodAffinity': return crossNamespaceAffinity(pod);
    case 'PriorityClass': {
      const name = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
      const values = s.values ?? [];
      switch (s.operator) {
        case 'Exists': return name !== '';
        case 'DoesNotExist': return false;
        case 'In': return values.includes(name);
        case 'NotIn': return !values.includes(name);
        default: return false;
      }
    }
    default: return false;
  }
}

// ---- quotas ----

/** The scopes of a quota as selectors: each of spec.scopes is an Exists, then spec.scopeSelector. */
export function quotaScopes(quota: ApiObject): QuotaScopeSelector[] {
  const spec = isObj(quota.spec) ? quota.spec : {};
  const out: QuotaScopeSelector[] = [];
  for (const s of Array.isArray(spec.scopes) ? spec.scopes : []) out.push({ scopeName: String(s), operator: 'Exists' });
  for (const e of list(spec.scopeSelector?.matchExpressions)) out.push({ scopeName: String(e.scopeName), operator: String(e.operator), values: Array.isArray(e.values) ? e.values : [] });
  return out;
}

export function resourceList(v: unknown): ResourceList {
  const out: ResourceList = new Map();
  if (!isObj(v)) return out;
  for (const [k, q] of Object.entries(v)) {
    const parsed = quantityOf(q);
    if (parsed) out.set(k, parsed);
  }
  return out;
}

export function toJson(l: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...l.keys()].sort()) out[k] = l.get(k)!.toString();
  return out;
}

export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, q] of b) out.set(k, out.has(k) ? out.get(k)!.add(q) : q);
  return out;
}

export function mask(l: ResourceList, names: Iterable<string>): ResourceList {
  const keep = new Set(names);
  return new Map([...l].filter(([k]) => keep.has(k)));
}

/** `a=1,b=2`, sorted, as Kubernetes prints resource lists in quota messages. */
export function prettyPrint(l: ResourceList): string {
  return [...l.keys()].sort().map((k) => `${k}=${l.get(k)!.toString()}`).join(',');
}
