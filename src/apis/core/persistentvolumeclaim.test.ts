import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { persistentVolumeClaimKind as kind } from './persistentvolumeclaim.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const pvc = (spec: Record<string, unknown> = {}, name = `pvc-${++n}`, annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
type Spec = Record<string, any>;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));

test('declaration: core v1, namespaced, short name pvc, status sub-resource, columns', () => {
  assert.equal(kind.plural, 'persistentvolumeclaims');
  assert.equal(kind.namespaced, true);
  assert.deepEqual(kind.shortNames, ['pvc']);
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode']);
  const spec = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties.spec.properties;
  assert.deepEqual(['accessModes', 'resources', 'volumeName', 'selector', 'storageClassName', 'volumeMode', 'dataSource', 'dataSourceRef', 'volumeAttributesClassName'].map((k) => spec[k]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('defaults: volume mode Filesystem, phase Pending', async () => {
  const obj = await h.create(pvc({ storageClassName: 'fast' }));
  assert.equal((obj.spec as Spec).volumeMode, 'Filesystem');
  assert.deepEqual(obj.status, { phase: 'Pending' });
  assert.deepEqual(cells(obj).slice(1, 7), ['Pending', '', '', '', 'fast', '<unset>']);
  assert.equal(cells(obj)[8], 'Filesystem');
});

test('access modes: at least one, known values', async () => {
  assert.deepEqual(await causes(pvc({ accessModes: [] })), ['spec.accessModes: Required value: at least 1 access mode is required']);
  assert.deepEqual(await causes(pvc({ accessModes: ['ReadWriteOncePod', 'ReadWriteOnce'] })), ['spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes']);
});

test('a storage request is required and positive', async () => {
  assert.deepEqual(await causes(pvc({ resources: {} })), ['spec.resources[storage]: Required value']);
  assert.deepEqual(await causes(pvc({ resources: { requests: { storage: '0' } } })), ['spec.resources[storage]: Invalid value: "0": must be greater than zero']);
});

test('selector, class name and volume mode', async () => {
  assert.deepEqual(await causes(pvc({ selector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } })), [
    "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
  ]);
  assert.deepEqual(await causes(pvc({ volumeMode: 'Raw' })), ['spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"']);
  assert.equal((await causes(pvc({ storageClassName: 'No Spaces' }))).length, 1);
});

test('data sources: filled from each other, a claim or a typed source', async () => {
  const obj = await h.create(pvc({ dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }));
  assert.deepEqual((obj.spec as Spec).dataSourceRef, { kind: 'PersistentVolumeClaim', name: 'src' });
  const snap = await h.create(pvc({ dataSourceRef: { apiGroup: 'snapshot.storage.svc.io', kind: 'VolumeSnapshot', name: 's' } }));
  assert.deepEqual((snap.spec as Spec).dataSource, { apiGroup: 'snapshot.storage.svc.io', kind: 'VolumeSnapshot', name: 's' });
  // A dataSource other than a claim or a snapshot, without dataSourceRef, is dropped as old servers did.
  const legacy = await h.create(pvc({ dataSource: { kind: 'Secret', name: 'x' } }));
  assert.equal((legacy.spec as Spec).dataSource, undefined);
  assert.equal((legacy.spec as Spec).dataSourceRef, undefined);
  assert.deepEqual(await causes(pvc({ dataSourceRef: { kind: 'Secret', name: 'x' } })), [
    'spec.dataSource: Unsupported value: "Secret": supported values: "PersistentVolumeClaim"',
    'spec.dataSourceRef: Unsupported value: "Secret": supported values: "PersistentVolumeClaim"',
  ]);
  assert.deepEqual(await causes(pvc({ dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } })), ['spec: Invalid value: "spec.dataSource": must match dataSourceRef']);
});

test('volumeAttributesClassName is dropped while its feature is off', async () => {
  const obj = await h.create(pvc({ volumeAttributesClassName: 'gold' }));
  assert.equal((obj.spec as Spec).volumeAttributesClassName, undefined);
});

test('update: the spec is immutable, except the binder setting volumeName once', async () => {
  const made = await h.create(pvc({}, 'claim'));
  const bound = await h.update({ ...made, spec: { ...(made.spec as Spec), volumeName: 'pv-1' } });
  assert.equal((bound.spec as Spec).volumeName, 'pv-1');
  assert.deepEqual((await rejection(h.update({ ...bound, spec: { ...(bound.spec as Spec), volumeName: 'pv-2' } }))).causes, [
    'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
  ]);
  assert.deepEqual((await rejection(h.update({ ...bound, spec: { ...(bound.spec as Spec), accessModes: ['ReadWriteMany'] } }))).causes, [
    'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
  ]);
});

test('update: a bound claim may grow its storage request, and lower it only above status.capacity; an unbound one may not change it', async () => {
  const made = await h.create(pvc({}, 'grow'));
  assert.deepEqual((await rejection(h.update({ ...made, spec: { ...(made.spec as Spec), resources: { requests: { storage: '2Gi' } } } }))).causes, [
    'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
  ]);
  const bound = await h.update({ ...made, status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] } }, { subresource: 'status' });
  const grown = await h.update({ ...bound, spec: { ...(bound.spec as Spec), volumeName: 'pv-9', resources: { requests: { storage: '2Gi' } } } });
  assert.equal((grown.spec as Spec).resources.requests.storage, '2Gi');
  assert.deepEqual(cells(grown).slice(2, 5), ['pv-9', '1Gi', 'RWO']);
  assert.deepEqual((await rejection(h.update({ ...grown, spec: { ...(grown.spec as Spec), resources: { requests: { storage: '1Gi' } } } }))).causes, [
    'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
  ]);
  const lowered = await h.update({ ...grown, spec: { ...(grown.spec as Spec), resources: { requests: { storage: '1500Mi' } } } });
  assert.equal((lowered.spec as Spec).resources.requests.storage, '1500Mi');
});

