import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterRoles, clusterRoleBindings, namespaceRoles, namespaceRoleBindings, AGGREGATE_TO_VIEW, AUTOUPDATE_ANNOTATION } from './bootstrap-policy.ts';
import { aggregatedRules } from './aggregation.ts';
import { reconcileBinding, reconcileRole } from './reconcile.ts';
import { rbacAuthorizer } from './authorizer.ts';
import { staticRbacSource, type ClusterRole } from './types.ts';
import type { Attributes } from '../types.ts';

test('every default object is labelled and annotated for reconciliation, and names are unique', () => {
  for (const list of [clusterRoles(), clusterRoleBindings(), namespaceRoles(), namespaceRoleBindings()]) {
    const keys = list.map((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const o of list) {
      assert.equal(o.metadata.labels?.['platform.io/bootstrapping'], 'rbac-defaults');
      assert.equal(o.metadata.annotations?.[AUTOUPDATE_ANNOTATION], 'true');
    }
  }
  const roleNames = new Set(clusterRoles().map((r) => r.metadata.name));
  for (const b of clusterRoleBindings()) assert.ok(roleNames.has(b.roleRef.name), b.roleRef.name);
});

test('aggregation: view, edit and admin build up from the aggregate-to roles', () => {
  let roles = clusterRoles();
  // Run the aggregation to a fixed point, as the controller does through its watch.
  for (let i = 0; i < 3; i++) {
    roles = roles.map((r) => (r.aggregationRule ? { ...r, rules: aggregatedRules(r, roles) } : r));
  }
  const get = (n: string) => roles.find((r) => r.metadata.name === n)!;
  assert.ok(get('view').rules!.length > 0);
  assert.ok(get('edit').rules!.length > get('view').rules!.length);
  assert.ok(get('admin').rules!.length > get('edit').rules!.length);
  const rbac = rbacAuthorizer(staticRbacSource({
    clusterRoles: roles,
    roleBindings: [{ metadata: { name: 'v', namespace: 'ns' }, roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'u' }] }],
  }));
  const at = (verb: string, resource: string, group = ''): Attributes => ({ user: { username: 'u', groups: [] }, verb, isResourceRequest: true, path: '', namespace: 'ns', apiGroup: group, apiVersion: 'v1', resource, subresource: '', name: 'x' });
  assert.equal((rbac.authorize(at('get', 'configmaps')) as any).decision, 'allow');
  assert.equal((rbac.authorize(at('get', 'secrets')) as any).decision, 'noopinion');
  assert.equal((rbac.authorize(at('update', 'configmaps')) as any).decision, 'noopinion');
  assert.equal((rbac.authorize(at('list', 'deployments', 'apps')) as any).decision, 'allow');
});

test('aggregation skips the role itself and duplicate rules, in name order', () => {
  const target: ClusterRole = { metadata: { name: 't', labels: { [AGGREGATE_TO_VIEW]: 'true' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO_VIEW]: 'true' } }] } };
  const b: ClusterRole = { metadata: { name: 'b', labels: { [AGGREGATE_TO_VIEW]: 'true' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['b'] }, { verbs: ['get'], apiGroups: [''], resources: ['a'] }] };
  const a: ClusterRole = { metadata: { name: 'a', labels: { [AGGREGATE_TO_VIEW]: 'true' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['a'] }] };
  const other: ClusterRole = { metadata: { name: 'c' }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] };
  assert.deepEqual(aggregatedRules(target, [target, b, a, other]).map((r) => r.resources![0]), ['a', 'b']);
});

