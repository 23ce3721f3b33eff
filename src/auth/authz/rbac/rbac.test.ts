import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rbacAuthorizer } from './authorizer.ts';
import { covers, escalationProblem, compactString } from './escalation.ts';
import { staticRbacSource, type ClusterRole, type Role, type RoleBinding } from './types.ts';
import type { Attributes } from '../types.ts';

const alice = { username: 'alice', groups: ['devs', 'system:authenticated'] };
const sa = { username: 'system:serviceaccount:team:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] };

function attrs(o: Partial<Attributes>): Attributes {
  return { user: alice, verb: 'get', isResourceRequest: true, path: '', namespace: '', apiGroup: '', apiVersion: 'v1', resource: '', subresource: '', name: '', ...o };
}

const clusterRoles: ClusterRole[] = [
  { metadata: { name: 'pod-reader' }, rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] }] },
  { metadata: { name: 'status-writer' }, rules: [{ verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }] },
  { metadata: { name: 'named' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['app-config'] }] },
  { metadata: { name: 'health' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] }] },
];
const roles: Role[] = [
  { metadata: { name: 'secrets', namespace: 'team' }, rules: [{ verbs: ['*'], apiGroups: [''], resources: ['secrets'] }] },
];
const roleBindings: RoleBinding[] = [
  { metadata: { name: 'rb', namespace: 'team' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'secrets' }, subjects: [{ kind: 'ServiceAccount', name: 'robot' }] },
  { metadata: { name: 'readers', namespace: 'team' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'pod-reader' }, subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.svc.io', name: 'devs' }] },
  { metadata: { name: 'dangling', namespace: 'other' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'missing' }, subjects: [{ kind: 'User', name: 'alice' }] },
];
const clusterRoleBindings: RoleBinding[] = [
  { metadata: { name: 'health' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'health' }, subjects: [{ kind: 'Group', name: 'system:authenticated' }] },
  { metadata: { name: 'alice-named' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'named' }, subjects: [{ kind: 'User', name: 'alice' }] },
  { metadata: { name: 'alice-status' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'status-writer' }, subjects: [{ kind: 'User', name: 'alice' }] },
];
const rbac = rbacAuthorizer(staticRbacSource({ clusterRoles, roles, roleBindings, clusterRoleBindings }));

test('a role binding grants its cluster role in its namespace only', () => {
  const d = rbac.authorize(attrs({ verb: 'list', namespace: 'team', resource: 'pods' })) as any;
  assert.equal(d.decision, 'allow');
  assert.equal(d.reason, 'RBAC: allowed by RoleBinding "readers/team" of ClusterRole "pod-reader" to Group "devs"');
  assert.equal((rbac.authorize(attrs({ verb: 'list', namespace: 'elsewhere', resource: 'pods' })) as any).decision, 'noopinion');
  assert.equal((rbac.authorize(attrs({ verb: 'delete', namespace: 'team', resource: 'pods', name: 'p' })) as any).decision, 'noopinion');
});

test('sub-resources match exactly or through */sub', () => {
  assert.equal((rbac.authorize(attrs({ namespace: 'team', resource: 'pods', subresource: 'log', name: 'p' })) as any).decision, 'allow');
  assert.equal((rbac.authorize(attrs({ namespace: 'team', resource: 'pods', subresource: 'exec', name: 'p' })) as any).decision, 'noopinion');
  assert.equal((rbac.authorize(attrs({ verb: 'update', apiGroup: 'apps', resource: 'deployments', subresource: 'status', name: 'd', namespace: 'x' })) as any).decision, 'allow');
  assert.equal((rbac.authorize(attrs({ verb: 'update', apiGroup: 'apps', resource: 'deployments', name: 'd', namespace: 'x' })) as any).decision, 'noopinion');
});

test('resource names restrict to the listed objects', () => {
  assert.equal((rbac.authorize(attrs({ resource: 'configmaps', name: 'app-config', namespace: 'x' })) as any).decision, 'allow');
  assert.equal((rbac.authorize(attrs({ resource: 'configmaps', name: 'other', namespace: 'x' })) as any).decision, 'noopinion');
  assert.equal((rbac.authorize(attrs({ verb: 'list', resource: 'configmaps', namespace: 'x' })) as any).decision, 'noopinion');
});

test('non-resource URLs match exactly or by a trailing *', () => {
  const nr = (path: string, verb = 'get') => (rbac.authorize(attrs({ isResourceRequest: false, path, verb })) as any).decision;
  assert.equal(nr('/healthz'), 'allow');
  assert.equal(nr('/logs/kube.log'), 'allow');
  assert.equal(nr('/healthz/etcd'), 'noopinion');
  assert.equal(nr('/healthz', 'post'), 'noopinion');
});

test('service account subjects default to the binding namespace', () => {
  assert.equal((rbac.authorize(attrs({ user: sa, verb: 'delete', namespace: 'team', resource: 'secrets', name: 's' })) as any).decision, 'allow');
  assert.equal((rbac.authorize(attrs({ user: sa, verb: 'delete', namespace: 'other', resource: 'secrets', name: 's' })) as any).decision, 'noopinion');
});

test('a binding to a missing role is reported as the reason', () => {
  const d = rbac.authorize(attrs({ namespace: 'other', resource: 'secrets', name: 's' })) as any;
  assert.equal(d.decision, 'noopinion');
  assert.equal(d.reason, 'RBAC: role.rbac.authorization.svc.io "missing" not found');
});

test('rules for a user list cluster and namespace rules', () => {
  const r = rbac.rulesFor!(alice, 'team');
  assert.deepEqual(r.nonResourceRules, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] }]);
  assert.equal(r.resourceRules.length, 3);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(rbac.rulesFor!(alice, 'other').errors, ['role.rbac.authorization.svc.io "missing" not found']);
});

