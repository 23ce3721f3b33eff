// End-to-end over raw HTTP: DELETE and deletecollection — the answers, finalizers, preconditions, options,
// the namespace lifecycle, dry runs; refusals write nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { API_TEST_CONTROLLERS, startTestServer, type TestServer } from './support/capstan.ts';
import { pythonClient, runPython } from './support/python.ts';
import { assertNothingWritten, call, configMapMarker, expectStatus, openWatch, type RawResponse } from './support/write-helpers.ts';

const NS = 'write-delete';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

describe('delete', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => { await s.stop(); });

  const refused = (action: () => Promise<RawResponse>) => assertNothingWritten(s, CM, configMapMarker, action);
  const create = async (name: string, meta: object = {}, extra: object = {}) => {
    const r = await call(s, 'POST', CM, { metadata: { name, ...meta }, ...extra });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };

  it('answers a Success Status naming the resource, and the object is gone', async () => {
    const obj = await create('d1');
    const r = await call(s, 'DELETE', `${CM}/d1`);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'd1', kind: 'configmaps', uid: obj.metadata.uid } });
    expectStatus(await call(s, 'GET', `${CM}/d1`), 404, 'NotFound', 'configmaps "d1" not found');
    expectStatus(await call(s, 'DELETE', `${CM}/d1`), 404, 'NotFound', 'configmaps "d1" not found');
  });

  it('names the group for grouped resources; ServiceAccount answers the deleted object', async () => {
    const leases = `/apis/coordination.svc.io/v1/namespaces/${NS}/leases`;
    const lease = (await call(s, 'POST', leases, { metadata: { name: 'l1' } })).json();
    const r = await call(s, 'DELETE', `${leases}/l1`);
    assert.deepEqual(r.json().details, { name: 'l1', group: 'coordination.svc.io', kind: 'leases', uid: lease.metadata.uid });
    const sas = `/api/v1/namespaces/${NS}/serviceaccounts`;
    const sa = (await call(s, 'POST', sas, { metadata: { name: 'sa1' } })).json();
    const del = await call(s, 'DELETE', `${sas}/sa1`);
    assert.equal(del.status, 200);
    assert.equal(del.json().kind, 'ServiceAccount');
    assert.equal(del.json().metadata.uid, sa.metadata.uid);
    assert.ok(Number(del.json().metadata.resourceVersion) > Number(sa.metadata.resourceVersion));
  });

  it('finalizers keep the object, marked, until an update removes them', async () => {
    const obj = await create('held', { finalizers: ['example.com/hold'] });
    const watch = await openWatch(s, `${CM}?watch=1&resourceVersion=${obj.metadata.resourceVersion}&fieldSelector=metadata.name=held`);
    try {
      const r = await call(s, 'DELETE', `${CM}/held`);
      assert.equal(r.status, 200, r.body);
      const marked = r.json();
      assert.equal(marked.kind, 'ConfigMap');
      assert.match(marked.metadata.deletionTimestamp, /Z$/);
      assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
      assert.deepEqual(marked.metadata.finalizers, ['example.com/hold']);
      assert.equal((await watch.next()).type, 'MODIFIED');
      // Deleting again changes nothing.
      const again = await refused(() => call(s, 'DELETE', `${CM}/held`));
      assert.equal(again.status, 200);
      assert.equal(again.json().metadata.resourceVersion, marked.metadata.resourceVersion);
      assert.equal(again.json().metadata.deletionTimestamp, marked.metadata.deletionTimestamp);
      // No new finalizers while deleting.
      expectStatus(await refused(() => call(s, 'PUT', `${CM}/held`, { ...marked, metadata: { ...marked.metadata, finalizers: ['example.com/hold', 'example.com/more'] } })), 422, 'Invalid',
        'ConfigMap "held" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}');
      // Removing the last finalizer removes the object; the update answers it as it left.
      const released = await call(s, 'PUT', `${CM}/held`, { ...marked, metadata: { ...marked.metadata, finalizers: [] } });
      assert.equal(released.status, 200, released.body);
      assert.equal(released.json().metadata.name, 'held');
      const event = await watch.next();
      assert.equal(event.type, 'DELETED');
      assert.equal(event.object.metadata.name, 'held');
      expectStatus(await call(s, 'GET', `${CM}/held`), 404, 'NotFound');
    } finally {
      watch.close();
    }
  });

  it('preconditions: a uid or resourceVersion other than the object\'s is 409', async () => {
    const obj = await create('pre');
    const uid = await refused(() => call(s, 'DELETE', `${CM}/pre`, { preconditions: { uid: 'other-uid' } }));
    const st = expectStatus(uid, 409, 'Conflict', `Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (other-uid) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`);
    assert.deepEqual(st.details, { name: 'pre', kind: 'ConfigMap' });
    const rv = await refused(() => call(s, 'DELETE', `${CM}/pre`, { preconditions: { resourceVersion: '1' } }));
    expectStatus(rv, 409, 'Conflict', `Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`);
    const ok = await call(s, 'DELETE', `${CM}/pre`, { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion } });
    assert.equal(ok.status, 200, ok.body);
    assert.equal(ok.json().status, 'Success');
  });

  it('DeleteOptions in the body or the query: propagationPolicy, gracePeriodSeconds, orphanDependents', async () => {
    for (const [i, policy] of ['Orphan', 'Background', 'Foreground'].entries()) {
      await create(`pp${i}`);
      const r = await call(s, 'DELETE', `${CM}/pp${i}`, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: policy, gracePeriodSeconds: 5 });
      assert.equal(r.status, 200, r.body);
      await create(`pq${i}`);
      const q = await call(s, 'DELETE', `${CM}/pq${i}?propagationPolicy=${policy}&gracePeriodSeconds=0`);
      assert.equal(q.status, 200, q.body);
    }
    await create('opts');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts?propagationPolicy=Sideways`)), 422, 'Invalid',
      'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts`, { propagationPolicy: 'Sideways' })), 422, 'Invalid',
      'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts`, { propagationPolicy: 'Orphan', orphanDependents: true })), 422, 'Invalid',
      'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts`, { dryRun: ['Some'] })), 422, 'Invalid',
      'DeleteOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts?gracePeriodSeconds=soon`)), 400, 'BadRequest', 'strconv.ParseInt: parsing "soon": invalid syntax');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts`, { gracePeriodSeconds: 'soon' })), 400, 'BadRequest',
      'DeleteOptions in version "v1" cannot be handled as a DeleteOptions: json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts`, '{"propagationPolicy":')), 400, 'BadRequest', /^the object provided is unrecognized \(must be of type DeleteOptions\): couldn't get version\/kind; json parse error: unexpected end of JSON input/);
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts`, { kind: 'ConfigMap' })), 400, 'BadRequest', 'decoded object cannot be converted to DeleteOptions');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/opts?dryRun=Some`)), 422, 'Invalid', 'DeleteOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"');
    // orphanDependents=false on an object that stays: 202 Accepted, as Kubernetes answers.
    await create('accepted', { finalizers: ['example.com/hold'] });
    const accepted = await call(s, 'DELETE', `${CM}/accepted`, { orphanDependents: false });
    assert.equal(accepted.status, 202, accepted.body);
  });

  it('dryRun=All: everything is checked, nothing is deleted', async () => {
    const obj = await create('dry');
    const r = await refused(() => call(s, 'DELETE', `${CM}/dry?dryRun=All`));
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().details, { name: 'dry', kind: 'configmaps', uid: obj.metadata.uid });
    assert.equal((await call(s, 'GET', `${CM}/dry`)).status, 200);
    const body = await refused(() => call(s, 'DELETE', `${CM}/dry`, { dryRun: ['All'] }));
    assert.equal(body.status, 200);
    await create('dry-held', { finalizers: ['example.com/hold'] });
    const held = await refused(() => call(s, 'DELETE', `${CM}/dry-held?dryRun=All`));
    assert.ok(held.json().metadata.deletionTimestamp);
    assert.equal((await call(s, 'GET', `${CM}/dry-held`)).json().metadata.deletionTimestamp, undefined);
    expectStatus(await call(s, 'DELETE', `${CM}/dry?dryRun=All`, { preconditions: { uid: 'x' } }), 409, 'Conflict');
  });

  it('deletecollection deletes what the selectors match and answers the list of what it deleted', async () => {
    const DC = `/api/v1/namespaces/dc/configmaps`;
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'dc' } })).status, 201);
    for (const [name, tier] of [['a', 'web'], ['b', 'web'], ['c', 'db'], ['d', 'web']]) {
      assert.equal((await call(s, 'POST', DC, { metadata: { name, labels: { tier } } })).status, 201);
    }
    const names = async () => (await call(s, 'GET', DC)).json().items.map((i: any) => i.metadata.name);
    const dry = await call(s, 'DELETE', `${DC}?labelSelector=tier%3Dweb&dryRun=All`);
    assert.equal(dry.status, 200);
    assert.deepEqual(await names(), ['a', 'b', 'c', 'd']);
    const r = await call(s, 'DELETE', `${DC}?labelSelector=tier%3Dweb&fieldSelector=metadata.name!%3Dd`);
    assert.equal(r.status, 200, r.body);
    const deleted = r.json();
    assert.equal(deleted.kind, 'ConfigMapList');
    assert.equal(deleted.apiVersion, 'v1');
    assert.match(deleted.metadata.resourceVersion, /^\d+$/);
    assert.deepEqual(deleted.items.map((i: any) => [i.metadata.name, i.metadata.labels.tier]), [['a', 'web'], ['b', 'web']]);
    assert.deepEqual(await names(), ['c', 'd']);
    expectStatus(await call(s, 'DELETE', `${DC}?labelSelector=tier%3D%3D%3Dx`), 400, 'BadRequest');
    expectStatus(await call(s, 'DELETE', `${DC}?fieldSelector=data.x%3Dy`), 400, 'BadRequest');
    expectStatus(await call(s, 'DELETE', `${DC}?limit=x`), 400, 'BadRequest', 'strconv.ParseInt: parsing "x": invalid syntax');
    const all = await call(s, 'DELETE', DC, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    assert.equal(all.status, 200);
    assert.deepEqual(await names(), []);
    expectStatus(await call(s, 'DELETE', '/api/v1/configmaps'), 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  });

  describe('namespaces', () => {
    it('delete turns the namespace Terminating without a grace period; a second delete is 409 while content remains', async () => {
      assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'ending' } })).status, 201);
      assert.equal((await call(s, 'POST', '/api/v1/namespaces/ending/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } })).status, 201);
      const r = await call(s, 'DELETE', '/api/v1/namespaces/ending');
      assert.equal(r.status, 200, r.body);
      const ns = r.json();
      assert.equal(ns.kind, 'Namespace');
      assert.equal(ns.status.phase, 'Terminating');
      assert.ok(ns.metadata.deletionTimestamp);
      assert.equal(ns.metadata.deletionGracePeriodSeconds, undefined);
      const again = await call(s, 'DELETE', '/api/v1/namespaces/ending');
      const st = expectStatus(again, 409, 'Conflict', 'Operation cannot be fulfilled on namespaces "ending": The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.');
      assert.deepEqual(st.details, { name: 'ending', kind: 'namespaces' });
      // Release the content; the namespace then goes.
      const held = (await call(s, 'GET', '/api/v1/namespaces/ending/configmaps/held')).json();
      assert.equal((await call(s, 'PUT', '/api/v1/namespaces/ending/configmaps/held', { ...held, metadata: { ...held.metadata, finalizers: null } })).status, 200);
      for (let i = 0; i < 200; i++) {
        if ((await call(s, 'GET', '/api/v1/namespaces/ending')).status === 404) return;
        await new Promise((res) => setTimeout(res, 25));
      }
      assert.fail('the namespace was not removed');
    });

    it('namespace preconditions use the namespace registry\'s words', async () => {
      const ns = (await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'pre-ns' } })).json();
      expectStatus(await call(s, 'DELETE', '/api/v1/namespaces/pre-ns', { preconditions: { uid: 'x' } }), 409, 'Conflict',
        `Operation cannot be fulfilled on namespaces "pre-ns": Precondition failed: UID in precondition: x, UID in object meta: ${ns.metadata.uid}`);
      expectStatus(await call(s, 'DELETE', '/api/v1/namespaces/pre-ns', { preconditions: { resourceVersion: '1' } }), 409, 'Conflict',
        `Operation cannot be fulfilled on namespaces "pre-ns": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${ns.metadata.resourceVersion}`);
      const dry = await call(s, 'DELETE', '/api/v1/namespaces/pre-ns?dryRun=All');
      assert.equal(dry.json().status.phase, 'Terminating');
      assert.equal((await call(s, 'GET', '/api/v1/namespaces/pre-ns')).json().status.phase, 'Active');
    });
  });
});

