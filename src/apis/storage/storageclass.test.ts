import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { storageClassKind as kind } from './storageclass.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const sc = (extra: Record<string, unknown> = {}, name = `sc-${++n}`, annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name, ...(annotations ? { annotations } : {}) }, provisioner: 'ebs.csi.example.com', ...extra,
});
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));

test('declaration: cluster-scoped, short name sc, columns', () => {
  assert.deepEqual(kind.shortNames, ['sc']);
  assert.equal(kind.namespaced, false);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties;
  assert.deepEqual(['provisioner', 'parameters', 'reclaimPolicy', 'mountOptions', 'allowVolumeExpansion', 'volumeBindingMode', 'allowedTopologies'].map((k) => props[k]['x-proto']), [2, 3, 4, 5, 6, 7, 8]);
});

test('defaults: reclaimPolicy Delete, volumeBindingMode Immediate; the default class is marked', async () => {
  const obj = await h.create(sc({}, 'standard', { 'storageclass.platform.io/is-default-class': 'true' }));
  assert.equal(obj.reclaimPolicy, 'Delete');
  assert.equal(obj.volumeBindingMode, 'Immediate');
  assert.deepEqual(cells(obj).slice(0, 5), ['standard (default)', 'ebs.csi.example.com', 'Delete', 'Immediate', false]);
});

test('provisioner: required, a qualified name', async () => {
  assert.deepEqual(await causes(sc({ provisioner: '' })), ['provisioner: Required value']);
  const bad = await causes(sc({ provisioner: 'a/b/c' }));
  assert.equal(bad.length, 1);
  assert.match(bad[0], /^provisioner: Invalid value: "a\/b\/c": a qualified name must consist of/);
});

test('parameters, reclaim policy, binding mode, topologies', async () => {
  assert.deepEqual(await causes(sc({ parameters: { '': 'x' } })), ['parameters: Invalid value: "": field can not be empty.']);
  assert.deepEqual(await causes(sc({ reclaimPolicy: 'Recycle' })), ['reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"']);
  assert.deepEqual(await causes(sc({ volumeBindingMode: 'Later' })), ['volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"']);
  assert.deepEqual(await causes(sc({ allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: [] }] }] })), ['allowedTopologies[0].matchLabelExpressions[0].values: Required value']);
  const term = { matchLabelExpressions: [{ key: 'zone', values: ['a'] }] };
  assert.deepEqual(await causes(sc({ allowedTopologies: [term, term] })), ['allowedTopologies[1].matchLabelExpressions: Duplicate value: ""']);
});

test('provisioner, parameters, reclaim policy and binding mode are fixed; expansion may change', async () => {
  const made = await h.create(sc({ parameters: { type: 'gp3' } }, 'fixed'));
  const grown = await h.update({ ...made, allowVolumeExpansion: true });
  assert.equal(grown.allowVolumeExpansion, true);
  assert.deepEqual((await rejection(h.update({ ...made, provisioner: 'other.example.com', parameters: { type: 'io2' }, reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }))).causes, [
    'parameters: Forbidden: updates to parameters are forbidden.',
    'provisioner: Forbidden: updates to provisioner are forbidden.',
    'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
    'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
  ]);
});
