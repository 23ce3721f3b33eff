// Sweep 6: PersistentVolumeClaim updates and /status writes as Kubernetes v1.32 validates them, with
// RecoverVolumeExpansionFailure (beta, on by default): a bound claim may lower its request again while it
// stays above status.capacity, and /status checks capacity, allocatedResources and allocatedResourceStatuses.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const CLAIMS = '/api/v1/namespaces/default/persistentvolumeclaims';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const json = (v: unknown) => JSON.stringify(v);
const claim = (name: string, storage = '1Gi', spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...spec },
});

// Kubernetes' PersistentVolumeClaimResize admission lets only claims of a class that allows expansion grow.
const EXPANDABLE = { apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name: 'expandable' }, provisioner: 'csi.example.com', allowVolumeExpansion: true };

/** Creates a claim of the expandable class and binds it through /status with `capacity`, as the binder would. */
async function boundClaim(s: TestServer, name: string, request: string, capacity: string, status: Record<string, unknown> = {}): Promise<any> {
  const made = await s.request('POST', CLAIMS, { body: json(claim(name, request, { storageClassName: 'expandable', volumeName: `pv-${name}` })) });
  assert.equal(made.status, 201, made.body);
  const bound = await s.request('PATCH', `${CLAIMS}/${name}/status`, { body: json({ status: { phase: 'Bound', capacity: { storage: capacity }, ...status } }), headers: MERGE });
  assert.equal(bound.status, 200, bound.body);
  return bound.json();
}

const resize = (s: TestServer, name: string, storage: string) =>
  s.kubectl(['patch', 'pvc', name, '-p', json({ spec: { resources: { requests: { storage } } } })]);

