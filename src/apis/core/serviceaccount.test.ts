import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceAccountKind as kind } from './serviceaccount.ts';
import type { RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';

const ctx = (): RequestContext => ({ user: { username: 'u', groups: [] }, version: 'v1', subresource: '', dryRun: false, warnings: [] });
const sa = (extra: Record<string, unknown> = {}, annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'ns', ...(annotations ? { annotations } : {}) }, ...extra,
});
const WARNING = 'metadata.annotations[platform.io/enforce-mountable-secrets]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets';

test('declaration: core v1, namespaced, short name sa, delete returns the object', () => {
  assert.equal(kind.kind, 'ServiceAccount');
  assert.equal(kind.plural, 'serviceaccounts');
  assert.equal(kind.singular, 'serviceaccount');
  assert.equal(kind.namespaced, true);
  assert.deepEqual(kind.shortNames, ['sa']);
  assert.equal(kind.deleteReturnsObject, true);
  assert.equal(kind.status, undefined);
  assert.equal(kind.trackGeneration, false);
});

test('schema: secrets merge by name, imagePullSecrets atomic, protobuf numbers', () => {
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  assert.equal(props.secrets['x-platform-patch-merge-key'], 'name');
  assert.equal(props.secrets['x-platform-patch-strategy'], 'merge');
  assert.equal(props.secrets['x-platform-list-type'], 'map');
  assert.deepEqual(props.secrets['x-platform-list-map-keys'], ['name']);
  assert.equal(props.imagePullSecrets['x-platform-list-type'], 'atomic');
  assert.deepEqual([props.metadata, props.secrets, props.imagePullSecrets, props.automountServiceAccountToken].map((p) => p['x-proto']), [1, 2, 3, 4]);
});

test('secret references keep only their name on create and update', () => {
  const obj = sa({ secrets: [{ name: 'a', namespace: 'other', uid: 'u1', kind: 'Secret' }, { uid: 'u2' }] });
  kind.prepareForCreate!(obj, ctx());
  assert.deepEqual(obj.secrets, [{ name: 'a' }, {}]);
  const upd = sa({ secrets: [{ name: 'b', fieldPath: 'x' }] });
  kind.prepareForUpdate!(upd, sa(), ctx());
  assert.deepEqual(upd.secrets, [{ name: 'b' }]);
});

test('any service account validates (only metadata rules apply)', () => {
  assert.deepEqual(kind.validate!(sa({ automountServiceAccountToken: false, imagePullSecrets: [{ name: 'pull' }] }), ctx()), []);
  assert.deepEqual(kind.validateUpdate!(sa({ secrets: [{ name: 'x' }] }), sa(), ctx()), []);
});

test('the enforce-mountable-secrets annotation warns when newly set', () => {
  const c1 = ctx();
  kind.validate!(sa({}, { 'platform.io/enforce-mountable-secrets': 'true' }), c1);
  assert.deepEqual(c1.warnings, [WARNING]);
  const c2 = ctx();
  kind.validate!(sa(), c2);
  assert.deepEqual(c2.warnings, []);
  const c3 = ctx();
  kind.validateUpdate!(sa({}, { 'platform.io/enforce-mountable-secrets': 'false' }), sa(), c3);
  assert.deepEqual(c3.warnings, [WARNING]);
  const c4 = ctx();
  kind.validateUpdate!(sa({}, { 'platform.io/enforce-mountable-secrets': 'true' }), sa({}, { 'platform.io/enforce-mountable-secrets': 'true' }), c4);
  assert.deepEqual(c4.warnings, []);
});

test('table: Name, Secrets, Age', () => {
  const cols = kind.tableColumns!;
  assert.deepEqual(cols.map((c) => c.name), ['Name', 'Secrets', 'Age']);
  const obj = sa({ secrets: [{ name: 'a' }, { name: 'b' }] });
  obj.metadata.creationTimestamp = new Date(Date.now() - 20 * 60_000).toISOString();
  assert.deepEqual(cols.map((c) => c.cell(obj)), ['default', 2, '20m']);
  assert.equal(cols[1].cell(sa()), 0);
});
