// The ResourceQuota controller (Kubernetes' resourcequota): keeps each quota's status.hard equal to
// spec.hard and status.used equal to what the namespace's objects use of those resources (the quota
// evaluators count them). It recounts a namespace when one of its objects or quotas changes, and every
// resyncMs (Kubernetes' --resource-quota-sync-period, 5 minutes).
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { deepEqual } from '../machinery/schema/walk.ts';
import { Quantity } from '../machinery/quantity.ts';
import { controllerContext, isConflict, updateObject } from './client.ts';
import { startInformer } from './informer.ts';
import { Requeue, WorkQueue } from './work-queue.ts';
import { addLists, evaluatorFor, mask, quotaScopes, resourceList, toJson, type Evaluator, type ResourceList } from './quota-evaluators.ts';

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

export function startResourceQuotaController(deps: ResourceQuotaControllerDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('resourcequota-controller');
  const counted = deps.stores
    .filter((s) => s.def.namespaced && !s.def.createOnly)
    .map((store) => ({ store, evaluator: evaluatorFor(store.def) }));
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
      if (store === deps.quotas) { if (!e.deleted) queue.add(namespace); return; }
      if (namespace && hasQuotas(namespace)) queue.add(namespace);
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
