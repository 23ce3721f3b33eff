// Creates and reconciles the default RBAC roles and bindings through the registry, then aggregates the
// default aggregated cluster roles once so that admin, edit and view are usable from the first request.
import type { ApiObject } from '../apis/meta/v1.ts';
import { apiServerContext, type RequestContext } from '../apis/kind.ts';
import { isNotFound, StatusError } from '../machinery/status.ts';
import type { ResourceStore } from '../registry/store.ts';
import { retryWhenRaced } from '../registry/retry-when-raced.ts';
import { deepClone, deepEqual } from '../machinery/schema/walk.ts';
import { clusterRoleBindings, clusterRoles, namespaceRoleBindings, namespaceRoles } from './authz/rbac/bootstrap-policy.ts';
import { reconcileBinding, reconcileRole, type Reconciled } from './authz/rbac/reconcile.ts';
import { aggregatedRules } from './authz/rbac/aggregation.ts';
import { RBAC_GROUP, type ClusterRole, type Role, type RoleBinding } from './authz/rbac/types.ts';
import type { StoreLookup } from './stores.ts';

function apply<T extends { metadata: { name?: string; namespace?: string } }>(store: ResourceStore, kind: string, expected: T, reconcile: (existing: T | undefined, expected: T) => Reconciled<T>): Promise<void> {
  const ns = expected.metadata.namespace ?? '';
  const name = expected.metadata.name!;
  return retryWhenRaced(store, async () => {
    const existing = store.current(ns, name)?.object as T | undefined;
    const r = reconcile(existing ? deepClone(existing) : undefined, expected);
    if (r.action === 'none') return;
    const obj = { apiVersion: `${RBAC_GROUP}/v1`, kind, ...deepClone(r.object) } as unknown as ApiObject;
    if (r.action === 'create') {
      await store.create(ns, obj, { ctx: apiServerContext(), dryRun: false });
    } else if (r.action === 'update') {
      await store.update(ns, () => obj, { ctx: apiServerContext(), dryRun: false, subresource: '', allowCreate: false, name });
    } else {
      await store.delete(ns, name, { ctx: apiServerContext(), dryRun: false });
      delete obj.metadata.resourceVersion;
      delete obj.metadata.uid;
      await store.create(ns, obj, { ctx: apiServerContext(), dryRun: false });
    }
  });
}

/** Creates missing default roles and bindings and adds what existing ones lack (autoupdate=false excepted). */
export async function ensureDefaultPolicy(lookup: StoreLookup): Promise<void> {
  const roles = lookup(RBAC_GROUP, 'roles');
  const cRoles = lookup(RBAC_GROUP, 'clusterroles');
  const bindings = lookup(RBAC_GROUP, 'rolebindings');
  const cBindings = lookup(RBAC_GROUP, 'clusterrolebindings');
  if (!roles || !cRoles || !bindings || !cBindings) return;
  await Promise.all([
    ...clusterRoles().map((r) => apply<ClusterRole>(cRoles, 'ClusterRole', r, reconcileRole)),
    ...namespaceRoles().map((r) => apply<Role>(roles, 'Role', r, reconcileRole)),
  ]);
  await Promise.all([
    ...clusterRoleBindings().map((b) => apply<RoleBinding>(cBindings, 'ClusterRoleBinding', b, reconcileBinding)),
    ...namespaceRoleBindings().map((b) => apply<RoleBinding>(bindings, 'RoleBinding', b, reconcileBinding)),
  ]);
  await aggregateAll(cRoles);
}

/** The aggregation controller's work over every aggregated cluster role, to a fixed point. The fixed point
 *  is found in memory first (roles aggregated into other aggregated roles: edit into admin), so that each
 *  role is written once; a look at what was written then confirms it (another writer may have come between). */
export async function aggregateAll(cRoles: ResourceStore): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const stored = cRoles.cache.list().map((c) => c.object as ClusterRole);
    const settled = settleAggregation(stored);
    const writes: Promise<number>[] = [];
    for (let i = 0; i < stored.length; i++) {
      if (settled[i] !== stored[i]) writes.push(writeRules(cRoles, stored[i].metadata.name!, settled[i].rules ?? []));
    }
    const written = Math.max(0, ...(await Promise.all(writes)));
    if (!written) return;
    await cRoles.cache.waitFor(written, 1000);
  }
}

/** The roles with each aggregated role's rules replaced by what it gathers, repeated until nothing changes
 *  (a role unchanged is the same object). */
function settleAggregation(roles: readonly ClusterRole[]): ClusterRole[] {
  const current = [...roles];
  for (let pass = 0; pass < MAX_AGGREGATION_PASSES; pass++) {
    let changed = false;
    for (let i = 0; i < current.length; i++) {
      const role = current[i];
      if (!role.aggregationRule) continue;
      const rules = aggregatedRules(role, current);
      if (deepEqual(rules, role.rules ?? [])) continue;
      current[i] = { ...role, rules };
      changed = true;
    }
    if (!changed) break;
  }
  return current;
}

/** Aggregation chains are short (view into edit into admin); a cycle of selectors stops here. */
const MAX_AGGREGATION_PASSES = 10;

/** Replaces an aggregated role's rules; answers the revision written (0 when the role is gone). */
export async function writeRules(cRoles: ResourceStore, name: string, rules: unknown[]): Promise<number> {
  const aggCtx: RequestContext = { ...apiServerContext(), user: { username: 'system:serviceaccount:kube-system:clusterrole-aggregation-controller', groups: ['system:masters'] } };
  try {
    const r = await cRoles.update('', (current) => {
      if (!current) throw new StatusError(404, 'NotFound', 'gone');
      return { ...current, rules };
    }, { ctx: aggCtx, dryRun: false, subresource: '', allowCreate: false, name });
    return Number(r.object.metadata.resourceVersion ?? 0);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return 0;
  }
}
