import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startPersistentVolumeBinder } from './persistentvolume-binder.ts';
import { eventRecorder } from './events.ts';
import { ResourceStore } from '../registry/store.ts';
import { syncCache } from '../registry/list.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { persistentVolumeKind } from '../apis/core/persistentvolume.ts';
import { persistentVolumeClaimKind } from '../apis/core/persistentvolumeclaim.ts';
import { storageClassKind } from '../apis/storage/storageclass.ts';
import { podKind } from '../apis/core/pod.ts';
import { eventKind } from '../apis/core/event.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

type Obj = Record<string, any>;

const storage = SqliteStorage.open(':memory:');
const volumes = new ResourceStore(persistentVolumeKind, storage);
const claims = new ResourceStore(persistentVolumeClaimKind, storage);
const classes = new ResourceStore(storageClassKind, storage);
const pods = new ResourceStore(podKind, storage);
const events = new ResourceStore(eventKind, storage);
const stores = [volumes, claims, classes, pods, events];
const opts = { ctx: requestContext(), dryRun: false };
let controller: ReturnType<typeof startPersistentVolumeBinder>;
before(async () => {
  for (const s of stores) await s.cache.start();
  controller = startPersistentVolumeBinder({ volumes, claims, classes, pods, log: () => {}, resyncMs: 60_000, events: eventRecorder(events, 'persistentvolume-controller', () => {}) });
});
after(async () => { controller.stop(); for (const s of stores) s.cache.stop(); await storage.close(); });

/** Until the caches show every write and the controller has nothing left to do (its writes bring events). */
async function settled(): Promise<void> {
  for (let i = 0; i < 6; i++) {
    for (const s of stores) await syncCache(s, storage);
    await controller.queue.idle();
    await sleep(10);
  }
}

interface PvOptions { modes?: string[]; cls?: string; policy?: string; claimRef?: Obj; labels?: Obj; annotations?: Obj; source?: Obj; mode?: string }
const pv = (name: string, size: string, o: PvOptions = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume',
  metadata: { name, ...(o.labels ? { labels: o.labels } : {}), ...(o.annotations ? { annotations: o.annotations } : {}) },
  spec: {
    capacity: { storage: size }, accessModes: o.modes ?? ['ReadWriteOnce'], ...(o.source ?? { hostPath: { path: `/data/${name}` } }),
    persistentVolumeReclaimPolicy: o.policy ?? 'Retain', ...(o.cls !== undefined ? { storageClassName: o.cls } : {}),
    ...(o.claimRef ? { claimRef: o.claimRef } : {}), ...(o.mode ? { volumeMode: o.mode } : {}),
  },
} as ApiObject);
interface PvcOptions { modes?: string[]; cls?: string; volumeName?: string; selector?: Obj; mode?: string }
const pvc = (name: string, size: string, o: PvcOptions = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
  spec: {
    accessModes: o.modes ?? ['ReadWriteOnce'], resources: { requests: { storage: size } },
    ...(o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.volumeName ? { volumeName: o.volumeName } : {}),
    ...(o.selector ? { selector: o.selector } : {}), ...(o.mode ? { volumeMode: o.mode } : {}),
  },
} as ApiObject);
const storageClass = (name: string, extra: Obj = {}): ApiObject => ({ apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name }, provisioner: 'csi.example.com', ...extra } as ApiObject);

const volume = async (name: string) => (await volumes.readNow('', name))?.object as Obj | undefined;
const claim = async (ns: string, name: string) => (await claims.readNow(ns, name))?.object as Obj | undefined;
const eventsOf = async (ns: string, name: string) => {
  await sleep(30);
  await syncCache(events, storage);
  return events.cache.list(events.listPrefix(ns)).map((c) => c.object as Obj).filter((e) => e.involvedObject?.name === name).map((e) => `${e.type} ${e.reason}: ${e.message}`);
};

test('a new volume becomes Available, its phase change stamped', async () => {
  await volumes.create('', pv('fresh', '1Gi'), opts);
  const created = await volume('fresh');
  await settled();
  const v = await volume('fresh');
  assert.equal(v?.status.phase, 'Available');
  assert.ok(v?.status.lastPhaseTransitionTime);
  assert.ok(v.status.lastPhaseTransitionTime >= created!.status.lastPhaseTransitionTime);
});

