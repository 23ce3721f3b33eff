import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { leaseKind as kind, leaseFeatureGates } from './lease.ts';
import type { RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { fieldErrorText, type FieldError } from '../../machinery/field-errors.ts';

const ctx = (): RequestContext => ({ user: { username: 'u', groups: [] }, version: 'v1', subresource: '', dryRun: false, warnings: [] });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const lease = (spec?: Record<string, unknown>): ApiObject => ({ apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'node-1', namespace: 'kube-node-lease' }, ...(spec ? { spec } : {}) });

afterEach(() => { leaseFeatureGates.CoordinatedLeaderElection = false; });

test('declaration: coordination.svc.io/v1, namespaced, PUT creates, updates need a resourceVersion', () => {
  assert.equal(kind.group, 'coordination.svc.io');
  assert.equal(kind.kind, 'Lease');
  assert.equal(kind.plural, 'leases');
  assert.equal(kind.singular, 'lease');
  assert.equal(kind.namespaced, true);
  assert.equal(kind.allowCreateOnUpdate, true);
  assert.equal(kind.allowUnconditionalUpdate, false);
  assert.equal(kind.status, undefined);
  assert.deepEqual(kind.versions.map((v) => [v.name, v.stability]), [['v1', 'stable']]);
});

test('defaults: spec is always present', () => {
  const obj = lease();
  kind.defaults!(obj);
  assert.deepEqual(obj.spec, {});
});

test('a full valid lease passes', () => {
  const spec = { holderIdentity: 'node-1', leaseDurationSeconds: 40, acquireTime: '2024-01-01T00:00:00.000000Z', renewTime: '2024-01-01T00:00:10.123456Z', leaseTransitions: 0 };
  assert.deepEqual(kind.validate!(lease(spec), ctx()), []);
  assert.deepEqual(kind.validateUpdate!(lease(spec), lease(), ctx()), []);
});

test('leaseDurationSeconds must be positive when set', () => {
  assert.deepEqual(texts(kind.validate!(lease({ leaseDurationSeconds: 0 }), ctx())), ['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']);
  assert.deepEqual(texts(kind.validateUpdate!(lease({ leaseDurationSeconds: -5 }), lease(), ctx())), ['spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0']);
  assert.deepEqual(kind.validate!(lease({ leaseDurationSeconds: null }), ctx()), []);
});

test('leaseTransitions must not be negative', () => {
  assert.deepEqual(texts(kind.validate!(lease({ leaseTransitions: -1 }), ctx())), ['spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(kind.validate!(lease({ leaseTransitions: 0 }), ctx()), []);
});

test('strategy is OldestEmulationVersion or a domain-prefixed name', () => {
  assert.deepEqual(kind.validate!(lease({ strategy: 'OldestEmulationVersion' }), ctx()), []);
  assert.deepEqual(kind.validate!(lease({ strategy: 'example.com/mine' }), ctx()), []);
  assert.deepEqual(texts(kind.validate!(lease({ strategy: 'Newest' }), ctx())), [
    'spec.strategy.strategy: Unsupported value: "Newest": supported values: "OldestEmulationVersion"',
  ]);
  assert.deepEqual(texts(kind.validate!(lease({ strategy: '' }), ctx())), [
    'spec.strategy.strategy: Unsupported value: "": supported values: "OldestEmulationVersion"',
  ]);
  const errs = texts(kind.validate!(lease({ strategy: 'a/b/c' }), ctx()));
  assert.equal(errs.length, 1);
  assert.match(errs[0], /^spec\.strategy\.strategy: Invalid value: "a\/b\/c": a qualified name must consist of/);
});

test('preferredHolder only with strategy', () => {
  assert.deepEqual(texts(kind.validate!(lease({ preferredHolder: 'node-2' }), ctx())), [
    'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
  ]);
  assert.deepEqual(texts(kind.validate!(lease({ preferredHolder: 'node-2', strategy: '' }), ctx())), [
    'spec.strategy.strategy: Unsupported value: "": supported values: "OldestEmulationVersion"',
    'spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined',
  ]);
  assert.deepEqual(kind.validate!(lease({ preferredHolder: 'node-2', strategy: 'OldestEmulationVersion' }), ctx()), []);
  assert.deepEqual(kind.validate!(lease({ preferredHolder: '' }), ctx()), []);
});

test('without CoordinatedLeaderElection, strategy and preferredHolder are dropped unless already stored', () => {
  const created = lease({ holderIdentity: 'a', strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
  kind.prepareForCreate!(created, ctx());
  assert.deepEqual(created.spec, { holderIdentity: 'a' });

  const updated = lease({ strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
  kind.prepareForUpdate!(updated, lease({}), ctx());
  assert.deepEqual(updated.spec, {});

  const kept = lease({ strategy: 'OldestEmulationVersion', preferredHolder: 'c' });
  kind.prepareForUpdate!(kept, lease({ strategy: 'OldestEmulationVersion', preferredHolder: 'b' }), ctx());
  assert.deepEqual(kept.spec, { strategy: 'OldestEmulationVersion', preferredHolder: 'c' });
});

test('with CoordinatedLeaderElection on, the alpha fields are kept', () => {
  leaseFeatureGates.CoordinatedLeaderElection = true;
  const created = lease({ strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
  kind.prepareForCreate!(created, ctx());
  assert.deepEqual(created.spec, { strategy: 'OldestEmulationVersion', preferredHolder: 'b' });
  const updated = lease({ strategy: 'OldestEmulationVersion' });
  kind.prepareForUpdate!(updated, lease({}), ctx());
  assert.deepEqual(updated.spec, { strategy: 'OldestEmulationVersion' });
});

test('table: Name, Holder, Age', () => {
  const cols = kind.tableColumns!;
  assert.deepEqual(cols.map((c) => c.name), ['Name', 'Holder', 'Age']);
  const obj = lease({ holderIdentity: 'node-1' });
  obj.metadata.creationTimestamp = new Date(Date.now() - 30_000).toISOString();
  assert.deepEqual(cols.map((c) => c.cell(obj)), ['node-1', 'node-1', '30s']);
  assert.equal(cols[1].cell(lease()), '');
});

test('schema: MicroTime fields and protobuf numbers', () => {
  type P = { properties: Record<string, Record<string, unknown> & { properties?: Record<string, Record<string, unknown>> }> };
  const props = (kind.versions[0].schema as unknown as P).properties;
  assert.deepEqual([props.metadata['x-proto'], props.spec['x-proto']], [1, 2]);
  const spec = props.spec.properties!;
  assert.deepEqual(['holderIdentity', 'leaseDurationSeconds', 'acquireTime', 'renewTime', 'leaseTransitions', 'strategy', 'preferredHolder'].map((f) => spec[f]['x-proto']), [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(spec.renewTime['x-platform-type'], 'MicroTime');
  assert.equal(spec.acquireTime['x-platform-type'], 'MicroTime');
  assert.equal(spec.leaseDurationSeconds.format, 'int32');
});
