import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceKind as kind } from './namespace.ts';
import type { RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { fieldErrorText, type FieldError } from '../../machinery/field-errors.ts';

const ctx = (subresource = ''): RequestContext => ({ user: { username: 'u', groups: [] }, version: 'v1', subresource, dryRun: false, warnings: [] });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const ns = (extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): ApiObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', ...meta }, ...extra });

test('declaration: core v1, cluster-scoped, short name ns, status sub-resource, DNS label names', () => {
  assert.equal(kind.kind, 'Namespace');
  assert.equal(kind.plural, 'namespaces');
  assert.equal(kind.singular, 'namespace');
  assert.equal(kind.namespaced, false);
  assert.deepEqual(kind.shortNames, ['ns']);
  assert.deepEqual(kind.status, {});
  assert.equal(kind.nameValidation, 'dns-label');
  assert.equal(kind.trackGeneration, false);
});

test('finalize is an update-only view answering a Namespace', () => {
  const view = kind.views!.find((v) => v.name === 'finalize')!;
  assert.deepEqual([view.group, view.version, view.kind, view.verbs], ['', 'v1', 'Namespace', ['update']]);
  assert.equal(view.get, undefined);
  const stored = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } });
  const next = view.update!(stored, ns({ spec: { finalizers: [] }, status: { phase: 'Active' } }, { labels: { a: 'b' } }));
  assert.deepEqual(next.spec, { finalizers: [] });
  assert.deepEqual(next.status, { phase: 'Terminating' });
  assert.deepEqual(next.metadata.labels, { a: 'b' });
});

test('create: status Active and the kubernetes finalizer added', () => {
  const obj = ns({ status: { phase: 'Terminating' } });
  kind.prepareForCreate!(obj, ctx());
  assert.deepEqual(obj.status, { phase: 'Active' });
  assert.deepEqual(obj.spec, { finalizers: ['kubernetes'] });
  const own = ns({ spec: { finalizers: ['example.com/x'] } });
  kind.prepareForCreate!(own, ctx());
  assert.deepEqual(own.spec, { finalizers: ['example.com/x', 'kubernetes'] });
  const already = ns({ spec: { finalizers: ['kubernetes'] } });
  kind.prepareForCreate!(already, ctx());
  assert.deepEqual(already.spec, { finalizers: ['kubernetes'] });
});

test('defaults: phase Active, spec present, name label', () => {
  const obj = ns({ status: {} }, { labels: { x: 'y' } });
  kind.defaults!(obj);
  assert.deepEqual(obj.status, { phase: 'Active' });
  assert.deepEqual(obj.spec, {});
  assert.deepEqual(obj.metadata.labels, { x: 'y', 'platform.io/metadata.name': 'team-a' });
  const bare = ns();
  kind.defaults!(bare);
  assert.deepEqual(bare.status, { phase: 'Active' });
  const generated: ApiObject = { metadata: { generateName: 'gen-' } };
  kind.defaults!(generated);
  assert.equal(generated.metadata.labels, undefined);
});

test('canonicalize sets the name label, overriding what the client sent', () => {
  const obj = ns({}, { name: 'gen-abcde', labels: { 'platform.io/metadata.name': 'wrong' } });
  kind.canonicalize!(obj);
  assert.deepEqual(obj.metadata.labels, { 'platform.io/metadata.name': 'gen-abcde' });
});

test('main update keeps finalizers and status', () => {
  const old = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  const obj = ns({ spec: { finalizers: [] }, status: { phase: 'Terminating' } }, { labels: { a: 'b' } });
  kind.prepareForUpdate!(obj, old, ctx());
  assert.deepEqual(obj.spec, { finalizers: ['kubernetes'] });
  assert.deepEqual(obj.status, { phase: 'Active' });
  const noFinalizers = ns({ spec: { finalizers: ['x/y'] } });
  kind.prepareForUpdate!(noFinalizers, ns({ spec: {} , status: { phase: 'Active' } }), ctx());
  assert.deepEqual(noFinalizers.spec, {});
});

test('status update keeps spec; finalize update keeps status', () => {
  const old = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  const st = ns({ spec: { finalizers: [] }, status: { phase: 'Terminating' } });
  kind.prepareForUpdate!(st, old, ctx('status'));
  assert.deepEqual(st.spec, { finalizers: ['kubernetes'] });
  assert.deepEqual(st.status, { phase: 'Terminating' });
  const fin = ns({ spec: { finalizers: [] }, status: { phase: 'Terminating' } });
  kind.prepareForUpdate!(fin, old, ctx('finalize'));
  assert.deepEqual(fin.spec, { finalizers: [] });
  assert.deepEqual(fin.status, { phase: 'Active' });
});