test('a claim binds to the smallest matching volume: both sides\' fields and annotations', async () => {
  await volumes.create('', pv('b-10', '10Gi', { cls: 'bronze' }), opts);
  await volumes.create('', pv('b-3', '3Gi', { cls: 'bronze', modes: ['ReadWriteOnce', 'ReadOnlyMany'] }), opts);
  await volumes.create('', pv('b-1', '1Gi', { cls: 'bronze' }), opts);
  await volumes.create('', pv('b-block', '2Gi', { cls: 'bronze', mode: 'Block' }), opts);
  await volumes.create('', pv('s-2', '2Gi', { cls: 'silver' }), opts);
  await settled();
  await claims.create('ns', pvc('data', '2Gi', { cls: 'bronze', modes: ['ReadWriteOnce'] }), opts);
  await settled();
  const c = await claim('ns', 'data');
  // RWO-only volumes come first: b-10 (b-3 has two modes; b-1 is too small; b-block is Block).
  assert.equal(c?.spec.volumeName, 'b-10');
  assert.equal(c.status.phase, 'Bound');
  assert.deepEqual(c.status.capacity, { storage: '10Gi' });
  assert.deepEqual(c.status.accessModes, ['ReadWriteOnce']);
  assert.equal(c.metadata.annotations['pv.platform.io/bind-completed'], 'yes');
  assert.equal(c.metadata.annotations['pv.platform.io/bound-by-controller'], 'yes');
  const v = await volume('b-10');
  assert.ok(v);
  assert.deepEqual(v.spec.claimRef, { kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'data', uid: c.metadata.uid, apiVersion: 'v1', resourceVersion: v.spec.claimRef.resourceVersion });
  assert.ok(v.spec.claimRef.resourceVersion);
  assert.equal(v.metadata.annotations['pv.platform.io/bound-by-controller'], 'yes');
  assert.equal(v.status.phase, 'Bound');
  for (const other of ['b-3', 'b-1', 'b-block', 's-2']) assert.equal((await volume(other))?.status.phase, 'Available', other);

  // A second claim takes the next one that fits.
  await claims.create('ns', pvc('more', '2Gi', { cls: 'bronze' }), opts);
  await settled();
  assert.equal((await claim('ns', 'more'))?.spec.volumeName, 'b-3');
});

test('a selector, class or volume mode that no free volume matches leaves the claim Pending', async () => {
  await volumes.create('', pv('g-5', '5Gi', { cls: 'gold', labels: { tier: 'slow' } }), opts);
  await classes.create('', storageClass('gold', { provisioner: 'platform.io/no-provisioner', volumeBindingMode: 'Immediate' }), opts);
  await settled();
  await claims.create('ns', pvc('fast', '1Gi', { cls: 'gold', selector: { matchLabels: { tier: 'fast' } } }), opts);
  await claims.create('ns', pvc('block', '1Gi', { cls: 'gold', mode: 'Block' }), opts);
  await claims.create('ns', pvc('platinum', '1Gi', { cls: 'platinum' }), opts);
  await settled();
  for (const name of ['fast', 'block', 'platinum']) {
    const c = await claim('ns', name);
    assert.equal(c?.status.phase, 'Pending', name);
    assert.equal(c.spec.volumeName, undefined, name);
  }
  assert.equal((await volume('g-5'))?.status.phase, 'Available');
  // The class's provisioner is an in-tree name no plugin serves here; a class that does not exist is said so.
  assert.ok((await eventsOf('ns', 'fast')).includes('Warning ProvisioningFailed: no volume plugin matched name: platform.io/no-provisioner'));
  assert.ok((await eventsOf('ns', 'platinum')).includes('Warning ProvisioningFailed: storageclass.storage.svc.io "platinum" not found'));
});

