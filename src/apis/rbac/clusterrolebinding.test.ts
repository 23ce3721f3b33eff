import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clusterRoleBindingKind as kind } from './clusterrolebinding.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

const binding = (name: string, roleRef: Record<string, unknown>, subjects?: unknown[]): ApiObject => ({
  apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRoleBinding', metadata: { name }, roleRef, ...(subjects ? { subjects } : {}),
});
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;

test('declaration: cluster-scoped, create on update, binding columns', () => {
  assert.equal(kind.plural, 'clusterrolebindings');
  assert.equal(kind.namespaced, false);
  assert.equal(kind.allowCreateOnUpdate, true);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']);
  assert.equal(kind.tableColumns![3].description, 'Users in the clusterRoleBinding');
});

test('defaults: roleRef apiGroup and subject groups', async () => {
  const obj = await h.create(binding('admins', { kind: 'ClusterRole', name: 'cluster-admin' }, [{ kind: 'Group', name: 'system:masters' }]));
  assert.deepEqual(obj.roleRef, { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'cluster-admin' });
  assert.deepEqual(obj.subjects, [{ kind: 'Group', name: 'system:masters', apiGroup: 'rbac.authorization.svc.io' }]);
  assert.equal(kind.tableColumns![1].cell(obj), 'ClusterRole/cluster-admin');
});

test('roleRef may only name a ClusterRole', async () => {
  assert.deepEqual(await causes(binding('b', { kind: 'Role', name: 'r' })), ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"']);
});

test('a service account subject must name its namespace', async () => {
  assert.deepEqual(await causes(binding('b', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'ServiceAccount', name: 'robot' }])), ['subjects[0].namespace: Required value']);
  const ok = await h.create(binding('sa', { kind: 'ClusterRole', name: 'view' }, [{ kind: 'ServiceAccount', name: 'robot', namespace: 'apps' }]));
  assert.equal(kind.tableColumns![5].cell(ok), 'apps/robot');
});

test('roleRef is immutable', async () => {
  await h.create(binding('fixed', { kind: 'ClusterRole', name: 'view' }));
  assert.deepEqual((await rejection(h.update(binding('fixed', { kind: 'ClusterRole', name: 'edit' })))).causes, [
    'roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
  ]);
});
