// ClusterRoleBinding (rbac.authorization.svc.io/v1, cluster-scoped): grants a ClusterRole everywhere to
// users, groups and service accounts (which must name their namespace). roleRef never changes.
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, Subject, RoleRef, SUBJECTS_DESCRIPTION, bindingErrors, roleRefUpdateErrors, defaultBinding, bindingGroupReferencesIn, rbacNameErrors } from './policy.ts';
import { bindingColumns } from './rolebinding.ts';

const ROLE_REF_DESCRIPTION = 'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';

export const ClusterRoleBindingSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  subjects: S.list(Subject, { proto: 2, listType: 'atomic', description: SUBJECTS_DESCRIPTION }),
  roleRef: { ...RoleRef, description: ROLE_REF_DESCRIPTION },
}, { ref: 'rbac.v1.ClusterRoleBinding', description: 'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.' });

export const clusterRoleBindingKind: KindDefinition = {
  group: GROUP,
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: ClusterRoleBindingSchema }],
  storageVersion: 'v1',
  allowCreateOnUpdate: true,
  nameValidation: rbacNameErrors,
  trackGeneration: false,

  defaults: defaultBinding,
  groupReferencesIn: bindingGroupReferencesIn,
  validate: (obj) => bindingErrors(obj, false, ['ClusterRole']),
  validateUpdate: (obj, old) => [...bindingErrors(obj, false, ['ClusterRole']), ...roleRefUpdateErrors(obj, old)],

  tableColumns: bindingColumns(ROLE_REF_DESCRIPTION, 'clusterRoleBinding'),
};