describe('PersistentVolumeClaim updates and status (sweep 6), default gates', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    const sc = await s.request('POST', '/apis/storage.svc.io/v1/storageclasses', { body: json(EXPANDABLE) });
    assert.equal(sc.status, 201, sc.body);
  });
  after(async () => { await s?.stop(); });

  it('a bound claim grows, then may lower its request while it stays above status.capacity (kubectl patch)', async () => {
    await boundClaim(s, 'resize', '1Gi', '1Gi');
    assert.equal((await resize(s, 'resize', '3Gi')).code, 0);
    const lowered = await resize(s, 'resize', '2Gi');
    assert.equal(lowered.code, 0, lowered.stderr);
    assert.equal(lowered.stdout.trim(), 'persistentvolumeclaim/resize patched');
    const got = await s.request('GET', `${CLAIMS}/resize`);
    assert.equal(got.json().spec.resources.requests.storage, '2Gi');

    for (const storage of ['1Gi', '1000Mi']) {
      const refused = await resize(s, 'resize', storage);
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr, 'The PersistentVolumeClaim "resize" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than status.capacity\n');
    }
  });

  it('the status.capacity rule answers 422 with its cause over raw HTTPS', async () => {
    await boundClaim(s, 'raw-resize', '5Gi', '2Gi');
    const r = await s.request('PATCH', `${CLAIMS}/raw-resize`, { body: json({ spec: { resources: { requests: { storage: '2Gi' } } } }), headers: MERGE });
    assert.equal(r.status, 422);
    assert.deepEqual(r.json().details.causes, [
      { reason: 'FieldValueForbidden', message: 'Forbidden: field can not be less than status.capacity', field: 'spec.resources.requests.storage' },
    ]);
    const ok = await s.request('PATCH', `${CLAIMS}/raw-resize`, { body: json({ spec: { resources: { requests: { storage: '3Gi' } } } }), headers: MERGE });
    assert.equal(ok.status, 200, ok.body);
  });

  it('/status refuses resize statuses it does not know, naming the key, on the singular path (kubectl --subresource=status)', async () => {
    await boundClaim(s, 'statuses', '1Gi', '1Gi');
    const r = await s.kubectl(['patch', 'pvc', 'statuses', '--subresource=status', '--type=merge', '-p', json({ status: { allocatedResourceStatuses: { storage: 'Resizing' } } })]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'The PersistentVolumeClaim "statuses" is invalid: status.allocatedResourceStatus: Unsupported value: "storage": supported values: "ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"\n');

    const native = await s.request('PATCH', `${CLAIMS}/statuses/status`, { body: json({ status: { allocatedResourceStatuses: { memory: 'NodeResizePending' } } }), headers: MERGE });
    assert.equal(native.status, 422);
    assert.deepEqual(native.json().details.causes.map((c: any) => `${c.field}: ${c.message}`), [
      'status.allocatedResourceStatus: Unsupported value: "memory": supported values: "storage"',
    ]);

    const ok = await s.kubectl(['patch', 'pvc', 'statuses', '--subresource=status', '--type=merge', '-p', json({ status: { allocatedResourceStatuses: { storage: 'NodeResizePending', 'example.com/iops': 'ControllerResizeInProgress' } } })]);
    assert.equal(ok.code, 0, ok.stderr);
    const got = (await s.request('GET', `${CLAIMS}/statuses`)).json();
    assert.deepEqual(got.status.allocatedResourceStatuses, { 'example.com/iops': 'ControllerResizeInProgress', storage: 'NodeResizePending' });
  });

  it('/status checks capacity and allocatedResources: no negative quantity, keys storage or a qualified extended name', async () => {
    await boundClaim(s, 'alloc', '1Gi', '1Gi');
    const patch = (status: Record<string, unknown>) => s.request('PATCH', `${CLAIMS}/alloc/status`, { body: json({ status }), headers: MERGE });
    const causes = async (status: Record<string, unknown>) => {
      const r = await patch(status);
      assert.equal(r.status, 422, r.body);
      return r.json().details.causes.map((c: any) => `${c.field}: ${c.message}`);
    };
    assert.deepEqual(await causes({ capacity: { storage: '-2Gi' } }), ['status.capacity[storage]: Invalid value: -2147483648: must be a valid resource quantity']);
    assert.deepEqual(await causes({ allocatedResources: { storage: '-500m' } }), ['status.allocatedResources[storage]: Invalid value: -1: must be a valid resource quantity']);
    assert.deepEqual(await causes({ allocatedResources: { cpu: '1', 'platform.io/disk': '1' } }), [
      'status.allocatedResources: Unsupported value: "cpu": supported values: "storage"',
      'status.allocatedResources: Unsupported value: "platform.io/disk": supported values: "storage"',
    ]);

    const r = await s.kubectl(['patch', 'pvc', 'alloc', '--subresource=status', '--type=merge', '-p', json({ status: { allocatedResources: { 'example.com/a b': '1' } } })]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^The PersistentVolumeClaim "alloc" is invalid: status\.allocatedResources: Invalid value: "example\.com\/a b": name part must consist of alphanumeric characters/);

    const ok = await patch({ allocatedResources: { storage: '2Gi', 'example.com/iops': '3000' } });
    assert.equal(ok.status, 200, ok.body);
    assert.deepEqual(ok.json().status.allocatedResources, { 'example.com/iops': '3k', storage: '2Gi' });
  });

  it('/status drops the VolumeAttributesClass status fields while that gate is off, and keeps the spec', async () => {
    const bound = await boundClaim(s, 'vac-status', '1Gi', '1Gi');
    const r = await s.request('PUT', `${CLAIMS}/vac-status/status`, {
      body: json({ ...bound, spec: { ...bound.spec, volumeName: 'pv-other' }, status: { ...bound.status, currentVolumeAttributesClassName: 'gold', modifyVolumeStatus: { status: 'Pending', targetVolumeAttributesClassName: 'gold' } } }),
    });
    assert.equal(r.status, 200, r.body);
    const got = r.json();
    assert.equal(got.status.currentVolumeAttributesClassName, undefined);
    assert.equal(got.status.modifyVolumeStatus, undefined);
    assert.equal(got.spec.volumeName, 'pv-vac-status');
    assert.equal(got.status.phase, 'Bound');
  });

  it('a dataSource other than a claim or a snapshot, without dataSourceRef, is dropped on create as old servers ignored it', async () => {
    const r = await s.request('POST', CLAIMS, { body: json(claim('legacy-source', '1Gi', { dataSource: { kind: 'ConfigMap', name: 'x' } })) });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().spec.dataSource, undefined);
    assert.equal(r.json().spec.dataSourceRef, undefined);
    const snap = await s.request('POST', CLAIMS, { body: json(claim('snap-source', '1Gi', { dataSource: { apiGroup: 'snapshot.storage.svc.io', kind: 'VolumeSnapshot', name: 's' } })) });
    assert.equal(snap.status, 201, snap.body);
    assert.deepEqual(snap.json().spec.dataSourceRef, { apiGroup: 'snapshot.storage.svc.io', kind: 'VolumeSnapshot', name: 's' });
  });
});

describe('PersistentVolumeClaim with RecoverVolumeExpansionFailure=false (sweep 6)', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ featureGates: { RecoverVolumeExpansionFailure: false } }); });
  after(async () => { await s?.stop(); });

  it('a request never shrinks, and /status cannot add allocation fields', async () => {
    await boundClaim(s, 'no-recover', '3Gi', '1Gi');
    const refused = await resize(s, 'no-recover', '2Gi');
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, 'The PersistentVolumeClaim "no-recover" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than previous value\n');

    const r = await s.request('PATCH', `${CLAIMS}/no-recover/status`, { body: json({ status: { allocatedResources: { storage: '3Gi' }, allocatedResourceStatuses: { storage: 'Bogus' } } }), headers: MERGE });
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().status.allocatedResources, undefined);
    assert.equal(r.json().status.allocatedResourceStatuses, undefined);
  });
});
