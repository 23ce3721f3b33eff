// RoleBinding (rbac.authorization.svc.io/v1, namespaced): grants the rules of a Role in its namespace, or
// of a ClusterRole within its namespace, to users, groups and service accounts. roleRef never changes.
import type { KindDefinition, TableColumn } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, Subject, RoleRef, SUBJECTS_DESCRIPTION, bindingErrors, roleRefUpdateErrors, defaultBinding, bindingGroupReferencesIn, rbacNameErrors, roleRefOf, subjectsStrings } from './policy.ts';

const ROLE_REF_DESCRIPTION = 'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';

export const RoleBindingSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  subjects: S.list(Subject, { proto: 2, listType: 'atomic', description: SUBJECTS_DESCRIPTION }),
  roleRef: { ...RoleRef, description: ROLE_REF_DESCRIPTION },
}, { ref: 'rbac.v1.RoleBinding', description: 'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.' });

/** Name, Role, Age and the wide subject columns kubectl shows for both binding kinds. */
export function bindingColumns(roleRefDescription: string, noun: string): TableColumn[] {
  return [
    nameColumn,
    { name: 'Role', type: 'string', description: roleRefDescription, cell: (o) => `${roleRefOf(o).kind ?? ''}/${roleRefOf(o).name ?? ''}` },
    ageColumn,
    { name: 'Users', type: 'string', priority: 1, description: `Users in the ${noun}`, cell: (o) => subjectsStrings(o).users },
    { name: 'Groups', type: 'string', priority: 1, description: `Groups in the ${noun}`, cell: (o) => subjectsStrings(o).groups },
    { name: 'ServiceAccounts', type: 'string', priority: 1, description: `ServiceAccounts in the ${noun}`, cell: (o) => subjectsStrings(o).serviceAccounts },
  ];
}

export const roleBindingKind: KindDefinition = {
  group: GROUP,
  kind: 'RoleBinding',
  plural: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  versions: [{ name: 'v1', stability: 'stable', schema: RoleBindingSchema }],
  storageVersion: 'v1',
  allowCreateOnUpdate: true,
  nameValidation: rbacNameErrors,
  trackGeneration: false,

  defaults: defaultBinding,
  groupReferencesIn: bindingGroupReferencesIn,
  validate: (obj) => bindingErrors(obj, true, ['Role', 'ClusterRole']),
  validateUpdate: (obj, old) => [...bindingErrors(obj, true, ['Role', 'ClusterRole']), ...roleRefUpdateErrors(obj, old)],

  tableColumns: bindingColumns(ROLE_REF_DESCRIPTION, 'roleBinding'),
};
