import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { claimNames, podUsesClaim, startPvcProtectionController } from './pvc-protection.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { podKind } from '../apis/core/pod.ts';
import { persistentVolumeClaimKind } from '../apis/core/persistentvolumeclaim.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const storage = SqliteStorage.open(':memory:');
const claims = new ResourceStore(persistentVolumeClaimKind, storage);
const pods = new ResourceStore(podKind, storage);
const opts = { ctx: requestContext(), dryRun: false };
let controller: ReturnType<typeof startPvcProtectionController>;
before(async () => {
  await claims.cache.start();
  await pods.cache.start();
  controller = startPvcProtectionController({ claims, pods, storage, log: () => {}, resyncMs: 60_000 });
});
after(async () => { controller.stop(); claims.cache.stop(); pods.cache.stop(); await storage.close(); });

const claim = (name: string): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, finalizers: ['platform.io/pvc-protection'] },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const pod = (name: string, claimName: string, nodeName?: string): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...(nodeName ? { nodeName } : {}), volumes: [{ name: 'v', persistentVolumeClaim: { claimName } }] },
});
const settled = async () => { await claims.readNow('ns', 'x'); await pods.readNow('ns', 'x'); await controller.queue.idle(); };
const stored = async (name: string) => (await claims.readNow('ns', name))?.object as ApiObject | undefined;

test('which pods use a claim: scheduled ones that name it among their volumes', () => {
  assert.deepEqual(claimNames(pod('p', 'data')), ['data']);
  assert.equal(podUsesClaim(pod('p', 'data', 'node-1'), 'data'), true);
  assert.equal(podUsesClaim(pod('p', 'data'), 'data'), false);
  assert.equal(podUsesClaim(pod('p', 'other', 'node-1'), 'data'), false);
  assert.deepEqual(claimNames({ spec: { volumes: [{ name: 'e', emptyDir: {} }] } }), []);
  const ephemeral = { metadata: { name: 'p' }, spec: { nodeName: 'node-1', volumes: [{ name: 'a', persistentVolumeClaim: { claimName: 'data' } }, { name: 'scratch', ephemeral: {} }] } };
  assert.deepEqual(claimNames(ephemeral), ['data', 'p-scratch']);
  assert.equal(podUsesClaim(ephemeral, 'p-scratch'), true);
});

test('an unused claim being deleted loses its finalizer and goes', async () => {
  await claims.create('ns', claim('free'), opts);
  // An unscheduled pod does not hold it (the kubelet would refuse to start it).
  await pods.create('ns', pod('pending', 'free'), opts);
  await claims.delete('ns', 'free', opts);
  await settled();
  assert.equal(await stored('free'), undefined);
});

test('a claim used by a scheduled pod stays until the pod goes; one not being deleted keeps its finalizer', async () => {
  await claims.create('ns', claim('busy'), opts);
  await claims.create('ns', claim('kept'), opts);
  await pods.create('ns', pod('user', 'busy', 'node-1'), opts);
  await claims.delete('ns', 'busy', opts);
  await settled();
  const terminating = await stored('busy');
  assert.ok(terminating?.metadata.deletionTimestamp);
  assert.deepEqual(terminating.metadata.finalizers, ['platform.io/pvc-protection']);
  assert.deepEqual((await stored('kept'))?.metadata.finalizers, ['platform.io/pvc-protection']);

  await pods.delete('ns', 'user', { ...opts, gracePeriodSeconds: 0 });
  await settled();
  assert.equal(await stored('busy'), undefined);
  assert.deepEqual((await stored('kept'))?.metadata.finalizers, ['platform.io/pvc-protection']);
});
