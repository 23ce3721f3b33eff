import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { volumeAttributesClassKind as kind } from './volumeattributesclass.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

const vac = (extra: Record<string, unknown>, name = 'gold'): ApiObject => ({ apiVersion: 'storage.svc.io/v1beta1', kind: 'VolumeAttributesClass', metadata: { name }, driverName: 'ebs.csi.example.com', ...extra });

test('declaration: v1beta1, beta, not served by default, short name vac', () => {
  assert.deepEqual(kind.versions.map((v) => [v.name, v.stability, v.servedByDefault]), [['v1beta1', 'beta', false]]);
  assert.deepEqual(kind.shortNames, ['vac']);
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'DriverName', 'Age']);
});

test('driverName required; parameters required and non-empty keys', async () => {
  assert.deepEqual((await rejection(h.create(vac({ driverName: '', parameters: { iops: '3000' } })))).causes, ['driverName: Required value']);
  assert.deepEqual((await rejection(h.create(vac({})))).causes, ['parameters: Required value: must contain at least one key/value pair']);
});

test('driverName and parameters are immutable', async () => {
  const made = await h.create(vac({ parameters: { iops: '3000' } }, 'silver'));
  assert.equal(kind.tableColumns![1].cell(made), 'ebs.csi.example.com');
  assert.deepEqual((await rejection(h.update({ ...made, driverName: 'other.example.com', parameters: { iops: '4000' } }))).causes, [
    'driverName: Forbidden: updates to driverName are forbidden.',
    'parameters: Forbidden: updates to parameters are forbidden.',
  ]);
});
