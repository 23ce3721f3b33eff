import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { storageVersionMigrationKind as kind } from './storageversionmigration.ts';
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

const cond = (type: string, status: string) => ({ type, status, lastUpdateTime: '2024-01-01T00:00:00Z', reason: 'Because' });

test('status: a numeric, non-negative resourceVersion that never changes once set', async () => {
  const made = await h.create(svm({ group: '', version: 'v1', resource: 'secrets' }, 'rv'));
  const status = async (s: Status) => (await rejection(h.update({ ...made, status: s }, { subresource: 'status' }))).causes;
  assert.deepEqual(await status({ resourceVersion: 'abc' }), ['status.resourceVersion: Invalid value: "abc": failed to parse resource version "abc": strconv.ParseInt: parsing "abc": invalid syntax']);
  assert.deepEqual(await status({ resourceVersion: '99999999999999999999' }), ['status.resourceVersion: Invalid value: "99999999999999999999": failed to parse resource version "99999999999999999999": strconv.ParseInt: parsing "99999999999999999999": value out of range']);
  assert.deepEqual(await status({ resourceVersion: '-3' }), ['status.resourceVersion: Invalid value: -3: must be greater than or equal to 0']);
  const set = await h.update({ ...made, status: { resourceVersion: '42' } }, { subresource: 'status' });
  assert.deepEqual(await status({ resourceVersion: '43' }), ['status.resourceVersion: Invalid value: "43": resourceVersion cannot be updated']);
  assert.equal((set.status as Status).resourceVersion, '42');
});

test('status: each condition has a qualified type, a known status, an update time and a reason', async () => {
  const made = await h.create(svm({ group: '', version: 'v1', resource: 'secrets' }, 'conds'));
  const causes = async (conditions: unknown[]) => (await rejection(h.update({ ...made, status: { conditions } }, { subresource: 'status' }))).causes;
  assert.deepEqual(await causes([{ type: 'Running', status: 'Maybe' }, cond('Running', 'False')]), [
    'status.conditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
    'status.conditions[0].lastTransitionTime: Required value: must be set',
    'status.conditions[0].reason: Required value: must be set',
    'status.conditions[1].type: Duplicate value: "Running"',
  ]);
  const [reason] = await causes([{ ...cond('Running', 'True'), reason: '1bad' }]);
  assert.match(reason, /^status\.conditions\[0\]\.reason: Invalid value: "1bad": a condition reason must start with alphabetic character, .* \(e\.g\. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '\[A-Za-z\]\(\[A-Za-z0-9_,:\]\*\[A-Za-z0-9_\]\)\?'\)$/);
});

test('status: consistent outcomes; a success or failure, once true, stays true', async () => {
  const made = await h.create(svm({ group: '', version: 'v1', resource: 'secrets' }, 'status'));
  const status = (s: Status) => rejection(h.update({ ...made, status: s }, { subresource: 'status' }));
  const details = async (s: Status) => (await status(s)).causes.map((c) => c.slice(c.lastIndexOf(': ') + 2));
  assert.deepEqual(await details({ conditions: [cond('Succeeded', 'True'), cond('Failed', 'True')] }), ['Both success and failed conditions cannot be true at the same time']);
  assert.deepEqual(await details({ conditions: [cond('Running', 'True'), cond('Succeeded', 'True')] }), ['Running condition cannot be true when success condition is true']);
  const done = await h.update({ ...made, status: { resourceVersion: '42', conditions: [cond('Succeeded', 'True')] } }, { subresource: 'status' });
  assert.equal((done.status as Status).resourceVersion, '42');
  assert.deepEqual(await details({ resourceVersion: '42', conditions: [cond('Succeeded', 'False')] }), ['Success condition cannot be set to false once it is true']);
  // Dropping the condition is turning it off too.
  assert.deepEqual(await details({ resourceVersion: '42', conditions: [] }), ['Success condition cannot be set to false once it is true']);
});
