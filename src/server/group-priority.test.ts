import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareKubeAwareVersions, groupPriority, inDiscoveryOrder, versionPriority } from './group-priority.ts';

test('groups follow the aggregator priorities, highest first, names breaking ties, unknown groups last', () => {
  const names = ['coordination.svc.io', 'zeta.example.com', 'rbac.authorization.svc.io', 'certificates.svc.io', 'apiextensions.svc.io',
    'admissionregistration.svc.io', 'flowcontrol.apiserver.svc.io', 'storage.svc.io', 'authentication.svc.io', 'authorization.svc.io',
    'apps', 'autoscaling', 'events.svc.io', 'networking.svc.io', 'alpha.example.com', 'storagemigration.svc.io'];
  const ordered = inDiscoveryOrder(names.map((name) => ({ name, versions: ['v1'] }))).map((g) => g.name);
  assert.deepEqual(ordered, ['apps', 'events.svc.io', 'authentication.svc.io', 'authorization.svc.io', 'autoscaling', 'certificates.svc.io',
    'networking.svc.io', 'rbac.authorization.svc.io', 'storage.svc.io', 'admissionregistration.svc.io', 'apiextensions.svc.io',
    'coordination.svc.io', 'flowcontrol.apiserver.svc.io', 'storagemigration.svc.io', 'alpha.example.com', 'zeta.example.com']);
  assert.equal(groupPriority(''), 18000);
  assert.equal(groupPriority('example.com'), 0);
});

test('versions sort by version priority, then in kube-aware order', () => {
  assert.deepEqual(inDiscoveryOrder([{ name: 'autoscaling', versions: ['v1', 'v2'] }])[0]!.versions, ['v2', 'v1']);
  assert.deepEqual(inDiscoveryOrder([{ name: 'certificates.svc.io', versions: ['v1alpha1', 'v1'] }])[0]!.versions, ['v1', 'v1alpha1']);
  assert.deepEqual(inDiscoveryOrder([{ name: 'x.example.com', versions: ['foo', 'v1alpha1', 'v2beta1', 'v1', 'v2', 'v1beta2', 'v1beta1'] }])[0]!.versions,
    ['v2', 'v1', 'v2beta1', 'v1beta2', 'v1beta1', 'v1alpha1', 'foo']);
  assert.equal(versionPriority('flowcontrol.apiserver.svc.io', 'v1'), 21);
  assert.equal(versionPriority('apps', 'v9'), 0);
  assert.ok(compareKubeAwareVersions('v10', 'v2') < 0);
  assert.ok(compareKubeAwareVersions('foo1', 'foo10') < 0);
});

test('the input is left unchanged', () => {
  const groups = [{ name: 'storage.svc.io', versions: ['v1beta1', 'v1'] }, { name: 'apps', versions: ['v1'] }];
  inDiscoveryOrder(groups);
  assert.deepEqual(groups.map((g) => g.name), ['storage.svc.io', 'apps']);
  assert.deepEqual(groups[0]!.versions, ['v1beta1', 'v1']);
});
