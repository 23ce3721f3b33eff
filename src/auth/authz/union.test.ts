import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unionAuthorizer } from './union.ts';
import { aggregate } from '../../machinery/go-format.ts';
import { allow, noOpinion, type Attributes, type Authorizer, type Decision } from './types.ts';

const fixed = (name: string, d: Decision): Authorizer => ({ name, authorize: async () => d });
const attrs: Attributes = {
  user: { username: 'u', groups: [] }, verb: 'get', isResourceRequest: true, path: '', namespace: 'ns',
  apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p',
};

test('no opinion from all: the reasons one per line and the errors aggregated, as Kubernetes\' union does', async () => {
  const d = await unionAuthorizer([fixed('a', noOpinion('first')), fixed('b', noOpinion('')), fixed('c', noOpinion('third', 'boom'))]).authorize(attrs);
  assert.deepEqual(d, { decision: 'noopinion', reason: 'first\nthird', error: 'boom' });
});

test('the first decision wins with its own reason', async () => {
  const d = await unionAuthorizer([fixed('a', noOpinion('first')), fixed('b', allow('ok')), fixed('c', noOpinion('never'))]).authorize(attrs);
  assert.deepEqual(d, { decision: 'allow', reason: 'ok' });
});

test('aggregate: each distinct message once, as utilerrors prints it', () => {
  assert.equal(aggregate(['a', 'a']), 'a');
  assert.equal(aggregate(['a', 'b', 'a']), '[a, b]');
});
