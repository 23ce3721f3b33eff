import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStorage } from '../storage/sqlite.ts';
import { ResourceStore } from '../registry/store.ts';
import { leaseKind } from '../apis/coordination/lease.ts';
import { startLeaderElection } from './leader-election.ts';
import { until } from '../../test/support/until.ts';

const ctx = { user: { username: 'test', groups: ['system:masters'] }, version: 'v1', subresource: '', dryRun: false, warnings: [] };

async function leaseStore() {
  const storage = SqliteStorage.open(':memory:');
  const leases = new ResourceStore(leaseKind, storage);
  await leases.cache.start();
  return { storage, leases };
}


test('one of two candidates leads; the other takes over when it releases', async () => {
  const { storage, leases } = await leaseStore();
  const events: string[] = [];
  const mk = (id: string) => startLeaderElection({ leases, name: 'lock', identity: id, leaseDurationSeconds: 1, retryPeriodMs: 50, onStartedLeading: () => events.push(`${id}+`), onStoppedLeading: () => events.push(`${id}-`) });
  const a = mk('a');
  await until(() => a.isLeader(), 'a leading');
  const b = mk('b');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(b.isLeader(), false);
  await a.stop();
  await until(() => b.isLeader(), 'b taking over');
  const spec = leases.current('kube-system', 'lock')!.object.spec as Record<string, unknown>;
  assert.equal(spec.holderIdentity, 'b');
  assert.equal(spec.leaseTransitions, 1);
  await b.stop();
  assert.deepEqual(events, ['a+', 'a-', 'b+', 'b-']);
  await storage.close();
});

test('a lease whose holder stopped renewing is taken over only after leaseDurationSeconds', async () => {
  const { storage, leases } = await leaseStore();
  const now = new Date().toISOString().replace('Z', '000Z');
  await leases.create('kube-system', { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'lock', namespace: 'kube-system' }, spec: { holderIdentity: 'ghost', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaseTransitions: 4 } }, { ctx, dryRun: false });
  const started = Date.now();
  const c = startLeaderElection({ leases, name: 'lock', identity: 'c', leaseDurationSeconds: 1, retryPeriodMs: 50, onStartedLeading() {}, onStoppedLeading() {} });
  await until(() => c.isLeader(), 'c taking over');
  assert.ok(Date.now() - started >= 1000, 'took over before the lease could have expired');
  const spec = leases.current('kube-system', 'lock')!.object.spec as Record<string, unknown>;
  assert.equal(spec.holderIdentity, 'c');
  assert.equal(spec.leaseTransitions, 5);
  await c.stop();
  await storage.close();
});
