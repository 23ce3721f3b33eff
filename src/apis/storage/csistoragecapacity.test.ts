import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { csiStorageCapacityKind as kind } from './csistoragecapacity.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
// The harness writes without a resourceVersion, which the kind refuses (test/sweep6-storage-kinds.test.ts
// covers that); these tests are about validation, so they write unconditionally.
before(async () => { h = await kindHarness({ ...kind, allowUnconditionalUpdate: true }); });

test('an update must name the resourceVersion it read', () => {
  assert.equal(kind.allowUnconditionalUpdate, false);
});
after(async () => { await h.close(); });

let n = 0;
const cap = (extra: Record<string, unknown>, name = `csisc-${++n}`): ApiObject => ({ apiVersion: 'storage.svc.io/v1', kind: 'CSIStorageCapacity', metadata: { name, namespace: 'kube-system' }, storageClassName: 'fast', ...extra });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;

test('declaration: namespaced, Name StorageClassName Capacity columns', () => {
  assert.equal(kind.namespaced, true);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'StorageClassName', 'Capacity']);
});

test('a capacity report; unset capacity shows <unset>', async () => {
  const obj = await h.create(cap({ nodeTopology: { matchLabels: { zone: 'a' } }, capacity: '100Gi', maximumVolumeSize: '10Gi' }));
  assert.deepEqual(kind.tableColumns!.map((c) => c.cell(obj)).slice(1), ['fast', '100Gi']);
  const unset = await h.create(cap({}));
  assert.equal(kind.tableColumns![2].cell(unset), '<unset>');
});

test('storage class name, selector and capacity rules', async () => {
  assert.equal((await causes(cap({ storageClassName: '' }))).length, 1);
  assert.deepEqual(await causes(cap({ capacity: '-1' })), ['capacity: Invalid value: "-1": must be greater than or equal to 0']);
  assert.deepEqual(await causes(cap({ nodeTopology: { matchExpressions: [{ key: 'zone', operator: 'In' }] } })), [
    "nodeTopology.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
  ]);
});

test('node topology and storage class name are immutable; capacity changes', async () => {
  const made = await h.create(cap({ nodeTopology: { matchLabels: { zone: 'a' } }, capacity: '1Gi' }, 'report'));
  const updated = await h.update({ ...made, capacity: '2Gi' });
  assert.equal(updated.capacity, '2Gi');
  assert.deepEqual((await rejection(h.update({ ...made, storageClassName: 'slow', nodeTopology: { matchLabels: { zone: 'b' } } }))).causes, [
    'nodeTopology: Invalid value: {"matchLabels":{"zone":"b"}}: field is immutable',
    'storageClassName: Invalid value: "slow": field is immutable',
  ]);
});
