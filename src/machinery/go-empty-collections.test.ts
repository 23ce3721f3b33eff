import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { emptyIsNull } from './go-empty-collections.ts';
import { normalizeAsGoEncodes } from './go-encoding.ts';

const meta = Type.Object({
  labels: Type.Record(Type.String(), Type.String()),
  finalizers: Type.Array(Type.String()),
  managedFields: Type.Array(Type.Object({ manager: Type.String() })),
}, { 'x-ref': 'meta.v1.ObjectMeta' });
const rule = Type.Object({ verbs: Type.Array(Type.String()), resources: Type.Array(Type.String()) }, { 'x-ref': 'rbac.v1.PolicyRule' });
const role = Type.Object({
  metadata: meta,
  rules: Type.Array(rule),
  aggregationRule: Type.Object({ clusterRoleSelectors: Type.Array(Type.Object({ matchLabels: Type.Record(Type.String(), Type.String()) })) }),
  free: Type.Object({}, { 'x-platform-preserve-unknown-fields': true }),
  byName: Type.Record(Type.String(), Type.Object({ items: Type.Array(Type.String()) })),
}, { 'x-ref': 'rbac.v1.ClusterRole' });

test('the table: fields without omitempty by definition', () => {
  assert.equal(emptyIsNull('rbac.v1.ClusterRole', 'rules'), true);
  assert.equal(emptyIsNull('core.v1.PodSpec', 'containers'), true);
  assert.equal(emptyIsNull('core.v1.PodSpec', 'volumes'), false);
  assert.equal(emptyIsNull(undefined, 'rules'), false);
});

test('empty omitempty lists and maps go, at any depth; managedFields stays for the field manager', () => {
  const obj: Record<string, any> = {
    metadata: { labels: {}, finalizers: [], managedFields: [] },
    rules: [{ verbs: ['get'], resources: [] }],
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: {} }] },
    byName: { a: { items: [] } },
  };
  normalizeAsGoEncodes(obj, role);
  assert.deepEqual(obj, {
    metadata: { managedFields: [] },
    rules: [{ verbs: ['get'] }],
    aggregationRule: { clusterRoleSelectors: [{}] },
    byName: { a: {} },
  });
});

test('a field without omitempty is null when empty or absent, where its struct is', () => {
  const absent: Record<string, any> = { metadata: {} };
  normalizeAsGoEncodes(absent, role);
  assert.deepEqual(absent, { metadata: {}, rules: null });
  const empty: Record<string, any> = { rules: [{ verbs: [] }] };
  normalizeAsGoEncodes(empty, role);
  assert.deepEqual(empty, { rules: [{ verbs: null }] });
  const full: Record<string, any> = { rules: [{ verbs: ['get'] }] };
  normalizeAsGoEncodes(full, role);
  assert.deepEqual(full, { rules: [{ verbs: ['get'] }] });
});

test('free-form values, values of another type and non-empty containers are left as sent', () => {
  const obj: Record<string, any> = { rules: {}, free: { list: [], map: {} }, byName: [], metadata: { labels: [], finalizers: {} } };
  normalizeAsGoEncodes(obj, role);
  assert.deepEqual(obj, { rules: {}, free: { list: [], map: {} }, byName: [], metadata: { labels: [], finalizers: {} } });
  assert.equal(normalizeAsGoEncodes(null, role), null);
});

test('recursive schemas compile and run', () => {
  const node = Type.Recursive((self) => Type.Object({ children: Type.Array(self), tags: Type.Record(Type.String(), Type.String()) }));
  const obj: Record<string, any> = { children: [{ children: [], tags: {} }], tags: { a: 'b' } };
  normalizeAsGoEncodes(obj, node);
  assert.deepEqual(obj, { children: [{}], tags: { a: 'b' } });
});

test("an HPA's empty scaling policies stay, for defaulting and validation to tell them from none", () => {
  const rules = Type.Object({ policies: Type.Array(Type.Object({ type: Type.String() })), selectPolicy: Type.String() }, { 'x-ref': 'autoscaling.v2.HPAScalingRules' });
  const hpa = Type.Object({ scaleUp: rules, scaleDown: rules });
  const obj: Record<string, any> = { scaleUp: { policies: [] }, scaleDown: {} };
  normalizeAsGoEncodes(obj, hpa);
  assert.deepEqual(obj, { scaleUp: { policies: [] }, scaleDown: {} });
});