// Kubernetes v1.32's registries that set ReturnDeletedObject answer a DELETE that removes the object with
// the object itself, not a Status: ResourceQuota, PersistentVolume(Claim), and the storage.svc.io CSIDriver,
// CSINode, StorageClass, VolumeAttachment and VolumeAttributesClass (besides Pod, Service, ServiceAccount).
describe('delete answers the deleted object where Kubernetes\' registry returns it', () => {
  let s: TestServer;
  before(async () => {
    // No protection controllers: nothing holds a claim or volume, so the DELETE removes it at once.
    s = await startTestServer({ controllers: [...API_TEST_CONTROLLERS, '-pvc-protection', '-pv-protection'], runtimeConfig: { 'storage.svc.io/v1beta1': 'true' } });
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'rdo' } })).status, 201);
  });
  after(async () => { await s?.stop(); });

  const STORAGE = '/apis/storage.svc.io/v1';
  const kinds: [string, string, Record<string, unknown>][] = [
    ['/api/v1/namespaces/rdo/resourcequotas', 'ResourceQuota', { metadata: { name: 'rq' }, spec: { hard: { pods: '3' } } }],
    ['/api/v1/persistentvolumes', 'PersistentVolume', { metadata: { name: 'pv' }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/x' } } }],
    ['/api/v1/namespaces/rdo/persistentvolumeclaims', 'PersistentVolumeClaim', { metadata: { name: 'pvc' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: '' } }],
    [`${STORAGE}/csidrivers`, 'CSIDriver', { metadata: { name: 'd.example.com' }, spec: { attachRequired: false } }],
    [`${STORAGE}/csinodes`, 'CSINode', { metadata: { name: 'node-a' }, spec: { drivers: [{ name: 'd.example.com', nodeID: 'a' }] } }],
    [`${STORAGE}/storageclasses`, 'StorageClass', { metadata: { name: 'gold' }, provisioner: 'd.example.com', parameters: { type: 'fast' } }],
    [`${STORAGE}/volumeattachments`, 'VolumeAttachment', { metadata: { name: 'va' }, spec: { attacher: 'd.example.com', nodeName: 'node-a', source: { persistentVolumeName: 'pv' } } }],
    ['/apis/storage.svc.io/v1beta1/volumeattributesclasses', 'VolumeAttributesClass', { metadata: { name: 'vac' }, driverName: 'd.example.com', parameters: { iops: '3000' } }],
  ];

  for (const [path, kind, body] of kinds) {
    it(`${kind}: 200 with the object, which is gone`, async () => {
      const made = await call(s, 'POST', path, body);
      assert.equal(made.status, 201, made.body);
      let created = made.json();
      const name = created.metadata.name;
      if (created.metadata.finalizers) {
        // The protection finalizer admission sets on a claim or volume would keep it (and a kept object is
        // answered whatever the kind); without it the DELETE removes the object.
        const released = await call(s, 'PATCH', `${path}/${name}`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
        assert.equal(released.status, 200, released.body);
        created = released.json();
      }
      const r = await call(s, 'DELETE', `${path}/${name}`);
      assert.equal(r.status, 200, r.body);
      const deleted = r.json();
      assert.equal(deleted.kind, kind);
      assert.equal(deleted.apiVersion, created.apiVersion);
      assert.equal(deleted.metadata.name, name);
      assert.equal(deleted.metadata.uid, created.metadata.uid);
      assert.equal(deleted.metadata.deletionTimestamp, undefined);
      // The object as it was, spec (or the kind's top-level fields) unchanged.
      for (const field of Object.keys(body).filter((k) => k !== 'metadata')) assert.deepEqual(deleted[field], created[field], field);
      expectStatus(await call(s, 'GET', `${path}/${name}`), 404, 'NotFound');
    });
  }

  it('a dry run answers the object too and deletes nothing', async () => {
    const path = '/api/v1/namespaces/rdo/resourcequotas';
    const created = (await call(s, 'POST', path, { metadata: { name: 'rq-dry' }, spec: { hard: { pods: '1' } } })).json();
    const r = await call(s, 'DELETE', `${path}/rq-dry?dryRun=All`);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().kind, 'ResourceQuota');
    assert.deepEqual(r.json().spec, created.spec);
    assert.equal((await call(s, 'GET', `${path}/rq-dry`)).status, 200);
  });

  it('answers in the group name the client used (storage.k8s.io)', async () => {
    assert.equal((await call(s, 'POST', `${STORAGE}/storageclasses`, { metadata: { name: 'aliased' }, provisioner: 'd.example.com' })).status, 201);
    const r = await call(s, 'DELETE', '/apis/storage.k8s.io/v1/storageclasses/aliased');
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().kind, 'StorageClass');
    assert.equal(r.json().apiVersion, 'storage.k8s.io/v1');
  });

  it('the Python client reads delete_namespaced_resource_quota\'s answer as the V1ResourceQuota it is typed to return', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    const script = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
core = client.CoreV1Api()
core.create_namespaced_resource_quota('rdo', {'metadata': {'name': 'py-rq'}, 'spec': {'hard': {'pods': '2'}}})
q = core.delete_namespaced_resource_quota('py-rq', 'rdo')
core.create_namespaced_config_map('rdo', {'metadata': {'name': 'py-cm'}})
c = core.delete_namespaced_config_map('py-cm', 'rdo')
print(json.dumps({'quota': [type(q).__name__, q.kind, q.metadata.name, q.spec.hard], 'configmap': [type(c).__name__, c.status, c.details.kind]}))
`;
    const r = await runPython(script, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout.trim()), { quota: ['V1ResourceQuota', 'ResourceQuota', 'py-rq', { pods: '2' }], configmap: ['V1Status', 'Success', 'configmaps'] });
  });

  it('CSIStorageCapacity, whose registry does not, still answers a Status; deletecollection answers the deleted list', async () => {
    const path = `${STORAGE}/namespaces/rdo/csistoragecapacities`;
    const created = (await call(s, 'POST', path, { metadata: { name: 'cap' }, storageClassName: 'gold' })).json();
    const r = await call(s, 'DELETE', `${path}/cap`);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'cap', group: 'storage.svc.io', kind: 'csistoragecapacities', uid: created.metadata.uid } });
    const quotas = '/api/v1/namespaces/rdo/resourcequotas';
    assert.equal((await call(s, 'POST', quotas, { metadata: { name: 'rq-c' }, spec: { hard: { pods: '1' } } })).status, 201);
    const all = await call(s, 'DELETE', quotas);
    assert.equal(all.status, 200, all.body);
    assert.equal(all.json().kind, 'ResourceQuotaList');
    assert.deepEqual(all.json().items.map((i: any) => i.metadata.name), ['rq-c', 'rq-dry']);
    assert.deepEqual((await call(s, 'GET', quotas)).json().items, []);
  });
});
