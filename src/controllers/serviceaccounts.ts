// The service accounts controller (Kubernetes' serviceaccount-controller): every active namespace has a
// `default` ServiceAccount, created when missing and again when deleted.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { controllerContext } from './client.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import { isConflict } from '../machinery/status.ts';

export const DEFAULT_SERVICE_ACCOUNT = 'default';

export interface ServiceAccountsControllerDeps {
  namespaces: ResourceStore;
  serviceAccounts: ResourceStore;
  log(line: string): void;
  /** The accounts every namespace gets (default: `default`). */
  accounts?: string[];
  resyncMs?: number;
}

export function startServiceAccountsController(deps: ServiceAccountsControllerDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('service-account-controller');
  const accounts = deps.accounts ?? [DEFAULT_SERVICE_ACCOUNT];

  const queue = new WorkQueue(async (namespace) => {
    const ns = deps.namespaces.current('', namespace)?.object as ApiObject | undefined;
    // Only an Active namespace gets its accounts; a terminating one is being emptied.
    if (!ns || ns.metadata.deletionTimestamp || (ns.status as { phase?: string } | undefined)?.phase !== 'Active') return;
    for (const name of accounts) {
      if (deps.serviceAccounts.current(namespace, name)) continue;
      try {
        await deps.serviceAccounts.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } } as ApiObject, { ctx, dryRun: false });
      } catch (err) {
        // Created meanwhile (the cache had not seen it yet): nothing to do.
        if (!isConflict(err)) throw err;
      }
    }
  }, { name: 'serviceaccount controller', log: deps.log });

  const informer = startInformer({
    stores: [deps.namespaces, deps.serviceAccounts],
    onEvent(store, e) {
      if (store === deps.namespaces) { if (!e.deleted) queue.add(e.current.name); return; }
      if (e.deleted && accounts.includes(e.current.name)) queue.add(e.current.namespace);
    },
    resync() { for (const ns of deps.namespaces.cache.list()) queue.add(ns.name); },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'serviceaccount controller',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
