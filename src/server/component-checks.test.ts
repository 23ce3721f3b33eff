import { test } from 'node:test';
import assert from 'node:assert/strict';
import { componentChecks } from './component-checks.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { ResourceStore } from '../registry/store.ts';
import { leaseKind } from '../apis/coordination/lease.ts';
import { CONTROLLER_LEASE } from '../controllers/manager.ts';
import type { Storage } from '../storage/interface.ts';

const ctx = { user: { username: 'admin', groups: ['system:masters'] }, version: 'v1', subresource: '', dryRun: false, warnings: [] };

async function leases() {
  const storage = SqliteStorage.open(':memory:');
  const store = new ResourceStore(leaseKind, storage);
  await store.cache.start();
  return { storage, store };
}

test('one etcd-N per endpoint (etcd-0 for the embedded store), healthy while the store is ready', async () => {
  const { storage, store } = await leases();
  try {
    const names = (endpoints?: string[]) => componentChecks({ storage, storageEndpoints: endpoints, isLeader: () => true, leases: store }).map((c) => c.name);
    assert.deepEqual(names(), ['etcd-0', 'controller-manager']);
    assert.deepEqual(names(['https://a:2379', 'https://b:2379', 'https://c:2379']), ['etcd-0', 'etcd-1', 'etcd-2', 'controller-manager']);
    const [etcd] = componentChecks({ storage, isLeader: () => true, leases: store });
    assert.deepEqual(await etcd.check(), { healthy: true, message: 'ok' });
    const broken = { ready: async () => { throw new Error('etcd is not ready: connection refused'); } } as unknown as Storage;
    await assert.rejects(componentChecks({ storage: broken, isLeader: () => true, leases: store })[0].check(), /etcd is not ready: connection refused/);
  } finally {
    store.cache.stop();
    await storage.close();
  }
});

test('the controller manager is healthy while this server leads or another renews the lease', async () => {
  const { storage, store } = await leases();
  try {
    let now = Date.parse('2026-01-01T00:00:10Z');
    const check = (leader: boolean) => componentChecks({ storage, isLeader: () => leader, leases: store, now: () => now }).at(-1)!.check();
    assert.deepEqual(await check(true), { healthy: true, message: 'ok' });
    assert.deepEqual(await check(false), { healthy: false, error: 'no controller manager holds the lease kube-system/capstan-controller-manager' });
    await store.create('kube-system', {
      apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: CONTROLLER_LEASE, namespace: 'kube-system' },
      spec: { holderIdentity: 'other', leaseDurationSeconds: 15, renewTime: '2026-01-01T00:00:05.000000Z' },
    }, { ctx, dryRun: false });
    assert.deepEqual(await check(false), { healthy: true, message: 'ok' });
    now = Date.parse('2026-01-01T00:00:30Z');
    assert.deepEqual(await check(false), { healthy: false, error: 'the lease kube-system/capstan-controller-manager of other was not renewed in time' });
  } finally {
    store.cache.stop();
    await storage.close();
  }
});
