// End-to-end: differences from Kubernetes v1.32 found by the catalogue sweep of ConfigMap, Secret,
// CSIDriver, CSINode, PersistentVolume and pod volumes (the resource catalogue's last part).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const json = (o: unknown) => JSON.stringify(o);
const SECRETS = '/api/v1/namespaces/default/secrets';
const CSI_DRIVERS = '/apis/storage.svc.io/v1/csidrivers';
const PVS = '/api/v1/persistentvolumes';
const PODS = '/api/v1/namespaces/default/pods';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('catalogue sweep C: configuration, storage and volumes', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    // Pods need their service account (the admission plugin looks it up).
    assert.equal((await s.request('POST', '/api/v1/namespaces/default/serviceaccounts', { body: json({ metadata: { name: 'default' } }) })).status, 201);
  });
  after(async () => { await s.stop(); });

  const causes = async (path: string, body: unknown) => {
    const r = await s.request('POST', path, { body: json(body) });
    assert.equal(r.status, 422, r.body);
    return r.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  };
  const fieldsOf = (obj: any) => obj.metadata.managedFields.map((e: any) => e.fieldsV1);
  const pod = (name: string, volumes: unknown[]) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], volumes } });

  it('Secret: stringData is merged while decoding, so field ownership records the data keys, never stringData', async () => {
    const created = await s.request('POST', SECRETS, { body: json({ metadata: { name: 'owned' }, data: { a: 'eA==' }, stringData: { b: 'y' } }) });
    assert.equal(created.status, 201, created.body);
    assert.deepEqual(created.json().data, { a: 'eA==', b: 'eQ==' });
    assert.deepEqual(fieldsOf(created.json()), [{ 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} }, 'f:type': {} }]);
    const put = await s.request('PUT', `${SECRETS}/owned`, { body: json({ metadata: { name: 'owned' }, data: created.json().data, stringData: { c: 'z' } }) });
    assert.equal(put.status, 200, put.body);
    assert.deepEqual(fieldsOf(put.json()), [{ 'f:data': { '.': {}, 'f:a': {}, 'f:b': {}, 'f:c': {} }, 'f:type': {} }]);
    const patched = await s.request('PATCH', `${SECRETS}/owned`, { body: json({ stringData: { d: 'w' } }), headers: MERGE });
    assert.equal(patched.status, 200, patched.body);
    assert.deepEqual(Object.keys(patched.json().data), ['a', 'b', 'c', 'd']);
    assert.equal(JSON.stringify(patched.json().metadata.managedFields).includes('stringData'), false);
  });

  it('CSIDriver: no generation on create; each spec change bumps it, metadata changes do not', async () => {
    const created = await s.request('POST', CSI_DRIVERS, { body: json({ metadata: { name: 'gen.csi.example.com' }, spec: {} }) });
    assert.equal(created.status, 201, created.body);
    assert.equal(created.json().metadata.generation, undefined);
    const changed = await s.request('PATCH', `${CSI_DRIVERS}/gen.csi.example.com`, { body: json({ spec: { podInfoOnMount: true } }), headers: MERGE });
    assert.equal(changed.json().metadata.generation, 1);
    const labelled = await s.request('PATCH', `${CSI_DRIVERS}/gen.csi.example.com`, { body: json({ metadata: { labels: { a: 'b' } } }), headers: MERGE });
    assert.equal(labelled.json().metadata.generation, 1);
    const again = await s.request('PATCH', `${CSI_DRIVERS}/gen.csi.example.com`, { body: json({ spec: { tokenRequests: [{ audience: 'vault' }] } }), headers: MERGE });
    assert.equal(again.json().metadata.generation, 2);
  });

  it('CSINode: a changed driver entry is shown whole, as Go prints it', async () => {
    const nodes = '/apis/storage.svc.io/v1/csinodes';
    const made = await s.request('POST', nodes, { body: json({ metadata: { name: 'n1' }, spec: { drivers: [{ name: 'd.example.com', nodeID: 'a', topologyKeys: ['zone'] }] } }) });
    assert.equal(made.status, 201, made.body);
    const r = await s.request('PUT', `${nodes}/n1`, { body: json({ ...made.json(), spec: { drivers: [{ name: 'd.example.com', nodeID: 'b', topologyKeys: ['zone'], allocatable: { count: 3 } }] } }) });
    assert.equal(r.status, 422, r.body);
    assert.equal(r.json().message, 'CSINode.storage.svc.io "n1" is invalid: spec.drivers: Invalid value: storage.CSINodeDriver{Name:"d.example.com", NodeID:"b", TopologyKeys:[]string{"zone"}, Allocatable:(*storage.VolumeNodeResources)(0xc000000000)}: field is immutable');
  });

  it('PersistentVolume: an absent capacity prints as Go prints a nil map', async () => {
    assert.deepEqual(await causes(PVS, { metadata: { name: 'nocap' }, spec: { accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } } }), [
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: core.ResourceList(nil): supported values: "storage"',
    ]);
  });

  it('PersistentVolume and pod fc volumes: both targetWWNs and wwids show the list as Go prints it', async () => {
    const fc = { targetWWNs: ['500a0982991b8dc5', '500a0982891b8dc5'], lun: 2, wwids: ['w'] };
    const message = 'Invalid value: []string{"500a0982991b8dc5", "500a0982891b8dc5"}: targetWWNs and wwids can not be specified simultaneously';
    assert.deepEqual(await causes(PVS, { metadata: { name: 'fc' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], fc } }), [`spec.fc.targetWWNs: ${message}`]);
    assert.deepEqual(await causes(PODS, pod('fc', [{ name: 'v', fc }])), [`spec.volumes[0].fc.targetWWNs: ${message}`]);
  });

  it('pod flexVolume: option keys in either of the API server\'s namespaces are reserved, as for a persistent volume', async () => {
    assert.deepEqual(await causes(PODS, pod('flex', [{ name: 'v', flexVolume: { driver: 'd', options: { 'x.svc.io/a': '1', 'platform.io/b': '2', 'example.com/c': '3' } } }])), [
      'spec.volumes[0].flexVolume.options[x.svc.io/a]: Invalid value: "x.svc.io/a": platform.io and svc.io namespaces are reserved',
      'spec.volumes[0].flexVolume.options[platform.io/b]: Invalid value: "platform.io/b": platform.io and svc.io namespaces are reserved',
    ]);
  });

  it('PersistentVolume: deprecated reclaim policy, annotations, node labels and plugins are answered with warnings', async () => {
    const r = await s.request('POST', PVS, { body: json({
      metadata: { name: 'warned', annotations: { 'volume.beta.platform.io/storage-class': 'gold' } },
      spec: {
        capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], persistentVolumeReclaimPolicy: 'Recycle', rbd: { monitors: ['m'], image: 'i' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.platform.io/zone', operator: 'In', values: ['a'] }] }] } },
      },
    }) });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.headers.warning, [
      '299 - "metadata.annotations[volume.beta.platform.io/storage-class]: deprecated since v1.8; use \\"storageClassName\\" attribute instead"',
      '299 - "spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning."',
      '299 - "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.platform.io/zone is deprecated since v1.17; use \\"topology.platform.io/zone\\" instead"',
      '299 - "spec.rbd: deprecated in v1.28, non-functional in v1.31+"',
    ].join(', '));
  });

  it('PersistentVolume: the mount-options annotation is refused on a volume type without mount options', async () => {
    assert.deepEqual(await causes(PVS, { metadata: { name: 'mo', annotations: { 'volume.beta.platform.io/mount-options': 'ro' } }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } } }), [
      'metadata.annotations.volume.beta.platform.io/mount-options: Forbidden: may not specify mount options for this volume type',
    ]);
    const nfs = await s.request('POST', PVS, { body: json({ metadata: { name: 'mo-nfs', annotations: { 'volume.beta.platform.io/mount-options': 'ro' } }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], nfs: { server: 's', path: '/p' } } }) });
    assert.equal(nfs.status, 201, nfs.body);
    assert.match(String(nfs.headers.warning), /metadata\.annotations\[volume\.beta\.platform\.io\/mount-options\]: deprecated since v1\.31; use \\"mountOptions\\" attribute instead/);
  });

  it('pod hostPath volume: without a path only the path is reported', async () => {
    assert.deepEqual(await causes(PODS, pod('hp', [{ name: 'v', hostPath: { path: '', type: 'Weird' } }])), ['spec.volumes[0].hostPath.path: Required value']);
  });

  it('pod projected volume: one volume type per source, and a local service account token path', async () => {
    assert.deepEqual(await causes(PODS, pod('two', [{ name: 'v', projected: { sources: [{ configMap: { name: 'a' }, secret: { name: 'b' } }] } }])), [
      'spec.volumes[0].projected.sources[0]: Forbidden: may not specify more than 1 volume type',
    ]);
    assert.deepEqual(await causes(PODS, pod('abs', [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: '/token' } }] } }])), [
      'spec.volumes[0].projected.path: Invalid value: "/token": must be a relative path',
    ]);
    assert.deepEqual(await causes(PODS, pod('up', [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: '..token' } }] } }])), [
      "spec.volumes[0].projected.path: Invalid value: \"..token\": must not start with '..'",
    ]);
  });

  it('pod csi volume: an empty or absent driver is both required and no subdomain', async () => {
    const expected = ['spec.volumes[0].csi.driver: Required value', `spec.volumes[0].csi.driver: Invalid value: "": ${SUBDOMAIN}`];
    assert.deepEqual(await causes(PODS, pod('csi-empty', [{ name: 'v', csi: { driver: '' } }])), expected);
    assert.deepEqual(await causes(PODS, pod('csi-absent', [{ name: 'v', csi: {} }])), expected);
  });
});
