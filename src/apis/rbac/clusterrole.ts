// ClusterRole (rbac.authorization.svc.io/v1, cluster-scoped): policy rules referenced as a unit by role
// bindings and cluster role bindings; an aggregation rule lets a controller fill `rules` from other roles.
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, createdAtColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, PolicyRule, AggregationRule, rulesErrors, aggregationRuleErrors, hasInvalidSelectorValue, rbacNameErrors } from './policy.ts';

export const ClusterRoleSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  rules: S.list(PolicyRule, { proto: 2, listType: 'atomic', description: 'Rules holds all the PolicyRules for this ClusterRole' }),
  aggregationRule: { ...AggregationRule, description: 'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.' },
}, { ref: 'rbac.v1.ClusterRole', description: 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.' });

export const clusterRoleKind: KindDefinition = {
  group: GROUP,
  kind: 'ClusterRole',
  plural: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: ClusterRoleSchema }],
  storageVersion: 'v1',
  allowCreateOnUpdate: true,
  nameValidation: rbacNameErrors,
  trackGeneration: false,

  validate: (obj) => [...rulesErrors(obj, false), ...aggregationRuleErrors(obj, false)],
  validateUpdate: (obj, old) => [...rulesErrors(obj, false), ...aggregationRuleErrors(obj, hasInvalidSelectorValue(old))],

  tableColumns: [nameColumn, createdAtColumn],
};
