import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthorizationChecks, celAuthorizer, evaluateMatchConditions } from './webhook-conditions.ts';
import { compileConfiguration, type CompiledWebhook } from './webhook-configurations.ts';
import type { Attributes, Decision } from '../auth/authz/types.ts';

const hookWith = (conditions: { name: string; expression: string }[]): CompiledWebhook =>
  compileConfiguration({ apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'c' }, webhooks: [{ name: 'w.example.com', matchConditions: conditions }] }, (g) => g)[0]!;

const asked: Attributes[] = [];
const authorize = async (a: Attributes): Promise<Decision> => {
  asked.push(a);
  if (a.verb === 'boom') return { decision: 'noopinion', reason: '', error: 'authorizer failed' };
  const allowed = a.user.username === 'alice' ? a.verb !== 'delete' : a.user.username.startsWith('system:serviceaccount:');
  return allowed ? { decision: 'allow', reason: 'by test' } : { decision: 'noopinion', reason: 'not by test' };
};
const alice = { username: 'alice', groups: ['devs'] };
const request = { uid: '', kind: { group: '', version: 'v1', kind: 'ConfigMap' }, operation: 'CREATE', userInfo: { username: 'alice', groups: ['devs'] }, namespace: 'ns', name: 'cm', dryRun: false };
const vars = (object: unknown, oldObject: unknown = null) => ({
  object, oldObject, request,
  authorizer: celAuthorizer(alice, new AuthorizationChecks(authorize), { group: '', resource: 'configmaps', subresource: '', namespace: 'ns', name: 'cm' }),
});
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', labels: { tier: 'web' } }, data: { a: '1' } };

test('all true matches; the first false skips, even after an error', async () => {
  assert.deepEqual(await evaluateMatchConditions(hookWith([
    { name: 'labelled', expression: "object.metadata.labels.tier == 'web'" },
    { name: 'by-devs', expression: "'devs' in request.userInfo.groups && request.operation == 'CREATE' && oldObject == null" },
  ]), vars(cm)), { matches: true });
  assert.deepEqual(await evaluateMatchConditions(hookWith([
    { name: 'broken', expression: 'object.spec.replicas > 1' },
    { name: 'not-web', expression: "object.metadata.labels.tier != 'web'" },
  ]), vars(cm)), { matches: false, failedCondition: 'not-web' });
});

test('errors with no false: each expression\'s error, a compilation error, aggregated', async () => {
  assert.deepEqual(await evaluateMatchConditions(hookWith([{ name: 'a', expression: 'object.spec.replicas > 1' }]), vars(cm)),
    { error: "expression 'object.spec.replicas > 1' resulted in error: no such key: spec" });
  const outcome = await evaluateMatchConditions(hookWith([{ name: 'a', expression: 'object.spec.x' }, { name: 'b', expression: 'request.nosuch == 1' }]), vars(cm));
  assert.ok('error' in outcome);
  assert.match(outcome.error, /^\[expression 'object.spec.x' resulted in error: no such key: spec, compilation error: ERROR: <input>:1:8: undefined field 'nosuch'\]$/);
});

test('the authorizer: resource and path checks for the requesting user, service accounts, the request\'s own resource', async () => {
  asked.length = 0;
  const hook = hookWith([
    { name: 'a', expression: "authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('d').check('update').allowed()" },
    { name: 'b', expression: "!authorizer.requestResource.check('delete').allowed() && authorizer.requestResource.check('delete').reason() == 'not by test'" },
    { name: 'c', expression: "authorizer.serviceAccount('kube-system', 'robot').path('/healthz').check('get').allowed()" },
    { name: 'd', expression: "!authorizer.path('/x').check('boom').allowed() && authorizer.path('/x').check('boom').errored() && authorizer.path('/x').check('boom').error() == 'authorizer failed'" },
  ]);
  assert.deepEqual(await evaluateMatchConditions(hook, vars(cm)), { matches: true });
  const strip = ({ user, ...rest }: Attributes) => ({ user: user.username, ...rest });
  assert.deepEqual(asked.map(strip), [
    { user: 'alice', verb: 'update', isResourceRequest: true, path: '', namespace: 'ns', apiGroup: 'apps', apiVersion: '*', resource: 'deployments', subresource: 'scale', name: 'd' },
    { user: 'alice', verb: 'delete', isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: '*', resource: 'configmaps', subresource: '', name: 'cm' },
    { user: 'system:serviceaccount:kube-system:robot', verb: 'get', isResourceRequest: false, path: '/healthz', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' },
    { user: 'alice', verb: 'boom', isResourceRequest: false, path: '/x', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' },
  ]);
  assert.deepEqual(asked[2]!.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:kube-system']);
});
