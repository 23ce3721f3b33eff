// Sweep 6: the storage kinds whose fields the spec leaves "not shown" behave as Kubernetes v1.32's
// strategies and validation do (update preconditions, generation, status rules, warnings).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const STORAGE = '/apis/storage.svc.io/v1';
const MIGRATIONS = '/apis/storagemigration.svc.io/v1alpha1/storageversionmigrations';
const json = (v: unknown) => JSON.stringify(v);
const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('storage kinds (sweep 6)', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ runtimeConfig: { 'storagemigration.svc.io/v1alpha1': 'true' } }); });
  after(async () => { await s?.stop(); });

  const create = async (path: string, obj: Record<string, unknown>) => {
    const r = await s.request('POST', path, { body: json(obj) });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };

  it('CSINode, VolumeAttachment, CSIStorageCapacity and StorageVersionMigration refuse an update without a resourceVersion', async () => {
    const kinds: [string, string, Record<string, unknown>][] = [
      [`${STORAGE}/csinodes`, 'csinodes.storage.svc.io', { metadata: { name: 'node-a' }, spec: { drivers: [{ name: 'd.example.com', nodeID: 'a' }] } }],
      [`${STORAGE}/volumeattachments`, 'volumeattachments.storage.svc.io', { metadata: { name: 'va-a' }, spec: { attacher: 'd.example.com', nodeName: 'node-a', source: { persistentVolumeName: 'pv-a' } } }],
      [`${STORAGE}/namespaces/default/csistoragecapacities`, 'csistoragecapacities.storage.svc.io', { metadata: { name: 'cap-a' }, storageClassName: 'gold' }],
      [MIGRATIONS, 'storageversionmigrations.storagemigration.svc.io', { metadata: { name: 'mig-a' }, spec: { resource: { group: 'apps', version: 'v1', resource: 'deployments' } } }],
    ];
    for (const [path, resource, obj] of kinds) {
      const made = await create(path, obj);
      const name = made.metadata.name;
      const { resourceVersion: _rv, ...metadata } = made.metadata;
      const blind = await s.request('PUT', `${path}/${name}`, { body: json({ ...made, metadata: { ...metadata, labels: { a: 'b' } } }) });
      assert.equal(blind.status, 422, blind.body);
      assert.equal(blind.json().message, `${resource} "${name}" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`);
      // With the version read, the same update goes through; a patch names the live version itself.
      const named = await s.request('PUT', `${path}/${name}`, { body: json({ ...made, metadata: { ...made.metadata, labels: { a: 'b' } } }) });
      assert.equal(named.status, 200, named.body);
      const patched = await s.request('PATCH', `${path}/${name}`, { body: json({ metadata: { labels: { c: 'd' } } }), headers: MERGE });
      assert.equal(patched.status, 200, patched.body);
    }
  });

  it('StorageVersionMigration: no generation; status keeps its resourceVersion and needs complete conditions', async () => {
    const made = await create(MIGRATIONS, { metadata: { name: 'mig-b' }, spec: { resource: { group: '', version: 'v1', resource: 'secrets' } } });
    assert.equal(made.metadata.generation, undefined);
    const status = `${MIGRATIONS}/mig-b/status`;
    const first = await s.request('PATCH', status, { body: json({ status: { resourceVersion: '7' } }), headers: MERGE });
    assert.equal(first.status, 200, first.body);
    assert.equal(first.json().metadata.generation, undefined);
    const moved = await s.request('PATCH', status, { body: json({ status: { resourceVersion: '8' } }), headers: MERGE });
    assert.equal(moved.status, 422, moved.body);
    assert.equal(moved.json().message, 'StorageVersionMigration.storagemigration.svc.io "mig-b" is invalid: status.resourceVersion: Invalid value: "8": resourceVersion cannot be updated');
    const bare = await s.request('PATCH', status, { body: json({ status: { conditions: [{ type: 'Running', status: 'True' }] } }), headers: MERGE });
    assert.equal(bare.status, 422, bare.body);
    assert.deepEqual(bare.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
      'status.conditions[0].lastTransitionTime: Required value: must be set',
      'status.conditions[0].reason: Required value: must be set',
    ]);
    const running = await s.request('PATCH', status, { body: json({ status: { conditions: [{ type: 'Running', status: 'True', lastUpdateTime: '2024-01-01T00:00:00Z', reason: 'Started' }] } }), headers: MERGE });
    assert.equal(running.status, 200, running.body);
  });

  it('StorageClass and CSIStorageCapacity warn of deprecated node labels in their topology', async () => {
    const sc = await s.request('POST', `${STORAGE}/storageclasses`, { body: json({
      metadata: { name: 'zonal' }, provisioner: 'd.example.com',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.platform.io/region', values: ['r'] }, { key: 'failure-domain.beta.platform.io/zone', values: ['a'] }] }],
    }) });
    assert.equal(sc.status, 201, sc.body);
    assert.equal(sc.headers.warning, '299 - "allowedTopologies[0].matchLabelExpressions[1].key: deprecated since v1.17; use \\"topology.platform.io/zone\\" instead"');
    const relabelled = await s.request('PATCH', `${STORAGE}/storageclasses/zonal`, { body: json({ metadata: { labels: { a: 'b' } } }), headers: MERGE });
    assert.equal(relabelled.status, 200, relabelled.body);
    assert.match(String(relabelled.headers.warning), /allowedTopologies\[0\]\.matchLabelExpressions\[1\]\.key: deprecated since v1\.17/);

    const cap = await s.request('POST', `${STORAGE}/namespaces/default/csistoragecapacities`, { body: json({
      metadata: { name: 'cap-b' }, storageClassName: 'zonal',
      nodeTopology: { matchLabels: { 'beta.platform.io/os': 'linux' }, matchExpressions: [{ key: 'failure-domain.beta.platform.io/zone', operator: 'In', values: ['a'] }] },
    }) });
    assert.equal(cap.status, 201, cap.body);
    assert.equal(cap.headers.warning, [
      '299 - "nodeTopology.matchExpressions[0].key: failure-domain.beta.platform.io/zone is deprecated since v1.17; use \\"topology.platform.io/zone\\" instead"',
      '299 - "nodeTopology.matchLabels.beta.platform.io/os: deprecated since v1.14; use \\"platform.io/os\\" instead"',
    ].join(', '));
    // An invalid object gets its error, not the warnings.
    const bad = await s.request('POST', `${STORAGE}/namespaces/default/csistoragecapacities`, { body: json({ metadata: { name: 'cap-c' }, storageClassName: 'Not_A_Name', nodeTopology: { matchLabels: { 'beta.platform.io/os': 'linux' } } }) });
    assert.equal(bad.status, 422, bad.body);
    assert.equal(bad.headers.warning, undefined);
  });
});
