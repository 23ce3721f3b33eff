// The API Priority and Fairness configuration a server keeps (Kubernetes' "priority-and-fairness-config-
// producer"): the objects, Kubernetes v1.32's with `k8s.io` groups renamed, and the rule that says what an
// existing one must become. The mandatory priority levels and flow schemas (`exempt`, `catch-all`) get their
// spec back when changed; the suggested ones only while their autoupdate annotation says so.
// controllers/flowcontrol-bootstrap.ts writes them.
import type { ApiObject } from '../meta/v1.ts';
import type { KindDefinition } from '../kind.ts';
import { goParseBool } from '../../machinery/go-format.ts';
import { applyDefaults } from '../../machinery/schema/defaults.ts';
import { deepClone, deepEqual } from '../../machinery/schema/walk.ts';
import { GROUP } from './common.ts';

/** Kubernetes' `apf.kubernetes.io/autoupdate-spec`. */
export const AUTOUPDATE_ANNOTATION = 'apf.platform.io/autoupdate-spec';

const API_VERSION = `${GROUP}/v1`;
const COORDINATION_GROUP = 'coordination.svc.io';
const KUBE_SYSTEM = 'kube-system';
const KUBE_CONTROLLER_MANAGER = 'system:kube-controller-manager';
const KUBE_SCHEDULER = 'system:kube-scheduler';
const NODES = 'system:nodes';
const AUTHENTICATED = 'system:authenticated';
const UNAUTHENTICATED = 'system:unauthenticated';

// ---- the objects --------------------------------------------------------------------------------------

const meta = (name: string) => ({ name, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } });

function priorityLevel(name: string, spec: Record<string, unknown>): ApiObject {
  return { apiVersion: API_VERSION, kind: 'PriorityLevelConfiguration', metadata: meta(name), spec };
}

/** A limited level that queues (queues, handSize, queueLengthLimit), or rejects when `queuing` is absent. */
function limited(shares: number, lendablePercent: number, queuing?: [number, number, number]) {
  const limitResponse = queuing
    ? { type: 'Queue', queuing: { queues: queuing[0], handSize: queuing[1], queueLengthLimit: queuing[2] } }
    : { type: 'Reject' };
  return { type: 'Limited', limited: { nominalConcurrencyShares: shares, limitResponse, lendablePercent } };
}

type Subject = Record<string, unknown>;
const group = (name: string): Subject => ({ kind: 'Group', group: { name } });
const user = (name: string): Subject => ({ kind: 'User', user: { name } });
const kubeSystemSA = (name: string): Subject => ({ kind: 'ServiceAccount', serviceAccount: { namespace: KUBE_SYSTEM, name } });

/** A resource rule; `clusterScope` false is left out, as Kubernetes' omitempty leaves it out. */
function resourceRule(verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean) {
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), namespaces };
}

/** Every request, resource or not. */
const everything = {
  resourceRules: [resourceRule(['*'], ['*'], ['*'], ['*'], true)],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};

function flowSchema(name: string, priorityLevelName: string, matchingPrecedence: number, distinguisher: 'ByUser' | 'ByNamespace' | undefined, rules: Record<string, unknown>[]): ApiObject {
  return {
    apiVersion: API_VERSION, kind: 'FlowSchema', metadata: meta(name),
    spec: {
      priorityLevelConfiguration: { name: priorityLevelName },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

const getCreateUpdate = ['get', 'create', 'update'];

export function mandatoryPriorityLevels(): ApiObject[] {
  return [
    priorityLevel('catch-all', limited(5, 0)),
    priorityLevel('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
  ];
}

export function mandatoryFlowSchemas(): ApiObject[] {
  return [
    flowSchema('exempt', 'exempt', 1, undefined, [{ subjects: [group('system:masters')], ...everything }]),
    flowSchema('catch-all', 'catch-all', 10000, 'ByUser', [{ subjects: [group(UNAUTHENTICATED), group(AUTHENTICATED)], ...everything }]),
  ];
}

export function suggestedPriorityLevels(): ApiObject[] {
  return [
    priorityLevel('system', limited(30, 33, [64, 6, 50])),
    priorityLevel('node-high', limited(40, 25, [64, 6, 50])),
    priorityLevel('leader-election', limited(10, 0, [16, 4, 50])),
    priorityLevel('workload-high', limited(40, 50, [128, 6, 50])),
    priorityLevel('workload-low', limited(100, 90, [128, 6, 50])),
    priorityLevel('global-default', limited(20, 50, [128, 6, 50])),
  ];
}

export function suggestedFlowSchemas(): ApiObject[] {
  return [
    flowSchema('system-nodes', 'system', 500, 'ByUser', [{ subjects: [group(NODES)], ...everything }]),
    flowSchema('system-node-high', 'node-high', 400, 'ByUser', [{
      subjects: [group(NODES)],
      resourceRules: [
        resourceRule(['*'], [''], ['nodes', 'nodes/status'], ['*'], true),
        resourceRule(['*'], [COORDINATION_GROUP], ['leases'], ['*'], false),
      ],
    }]),
    flowSchema('probes', 'exempt', 2, undefined, [{
      subjects: [group(UNAUTHENTICATED), group(AUTHENTICATED)],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
    }]),
    flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', [{
      subjects: [user(KUBE_CONTROLLER_MANAGER), user(KUBE_SCHEDULER), kubeSystemSA('*')],
      resourceRules: [resourceRule(getCreateUpdate, [COORDINATION_GROUP], ['leases'], ['*'], false)],
    }]),
    flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', [{
      subjects: [kubeSystemSA('*')],
      resourceRules: [
        resourceRule(getCreateUpdate, [''], ['endpoints', 'configmaps'], ['*'], false),
        resourceRule(getCreateUpdate, [COORDINATION_GROUP], ['leases'], ['*'], false),
      ],
    }]),
    // Ahead of workload-leader-election, so that the endpoints controllers' writes are not taken for it.
    flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', [{
      subjects: [user(KUBE_CONTROLLER_MANAGER), kubeSystemSA('endpoint-controller'), kubeSystemSA('endpointslicemirroring-controller')],
      resourceRules: [resourceRule(getCreateUpdate, [''], ['endpoints'], ['*'], false)],
    }]),
    flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', [{ subjects: [user(KUBE_CONTROLLER_MANAGER)], ...everything }]),
    flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', [{ subjects: [user(KUBE_SCHEDULER)], ...everything }]),
    flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', [{ subjects: [kubeSystemSA('*')], ...everything }]),
    flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', [{ subjects: [group('system:serviceaccounts')], ...everything }]),
    flowSchema('global-default', 'global-default', 9900, 'ByUser', [{ subjects: [group(UNAUTHENTICATED), group(AUTHENTICATED)], ...everything }]),
  ];
}