test('finalizers must be qualified names, unprefixed ones standard', () => {
  assert.deepEqual(kind.validate!(ns({ spec: { finalizers: ['kubernetes', 'orphan', 'foregroundDeletion', 'example.com/mine'] } }), ctx()), []);
  assert.deepEqual(texts(kind.validate!(ns({ spec: { finalizers: ['custom'] } }), ctx())), [
    'spec.finalizers: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
  ]);
  const errs = texts(kind.validate!(ns({ spec: { finalizers: ['bad_/x'] } }), ctx()));
  assert.equal(errs.length, 1);
  assert.match(errs[0], /^spec\.finalizers: Invalid value: "bad_\/x": prefix part a lowercase RFC 1123 subdomain/);
});

test('finalize validates finalizer names with their index', () => {
  assert.deepEqual(texts(kind.validateUpdate!(ns({ spec: { finalizers: ['kubernetes', 'nope'] } }), ns(), ctx('finalize'))), [
    'spec.finalizers[1]: Invalid value: "nope": name is neither a standard finalizer name nor is it fully qualified',
  ]);
  assert.deepEqual(kind.validateUpdate!(ns({ spec: { finalizers: [] } }), ns(), ctx('finalize')), []);
});

test('status phase must agree with deletionTimestamp', () => {
  assert.deepEqual(kind.validateUpdate!(ns({ status: { phase: 'Active' } }), ns(), ctx('status')), []);
  assert.deepEqual(texts(kind.validateUpdate!(ns({ status: { phase: 'Terminating' } }), ns(), ctx('status'))), [
    `status.Phase: Invalid value: "Terminating": may only be 'Active' if \`deletionTimestamp\` is empty`,
  ]);
  const deleting = { deletionTimestamp: '2024-01-01T00:00:00Z' };
  assert.deepEqual(kind.validateUpdate!(ns({ status: { phase: 'Terminating' } }, deleting), ns(), ctx('status')), []);
  assert.deepEqual(texts(kind.validateUpdate!(ns({ status: { phase: 'Active' } }, deleting), ns(), ctx('status'))), [
    `status.Phase: Invalid value: "Active": may only be 'Terminating' if \`deletionTimestamp\` is not empty`,
  ]);
});

test('delete: Terminating, held while spec.finalizers is not empty', () => {
  const obj = ns({ spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active', conditions: [] } });
  kind.prepareForDelete!(obj);
  assert.deepEqual(obj.status, { phase: 'Terminating', conditions: [] });
  assert.equal(kind.deletionBlocked!(obj), true);
  assert.equal(kind.deletionBlocked!(ns({ spec: { finalizers: [] } })), false);
  assert.equal(kind.deletionBlocked!(ns()), false);
});

test('main update has no spec rules of its own', () => {
  assert.deepEqual(kind.validateUpdate!(ns({ spec: { finalizers: ['kubernetes'] } }), ns(), ctx()), []);
});

test('field selector status.phase and table Name, Status, Age', () => {
  const obj = ns({ status: { phase: 'Terminating' } });
  obj.metadata.creationTimestamp = new Date(Date.now() - 9 * 3600_000).toISOString();
  assert.equal(kind.fieldSelectors!['status.phase'](obj), 'Terminating');
  const cols = kind.tableColumns!;
  assert.deepEqual(cols.map((c) => c.name), ['Name', 'Status', 'Age']);
  assert.deepEqual(cols.map((c) => c.cell(obj)), ['team-a', 'Terminating', '9h']);
});

test('schema carries Kubernetes protobuf field numbers', () => {
  type P = { properties: Record<string, Record<string, unknown> & { properties?: Record<string, Record<string, unknown> & { items?: { properties: Record<string, Record<string, unknown>> } }> }> };
  const props = (kind.versions[0].schema as unknown as P).properties;
  assert.deepEqual([props.metadata, props.spec, props.status].map((p) => p['x-proto']), [1, 2, 3]);
  assert.equal(props.spec.properties!.finalizers['x-proto'], 1);
  assert.equal(props.status.properties!.phase['x-proto'], 1);
  const cond = props.status.properties!.conditions;
  assert.equal(cond['x-proto'], 2);
  assert.equal(cond.items!.properties.lastTransitionTime['x-proto'], 4);
});
