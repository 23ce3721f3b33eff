import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { roleBindingKind as kind } from './rolebinding.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

const binding = (name: string, roleRef: Record<string, unknown> | undefined, subjects?: unknown[]): ApiObject => ({
  apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', metadata: { name, namespace: 'ns' }, ...(roleRef ? { roleRef } : {}), ...(subjects ? { subjects } : {}),
});
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;

test('declaration: namespaced, create on update, Name Role Age and wide subject columns', () => {
  assert.equal(kind.plural, 'rolebindings');
  assert.equal(kind.namespaced, true);
  assert.equal(kind.allowCreateOnUpdate, true);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.priority ?? 0]), [['Name', 0], ['Role', 0], ['Age', 0], ['Users', 1], ['Groups', 1], ['ServiceAccounts', 1]]);
});

test('defaults: roleRef apiGroup, and the RBAC group for users and groups', async () => {
  const obj = await h.create(binding('b1', { kind: 'Role', name: 'r' }, [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'robot', namespace: 'ns' }]));
  assert.deepEqual(obj.roleRef, { apiGroup: 'rbac.authorization.svc.io', kind: 'Role', name: 'r' });
  assert.deepEqual(obj.subjects, [
    { kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.svc.io' },
    { kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.svc.io' },
    { kind: 'ServiceAccount', name: 'robot', namespace: 'ns' },
  ]);
  const cells = kind.tableColumns!.map((c) => c.cell(obj));
  assert.deepEqual([cells[0], cells[1], cells[3], cells[4], cells[5]], ['b1', 'Role/r', 'alice', 'devs', 'ns/robot']);
});

test('roleRef: kind Role or ClusterRole, the RBAC group, a name', async () => {
  assert.deepEqual(await causes(binding('b', undefined)), [
    'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
    'roleRef.name: Required value',
  ]);
  assert.deepEqual(await causes(binding('b', { apiGroup: 'example.com', kind: 'Policy', name: 'a/b' })), [
    'roleRef.apiGroup: Unsupported value: "example.com": supported values: "rbac.authorization.svc.io"',
    'roleRef.kind: Unsupported value: "Policy": supported values: "Role", "ClusterRole"',
    'roleRef.name: Invalid value: "a/b": may not contain \'/\'',
  ]);
  const ok = await h.create(binding('to-cluster-role', { kind: 'ClusterRole', name: 'view' }));
  assert.equal((ok.roleRef as { kind: string }).kind, 'ClusterRole');
});

test('subjects: kind, name and apiGroup rules', async () => {
  assert.deepEqual(await causes(binding('b', { kind: 'Role', name: 'r' }, [{ kind: 'Robot', name: 'x' }])), [
    'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
  ]);
  assert.deepEqual(await causes(binding('b', { kind: 'Role', name: 'r' }, [{ kind: 'User' }])), ['subjects[0].name: Required value']);
  assert.deepEqual(await causes(binding('b', { kind: 'Role', name: 'r' }, [{ kind: 'User', name: 'u', apiGroup: 'other' }])), [
    'subjects[0].apiGroup: Unsupported value: "other": supported values: "rbac.authorization.svc.io"',
  ]);
  assert.deepEqual(await causes(binding('b', { kind: 'Role', name: 'r' }, [{ kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: 'x' }])), [
    'subjects[0].name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    'subjects[0].apiGroup: Unsupported value: "x": supported values: ""',
  ]);
  // In a namespace a service account subject may leave its namespace to the binding's.
  const ok = await h.create(binding('sa-local', { kind: 'Role', name: 'r' }, [{ kind: 'ServiceAccount', name: 'default' }]));
  assert.equal(ok.metadata.name, 'sa-local');
});

test('roleRef is immutable; subjects may change', async () => {
  await h.create(binding('fixed', { kind: 'Role', name: 'r1' }, [{ kind: 'User', name: 'a' }]));
  const changed = await h.update(binding('fixed', { kind: 'Role', name: 'r1' }, [{ kind: 'User', name: 'b' }]));
  assert.equal((changed.subjects as { name: string }[])[0].name, 'b');
  const r = await rejection(h.update(binding('fixed', { kind: 'Role', name: 'r2' })));
  assert.equal(r.code, 422);
  assert.deepEqual(r.causes, ['roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.svc.io", Kind:"Role", Name:"r2"}: cannot change roleRef']);
});

test('PUT creates a missing binding', async () => {
  const made = await h.update(binding('put-made', { kind: 'Role', name: 'r' }));
  assert.ok(made.metadata.uid);
});
