import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenError, forbiddenStatus } from './forbidden.ts';
import type { Attributes } from './types.ts';

const attrs = (over: Partial<Attributes>): Attributes => ({
  user: { username: 'alice', groups: [] }, verb: 'get', isResourceRequest: true, path: '', namespace: 'ns',
  apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: 'p', ...over,
});

test('a denial is worded as Kubernetes words it', () => {
  const err = forbiddenError(attrs({}), 'no RBAC policy matched');
  assert.equal(err.code, 403);
  assert.equal(err.message, 'pods "p" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "ns": no RBAC policy matched');
  assert.deepEqual(err.details, { name: 'p', kind: 'pods' });
  const path = forbiddenError(attrs({ isResourceRequest: false, path: '/healthz', verb: 'post' }), '');
  assert.equal(path.message, 'forbidden: User "alice" cannot post path "/healthz"');
});

test('names are quoted as Go %q quotes them, not as JSON', () => {
  assert.equal(forbiddenStatus({ group: '', resource: 'pods' }, 'a\x07\x7f\u2028', 'denied').message, 'pods "a\\a\\x7f\\u2028" is forbidden: denied');
  assert.equal(forbiddenError(attrs({ user: { username: 'b\vob', groups: [] }, name: '' }), '').message,
    'pods is forbidden: User "b\\vob" cannot get resource "pods" in API group "" in the namespace "ns"');
});

test('the user, path and resource are HTML-escaped as responsewriters\' sanitizer does; the reason is not', () => {
  assert.equal(forbiddenError(attrs({ isResourceRequest: false, path: '/x<y>&z', user: { username: 'u<x>', groups: [] } }), 'a<b').message,
    'forbidden: User "u&lt;x&gt;" cannot get path "/x&lt;y&gt;&amp;z": a<b');
  // The name in the Status prefix comes from apierrors.NewForbidden, outside the sanitised part.
  assert.equal(forbiddenError(attrs({ name: 'a<b', namespace: 'n&s' }), '').message,
    'pods "a<b" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "n&amp;s"');
});
