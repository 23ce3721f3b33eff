import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { persistentVolumeKind as kind } from './persistentvolume.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const pv = (spec: Record<string, unknown>, name = `pv-${++n}`, extra: Record<string, unknown> = {}): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, ...extra }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...spec },
});
const nfs = { nfs: { server: 'nfs.example.com', path: '/exports/a' } };
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
type Spec = Record<string, any>;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));
const affinity = { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'platform.io/hostname', operator: 'In', values: ['n1'] }] }] } };

test('declaration: core v1, cluster-scoped, short name pv, status sub-resource, columns', () => {
  assert.equal(kind.plural, 'persistentvolumes');
  assert.equal(kind.namespaced, false);
  assert.deepEqual(kind.shortNames, ['pv']);
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode']);
  const spec = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties.spec.properties;
  assert.deepEqual(['capacity', 'accessModes', 'claimRef', 'persistentVolumeReclaimPolicy', 'storageClassName', 'mountOptions', 'volumeMode', 'nodeAffinity', 'volumeAttributesClassName'].map((k) => spec[k]['x-proto']), [1, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(spec.accessModes['x-platform-list-type'], 'atomic');
  for (const s of ['hostPath', 'local', 'csi', 'nfs', 'iscsi', 'fc', 'flexVolume', 'rbd', 'cephfs', 'azureDisk', 'scaleIO', 'storageos', 'vsphereVolume']) assert.ok(spec[s], s);
});

test('defaults: reclaim policy Retain, volume mode Filesystem, phase Pending with a transition time', async () => {
  const obj = await h.create(pv(nfs));
  const spec = obj.spec as Spec;
  assert.equal(spec.persistentVolumeReclaimPolicy, 'Retain');
  assert.equal(spec.volumeMode, 'Filesystem');
  assert.equal((obj.status as Spec).phase, 'Pending');
  assert.ok((obj.status as Spec).lastPhaseTransitionTime);
  assert.deepEqual(cells(obj).slice(1, 9), ['1Gi', 'RWO', 'Retain', 'Pending', '', '', '<unset>', '']);
  assert.equal(cells(obj)[10], 'Filesystem');
});

test('defaults of sources: hostPath type, iSCSI interface, RBD pool and user, Azure disk, ScaleIO', async () => {
  const host = await h.create(pv({ hostPath: { path: '/data' } }));
  assert.equal((host.spec as Spec).hostPath.type, '');
  const iscsi = await h.create(pv({ iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage.disk1', lun: 0 } }));
  assert.equal((iscsi.spec as Spec).iscsi.iscsiInterface, 'default');
  const rbd = await h.create(pv({ rbd: { monitors: ['10.0.0.2:6789'], image: 'foo' } }));
  assert.deepEqual([(rbd.spec as Spec).rbd.pool, (rbd.spec as Spec).rbd.user, (rbd.spec as Spec).rbd.keyring], ['rbd', 'admin', '/etc/ceph/keyring']);
  const azure = await h.create(pv({ azureDisk: { diskName: 'd', diskURI: 'https://a.blob.core.windows.net/c/d.vhd' } }));
  assert.deepEqual((azure.spec as Spec).azureDisk, { diskName: 'd', diskURI: 'https://a.blob.core.windows.net/c/d.vhd', cachingMode: 'ReadWrite', kind: 'Shared', fsType: 'ext4', readOnly: false });
  const scale = await h.create(pv({ scaleIO: { gateway: 'g', system: 's', volumeName: 'v', secretRef: { name: 's' } } }));
  assert.deepEqual([(scale.spec as Spec).scaleIO.storageMode, (scale.spec as Spec).scaleIO.fsType], ['ThinProvisioned', 'xfs']);
});

test('access modes: required, known, ReadWriteOncePod alone', async () => {
  assert.deepEqual(await causes(pv({ ...nfs, accessModes: [] })), ['spec.accessModes: Required value']);
  assert.deepEqual(await causes(pv({ ...nfs, accessModes: ['ReadWriteSometimes'] })), ['spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"']);
  assert.deepEqual(await causes(pv({ ...nfs, accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] })), ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']);
});

test('capacity: storage only, greater than zero', async () => {
  assert.deepEqual(await causes(pv({ ...nfs, capacity: { storage: '0' } })), ['spec.capacity[storage]: Invalid value: "0": must be greater than zero']);
  const extra = await causes(pv({ ...nfs, capacity: { storage: '1Gi', cpu: '1' } }));
  assert.equal(extra.length, 1);
  assert.match(extra[0], /^spec\.capacity: Unsupported value: .*supported values: "storage"$/);
  const none = await causes(pv({ ...nfs, capacity: {} }));
  assert.equal(none[0], 'spec.capacity: Required value');
});

test('exactly one volume source', async () => {
  assert.deepEqual(await causes(pv({})), ['spec: Required value: must specify a volume type']);
  assert.deepEqual(await causes(pv({ ...nfs, hostPath: { path: '/x' } })), ['spec.nfs: Forbidden: may not specify more than 1 volume type']);
});

test('reclaim policy: Retain, Delete or Recycle; never Recycle for a hostPath of /', async () => {
  assert.deepEqual(await causes(pv({ ...nfs, persistentVolumeReclaimPolicy: 'Keep' })), ['spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"']);
  assert.deepEqual(await causes(pv({ hostPath: { path: '/' }, persistentVolumeReclaimPolicy: 'Recycle' })), ["spec.persistentVolumeReclaimPolicy: Forbidden: may not be 'recycle' for a hostPath mount of '/'"]);
});

test('hostPath and local: a path without .., a known type; local needs node affinity', async () => {
  assert.deepEqual(await causes(pv({ hostPath: { path: '' } })), ['spec.hostPath.path: Required value']);
  assert.deepEqual(await causes(pv({ hostPath: { path: '/a/../b' } })), ["spec.hostPath.path: Invalid value: \"/a/../b\": must not contain '..'"]);
  assert.deepEqual(await causes(pv({ hostPath: { path: '/a', type: 'Pipe' } })), ['spec.hostPath.type: Unsupported value: "Pipe": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"']);
  assert.deepEqual(await causes(pv({ local: { path: '/mnt/disks/ssd1' } })), ['spec.nodeAffinity: Required value: Local volume requires node affinity']);
  const local = await h.create(pv({ local: { path: '/mnt/disks/ssd1', fsType: 'ext4' }, nodeAffinity: affinity }));
  assert.equal((local.spec as Spec).local.path, '/mnt/disks/ssd1');
});

test('node affinity: required terms, valid requirements', async () => {
  assert.deepEqual(await causes(pv({ ...nfs, nodeAffinity: {} })), ['spec.nodeAffinity.required: Required value: must specify required node constraints']);
  assert.deepEqual(await causes(pv({ ...nfs, nodeAffinity: { required: { nodeSelectorTerms: [] } } })), ['spec.nodeAffinity.required.nodeSelectorTerms: Required value: must have at least one node selector term']);
  assert.deepEqual(await causes(pv({ ...nfs, nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'k', operator: 'Near' }], matchFields: [{ key: 'spec.nodeName', operator: 'In', values: ['a'] }] }] } } })), [
    'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    'spec.nodeAffinity.required.nodeSelectorTerms[0].matchFields[0].key: Invalid value: "spec.nodeName": not a valid field selector key',
  ]);
});

