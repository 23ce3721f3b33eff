import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { storageVersionMigrationKind as kind } from './storageversionmigration.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const svm = (resource: Record<string, unknown>, name = `m-${++n}`): ApiObject => ({ apiVersion: 'storagemigration.svc.io/v1alpha1', kind: 'StorageVersionMigration', metadata: { name }, spec: { resource } });
type Status = Record<string, unknown>;

test('declaration: v1alpha1 alpha, cluster-scoped, status, conditions merged by type', () => {
  assert.deepEqual(kind.versions.map((v) => [v.name, v.stability]), [['v1alpha1', 'alpha']]);
  assert.deepEqual(kind.status, {});
  const status = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties.status;
  assert.equal(status.properties.conditions['x-platform-patch-merge-key'], 'type');
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Created At']);
});

test('resource and version are required; create starts without status', async () => {
  assert.deepEqual((await rejection(h.create(svm({ group: 'apps' })))).causes, ['spec.resource.resource: Required value: resource is required', 'spec.resource.version: Required value: version is required']);
  const obj = await h.create({ ...svm({ group: 'apps', version: 'v1', resource: 'deployments' }), status: { resourceVersion: '5' } });
  assert.deepEqual(obj.status, {});
});

test('the resource is immutable', async () => {
  const made = await h.create(svm({ group: 'apps', version: 'v1', resource: 'deployments' }, 'fixed'));
  assert.deepEqual((await rejection(h.update({ ...made, spec: { resource: { group: 'batch', version: 'v1', resource: 'jobs' } } }))).causes, [
    'group: Invalid value: "batch": field is immutable',
    'resource: Invalid value: "jobs": field is immutable',
  ]);
});

test('status: a numeric resourceVersion and consistent conditions', async () => {
  const made = await h.create(svm({ group: '', version: 'v1', resource: 'secrets' }, 'status'));
  const status = (s: Status) => rejection(h.update({ ...made, status: s }, { subresource: 'status' }));
  assert.match((await status({ resourceVersion: 'abc' })).causes[0], /^status\.resourceVersion: Invalid value: "abc": failed to parse resource version "abc"/);
  assert.deepEqual((await status({ conditions: [{ type: 'Succeeded', status: 'True' }, { type: 'Failed', status: 'True' }] })).causes.map((c) => c.replace(/Invalid value: .*?: (?=[A-Z])/, '')), [
    'status.conditions: Both success and failed conditions cannot be true at the same time',
  ]);
  assert.equal((await status({ conditions: [{ type: 'Running', status: 'True' }, { type: 'Succeeded', status: 'True' }] })).causes.length, 1);
  const done = await h.update({ ...made, status: { resourceVersion: '42', conditions: [{ type: 'Succeeded', status: 'True' }] } }, { subresource: 'status' });
  assert.equal((done.status as Status).resourceVersion, '42');
  assert.match((await rejection(h.update({ ...done, status: { conditions: [{ type: 'Succeeded', status: 'False' }] } }, { subresource: 'status' }))).causes[0], /Success condition cannot be set to false once it is true$/);
});
