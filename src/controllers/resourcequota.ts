// The ResourceQuota controller (Kubernetes' resourcequota): keeps each quota's status.hard equal to
// spec.hard and status.used equal to what the namespace's objects use of those resources (the quota
// evaluators count them). It counts a namespace when a quota is created or its limits change, recounts it
// when an object goes or uses less (creates are charged by the admission plugin), and recounts every quota
// every resyncMs (Kubernetes' --resource-quota-sync-period, 5 minutes).
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { deepEqual } from '../machinery/schema/walk.ts';
import { Quantity } from '../machinery/quantity.ts';
import { controllerContext } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { Requeue, WorkQueue } from './work-queue.ts';
import { addLists, evaluatorFor, mask, quotaScopes, resourceList, toJson, type Evaluator, type ResourceList } from './quota-evaluators.ts';
import { isConflict } from '../machinery/status.ts';

export interface ResourceQuotaControllerDeps {
  quotas: ResourceStore;
  /** Every store: any namespaced kind can be counted (`count/<resource>.<group>`). */
  stores: ResourceStore[];
  log(line: string): void;
  resyncMs?: number;
}

/** The usage of `quota`'s hard resources in its namespace, keeping previous values of resources nobody counts. */
export function quotaUsage(quota: ApiObject, counted: { store: ResourceStore; evaluator: Evaluator }[]): ResourceList {
  const namespace = quota.metadata.namespace ?? '';
  const hard = resourceList((quota.spec as { hard?: unknown } | undefined)?.hard);
  const names = [...hard.keys()];
  const scopes = quotaScopes(quota);
  let observed: ResourceList = new Map();
  for (const { store, evaluator } of counted) {
    const resources = evaluator.matchingResources(names);
    if (!resources.length) continue;
    for (const r of resources) if (!observed.has(r)) observed.set(r, Quantity.fromInt(0));
    for (const item of store.cache.list(store.listPrefix(namespace))) {
      const obj = item.object as ApiObject;
      if (!evaluator.matchesScopes(scopes, obj)) continue;
      observed = addLists(observed, mask(evaluator.usage(obj), resources));
    }
  }
  const used = resourceList((quota.status as { used?: unknown } | undefined)?.used);
  for (const [k, q] of observed) used.set(k, q);
  return mask(used, names);
}

function sameUsage(a: ResourceList, b: ResourceList): boolean {
  return a.size === b.size && [...a].every(([k, q]) => b.get(k)?.cmp(q) === 0);
}

export function startResourceQuotaController(deps: ResourceQuotaControllerDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('resourcequota-controller');
  const counted = deps.stores
    .filter((s) => s.def.namespaced && !s.def.createOnly)
    .map((store) => ({ store, evaluator: evaluatorFor(store.def) }));
  const evaluatorOf = new Map(counted.map((c) => [c.store, c.evaluator]));
  const hasQuotas = (namespace: string) => deps.quotas.cache.countFrom(deps.quotas.listPrefix(namespace)) > 0;

  const queue = new WorkQueue(async (namespace) => {
    for (const item of deps.quotas.cache.list(deps.quotas.listPrefix(namespace))) {
      const quota = item.object as ApiObject;
      const hard = toJson(resourceList((quota.spec as { hard?: unknown } | undefined)?.hard));
      const used = toJson(quotaUsage(quota, counted));
      const current = quota.status as { hard?: unknown; used?: unknown } | undefined;
      if (current?.hard && current?.used && deepEqual(toJson(resourceList(current.hard)), hard) && deepEqual(toJson(resourceList(current.used)), used)) continue;
      try {
        // Written on the version counted from: a charge by admission meanwhile means counting again.
        await updateObject(deps.quotas, ctx, namespace, item.name, (obj) => {
          obj.metadata.resourceVersion = quota.metadata.resourceVersion;
          obj.status = { hard, used };
        }, { uid: quota.metadata.uid, subresource: 'status' });
      } catch (err) {
        if (isConflict(err)) throw new Requeue('quota changed while counting');
        throw err;
      }
    }
  }, { name: 'resourcequota controller', log: deps.log, retryMs: 20, maxRetryMs: 1000 });

  const informer = startInformer({
    stores: [deps.quotas, ...counted.map((c) => c.store).filter((s) => s !== deps.quotas)],
    onEvent(store, e) {
      const namespace = e.current.namespace;
      if (store === deps.quotas) {
        // A new quota, or new limits; status writes (admission's charges, ours) need no recount.
        const hard = (c: typeof e.current | undefined) => (c?.object.spec as { hard?: unknown } | undefined)?.hard;
        if (!e.deleted && (!e.previous || !deepEqual(hard(e.previous), hard(e.current)))) queue.add(namespace);
        return;
      }
      if (!namespace || !e.previous || !hasQuotas(namespace)) return;
      // Creates were charged by admission; a delete, or an update that changes usage (a pod ending, a claim
      // growing), is recounted, as Kubernetes' replenishment does.
      const evaluator = evaluatorOf.get(store)!;
      if (e.deleted || !sameUsage(evaluator.usage(e.previous.object as ApiObject), evaluator.usage(e.current.object as ApiObject))) queue.add(namespace);
    },
    resync() {
      for (const q of deps.quotas.cache.list()) queue.add(q.namespace);
    },
    resyncMs: deps.resyncMs ?? 5 * 60_000,
    log: deps.log,
    name: 'resourcequota controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