test('nfs: server and an absolute path', async () => {
  assert.deepEqual(await causes(pv({ nfs: { path: 'relative' } })), ['spec.nfs.server: Required value', 'spec.nfs.path: Invalid value: "relative": must be an absolute path']);
});

test('csi: driver name, volume handle, secret references', async () => {
  assert.deepEqual(await causes(pv({ csi: { driver: 'Bad_Driver', nodePublishSecretRef: { name: 's' } } })), [
    'spec.csi.driver: Invalid value: "Bad_Driver": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
    'spec.csi.volumeHandle: Required value',
    'spec.csi.nodePublishSecretRef.namespace: Required value',
  ]);
  const ok = await h.create(pv({ csi: { driver: 'ebs.csi.example.com', volumeHandle: 'vol-1', volumeAttributes: { a: 'b' } } }));
  assert.equal((ok.spec as Spec).csi.volumeHandle, 'vol-1');
});

test('iscsi: portal, IQN format, LUN range, CHAP secret', async () => {
  assert.deepEqual(await causes(pv({ iscsi: { targetPortal: '1.2.3.4', iqn: 'bad', lun: 300, chapAuthSession: true } })), [
    'spec.iscsi.iqn: Invalid value: "bad": must be valid format starting with iqn, eui, or naa',
    'spec.iscsi.lun: Invalid value: 300: must be between 0 and 255, inclusive',
    'spec.iscsi.secretRef: Required value',
  ]);
  assert.deepEqual(await causes(pv({ iscsi: { targetPortal: '1.2.3.4', iqn: 'iqn.bad' } })), ['spec.iscsi.iqn: Invalid value: "iqn.bad": must be valid format']);
});

