// Conformance sweep 5: authentication and authorization answers checked against Kubernetes v1.32 where
// earlier tests left them open (denial wording, reasons of several authorizers).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { admin, requestAs, tempFile, userCertificate } from './support/auth.ts';

const RBAC = 'rbac.authorization.svc.io';

function forbiddenMessage(r: { status: number; body: string }): string {
  assert.equal(r.status, 403, r.body);
  return JSON.parse(r.body).message;
}

describe('conformance sweep 5: access', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ access: { tokenAuthFile: await tempFile('tokens.csv', 'token-bob,bob,1\ntoken-angle,a<b>&c,2\n') } });
  });
  after(() => s.stop());

  it('a denial escapes &, < and > of the user and path, and names the path as Go decodes it', async () => {
    assert.equal(forbiddenMessage(await requestAs(s, { token: 'token-bob' }, 'GET', '/x%3Cy%3E%20z')),
      'forbidden: User "bob" cannot get path "/x&lt;y&gt; z"');
    assert.equal(forbiddenMessage(await requestAs(s, { token: 'token-angle' }, 'GET', '/api/v1/namespaces/default/pods')),
      'pods is forbidden: User "a&lt;b&gt;&amp;c" cannot list resource "pods" in API group "" in the namespace "default"');
    // A non-resource rule matches the decoded path, as Kubernetes' RBAC sees it.
    const role = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'spaced-path' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/a b'] }] };
    assert.equal((await requestAs(s, admin(s), 'POST', `/apis/${RBAC}/v1/clusterroles`, role)).status, 201);
    const binding = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'spaced-path' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'spaced-path' }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'bob' }] };
    assert.equal((await requestAs(s, admin(s), 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, binding)).status, 201);
    const review = await requestAs(s, admin(s), 'POST', '/apis/authorization.svc.io/v1/subjectaccessreviews',
      { apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview', spec: { user: 'bob', nonResourceAttributes: { verb: 'get', path: '/a b' } } });
    assert.equal(review.json().status.allowed, true, review.body);
    assert.notEqual((await requestAs(s, { token: 'token-bob' }, 'GET', '/a%20b')).status, 403);
  });

  it('when no authorizer decides, the reasons of each are joined one per line', async () => {
    const n1 = await userCertificate(s, 'system:node:n1', ['system:nodes']);
    await s.kubectl(['create', 'secret', 'generic', 'unused', '-n', 'default', '--from-literal=a=b']);
    const binding = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'to-missing', namespace: 'default' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'missing' }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'system:node:n1' }] };
    assert.equal((await requestAs(s, admin(s), 'POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, binding)).status, 201);
    assert.equal(forbiddenMessage(await requestAs(s, n1, 'GET', '/api/v1/namespaces/default/secrets/unused')),
      'secrets "unused" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": '
      + `no relationship found between node 'n1' and this object\nRBAC: role.${RBAC} "missing" not found`);
  });
});
