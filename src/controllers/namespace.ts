// The namespace controller: when a namespace is terminating, delete everything in it, then release the
// namespace's `kubernetes` finalizer so the namespace itself goes away.
import type { Storage } from '../storage/interface.ts';
import type { ResourceStore } from '../registry/store.ts';
import { controllerContext } from './client.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { isNotFound, StatusError } from '../machinery/status.ts';
import { nowRfc3339 } from '../registry/names.ts';
import { deletionConditions, mergeConditions, type DeletionTotals, type NamespaceCondition } from './namespace-conditions.ts';

export interface NamespaceControllerDeps {
  namespaces: ResourceStore;
  stores: ResourceStore[];
  storage: Storage;
  log(line: string): void;
}

const RESYNC_MS = 1000;

export function startNamespaceController(deps: NamespaceControllerDeps): { stop(): void } {
  const ctx = controllerContext('namespace-controller');
  const pending = new Set<string>();
  let running = false;
  let stopped = false;

  const reconcile = async (name: string) => {
    const ns = deps.namespaces.current('', name);
    if (!ns || !ns.object.metadata?.deletionTimestamp) return;
    const totals: DeletionTotals = { remainingByResource: new Map(), remainingByFinalizer: new Map(), deleteErrors: [] };
    const stillThere = (store: ResourceStore, obj: { metadata?: { finalizers?: string[] } }) => {
      const gr = `${store.def.plural}.${store.def.group}`;
      totals.remainingByResource.set(gr, (totals.remainingByResource.get(gr) ?? 0) + 1);
      for (const f of obj.metadata?.finalizers ?? []) totals.remainingByFinalizer.set(f, (totals.remainingByFinalizer.get(f) ?? 0) + 1);
    };
    for (const store of deps.stores) {
      if (!store.def.namespaced) continue;
      for (const item of store.cache.list(store.listPrefix(name))) {
        if (item.object.metadata?.deletionTimestamp) { stillThere(store, item.object); continue; }
        try {
          const result = await store.delete(name, item.name, { ctx, dryRun: false, propagationPolicy: 'Background' });
          if (!result.removed) stillThere(store, result.object);
        } catch (err) {
          if (isNotFound(err)) continue;
          totals.deleteErrors.push((err as Error).message);
          stillThere(store, item.object);
        }
      }
    }
    await reportConditions(name, totals);
    const remaining = [...totals.remainingByResource.values()].reduce((a, b) => a + b, 0);
    // Content still going away (finalizers may hold it): the periodic resync looks again.
    if (remaining > 0) return;
    await deps.namespaces.update('', (current) => {
      if (!current) throw new StatusError(404, 'NotFound', 'gone');
      const next = current as ApiObject & { spec?: { finalizers?: string[] } };
      next.spec = { ...(next.spec ?? {}), finalizers: (next.spec?.finalizers ?? []).filter((f) => f !== 'kubernetes') };
      return next;
    }, { ctx: { ...ctx, subresource: 'finalize' }, dryRun: false, subresource: 'finalize', allowCreate: false, name });
  };

  // Kubernetes' deleter records each pass in the namespace's status conditions before it finalizes.
  const reportConditions = async (name: string, totals: DeletionTotals) => {
    const wanted = deletionConditions(totals, nowRfc3339());
    const current = deps.namespaces.current('', name);
    if (!current || !mergeConditions((current.object.status as { conditions?: NamespaceCondition[] } | undefined)?.conditions, wanted)) return;
    await deps.namespaces.update('', (obj) => {
      if (!obj) throw new StatusError(404, 'NotFound', 'gone');
      const st = (obj.status ?? {}) as { conditions?: NamespaceCondition[] };
      const merged = mergeConditions(st.conditions, wanted);
      if (merged) obj.status = { ...st, conditions: merged };
      return obj;
    }, { ctx: { ...ctx, subresource: 'status' }, dryRun: false, subresource: 'status', allowCreate: false, name });
  };

  const drain = async () => {
    if (running || stopped) return;
    running = true;
    try {
      while (pending.size && !stopped) {
        const [name] = pending;
        pending.delete(name);
        try { await reconcile(name); } catch (err) {
          if (!isNotFound(err)) { deps.log(`namespace controller: ${name}: ${(err as Error).message}`); pending.add(name); break; }
        }
      }
    } finally { running = false; }
  };

  const unwatch = deps.namespaces.cache.watch(deps.namespaces.cache.revision, {
    onEvent(e) { if (!e.deleted && e.current.object.metadata?.deletionTimestamp) { pending.add(e.current.name); void drain(); } },
    onClose() {},
  });
  for (const ns of deps.namespaces.cache.list()) if (ns.object.metadata?.deletionTimestamp) pending.add(ns.name);
  const timer = setInterval(() => {
    for (const ns of deps.namespaces.cache.list()) if (ns.object.metadata?.deletionTimestamp) pending.add(ns.name);
    void drain();
  }, RESYNC_MS);
  void drain();
  return { stop() { stopped = true; clearInterval(timer); unwatch(); } };
}