test('fc: targetWWNs with lun, or wwids, not both', async () => {
  assert.deepEqual(await causes(pv({ fc: {} })), ['spec.fc.targetWWNs: Required value: must specify either targetWWNs or wwids, but not both']);
  assert.deepEqual(await causes(pv({ fc: { targetWWNs: ['500a0981891b8dc5'] } })), ['spec.fc.lun: Required value: lun is required if targetWWNs is specified']);
  assert.deepEqual((await causes(pv({ fc: { targetWWNs: ['500a0981891b8dc5'], wwids: ['x'], lun: 0 } }))).length, 1);
});

test('flexVolume: a driver, options outside reserved namespaces', async () => {
  assert.deepEqual(await causes(pv({ flexVolume: { options: { 'platform.io/secret': 'x' } } })), [
    'spec.flexVolume.driver: Required value',
    'spec.flexVolume.options[platform.io/secret]: Invalid value: "platform.io/secret": platform.io and svc.io namespaces are reserved',
  ]);
});

test('storageClassName and volumeMode', async () => {
  const bad = await causes(pv({ ...nfs, storageClassName: 'Fast!' }));
  assert.equal(bad.length, 1);
  assert.match(bad[0], /^spec\.storageClassName: Invalid value: "Fast!": a lowercase RFC 1123 subdomain/);
  assert.deepEqual(await causes(pv({ ...nfs, volumeMode: 'Tape' })), ['spec.volumeMode: Unsupported value: "Tape": supported values: "Block", "Filesystem"']);
});

test('volumeAttributesClassName is dropped while its feature is off', async () => {
  const obj = await h.create(pv({ csi: { driver: 'd.example.com', volumeHandle: 'h' }, volumeAttributesClassName: 'gold' }));
  assert.equal((obj.spec as Spec).volumeAttributesClassName, undefined);
});

test('update: the source and volume mode are immutable; claimRef and reclaim policy may change', async () => {
  const made = await h.create(pv(nfs, 'fixed'));
  const bound = await h.update({ ...made, spec: { ...(made.spec as Spec), claimRef: { namespace: 'ns', name: 'c' }, persistentVolumeReclaimPolicy: 'Delete' } });
  assert.equal(kind.tableColumns![5].cell(bound), 'ns/c');
  const r = await rejection(h.update({ ...made, spec: { ...(made.spec as Spec), nfs: { server: 'other', path: '/x' }, volumeMode: 'Block' } }));
  assert.deepEqual(r.causes, ['spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation', 'volumeMode: Invalid value: "Block": field is immutable']);
});

test('update: node affinity may be set once, then not changed', async () => {
  const made = await h.create(pv(nfs, 'affine'));
  const set = await h.update({ ...made, spec: { ...(made.spec as Spec), nodeAffinity: affinity } });
  const changed = structuredClone(set);
  (changed.spec as Spec).nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values = ['n2'];
  assert.deepEqual((await rejection(h.update(changed))).causes, ['nodeAffinity: Invalid value: core.VolumeNodeAffinity{Required:(*core.NodeSelector)(0xc000000000)}: field is immutable, except for updating from beta label to GA']);
});

