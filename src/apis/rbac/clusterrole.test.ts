import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clusterRoleKind as kind } from './clusterrole.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

const role = (name: string, extra: Record<string, unknown>): ApiObject => ({ apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name }, ...extra });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;

test('declaration: cluster-scoped, no short names, create on update, Created At column', () => {
  assert.equal(kind.group, 'rbac.authorization.svc.io');
  assert.equal(kind.plural, 'clusterroles');
  assert.equal(kind.namespaced, false);
  assert.equal(kind.shortNames, undefined);
  assert.equal(kind.allowCreateOnUpdate, true);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.type]), [['Name', 'string'], ['Created At', 'date']]);
});

test('schema: rules and their lists are atomic, protobuf numbers as Kubernetes', () => {
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, Record<string, any>> }).properties;
  assert.equal(props.rules['x-platform-list-type'], 'atomic');
  assert.deepEqual([props.metadata['x-proto'], props.rules['x-proto'], props.aggregationRule['x-proto']], [1, 2, 3]);
  const rule = props.rules.items.properties;
  for (const f of ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs']) assert.equal(rule[f]['x-platform-list-type'], 'atomic', f);
  assert.deepEqual(['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'].map((f) => rule[f]['x-proto']), [1, 2, 3, 4, 5]);
  assert.equal(props.aggregationRule.properties.clusterRoleSelectors['x-platform-list-type'], 'atomic');
});

test('a resource rule and a non-resource rule are valid; the table shows the creation time', async () => {
  const obj = await h.create(role('reader', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }, { nonResourceURLs: ['/healthz', '/apis/*', '*'], verbs: ['get'] }] }));
  assert.equal(kind.tableColumns![1].cell(obj), obj.metadata.creationTimestamp);
});

test('verbs are required', async () => {
  assert.deepEqual(await causes(role('a', { rules: [{ apiGroups: [''], resources: ['pods'] }] })), ['rules[0].verbs: Required value: verbs must contain at least one value']);
  assert.deepEqual(await causes(role('a', { rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] })), ['rules[0].verbs: Required value: verbs must contain at least one value']);
});

test('resource rules need an api group and a resource', async () => {
  assert.deepEqual(await causes(role('a', { rules: [{ verbs: ['get'] }] })), [
    'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'rules[0].resources: Required value: resource rules must supply at least one resource',
  ]);
});

test('a rule applies to resources or to non-resource URLs, not both', async () => {
  assert.deepEqual(await causes(role('a', { rules: [{ nonResourceURLs: ['/api'], resources: ['pods'], verbs: ['get'] }] })), [
    'rules[0].nonResourceURLs: Invalid value: []string{"/api"}: rules cannot apply to both regular resources and non-resource URLs',
  ]);
});

test('a non-resource URL has * only as its whole last segment', async () => {
  assert.deepEqual(await causes(role('a', { rules: [{ nonResourceURLs: ['/api*', '/a/*/b', '/ok/*'], verbs: ['get'] }] })), [
    `rules[0].nonResourceURLs[0]: Invalid value: "/api*": '*' is only allowed as the full, final segment of the path`,
    `rules[0].nonResourceURLs[1]: Invalid value: "/a/*/b": '*' is only allowed as the full, final segment of the path`,
  ]);
});

test('an aggregation rule needs a valid selector', async () => {
  assert.deepEqual(await causes(role('a', { aggregationRule: {} })), ['aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']);
  assert.deepEqual(await causes(role('a', { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Near' }] }] } })), [
    'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
    'aggregationRule.clusterRoleSelectors[0]: Invalid value: "null": invalid label selector.',
  ]);
  const ok = await h.create(role('aggregated', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-view': 'true' } }] } }));
  assert.ok(ok.metadata.uid);
});

test('names are path segments', async () => {
  const ok = await h.create(role('system:controller:x', { rules: [] }));
  assert.equal(ok.metadata.name, 'system:controller:x');
  assert.deepEqual(await causes(role('a/b', {})), ['metadata.name: Invalid value: "a/b": may not contain \'/\'']);
});

test('PUT creates a missing cluster role; updates are validated too', async () => {
  const made = await h.update(role('put-made', { rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] }));
  assert.ok(made.metadata.uid);
  assert.deepEqual((await rejection(h.update(role('put-made', { rules: [{ apiGroups: ['apps'], resources: ['deployments'] }] })))).causes, ['rules[0].verbs: Required value: verbs must contain at least one value']);
});
