// The rbac.authorization.svc.io/v1 shapes the evaluator reads (Kubernetes' exact rbac/v1 shapes).
import type { PolicyRule } from '../types.ts';

export const RBAC_GROUP = 'rbac.authorization.svc.io';

export interface ObjectMetaLite {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  resourceVersion?: string;
  deletionTimestamp?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface Role {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMetaLite;
  rules?: PolicyRule[] | null;
}

export interface ClusterRole extends Role {
  aggregationRule?: { clusterRoleSelectors?: LabelSelectorLite[] | null } | null;
}

export interface LabelSelectorLite {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface RoleBinding {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMetaLite;
  subjects?: Subject[] | null;
  roleRef: RoleRef;
}

export type ClusterRoleBinding = RoleBinding;

/** Where the evaluator reads roles and bindings from: the watch caches in the server, plain objects in tests. */
export interface RbacSource {
  getRole(namespace: string, name: string): Role | undefined;
  getClusterRole(name: string): ClusterRole | undefined;
  listClusterRoleBindings(): readonly ClusterRoleBinding[];
  listRoleBindings(namespace: string): readonly RoleBinding[];
}

/** An RbacSource over arrays, for tests and for checks of objects not yet stored. */
export function staticRbacSource(objs: { roles?: Role[]; clusterRoles?: ClusterRole[]; roleBindings?: RoleBinding[]; clusterRoleBindings?: ClusterRoleBinding[] }): RbacSource {
  return {
    getRole: (ns, name) => objs.roles?.find((r) => r.metadata.namespace === ns && r.metadata.name === name),
    getClusterRole: (name) => objs.clusterRoles?.find((r) => r.metadata.name === name),
    listClusterRoleBindings: () => objs.clusterRoleBindings ?? [],
    listRoleBindings: (ns) => (objs.roleBindings ?? []).filter((b) => b.metadata.namespace === ns),
  };
}