test('status: written through /status; a phase change records its time', async () => {
  const made = await h.create(pv(nfs, 'phased'));
  const before = '2020-01-01T00:00:00Z';
  const backdated = await h.update({ ...made, status: { phase: 'Pending', lastPhaseTransitionTime: before } }, { subresource: 'status' });
  assert.equal((backdated.status as Spec).lastPhaseTransitionTime, before);
  const available = await h.update({ ...backdated, status: { phase: 'Available', lastPhaseTransitionTime: before } }, { subresource: 'status' });
  assert.equal((available.status as Spec).phase, 'Available');
  assert.notEqual((available.status as Spec).lastPhaseTransitionTime, before);
  const same = await h.update({ ...available, status: { phase: 'Available', reason: 'Checked' } }, { subresource: 'status' });
  assert.equal((same.status as Spec).lastPhaseTransitionTime, (available.status as Spec).lastPhaseTransitionTime);
  const main = await h.update({ ...same, status: { phase: 'Failed' } });
  assert.equal((main.status as Spec).phase, 'Available');
});

test('the other sources: their required fields and format rules', async () => {
  const one = async (source: Record<string, unknown>) => causes(pv(source));
  assert.deepEqual(await one({ gcePersistentDisk: { partition: 300 } }), ['spec.gcePersistentDisk.pdName: Required value', 'spec.gcePersistentDisk.partition: Invalid value: 300: must be between 1 and 255, inclusive']);
  assert.deepEqual(await one({ awsElasticBlockStore: {} }), ['spec.awsElasticBlockStore.volumeID: Required value']);
  assert.deepEqual(await one({ glusterfs: { endpointsNamespace: '' } }), [
    'spec.glusterfs.endpoints: Required value', 'spec.glusterfs.path: Required value',
    'spec.glusterfs.endpointsNamespace: Required value: if the endpointnamespace is set, it must be a valid namespace name',
  ]);
  assert.deepEqual(await one({ flocker: {} }), ['spec.flocker: Required value: one of datasetName and datasetUUID is required']);
  assert.deepEqual(await one({ flocker: { datasetName: 'a', datasetUUID: 'b' } }), ['spec.flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously']);
  assert.deepEqual(await one({ rbd: {} }), ['spec.rbd.monitors: Required value', 'spec.rbd.image: Required value']);
  assert.deepEqual(await one({ cephfs: {} }), ['spec.cephfs.monitors: Required value']);
  assert.deepEqual(await one({ cinder: { volumeID: 'v', secretRef: {} } }), ['spec.cinder.secretRef.name: Required value', 'spec.cinder.secretRef.namespace: Required value']);
  assert.deepEqual(await one({ azureFile: {} }), ['spec.azureFile.secretName: Required value', 'spec.azureFile.shareName: Required value']);
  assert.deepEqual(await one({ azureDisk: { diskName: 'd', diskURI: 'd', kind: 'Managed', cachingMode: 'Always' } }), [
    'spec.azureDisk.cachingMode: Unsupported value: "Always": supported values: "None", "ReadOnly", "ReadWrite"',
    'spec.azureDisk.diskURI: Unsupported value: "d": supported values: "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"',
  ]);
  assert.deepEqual(await one({ vsphereVolume: {} }), ['spec.vsphereVolume.volumePath: Required value']);
  assert.deepEqual(await one({ photonPersistentDisk: {} }), ['spec.photonPersistentDisk.pdID: Required value']);
  assert.deepEqual(await one({ portworxVolume: {} }), ['spec.portworxVolume.volumeID: Required value']);
  assert.deepEqual(await one({ quobyte: {} }), ['spec.quobyte.registry: Required value', 'spec.quobyte.volume: Required value']);
  assert.deepEqual(await one({ scaleIO: { secretRef: { name: 's' } } }), ['spec.scaleIO.gateway: Required value', 'spec.scaleIO.system: Required value', 'spec.scaleIO.volumeName: Required value']);
  assert.deepEqual(await one({ storageos: {} }), ['spec.storageos.volumeName: Required value']);
});