test('covers: wildcards, sub-resources, names and URLs', () => {
  assert.ok(covers([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'] }]).covered);
  assert.ok(covers([{ verbs: ['get'], apiGroups: [''], resources: ['*/status'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/status'] }]).covered);
  assert.ok(!covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods/status'] }]).covered);
  assert.ok(covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }]).covered);
  assert.ok(!covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]).covered);
  assert.ok(covers([{ verbs: ['get'], nonResourceURLs: ['/api/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api/v1'] }]).covered);
  const { missing } = covers([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] }]);
  assert.deepEqual(missing.map(compactString), [
    '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}',
    '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    '{APIGroups:[""], Resources:["secrets"], Verbs:["list"]}',
  ]);
});

test('escalation message names the missing rules, compacted and sorted', () => {
  const msg = escalationProblem(rbac.resolver, alice, 'team', [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'secrets'] }]);
  assert.equal(msg, 'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}');
  assert.equal(escalationProblem(rbac.resolver, alice, 'team', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), undefined);
});

test('escalation with bindings to missing roles names them as the RBAC registry does, aggregated once each', () => {
  const other = (extra: RoleBinding[]) => rbacAuthorizer(staticRbacSource({ clusterRoles, roles, roleBindings: [...roleBindings, ...extra], clusterRoleBindings }));
  const want = [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }];
  const prefix = 'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}; resolution errors: ';
  assert.equal(escalationProblem(rbac.resolver, alice, 'other', want), `${prefix}[roles.rbac.authorization.svc.io "missing" not found]`);
  const two = other([
    { metadata: { name: 'gone', namespace: 'other' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'gone' }, subjects: [{ kind: 'User', name: 'alice' }] },
    { metadata: { name: 'dangling-again', namespace: 'other' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'missing' }, subjects: [{ kind: 'User', name: 'alice' }] },
  ]);
  assert.equal(escalationProblem(two.resolver, alice, 'other', want),
    `${prefix}[[roles.rbac.authorization.svc.io "missing" not found, clusterroles.rbac.authorization.svc.io "gone" not found]]`);
});