test('update: with RecoverVolumeExpansionFailure off a request never shrinks, unless the status already tracks allocations', async () => {
  const { featureGates } = await import('../../config/feature-gates.ts');
  const made = await h.create(pvc({ resources: { requests: { storage: '2Gi' } } }, 'no-recover'));
  const bound = await h.update({ ...made, status: { phase: 'Bound', capacity: { storage: '1Gi' } } }, { subresource: 'status' });
  const allocated = await h.create(pvc({ resources: { requests: { storage: '2Gi' } } }, 'allocated'));
  const tracked = await h.update({ ...allocated, status: { phase: 'Bound', capacity: { storage: '1Gi' }, allocatedResources: { storage: '2Gi' } } }, { subresource: 'status' });
  featureGates.set({ RecoverVolumeExpansionFailure: false });
  try {
    assert.deepEqual((await rejection(h.update({ ...bound, spec: { ...(bound.spec as Spec), resources: { requests: { storage: '1500Mi' } } } }))).causes, [
      'spec.resources.requests.storage: Forbidden: field can not be less than previous value',
    ]);
    const lowered = await h.update({ ...tracked, spec: { ...(tracked.spec as Spec), resources: { requests: { storage: '1500Mi' } } } });
    assert.equal((lowered.spec as Spec).resources.requests.storage, '1500Mi');
    // Without the feature a status write cannot add the allocation fields, but keeps those it has.
    const plain = await h.update({ ...bound, status: { ...(bound.status as Spec), allocatedResources: { storage: '2Gi' }, allocatedResourceStatuses: { storage: 'Bogus' } } }, { subresource: 'status' });
    assert.equal((plain.status as Spec).allocatedResources, undefined);
    assert.equal((plain.status as Spec).allocatedResourceStatuses, undefined);
    assert.deepEqual((await rejection(h.update({ ...lowered, status: { ...(lowered.status as Spec), allocatedResources: { memory: '1Gi' } } }, { subresource: 'status' }))).causes, [
      'status.allocatedResources: Unsupported value: "memory": supported values: "storage"',
    ]);
  } finally {
    featureGates.reset();
  }
});

