import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abacAuthorizer, parseAbacPolicies } from './abac.ts';
import type { Attributes } from './types.ts';

const file = [
  '# comments and blank lines are skipped',
  '',
  '{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"user": "alice", "namespace": "*", "resource": "*", "apiGroup": "*"}}',
  '{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"user": "bob", "namespace": "projectCaribou", "resource": "pods", "apiGroup": "", "readonly": true}}',
  '{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"group": "system:authenticated", "readonly": true, "nonResourcePath": "/version"}}',
  '{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"user": "carol", "nonResourcePath": "/logs/*"}}',
  '{"user": "legacy"}',
].join('\n');
const abac = abacAuthorizer(parseAbacPolicies(file));

function a(user: string, o: Partial<Attributes>): Attributes {
  return { user: { username: user, groups: ['system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '', namespace: '', apiGroup: '', apiVersion: 'v1', resource: '', subresource: '', name: '', ...o };
}
const decision = (x: Attributes) => (abac.authorize(x) as { decision: string }).decision;

test('ABAC: user policies, read-only policies, groups and non-resource paths', () => {
  assert.equal(decision(a('alice', { verb: 'delete', namespace: 'x', resource: 'secrets', apiGroup: 'apps' })), 'allow');
  assert.equal(decision(a('bob', { verb: 'list', namespace: 'projectCaribou', resource: 'pods' })), 'allow');
  assert.equal(decision(a('bob', { verb: 'create', namespace: 'projectCaribou', resource: 'pods' })), 'noopinion');
  assert.equal(decision(a('bob', { verb: 'list', namespace: 'other', resource: 'pods' })), 'noopinion');
  assert.equal(decision(a('bob', { verb: 'list', namespace: 'projectCaribou', resource: 'pods', apiGroup: 'apps' })), 'noopinion');
  assert.equal(decision(a('dave', { isResourceRequest: false, path: '/version' })), 'allow');
  assert.equal(decision(a('dave', { isResourceRequest: false, path: '/version', verb: 'post' })), 'noopinion');
  assert.equal(decision(a('carol', { isResourceRequest: false, path: '/logs/a.log', verb: 'post' })), 'allow');
  assert.equal(decision(a('carol', { isResourceRequest: false, path: '/metrics' })), 'noopinion');
  assert.deepEqual(abac.authorize(a('eve', { resource: 'pods' })), { decision: 'noopinion', reason: 'No policy matched.' });
});

test('ABAC: the unversioned form matches everything its empty fields leave open', () => {
  // {"user": "legacy"}: every namespace, resource and group, and every non-resource path.
  assert.equal(decision(a('legacy', { verb: 'delete', namespace: 'x', resource: 'pods', apiGroup: 'apps' })), 'allow');
  assert.equal(decision(a('legacy', { isResourceRequest: false, path: '/anything', verb: 'put' })), 'allow');
});

test('ABAC: rules review lists the matching policies', () => {
  const r = abac.rulesFor!({ username: 'bob', groups: ['system:authenticated'] }, 'projectCaribou');
  assert.deepEqual(r.resourceRules, [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }]);
  // As in Kubernetes, a policy without a namespace is listed only for the cluster scope.
  assert.deepEqual(r.nonResourceRules, []);
  const cluster = abac.rulesFor!({ username: 'bob', groups: ['system:authenticated'] }, '');
  assert.deepEqual(cluster.nonResourceRules, [{ verbs: ['get', 'list', 'watch'], nonResourceURLs: ['/version'] }]);
});

test('ABAC: a bad line is an error naming the line', () => {
  assert.throws(() => parseAbacPolicies('{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"usr": "x"}}', '/p.jsonl'),
    /error reading policy file \/p.jsonl, line 1: .*unknown field "usr"/);
  assert.throws(() => parseAbacPolicies('\n{not json', '/p.jsonl'), /line 2: .*invalid JSON/);
  assert.throws(() => parseAbacPolicies('{"apiVersion": "v2", "kind": "Policy", "spec": {}}'), /unsupported apiVersion "v2"/);
});
