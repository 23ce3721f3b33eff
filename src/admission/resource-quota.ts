// ResourceQuota admission: a write that would take a namespace's usage past a quota's hard limit is refused
// (403 `exceeded quota: <name>, requested: ..., used: ..., limited: ...`); one that fits is charged to the
// quotas at once (their status.used, written compare-and-swap), so that concurrent writes cannot both
// squeeze under a limit. The quota controller recounts later. Only quotas whose status the controller has
// filled (status.hard) are enforced, as in Kubernetes.
import type { AdmissionAttributes, AdmissionPlugin } from './chain.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { apiServerContext } from '../apis/kind.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import * as status from '../machinery/status.ts';
import { decodeKv } from '../storage/cache.ts';
import { addLists, evaluatorFor, mask, prettyPrint, quotaScopes, resourceList, toJson, type ResourceList } from '../controllers/quota-evaluators.ts';

const MAX_TRIES = 3;

/** 403 as admission.NewForbidden words it: the name, or the generateName while there is none yet. */
function forbidden(attrs: AdmissionAttributes, message: string): status.StatusError {
  const name = attrs.name || attrs.object?.metadata?.name || attrs.object?.metadata?.generateName || 'Unknown';
  return status.forbidden(attrs.served.store.gr, name, message);
}

const quotaStatus = (quota: ApiObject) => (quota.status ?? {}) as { hard?: unknown; used?: unknown };

/** The quantities that exceed their limit, or none. */
function exceeded(usage: ResourceList, hard: ResourceList): string[] {
  return [...usage].filter(([k, q]) => hard.has(k) && q.cmp(hard.get(k)!) > 0).map(([k]) => k);
}

interface Charge { quota: ApiObject; used: ResourceList }

/** The namespace's quotas as stored now. */
async function storedQuotas(storage: Storage, store: ResourceStore, namespace: string): Promise<ApiObject[]> {
  const page = await storage.range(store.listPrefix(namespace));
  return page.kvs.map((kv) => decodeKv(kv).object as ApiObject);
}

export function resourceQuotaPlugin(quotas: () => ResourceStore | undefined, storage: Storage): AdmissionPlugin {
  /** One attempt over the namespace's quotas: those to write with their new usage, or a refusal. */
  const check = (attrs: AdmissionAttributes, list: ApiObject[]): Charge[] => {
    const { served, operation, object } = attrs;
    const evaluator = evaluatorFor(served.def);
    const interesting: ApiObject[] = [];
    for (const quota of list) {
      const hard = resourceList(quotaStatus(quota).hard);
      const restricted = evaluator.matchingResources(hard.keys());
      if (!restricted.length || !evaluator.matchesScopes(quotaScopes(quota), object!)) continue;
      const problem = evaluator.constraintProblem(restricted, object!);
      if (problem) throw forbidden(attrs, `failed quota: ${quota.metadata.name}: ${problem}`);
      const used = resourceList(quotaStatus(quota).used);
      if (restricted.some((r) => !used.has(r))) {
        throw forbidden(attrs, `status unknown for quota: ${quota.metadata.name}, resources: ${[...restricted].sort().join(',')}`);
      }
      interesting.push(quota);
    }
    if (!interesting.length) return [];
    let delta = evaluator.usage(object!);
    if (operation === 'UPDATE' && attrs.oldObject?.metadata?.resourceVersion) {
      // An update is charged what it adds.
      const before = evaluator.usage(attrs.oldObject);
      delta = new Map([...delta].map(([k, q]) => [k, before.has(k) ? q.sub(before.get(k)!) : q]));
    }
    // What does not grow costs nothing (a shrink is not credited here; the controller recounts).
    delta = new Map([...delta].filter(([, q]) => !q.isZero() && !q.isNegative()));
    if (!delta.size) return [];
    const out: Charge[] = [];
    for (const quota of interesting) {
      const hard = resourceList(quotaStatus(quota).hard);
      const used = resourceList(quotaStatus(quota).used);
      const requested = mask(delta, hard.keys());
      const next = addLists(used, requested);
      const over = exceeded(mask(next, requested.keys()), hard);
      if (over.length) {
        throw forbidden(attrs, `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`);
      }
      if (requested.size) out.push({ quota, used: next });
    }
    return out;
  };

  /** Checks and charges the namespace's quotas. The cache first (a quota not in it yet is not filled, so not
   *  enforced, either); storage once the cache proved stale: a refusal or a lost compare-and-swap is decided
   *  again on what is stored. */
  const enforce = async (attrs: AdmissionAttributes, store: ResourceStore): Promise<void> => {
    let fresh = false;
    for (let attempt = 1; ; attempt++) {
      const list = fresh ? await storedQuotas(storage, store, attrs.namespace) : store.cache.list(store.listPrefix(attrs.namespace)).map((c) => c.object as ApiObject);
      if (!list.length) return;
      let charges: Charge[];
      try {
        charges = check(attrs, list);
      } catch (err) {
        if (!fresh && err instanceof status.StatusError && err.code === 403) { fresh = true; continue; }
        throw err;
      }
      if (attrs.ctx.dryRun || !charges.length) return;
      try {
        for (const { quota, used } of charges) {
          // Compare-and-swap on the version read: a concurrent charge makes us look again.
          await store.update(attrs.namespace, () => {
            const next = structuredClone(quota);
            next.status = { ...(next.status ?? {}), used: toJson(used) };
            return next;
          }, { ctx: apiServerContext('status'), dryRun: false, subresource: 'status', allowCreate: false, name: quota.metadata.name! });
        }
        return;
      } catch (err) {
        if (!status.isConflict(err) || attempt >= MAX_TRIES) throw err;
        fresh = true;
      }
    }
  };

  return {
    name: 'ResourceQuota',
    // A write no quota can concern answers at once (no promise), as does one in a namespace the cache holds no quota of.
    validate(attrs) {
      const { served, operation, object } = attrs;
      if ((operation !== 'CREATE' && operation !== 'UPDATE') || !object || !attrs.namespace || attrs.ctx.subresource) return;
      if (served.def.group === '' && served.def.plural === 'namespaces') return;
      if (!evaluatorFor(served.def).handles(operation)) return;
      const store = quotas();
      if (!store || !store.cache.countFrom(store.listPrefix(attrs.namespace))) return;
      return enforce(attrs, store);
    },
  };
}