test('pre-bound both ways: a volume reserved for a claim wins; a claim naming a volume gets it when it fits', async () => {
  await volumes.create('', pv('reserved', '20Gi', { cls: 'x', claimRef: { namespace: 'ns', name: 'wants-reserved' } }), opts);
  await volumes.create('', pv('x-1', '1Gi', { cls: 'x' }), opts);
  await volumes.create('', pv('other-reserved', '1Gi', { cls: 'x', claimRef: { namespace: 'ns', name: 'someone' } }), opts);
  await settled();
  assert.equal((await volume('reserved'))?.status.phase, 'Available');
  await claims.create('ns', pvc('wants-reserved', '1Gi', { cls: 'x' }), opts);
  await claims.create('ns', pvc('names-x1', '1Gi', { cls: 'x', volumeName: 'x-1' }), opts);
  await claims.create('ns', pvc('names-taken', '1Gi', { cls: 'x', volumeName: 'other-reserved' }), opts);
  await claims.create('ns', pvc('names-missing', '1Gi', { cls: 'x', volumeName: 'nowhere' }), opts);
  await settled();

  const a = await claim('ns', 'wants-reserved');
  assert.equal(a?.spec.volumeName, 'reserved');
  assert.equal(a.status.phase, 'Bound');
  const reserved = await volume('reserved');
  // The user set the claimRef: no bound-by-controller on the volume, and now the claim's uid.
  assert.equal(reserved?.metadata.annotations?.['pv.platform.io/bound-by-controller'], undefined);
  assert.equal(reserved?.spec.claimRef.uid, a.metadata.uid);

  const b = await claim('ns', 'names-x1');
  assert.equal(b?.status.phase, 'Bound');
  assert.equal(b.metadata.annotations['pv.platform.io/bound-by-controller'], undefined);
  assert.equal(b.metadata.annotations['pv.platform.io/bind-completed'], 'yes');
  assert.equal((await volume('x-1'))?.metadata.annotations['pv.platform.io/bound-by-controller'], 'yes');

  assert.equal((await claim('ns', 'names-taken'))?.status.phase, 'Pending');
  assert.equal((await volume('other-reserved'))?.spec.claimRef.uid, undefined);
  assert.ok((await eventsOf('ns', 'names-taken')).includes('Warning FailedBinding: volume "other-reserved" already bound to a different claim.'));
  assert.equal((await claim('ns', 'names-missing'))?.status.phase, 'Pending');
});

test('a claim naming a volume that does not fit stays Pending with VolumeMismatch', async () => {
  await volumes.create('', pv('tiny', '1Gi', { cls: 'y' }), opts);
  await settled();
  await claims.create('ns', pvc('too-big', '5Gi', { cls: 'y', volumeName: 'tiny' }), opts);
  await settled();
  assert.equal((await claim('ns', 'too-big'))?.status.phase, 'Pending');
  assert.ok((await eventsOf('ns', 'too-big')).includes('Warning VolumeMismatch: Cannot bind to requested volume "tiny": requested PV is too small'));
  assert.equal((await volume('tiny'))?.spec.claimRef, undefined);
});

test('no volume: no class, WaitForFirstConsumer and dynamic provisioning say so; a class-less claim gets the default class', async () => {
  await claims.create('wait', pvc('none', '100Gi', { cls: '' }), opts);
  await classes.create('', storageClass('later', { volumeBindingMode: 'WaitForFirstConsumer' }), opts);
  await classes.create('', storageClass('dynamic', { provisioner: 'csi.example.com' }), opts);
  await claims.create('wait', pvc('later', '1Gi', { cls: 'later' }), opts);
  await claims.create('wait', pvc('dynamic', '1Gi', { cls: 'dynamic' }), opts);
  await pods.create('wait', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'user' }, spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'later-used' } }] } } as ApiObject, opts);
  await claims.create('wait', pvc('later-used', '1Gi', { cls: 'later' }), opts);
  await settled();
  assert.deepEqual(await eventsOf('wait', 'none'), ['Normal FailedBinding: no persistent volumes available for this claim and no storage class is set']);
  assert.deepEqual(await eventsOf('wait', 'later'), ['Normal WaitForFirstConsumer: waiting for first consumer to be created before binding']);
  assert.deepEqual(await eventsOf('wait', 'later-used'), ['Normal WaitForPodScheduled: waiting for pod user to be scheduled']);
  const dynamic = await claim('wait', 'dynamic');
  assert.equal(dynamic?.metadata.annotations['volume.beta.platform.io/storage-provisioner'], 'csi.example.com');
  assert.equal(dynamic.metadata.annotations['volume.platform.io/storage-provisioner'], 'csi.example.com');
  assert.ok((await eventsOf('wait', 'dynamic')).includes("Normal ExternalProvisioning: Waiting for a volume to be created either by the external provisioner 'csi.example.com' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."));
  for (const name of ['none', 'later', 'dynamic']) assert.equal((await claim('wait', name))?.status.phase, 'Pending');

  // The retroactive default class: a claim naming none gets it; "" is a choice and stays.
  await claims.create('wait', pvc('unset', '100Gi'), opts);
  await classes.create('', { ...storageClass('standard'), metadata: { name: 'standard', annotations: { 'storageclass.platform.io/is-default-class': 'true' } } } as ApiObject, opts);
  controller.queue.add('claim/wait/unset');
  controller.queue.add('claim/wait/none');
  await settled();
  assert.equal((await claim('wait', 'unset'))?.spec.storageClassName, 'standard');
  assert.equal((await claim('wait', 'none'))?.spec.storageClassName, '');
});

