// Conformance sweep 5: authentication and authorization answers checked against Kubernetes v1.32 where
// earlier tests left them open (denial wording, reasons of several authorizers, secret-based service
// account tokens and their controller).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { admin, eventually, kubectlAs, requestAs, tempFile, userCertificate } from './support/auth.ts';

const run = promisify(execFile);

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

  it('access reviews validate their field and label selectors as Kubernetes v1.32 does', async () => {
    const review = (kind: string, path: string, spec: unknown) => requestAs(s, admin(s), 'POST', `/apis/authorization.svc.io/v1/${path}`, { apiVersion: 'authorization.svc.io/v1', kind, spec });
    const sar = await review('SubjectAccessReview', 'subjectaccessreviews',
      { user: 'bob', resourceAttributes: { verb: 'list', resource: 'pods', fieldSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'In', values: ['b'] }] } } });
    assert.equal(sar.status, 422, sar.body);
    assert.equal(sar.json().message, 'SubjectAccessReview.authorization.svc.io "" is invalid: spec.resourceAttributes.fieldSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements');
    const self = await review('SelfSubjectAccessReview', 'selfsubjectaccessreviews', { resourceAttributes: { verb: 'list', resource: 'pods', labelSelector: {} } });
    assert.equal(self.json().message, 'SelfSubjectAccessReview.authorization.svc.io "" is invalid: spec.resourceAttributes.labelSelector.requirements: Required value: when spec.resourceAttributes.labelSelector is specified, requirements or rawSelector is required');
    const local = await review('LocalSubjectAccessReview', 'namespaces/default/localsubjectaccessreviews',
      { user: 'bob', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods', labelSelector: { requirements: [{ key: 'app', operator: 'Exists', values: ['x'] }] } } });
    assert.equal(local.json().message, "LocalSubjectAccessReview.authorization.svc.io \"\" is invalid: spec.resourceAttributes.labelSelector.requirements[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    const good = await review('SubjectAccessReview', 'subjectaccessreviews', { user: 'bob', resourceAttributes: { verb: 'list', resource: 'pods', labelSelector: { rawSelector: 'app=x' } } });
    assert.equal(good.status, 201, good.body);
  });

  it('a binding to a missing role by someone without bind is the role registry\'s 404; an unknown kind a 500', async () => {
    const admin2 = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'bob-admin', namespace: 'default' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'admin' }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'bob' }] };
    assert.equal((await requestAs(s, admin(s), 'POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, admin2)).status, 201);
    const to = (kind: string, name: string) => ({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: `to-${name}` }, roleRef: { apiGroup: RBAC, kind, name }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'carol' }] });
    const missing = await requestAs(s, { token: 'token-bob' }, 'POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, to('ClusterRole', 'nowhere'));
    assert.equal(missing.status, 404, missing.body);
    assert.equal(missing.json().message, `clusterroles.${RBAC} "nowhere" not found`);
    const odd = await requestAs(s, { token: 'token-bob' }, 'POST', `/apis/${RBAC}/v1/namespaces/default/rolebindings`, to('Thing', 'x'));
    assert.equal(odd.status, 500, odd.body);
    // A plain error from Kubernetes' rule resolver: a 500 with its message and no reason.
    assert.deepEqual(odd.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'unsupported role reference kind: "Thing"', code: 500 });
  });

  it('TokenReview: a static token asked for another audience is passed over, answering only "invalid bearer token"', async () => {
    const review = await requestAs(s, admin(s), 'POST', '/apis/authentication.svc.io/v1/tokenreviews',
      { apiVersion: 'authentication.svc.io/v1', kind: 'TokenReview', spec: { token: 'token-bob', audiences: ['vault'] } });
    assert.deepEqual(review.json().status, { user: {}, error: 'invalid bearer token' });
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

describe('conformance sweep 5: secret-based service account tokens', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: ['*', '-serviceaccount'] });
  });
  after(() => s.stop());

  const tokenOf = async (name: string): Promise<string> => {
    let data: Record<string, string> | undefined;
    await eventually(async () => !!(data = (await requestAs(s, admin(s), 'GET', `/api/v1/namespaces/default/secrets/${name}`)).json().data)?.token);
    return Buffer.from(data!.token, 'base64').toString('utf8');
  };

  it('the token controller fills a Secret of its account, which then authenticates (kubectl, Python, HTTP) until the account goes', async () => {
    assert.equal((await s.kubectl(['create', 'serviceaccount', 'robot'])).code, 0);
    const secret = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: robot-token\n  annotations:\n    platform.io/service-account.name: robot\ntype: platform.io/service-account-token\n`;
    assert.equal((await s.kubectl(['apply', '-f', '-'], secret)).code, 0);
    const token = await tokenOf('robot-token');
    const stored = (await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/default/secrets/robot-token')).json();
    const account = (await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/default/serviceaccounts/robot')).json();
    assert.equal(stored.metadata.annotations['platform.io/service-account.uid'], account.metadata.uid);
    assert.equal(Buffer.from(stored.data.namespace, 'base64').toString(), 'default');
    assert.equal(Buffer.from(stored.data['ca.crt'], 'base64').toString(), s.credentials.ca);
    assert.equal(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).iss, 'kubernetes/serviceaccount');

    const whoami = await kubectlAs(s, { token }, ['auth', 'whoami', '-o', 'json']);
    assert.equal(whoami.code, 0, whoami.stderr);
    assert.deepEqual(JSON.parse(whoami.stdout).status.userInfo, {
      username: 'system:serviceaccount:default:robot', uid: account.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    // Used today: the Secret says so.
    const labels = (await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/default/secrets/robot-token')).json().metadata.labels;
    assert.equal(labels['platform.io/legacy-token-last-used'], new Date().toISOString().slice(0, 10));

    if (existsSync('/usr/bin/python3')) {
      const script = `
import sys
from kubernetes import client
c = client.Configuration()
c.host = sys.argv[1]
c.ssl_ca_cert = sys.argv[2]
c.api_key = {"authorization": "Bearer " + sys.argv[3]}
import json
try:
    client.CoreV1Api(client.ApiClient(c)).list_namespaced_secret("default")
except client.ApiException as e:
    print(e.status, json.loads(e.body)["message"])
`;
      const ca = await tempFile('ca.crt', s.credentials.ca);
      try {
        const out = (await run('/usr/bin/python3', ['-c', script, s.url, ca, token], { timeout: 60_000 })).stdout;
        assert.equal(out.trim(), '403 secrets is forbidden: User "system:serviceaccount:default:robot" cannot list resource "secrets" in API group "" in the namespace "default"');
      } catch (err) {
        if (!/No module named 'kubernetes'/.test(String((err as { stderr?: string }).stderr))) throw err;
      }
    }

    const review = await requestAs(s, admin(s), 'POST', '/apis/authentication.svc.io/v1/tokenreviews',
      { apiVersion: 'authentication.svc.io/v1', kind: 'TokenReview', spec: { token, audiences: ['elsewhere'] } });
    assert.equal(review.json().status.error, 'token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["elsewhere"]');

    // A Secret of an account that does not exist is removed; so are the account's when it is deleted.
    await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/default/secrets',
      { metadata: { name: 'orphan-token', annotations: { 'platform.io/service-account.name': 'nobody' } }, type: 'platform.io/service-account-token' });
    await eventually(async () => (await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/default/secrets/orphan-token')).status === 404);
    assert.equal((await s.kubectl(['delete', 'serviceaccount', 'robot'])).code, 0);
    assert.equal((await requestAs(s, { token }, 'GET', '/api/v1/namespaces')).status, 401);
    await eventually(async () => (await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/default/secrets/robot-token')).status === 404);
  });

  it('a token in a Secret marked invalid is refused, with Kubernetes\' reason in a TokenReview', async () => {
    await s.kubectl(['create', 'serviceaccount', 'robot2']);
    await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/default/secrets',
      { metadata: { name: 'robot2-token', annotations: { 'platform.io/service-account.name': 'robot2' } }, type: 'platform.io/service-account-token' });
    const token = await tokenOf('robot2-token');
    assert.equal((await requestAs(s, { token }, 'POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' })).status, 201);
    const patch = (body: unknown) => requestAs(s, admin(s), 'PATCH', '/api/v1/namespaces/default/secrets/robot2-token', body, { 'content-type': 'application/merge-patch+json' });
    assert.equal((await patch({ metadata: { labels: { 'platform.io/legacy-token-invalid-since': '2026-01-01' } } })).status, 200);
    const refused = await requestAs(s, admin(s), 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'TokenReview', spec: { token } });
    assert.match(refused.json().status.error, /has been marked invalid/);
    assert.equal((await requestAs(s, { token }, 'GET', '/api')).status, 401);
  });
});