test('aggregation: rules equal but for key order or absent fields count once; an invalid selector selects nothing', () => {
  const target: ClusterRole = { metadata: { name: 't' }, aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'x', operator: 'Bogus' }] }, { matchLabels: { pick: 'yes' } }] } };
  const a: ClusterRole = { metadata: { name: 'a', labels: { pick: 'yes' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
  const b: ClusterRole = { metadata: { name: 'b', labels: { pick: 'yes' } }, rules: [{ resources: ['pods'], apiGroups: [''], verbs: ['get'], resourceNames: undefined }, { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p'] }] };
  const c: ClusterRole = { metadata: { name: 'c', labels: { x: 'y' } }, rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] };
  assert.deepEqual(aggregatedRules(target, [c, b, a]), [a.rules![0], b.rules![1]]);
});

test('reconciliation adds what is missing, keeps additions, and respects autoupdate=false', () => {
  const expected = clusterRoles().find((r) => r.metadata.name === 'system:basic-user')!;
  assert.equal(reconcileRole(undefined, expected).action, 'create');
  assert.equal(reconcileRole(structuredClone(expected), expected).action, 'none');
  const trimmed = structuredClone(expected);
  trimmed.rules = [{ verbs: ['create'], apiGroups: ['authorization.svc.io'], resources: ['selfsubjectaccessreviews'] }, { verbs: ['get'], apiGroups: [''], resources: ['extra'] }];
  trimmed.metadata.labels = { mine: 'yes' };
  const r = reconcileRole(trimmed, expected);
  assert.equal(r.action, 'update');
  const obj = (r as { object: ClusterRole }).object;
  assert.equal(obj.metadata.labels?.mine, 'yes');
  assert.ok(obj.rules!.some((x) => x.resources?.includes('extra')));
  assert.ok(obj.rules!.some((x) => x.resources?.includes('selfsubjectreviews')));
  const frozen = structuredClone(trimmed);
  frozen.metadata.annotations = { [AUTOUPDATE_ANNOTATION]: 'false' };
  assert.equal(reconcileRole(frozen, expected).action, 'none');

  const binding = clusterRoleBindings().find((b) => b.metadata.name === 'system:basic-user')!;
  const noSubjects: typeof binding = { ...structuredClone(binding), subjects: [{ kind: 'User', name: 'someone' }] };
  const rb = reconcileBinding(noSubjects, binding);
  assert.equal(rb.action, 'update');
  assert.deepEqual((rb as any).object.subjects.map((s: any) => s.name), ['someone', 'system:authenticated']);
  const moved = { ...structuredClone(binding), roleRef: { ...binding.roleRef, name: 'other' } };
  assert.equal(reconcileBinding(moved, binding).action, 'recreate');
});

test('controller roles: each controller\'s service account may do what its controller does', () => {
  const rbac = rbacAuthorizer(staticRbacSource({ clusterRoles: clusterRoles(), clusterRoleBindings: clusterRoleBindings() }));
  const can = (account: string, verb: string, resource: string, subresource = '', group = '') => (rbac.authorize({
    user: { username: `system:serviceaccount:kube-system:${account}`, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'] },
    verb, isResourceRequest: true, path: '', namespace: 'ns', apiGroup: group, apiVersion: 'v1', resource, subresource, name: 'x',
  }) as { decision: string }).decision;
  assert.equal(can('persistent-volume-binder', 'update', 'persistentvolumes', 'status'), 'allow');
  assert.equal(can('persistent-volume-binder', 'update', 'persistentvolumeclaims', 'status'), 'allow');
  assert.equal(can('persistent-volume-binder', 'list', 'storageclasses', '', 'storage.svc.io'), 'allow');
  assert.equal(can('persistent-volume-binder', 'delete', 'persistentvolumeclaims'), 'noopinion');
  assert.equal(can('ephemeral-volume-controller', 'create', 'persistentvolumeclaims'), 'allow');
  assert.equal(can('ephemeral-volume-controller', 'delete', 'persistentvolumeclaims'), 'noopinion');
  assert.equal(can('pvc-protection-controller', 'update', 'persistentvolumeclaims'), 'allow');
  assert.equal(can('pv-protection-controller', 'update', 'persistentvolumes'), 'allow');
  assert.equal(can('root-ca-cert-publisher', 'update', 'configmaps'), 'allow');
  assert.equal(can('root-ca-cert-publisher', 'get', 'secrets'), 'noopinion');
  for (const account of ['persistent-volume-binder', 'ephemeral-volume-controller', 'pvc-protection-controller', 'pv-protection-controller', 'root-ca-cert-publisher']) {
    assert.equal(can(account, 'create', 'events'), 'allow', account);
  }
});