test('a deleted claim releases its volume: Retain keeps it Released, Delete deletes or fails as the plugins would', async () => {
  const cases: [string, PvOptions][] = [
    ['keep', { policy: 'Retain' }],
    ['tmp', { policy: 'Delete', source: { hostPath: { path: '/tmp/scratch' } } }],
    ['root', { policy: 'Delete', source: { hostPath: { path: '/srv/data' } } }],
    ['nfs', { policy: 'Delete', source: { nfs: { server: 'nas', path: '/export' } } }],
    ['csi', { policy: 'Delete', source: { csi: { driver: 'csi.example.com', volumeHandle: 'h-1' } } }],
    ['recycle', { policy: 'Recycle', source: { iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } } }],
  ];
  for (const [name, o] of cases) await volumes.create('', pv(`rel-${name}`, '1Gi', { cls: `rel-${name}`, ...o }), opts);
  await settled();
  for (const [name] of cases) await claims.create('rel', pvc(name, '1Gi', { cls: `rel-${name}` }), opts);
  await settled();
  for (const [name] of cases) assert.equal((await volume(`rel-${name}`))?.status.phase, 'Bound', name);
  for (const [name] of cases) await claims.delete('rel', name, opts);
  await settled();

  const keep = await volume('rel-keep');
  assert.equal(keep?.status.phase, 'Released');
  assert.equal(keep.spec.claimRef.name, 'keep');
  assert.equal(await volume('rel-tmp'), undefined);
  assert.equal((await volume('rel-csi'))?.status.phase, 'Released');
  const root = await volume('rel-root');
  assert.equal(root?.status.phase, 'Failed');
  assert.equal(root.status.message, 'host_path deleter only supports /tmp/.+ but received provided /srv/data');
  assert.deepEqual(await eventsOf('default', 'rel-root'), ['Warning VolumeFailedDelete: host_path deleter only supports /tmp/.+ but received provided /srv/data']);
  assert.equal((await volume('rel-nfs'))?.status.phase, 'Failed');
  assert.deepEqual(await eventsOf('default', 'rel-nfs'), ['Warning VolumeFailedDelete: error getting deleter volume plugin for volume "rel-nfs": no deletable volume plugin matched']);
  assert.equal((await volume('rel-recycle'))?.status.phase, 'Failed');
  assert.deepEqual(await eventsOf('default', 'rel-recycle'), ['Warning VolumeFailedRecycle: No recycler plugin found for the volume!']);

  // A released volume is not taken by a new claim of the same name (its claimRef names the old uid).
  await claims.create('rel', pvc('keep', '1Gi', { cls: 'rel-keep' }), opts);
  await settled();
  assert.equal((await claim('rel', 'keep'))?.status.phase, 'Pending');
  assert.equal((await volume('rel-keep'))?.status.phase, 'Released');
});

test('a bound claim whose volume goes is Lost', async () => {
  await volumes.create('', pv('doomed', '1Gi', { cls: 'lost' }), opts);
  await settled();
  await claims.create('lost', pvc('orphan', '1Gi', { cls: 'lost' }), opts);
  await settled();
  assert.equal((await claim('lost', 'orphan'))?.status.phase, 'Bound');
  await volumes.delete('', 'doomed', opts);
  await settled();
  const c = await claim('lost', 'orphan');
  assert.equal(c?.status.phase, 'Lost');
  assert.equal(c.status.capacity, undefined);
  assert.deepEqual(await eventsOf('lost', 'orphan'), ['Warning ClaimLost: Bound claim has lost its PersistentVolume. Data on the volume is lost!']);
});
