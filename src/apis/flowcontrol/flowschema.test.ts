import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { flowSchemaKind as kind } from './flowschema.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const subject = { kind: 'Group', group: { name: 'system:authenticated' } };
const resourceRule = { verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] };
const fs = (spec: Record<string, unknown>, name = `fs-${++n}`): ApiObject => ({
  apiVersion: 'flowcontrol.apiserver.svc.io/v1', kind: 'FlowSchema', metadata: { name },
  spec: { priorityLevelConfiguration: { name: 'workload-low' }, ...spec },
});
const withRule = (rule: Record<string, unknown>) => fs({ rules: [{ subjects: [subject], ...rule }] });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
type Spec = Record<string, any>;

test('declaration: cluster-scoped, status, subject union, columns as kubectl prints them', () => {
  assert.equal(kind.plural, 'flowschemas');
  assert.deepEqual(kind.status, {});
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties;
  const rule = props.spec.properties.rules.items.properties;
  assert.equal(rule.subjects.items['x-kubernetes-unions'][0].discriminator, 'kind');
  assert.equal(rule.nonResourceRules.items.properties.nonResourceURLs['x-proto'], 6);
  assert.equal(rule.resourceRules.items.properties.verbs['x-platform-list-type'], 'set');
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
});

test('defaults: matchingPrecedence 1000; the table shows it', async () => {
  const obj = await h.create(fs({ distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [subject], resourceRules: [resourceRule] }] }));
  assert.equal((obj.spec as Spec).matchingPrecedence, 1000);
  const cells = kind.tableColumns!.map((c) => c.cell(obj));
  assert.deepEqual([cells[1], cells[2], cells[3], cells[5]], ['workload-low', 1000, 'ByUser', '?']);
  const noMethod = await h.create(fs({ matchingPrecedence: 500 }));
  assert.equal(kind.tableColumns![3].cell(noMethod), '<none>');
});

test('matchingPrecedence: 1..10000, 1 only for exempt', async () => {
  assert.deepEqual(await causes(fs({ matchingPrecedence: 10001 })), ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000']);
  assert.deepEqual(await causes(fs({ matchingPrecedence: -3 })), ['spec.matchingPrecedence: Invalid value: -3: must be a positive value']);
  assert.deepEqual(await causes(fs({ matchingPrecedence: 1 })), ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"]);
  const exempt = await h.create(fs({ matchingPrecedence: 1 }, 'exempt'));
  assert.equal((exempt.spec as Spec).matchingPrecedence, 1);
});

test('distinguisherMethod: ByUser or ByNamespace; a priority level is named', async () => {
  assert.deepEqual(await causes(fs({ distinguisherMethod: { type: 'ByColor' } })), [
    'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByColor"}: supported values: "ByNamespace", "ByUser"',
  ]);
  assert.deepEqual(await causes(fs({ priorityLevelConfiguration: {} })), ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level']);
});

test('rules: subjects required and well formed', async () => {
  assert.deepEqual(await causes(fs({ rules: [{ resourceRules: [resourceRule] }] })), ['spec.rules[0].subjects: Required value: subjects must contain at least one value']);
  assert.deepEqual(await causes(fs({ rules: [{ subjects: [{ kind: 'Robot' }], resourceRules: [resourceRule] }] })), ['spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"']);
  assert.deepEqual(await causes(fs({ rules: [{ subjects: [{ kind: 'User', group: { name: 'g' } }], resourceRules: [resourceRule] }] })), [
    "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'",
    "spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'",
  ]);
  assert.deepEqual(await causes(fs({ rules: [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: '*' } }], resourceRules: [resourceRule] }] })), [
    'spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
  ]);
});

test('rules: at least one resource or non-resource rule', async () => {
  assert.deepEqual(await causes(withRule({})), ['spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty']);
});

test('resource rules: verbs, groups, resources and namespaces', async () => {
  assert.deepEqual(await causes(withRule({ resourceRules: [{}] })), [
    'spec.rules[0].resourceRules[0].verbs: Required value: verbs must contain at least one value',
    'spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'spec.rules[0].resourceRules[0].resources: Required value: resource rules must supply at least one resource',
    'spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
  ]);
  assert.deepEqual(await causes(withRule({ resourceRules: [{ verbs: ['*', 'get'], apiGroups: ['*', 'apps'], resources: ['*', 'pods'], namespaces: ['*', 'default'] }] })), [
    `spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`,
    `spec.rules[0].resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`,
    `spec.rules[0].resourceRules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources`,
    `spec.rules[0].resourceRules[0].namespaces: Invalid value: []string{"*", "default"}: if '*' is present, must not specify other namespaces`,
  ]);
  assert.deepEqual(await causes(withRule({ resourceRules: [{ verbs: ['get', 'fly'], apiGroups: [''], resources: ['pods'], clusterScope: true }] })), [
    'spec.rules[0].resourceRules[0].verbs: Unsupported value: []string{"get", "fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
  ]);
  const ns = await causes(withRule({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['Bad'] }] }));
  assert.equal(ns.length, 1);
  assert.match(ns[0], /^spec\.rules\[0\]\.resourceRules\[0\]\.namespaces\[0\]: Invalid value: "Bad": each member of this list must be '\*' or a DNS-1123 label; a lowercase RFC 1123 label/);
});

test('non-resource rules: URLs rooted, without blanks or double slashes, * only as a final /*', async () => {
  const urls = (nonResourceURLs: string[]) => causes(withRule({ nonResourceRules: [{ verbs: ['get'], nonResourceURLs }] }));
  assert.deepEqual(await urls(['healthz', '/a b', '/a//b', '/hea*', '/a/*/b']), [
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "healthz": must start with slash',
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "/a b": must not contain white-space',
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/a//b": must not contain double slash',
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[3]: Invalid value: "/hea*": wildcard can only do suffix glob matching',
    'spec.rules[0].nonResourceRules[0].nonResourceURLs[4]: Invalid value: "/a/*/b": wildcard can only do suffix glob matching',
  ]);
  assert.deepEqual(await urls([]), ['spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value']);
  const ok = await h.create(withRule({ nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/healthz/*', '/'] }] }));
  assert.ok(ok.metadata.uid);
});

test('status: Dangling shows in MissingPL; main writes keep status', async () => {
  const made = await h.create(fs({}, 'dangling'));
  const st = await h.update({ ...made, status: { conditions: [{ type: 'Dangling', status: 'False' }] } }, { subresource: 'status' });
  assert.equal(kind.tableColumns![5].cell(st), 'False');
  const main = await h.update({ ...st, spec: { ...(st.spec as Spec), matchingPrecedence: 900 }, status: {} });
  assert.equal(main.metadata.generation, 2);
  assert.deepEqual(main.status, st.status);
});
