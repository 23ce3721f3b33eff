// Role (rbac.authorization.svc.io/v1, namespaced): policy rules for one namespace, referenced by role
// bindings there. Its rules name resources only: non-resource URLs belong to cluster roles.
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, createdAtColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, PolicyRule, rulesErrors, rbacNameErrors } from './policy.ts';

export const RoleSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  rules: S.list(PolicyRule, { proto: 2, listType: 'atomic', description: 'Rules holds all the PolicyRules for this Role' }),
}, { ref: 'rbac.v1.Role', description: 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.' });

export const roleKind: KindDefinition = {
  group: GROUP,
  kind: 'Role',
  plural: 'roles',
  singular: 'role',
  namespaced: true,
  versions: [{ name: 'v1', stability: 'stable', schema: RoleSchema }],
  storageVersion: 'v1',
  allowCreateOnUpdate: true,
  nameValidation: rbacNameErrors,
  trackGeneration: false,

  validate: (obj) => rulesErrors(obj, true),
  validateUpdate: (obj) => rulesErrors(obj, true),

  tableColumns: [nameColumn, createdAtColumn],
};