test('status: capacity and allocations are quantities that are not negative, keyed by storage or a qualified name', async () => {
  const made = await h.create(pvc({}, 'status-rules'));
  const write = (status: Record<string, unknown>) => h.update({ ...made, status: { phase: 'Bound', ...status } }, { subresource: 'status' });
  assert.deepEqual((await rejection(write({ capacity: { storage: '-1Gi' } }))).causes, ['status.capacity[storage]: Invalid value: -1073741824: must be a valid resource quantity']);
  assert.deepEqual((await rejection(write({ allocatedResources: { storage: '-1m', cpu: '1', 'bad key!': '1' } }))).causes, [
    'status.allocatedResources: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
    'status.allocatedResources: Unsupported value: "cpu": supported values: "storage"',
    'status.allocatedResources[storage]: Invalid value: -1: must be a valid resource quantity',
  ]);
  assert.deepEqual((await rejection(write({ allocatedResourceStatuses: { storage: 'Resizing', 'platform.io/x': 'NodeResizePending' } }))).causes, [
    'status.allocatedResourceStatus: Unsupported value: "platform.io/x": supported values: "storage"',
    'status.allocatedResourceStatus: Unsupported value: "storage": supported values: "ControllerResizeInProgress", "ControllerResizeInfeasible", "NodeResizeInProgress", "NodeResizeInfeasible", "NodeResizePending"',
  ]);
  const ok = await write({ capacity: { storage: '1Gi' }, allocatedResources: { storage: '2Gi', 'example.com/iops': '100' }, allocatedResourceStatuses: { storage: 'ControllerResizeInProgress' } });
  assert.deepEqual((ok.status as Spec).allocatedResourceStatuses, { storage: 'ControllerResizeInProgress' });
  assert.deepEqual(ok.spec, made.spec);
});

test('update: volumeMode immutable; volumeAttributesClassName cannot change while its feature is off', async () => {
  const made = await h.create(pvc({}, 'modes'));
  const r = await rejection(h.update({ ...made, spec: { ...(made.spec as Spec), volumeMode: 'Block' } }));
  assert.deepEqual(r.causes, ['spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims', 'volumeMode: Invalid value: "Block": field is immutable']);
});

test('the beta class annotation names the class and cannot change', async () => {
  const made = await h.create(pvc({}, 'annotated', { 'volume.beta.platform.io/storage-class': 'slow' }));
  assert.equal(kind.tableColumns![5].cell(made), 'slow');
  assert.deepEqual((await rejection(h.update({ ...made, metadata: { ...made.metadata, annotations: { 'volume.beta.platform.io/storage-class': 'fast' } } }))).causes, [
    'metadata.annotations[volume.beta.platform.io/storage-class]: Forbidden: field is immutable',
  ]);
});

test('status writes go through /status; main writes keep it; deletion shows Terminating', async () => {
  const made = await h.create(pvc({}, 'st'));
  const main = await h.update({ ...made, status: { phase: 'Bound' } });
  assert.deepEqual(main.status, { phase: 'Pending' });
  assert.equal(kind.tableColumns![1].cell({ ...made, metadata: { ...made.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } }), 'Terminating');
});

test('with the VolumeAttributesClass gate on, the class name is kept, validated, and may change but not be cleared', async () => {
  const { featureGates } = await import('../../config/feature-gates.ts');
  featureGates.set({ VolumeAttributesClass: true });
  try {
    const made = await h.create(pvc({ volumeAttributesClassName: 'gold' }, 'vac-on'));
    assert.equal((made.spec as Spec).volumeAttributesClassName, 'gold');
    assert.equal(kind.tableColumns![6].cell(made), 'gold');
    assert.equal((await causes(pvc({ volumeAttributesClassName: 'Gold!' }))).length, 1);
    const bound = await h.update({ ...made, status: { phase: 'Bound' } }, { subresource: 'status' });
    const silver = await h.update({ ...bound, spec: { ...(bound.spec as Spec), volumeAttributesClassName: 'silver' } });
    assert.equal((silver.spec as Spec).volumeAttributesClassName, 'silver');
    assert.deepEqual((await rejection(h.update({ ...silver, spec: { ...(silver.spec as Spec), volumeAttributesClassName: '' } }))).causes, [
      'spec.volumeAttributesClassName: Forbidden: update from non-nil value to an empty string is forbidden',
    ]);
  } finally {
    featureGates.reset();
  }
});
