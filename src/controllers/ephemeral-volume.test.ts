import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { claimForEphemeralVolume, claimNotForPod, startEphemeralVolumeController } from './ephemeral-volume.ts';
import { eventRecorder } from './events.ts';
import type { AdmittedCreate } from './client.ts';
import { ResourceStore } from '../registry/store.ts';
import { syncCache } from '../registry/list.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { podKind } from '../apis/core/pod.ts';
import { persistentVolumeClaimKind } from '../apis/core/persistentvolumeclaim.ts';
import { eventKind } from '../apis/core/event.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

type Obj = Record<string, any>;

const storage = SqliteStorage.open(':memory:');
const pods = new ResourceStore(podKind, storage);
const claims = new ResourceStore(persistentVolumeClaimKind, storage);
const events = new ResourceStore(eventKind, storage);
const opts = { ctx: requestContext(), dryRun: false };
const creates: { plural: string; username: string }[] = [];
const createAdmitted: AdmittedCreate = async (_group, plural, namespace, object, ctx) => {
  creates.push({ plural, username: ctx.user.username });
  return (await claims.create(namespace, object, { ctx, dryRun: false })).object;
};
let controller: ReturnType<typeof startEphemeralVolumeController>;
before(async () => {
  for (const s of [pods, claims, events]) await s.cache.start();
  controller = startEphemeralVolumeController({ pods, claims, createAdmitted, log: () => {}, resyncMs: 60_000, events: eventRecorder(events, 'ephemeral_volume', () => {}) });
});
after(async () => { controller.stop(); for (const s of [pods, claims, events]) s.cache.stop(); await storage.close(); });

async function settled(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    for (const s of [pods, claims, events]) await syncCache(s, storage);
    await controller.queue.idle();
    await sleep(10);
  }
}

const template = {
  metadata: { labels: { app: 'web' }, annotations: { note: 'scratch' } },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } },
};
const pod = (name: string, volumes: Obj[] = [{ name: 'scratch', ephemeral: { volumeClaimTemplate: template } }]): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], volumes },
} as ApiObject);
const claim = async (ns: string, name: string) => (await claims.readNow(ns, name))?.object as Obj | undefined;

test('the claim of an ephemeral volume: the template\'s metadata and spec, controlled by the pod', () => {
  const p = { metadata: { name: 'web-0', namespace: 'ns', uid: 'u-1' } };
  const made = claimForEphemeralVolume(p, { name: 'scratch', ephemeral: { volumeClaimTemplate: template } });
  assert.deepEqual(made, {
    apiVersion: 'v1', kind: 'PersistentVolumeClaim',
    metadata: {
      name: 'web-0-scratch', annotations: { note: 'scratch' }, labels: { app: 'web' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: 'u-1', controller: true, blockOwnerDeletion: true }],
    },
    spec: template.spec,
  });
  assert.equal(claimNotForPod(p, { metadata: { ...made.metadata, namespace: 'ns' } }), undefined);
  assert.equal(claimNotForPod(p, { metadata: { name: 'web-0-scratch', namespace: 'ns' } }), 'PVC ns/web-0-scratch was not created for pod ns/web-0 (pod is not owner)');
});

test('a pod with an ephemeral volume gets its claim, made through admission as the controller', async () => {
  const created = (await pods.create('ns', pod('web-0', [{ name: 'scratch', ephemeral: { volumeClaimTemplate: template } }, { name: 'tmp', emptyDir: {} }]), opts)).object;
  await settled();
  const c = await claim('ns', 'web-0-scratch');
  assert.ok(c);
  assert.deepEqual(c.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'web-0', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  assert.deepEqual(c.metadata.labels, { app: 'web' });
  assert.deepEqual(c.metadata.annotations, { note: 'scratch' });
  assert.equal(c.spec.storageClassName, 'fast');
  assert.deepEqual(creates, [{ plural: 'persistentvolumeclaims', username: 'system:serviceaccount:kube-system:ephemeral-volume-controller' }]);
  assert.equal(await claim('ns', 'web-0-tmp'), undefined);

  // Deleted while the pod still names it: made again.
  await claims.delete('ns', 'web-0-scratch', opts);
  await settled();
  assert.equal((await claim('ns', 'web-0-scratch'))?.metadata.ownerReferences[0].uid, created.metadata.uid);
});

test('a claim of that name the pod does not control is left alone, and the pod says why', async () => {
  await claims.create('ns', { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'db-0-data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } } } as ApiObject, opts);
  await pods.create('ns', pod('db-0', [{ name: 'data', ephemeral: { volumeClaimTemplate: template } }]), opts);
  await settled();
  const c = await claim('ns', 'db-0-data');
  assert.ok(c);
  assert.equal(c.metadata.ownerReferences, undefined);
  assert.equal(c.spec.resources.requests.storage, '5Gi');
  await sleep(30);
  await syncCache(events, storage);
  const reported = events.cache.list(events.listPrefix('ns')).map((e) => e.object as Obj).filter((e) => e.involvedObject.name === 'db-0');
  assert.equal(reported[0]?.reason, 'FailedBinding');
  assert.equal(reported[0].type, 'Warning');
  assert.equal(reported[0].message, 'ephemeral volume data: PVC ns/db-0-data was not created for pod ns/db-0 (pod is not owner)');
  assert.equal(reported[0].source.component, 'ephemeral_volume');
});

test('a pod being deleted gets no claim', async () => {
  await pods.create('ns', { ...pod('going'), metadata: { name: 'going', finalizers: ['example.com/hold'] } } as ApiObject, opts);
  await pods.delete('ns', 'going', opts);
  // The create's own event may come first: look again once the deletion is seen.
  await settled();
  const c = await claim('ns', 'going-scratch');
  if (c) await claims.delete('ns', 'going-scratch', opts);
  await settled();
  assert.equal(await claim('ns', 'going-scratch'), undefined);
});