// ---- keeping them ----------------------------------------------------------------------------------------

const annotationOf = (obj: ApiObject) => (obj.metadata.annotations as Record<string, string> | undefined)?.[AUTOUPDATE_ANNOTATION];

/** An object the server made and keeps (annotated "true"): one no longer wanted is the server's to delete. */
export function madeByServer(obj: ApiObject): boolean {
  return goParseBool(annotationOf(obj)) === true;
}

/** The value as Go's semantic equality sees it: absent, null, false, '' and empty lists are all "zero". */
function withoutZeros(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutZeros);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = withoutZeros(v);
    if (kept === undefined || kept === null || kept === false || kept === '' || (Array.isArray(kept) && kept.length === 0)) continue;
    out[k] = kept;
  }
  return out;
}

/** The wanted spec as the kind's defaulting leaves it (what a create would store). */
function defaultedSpec(def: KindDefinition, wanted: ApiObject): unknown {
  const obj = deepClone(wanted);
  const schema = def.versions.find((v) => v.name === def.storageVersion)?.schema;
  if (schema) applyDefaults(obj, schema);
  def.defaults?.(obj);
  return obj.spec;
}

/** Kubernetes' SpecEqualish: the defaulted wanted spec against the stored one. The exempt level's shares and
 *  lendable percent are the operator's to tune. */
function specMatches(def: KindDefinition, wanted: ApiObject, current: ApiObject): boolean {
  const expected = defaultedSpec(def, wanted) as Record<string, unknown>;
  const actual = (current.spec ?? {}) as Record<string, unknown>;
  if (def.kind === 'PriorityLevelConfiguration' && wanted.metadata.name === 'exempt') {
    const exempt = actual.exempt as Record<string, unknown> | null | undefined;
    if (!exempt) return false;
    expected.exempt = { ...(expected.exempt as object), nominalConcurrencyShares: exempt.nominalConcurrencyShares, lendablePercent: exempt.lendablePercent };
  }
  return deepEqual(withoutZeros(expected), withoutZeros(actual));
}

/** What the object must become (Kubernetes' ReviseIfNeeded), or undefined when it is as it should be. */
export function revise(def: KindDefinition, current: ApiObject, wanted: ApiObject, mandatory: boolean): ApiObject | undefined {
  const flag = goParseBool(annotationOf(current));
  // Without a readable annotation, an object nobody has edited since it was made (generation 1) is ours.
  const autoUpdate = mandatory || (flag ?? current.metadata.generation === 1);
  const fixAnnotation = flag !== autoUpdate;
  const fixSpec = autoUpdate && !specMatches(def, wanted, current);
  if (!fixAnnotation && !fixSpec) return undefined;
  const next = deepClone(current);
  if (fixSpec) next.spec = deepClone(wanted.spec);
  if (fixAnnotation) next.metadata.annotations = { ...(next.metadata.annotations as Record<string, string> | undefined), [AUTOUPDATE_ANNOTATION]: String(autoUpdate) };
  return next;
}
