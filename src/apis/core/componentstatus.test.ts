import { test } from 'node:test';
import assert from 'node:assert/strict';
import { componentStatus, componentStatusKind, componentStatusSource } from './componentstatus.ts';
import { computedVerbs, isComputed } from '../computed-kind.ts';

const cells = (o: ReturnType<typeof componentStatus>) => componentStatusKind.tableColumns!.map((c) => c.cell(o));

test('declared as Kubernetes serves it: cluster-scoped, short name cs, get and list only, deprecated in 1.19', () => {
  assert.equal(componentStatusKind.namespaced, false);
  assert.deepEqual(componentStatusKind.shortNames, ['cs']);
  assert.ok(isComputed(componentStatusKind));
  assert.deepEqual(computedVerbs(componentStatusKind), ['get', 'list']);
  assert.deepEqual(componentStatusKind.versions[0].deprecated, { warning: 'v1 ComponentStatus is deprecated in v1.19+' });
  assert.deepEqual(componentStatusKind.tableColumns!.map((c) => c.name), ['Name', 'Status', 'Message', 'Error']);
});

test('a healthy component: condition Healthy True with its message; the table says Healthy', () => {
  const o = componentStatus('etcd-0', { healthy: true, message: 'ok' });
  assert.deepEqual(o, { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'etcd-0', creationTimestamp: null }, conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] });
  assert.deepEqual(cells(o), ['etcd-0', 'Healthy', 'ok', '']);
});

test('an unhealthy component carries the error; without a Healthy condition the status is Unknown', () => {
  const o = componentStatus('controller-manager', { healthy: false, error: 'no controller manager holds the lease' });
  assert.deepEqual(o.conditions, [{ type: 'Healthy', status: 'False', error: 'no controller manager holds the lease' }]);
  assert.deepEqual(cells(o), ['controller-manager', 'Unhealthy', '', 'no controller manager holds the lease']);
  assert.deepEqual(cells({ metadata: { name: 'x' }, conditions: [] }), ['x', 'Unknown', '', '']);
});

test('the source lists every check in name order, gets one by name, and reads a thrown check as unhealthy', async () => {
  let etcdChecks = 0;
  const source = componentStatusSource([
    { name: 'etcd-0', check: async () => { etcdChecks++; return { healthy: true, message: 'ok' }; } },
    { name: 'controller-manager', check: async () => { throw new Error('controllers stopped'); } },
  ]);
  const list = await source.list();
  assert.deepEqual(list.map((o) => o.metadata.name), ['controller-manager', 'etcd-0']);
  assert.deepEqual(list[0].conditions, [{ type: 'Healthy', status: 'False', error: 'controllers stopped' }]);
  assert.equal((await source.get('etcd-0'))?.metadata.name, 'etcd-0');
  assert.equal(etcdChecks, 2);
  assert.equal(await source.get('scheduler'), undefined);
});
