import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { roleKind as kind } from './role.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

const role = (name: string, rules: unknown[]): ApiObject => ({ apiVersion: 'rbac.authorization.svc.io/v1', kind: 'Role', metadata: { name, namespace: 'ns' }, rules });

test('declaration: namespaced, create on update, Created At column', () => {
  assert.equal(kind.plural, 'roles');
  assert.equal(kind.namespaced, true);
  assert.equal(kind.allowCreateOnUpdate, true);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Created At']);
});

test('resource rules are valid', async () => {
  const obj = await h.create(role('pod-reader', [{ apiGroups: [''], resources: ['pods', 'pods/log'], resourceNames: ['a'], verbs: ['get'] }]));
  assert.equal(obj.metadata.namespace, 'ns');
});

test('namespaced rules cannot name non-resource URLs', async () => {
  assert.deepEqual((await rejection(h.create(role('a', [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }])))).causes, [
    'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
  ]);
});

test('verbs, api groups and resources are required', async () => {
  assert.deepEqual((await rejection(h.create(role('a', [{}])))).causes, [
    'rules[0].verbs: Required value: verbs must contain at least one value',
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'rules[0].resources: Required value: resource rules must supply at least one resource',
  ]);
});

test('PUT creates a missing role', async () => {
  const made = await h.update(role('put-made', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
  assert.ok(made.metadata.uid);
});
