// Authentication end to end: every credential accepted, every bad one refused with 401 and never taken as
// anonymous, impersonation, TokenRequest bindings and expiry, TokenReview and SelfSubjectReview.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { admin, kubectlAs, requestAs, tempFile, userCertificate, type Credentials } from './support/auth.ts';
import { generateCertificateAuthority } from '../src/pki/authority.ts';
import { issueClientCertificate } from '../src/pki/sign.ts';
import { loadOrCreateSigningKey } from '../src/auth/authn/service-account-keys.ts';
import { TokenIssuer } from '../src/auth/authn/service-account-tokens.ts';

const SSR = '/apis/authentication.svc.io/v1/selfsubjectreviews';
const ssrBody = { apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' };

async function whoami(s: TestServer, who: Credentials, headers: Record<string, string | string[]> = {}) {
  const r = await requestAs(s, who, 'POST', SSR, ssrBody, headers);
  return { status: r.status, user: r.status === 201 ? r.json().status.userInfo : undefined, body: r.body };
}

function assertUnauthorized(r: { status: number; body: string }) {
  assert.equal(r.status, 401, r.body);
  assert.deepEqual(JSON.parse(r.body), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
}

describe('authentication', () => {
  let s: TestServer;
  const tokens = [
    'static-alice,alice,1001,"devs,qa"',
    'static-bob,bob,1002',
    '',
  ].join('\n');

  before(async () => {
    s = await startTestServer({ access: { tokenAuthFile: await tempFile('tokens.csv', tokens), enableBootstrapTokenAuth: true } });
  });
  after(() => s.stop());

  test('client certificates: CN is the user, O the groups; the admin kubeconfig keeps working', async () => {
    const alice = await userCertificate(s, 'alice', ['devs', 'qa']);
    assert.deepEqual((await whoami(s, alice)).user, { username: 'alice', groups: ['devs', 'qa', 'system:authenticated'] });
    assert.deepEqual((await whoami(s, admin(s))).user, { username: 'capstan-admin', groups: ['system:masters', 'system:authenticated'] });
    const ns = await s.kubectl(['get', 'namespaces', '-o', 'name']);
    assert.equal(ns.code, 0, ns.stderr);
    assert.match(ns.stdout, /namespace\/kube-system/);
    const who = await kubectlAs(s, alice, ['auth', 'whoami', '-o', 'json']);
    assert.equal(who.code, 0, who.stderr);
    assert.equal(JSON.parse(who.stdout).status.userInfo.username, 'alice');
  });

  test('a certificate from another authority is refused with 401, also on public paths', async () => {
    const other = await generateCertificateAuthority({ commonName: 'other-ca' });
    const forged = await issueClientCertificate(other, { commonName: 'capstan-admin', organizations: ['system:masters'] });
    const who = { cert: forged.certPem, key: forged.keyPem };
    assertUnauthorized(await requestAs(s, who, 'GET', '/api/v1/namespaces'));
    assertUnauthorized(await requestAs(s, who, 'GET', '/healthz'));
  });

  test('static tokens from --token-auth-file, with kubectl --token', async () => {
    assert.deepEqual((await whoami(s, { token: 'static-alice' })).user, { username: 'alice', uid: '1001', groups: ['devs', 'qa', 'system:authenticated'] });
    assert.deepEqual((await whoami(s, { token: 'static-bob' })).user, { username: 'bob', uid: '1002', groups: ['system:authenticated'] });
    const r = await kubectlAs(s, {}, ['--token', 'static-bob', 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'bob');
    const forbidden = await kubectlAs(s, {}, ['--token', 'static-bob', 'get', 'secrets', '-n', 'default']);
    assert.equal(forbidden.code, 1);
    assert.match(forbidden.stderr, /Error from server \(Forbidden\): secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "default"/);
  });

  test('unknown, malformed and empty bearer tokens are 401, never anonymous', async () => {
    for (const token of ['not-a-token', 'a.b.c', 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2ln', '']) {
      assertUnauthorized(await requestAs(s, { token }, 'GET', '/healthz'));
      assertUnauthorized(await requestAs(s, { token }, 'GET', '/api/v1/namespaces'));
    }
    const r = await kubectlAs(s, {}, ['--token', 'wrong', 'get', 'namespaces']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error: You must be logged in to the server/);
  });

  test('anonymous requests are system:anonymous in system:unauthenticated: public paths only', async () => {
    const health = await requestAs(s, {}, 'GET', '/healthz');
    assert.equal(health.status, 200);
    assert.equal((await requestAs(s, {}, 'GET', '/version')).status, 200);
    const list = await requestAs(s, {}, 'GET', '/api/v1/namespaces/default/secrets');
    assert.equal(list.status, 403);
    assert.deepEqual(list.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403, details: { kind: 'secrets' },
      message: 'secrets is forbidden: User "system:anonymous" cannot list resource "secrets" in API group "" in the namespace "default"',
    });
    const apis = await requestAs(s, {}, 'GET', '/apis');
    assert.equal(apis.json().message, 'forbidden: User "system:anonymous" cannot get path "/apis"');
    const review = await requestAs(s, { token: 'static-bob' }, 'POST', '/apis/authorization.svc.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.svc.io/v1', kind: 'SubjectAccessReview',
      spec: { user: 'system:anonymous', groups: ['system:unauthenticated'], nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    });
    assert.equal(review.status, 403, 'bob may not review access');
  });

  test('service account tokens from TokenRequest: user, groups, audiences and expiry', async () => {
    assert.equal((await s.kubectl(['create', 'namespace', 'team'])).code, 0);
    assert.equal((await s.kubectl(['create', 'serviceaccount', 'robot', '-n', 'team'])).code, 0);
    const sa = JSON.parse((await s.kubectl(['get', 'sa', 'robot', '-n', 'team', '-o', 'json'])).stdout);
    const issued = await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: {} });
    assert.equal(issued.status, 201, issued.body);
    const tr = issued.json();
    assert.equal(tr.kind, 'TokenRequest');
    assert.deepEqual(tr.spec.audiences, ['https://kubernetes.default.svc.cluster.local']);
    assert.equal(tr.spec.expirationSeconds, 3600);
    const lifetime = Date.parse(tr.status.expirationTimestamp) - Date.parse(tr.metadata.creationTimestamp);
    assert.equal(lifetime, 3600_000);
    const me = await whoami(s, { token: tr.status.token });
    assert.equal(me.user.username, 'system:serviceaccount:team:robot');
    assert.equal(me.user.uid, sa.metadata.uid);
    assert.deepEqual(me.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated']);
    assert.match(me.user.extra['authentication.platform.io/credential-id'][0], /^JTI=/);

    // kubectl create token, and the token used with kubectl --token.
    const created = await s.kubectl(['create', 'token', 'robot', '-n', 'team', '--duration=20m']);
    assert.equal(created.code, 0, created.stderr);
    const who = await kubectlAs(s, {}, ['--token', created.stdout.trim(), 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    assert.equal(who.stdout, 'system:serviceaccount:team:robot', who.stderr);

    // A token for another audience is not good for the API server.
    const other = (await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { spec: { audiences: ['vault'] } })).json();
    assertUnauthorized(await requestAs(s, { token: other.status.token }, 'GET', '/api/v1/namespaces'));

    const tooShort = await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { spec: { expirationSeconds: 599 } });
    assert.equal(tooShort.status, 422);
    assert.equal(tooShort.json().message, 'TokenRequest.authentication.svc.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    const missing = await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/nobody/token', { spec: {} });
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'serviceaccounts "nobody" not found');
  });

  test('an expired service account token is 401', async () => {
    await s.kubectl(['create', 'serviceaccount', 'old', '-n', 'team']);
    const sa = JSON.parse((await s.kubectl(['get', 'sa', 'old', '-n', 'team', '-o', 'json'])).stdout);
    const key = await loadOrCreateSigningKey(join(s.dataDir, 'pki', 'sa.key'), false);
    const issuer = new TokenIssuer(key, 'https://kubernetes.default.svc.cluster.local');
    const past = Math.floor(Date.now() / 1000) - 7200;
    const expired = await issuer.issue({ namespace: 'team', serviceAccount: { name: 'old', uid: sa.metadata.uid }, audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 600, now: past });
    const fresh = await issuer.issue({ namespace: 'team', serviceAccount: { name: 'old', uid: sa.metadata.uid }, audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 600 });
    assert.equal((await whoami(s, { token: fresh.token })).status, 201);
    assertUnauthorized(await requestAs(s, { token: expired.token }, 'GET', '/healthz'));
  });

  test('bound tokens stop working when the bound Secret or the service account is deleted', async () => {
    await s.kubectl(['create', 'serviceaccount', 'bound', '-n', 'team']);
    await s.kubectl(['create', 'secret', 'generic', 'anchor', '-n', 'team', '--from-literal=a=b']);
    const secret = JSON.parse((await s.kubectl(['get', 'secret', 'anchor', '-n', 'team', '-o', 'json'])).stdout);
    const token = async (ref: Record<string, unknown>) => requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/bound/token', { spec: { boundObjectRef: ref } });

    const wrongUid = await token({ kind: 'Secret', apiVersion: 'v1', name: 'anchor', uid: 'not-the-uid' });
    assert.equal(wrongUid.status, 409);
    assert.equal(wrongUid.json().message, `Operation cannot be fulfilled on Secret "anchor": the UID in the bound object reference (not-the-uid) does not match the UID in record. The object might have been deleted and then recreated`);
    const wrongKind = await token({ kind: 'ConfigMap', apiVersion: 'v1', name: 'anchor' });
    assert.equal(wrongKind.status, 400);
    assert.equal(wrongKind.json().message, 'cannot bind token to object of type /v1, Kind=ConfigMap');
    const absent = await token({ kind: 'Secret', apiVersion: 'v1', name: 'absent' });
    assert.equal(absent.status, 404);

    const issued = await token({ kind: 'Secret', apiVersion: 'v1', name: 'anchor', uid: secret.metadata.uid });
    assert.equal(issued.status, 201, issued.body);
    assert.equal(issued.json().spec.boundObjectRef.uid, secret.metadata.uid);
    const bound = issued.json().status.token;
    const unbound = (await token(undefined as unknown as Record<string, unknown>)).json().status.token;
    assert.equal((await whoami(s, { token: bound })).status, 201);

    assert.equal((await s.kubectl(['delete', 'secret', 'anchor', '-n', 'team'])).code, 0);
    assertUnauthorized(await requestAs(s, { token: bound }, 'GET', '/healthz'));
    assert.equal((await whoami(s, { token: unbound })).status, 201);

    assert.equal((await s.kubectl(['delete', 'serviceaccount', 'bound', '-n', 'team'])).code, 0);
    assertUnauthorized(await requestAs(s, { token: unbound }, 'GET', '/healthz'));
    // A new account of the same name is another identity: the old token stays refused.
    await s.kubectl(['create', 'serviceaccount', 'bound', '-n', 'team']);
    assertUnauthorized(await requestAs(s, { token: unbound }, 'GET', '/healthz'));
  });

  test('a token bound to a Pod names the pod and stops working when the pod is deleted', async (t) => {
    if ((await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/team/pods')).status !== 200) return t.skip('pods are not served by this build');
    await s.kubectl(['create', 'serviceaccount', 'runner', '-n', 'team']);
    const pod = await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'worker' }, spec: { serviceAccountName: 'runner', containers: [{ name: 'c', image: 'busybox' }] },
    });
    assert.equal(pod.status, 201, pod.body);
    const issued = await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/runner/token', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'worker' } } });
    assert.equal(issued.status, 201, issued.body);
    const token = issued.json().status.token;
    const me = await whoami(s, { token });
    assert.deepEqual(me.user.extra['authentication.platform.io/pod-name'], ['worker']);
    assert.deepEqual(me.user.extra['authentication.platform.io/pod-uid'], [pod.json().metadata.uid]);
    assert.equal((await requestAs(s, admin(s), 'DELETE', '/api/v1/namespaces/team/pods/worker?gracePeriodSeconds=0')).status, 200);
    assertUnauthorized(await requestAs(s, { token }, 'GET', '/healthz'));
  });

  test('bootstrap tokens: the secret, its usage, expiry and extra groups decide', async () => {
    const secret = (id: string, data: Record<string, string>) => ({
      apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
      type: 'bootstrap.platform.io/token', stringData: { 'token-id': id, ...data },
    });
    const create = async (o: object) => assert.equal((await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/kube-system/secrets', o)).status, 201);
    await create(secret('abcdef', { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' }));
    await create(secret('expire', { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration: '2020-01-01T00:00:00Z' }));
    await create(secret('nouse1', { 'token-secret': '0123456789abcdef' }));
    await create(secret('badgrp', { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:masters' }));
    await create(secret('future', { 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', expiration: new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z') }));

    assert.deepEqual((await whoami(s, { token: 'abcdef.0123456789abcdef' })).user, {
      username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
    });
    assert.equal((await whoami(s, { token: 'future.0123456789abcdef' })).user.username, 'system:bootstrap:future');
    for (const bad of ['abcdef.0123456789abcdee', 'expire.0123456789abcdef', 'nouse1.0123456789abcdef', 'badgrp.0123456789abcdef', 'zzzzzz.0123456789abcdef']) {
      assertUnauthorized(await requestAs(s, { token: bad }, 'GET', '/healthz'));
    }
  });

  test('impersonation: allowed for who may impersonate, with the impersonated groups, uid and extra', async () => {
    const user = await whoami(s, admin(s), { 'impersonate-user': 'jane', 'impersonate-group': ['g1', 'g2'], 'impersonate-uid': 'u-1', 'impersonate-extra-scopes': ['a', 'b'] });
    assert.deepEqual(user.user, { username: 'jane', uid: 'u-1', groups: ['g1', 'g2', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
    const asSa = await whoami(s, admin(s), { 'impersonate-user': 'system:serviceaccount:team:robot' });
    assert.deepEqual(asSa.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated']);
    // Impersonating system:anonymous gives system:unauthenticated, which may not even review itself.
    const anon = await whoami(s, admin(s), { 'impersonate-user': 'system:anonymous' });
    assert.equal(anon.status, 403);
    assert.match(JSON.parse(anon.body).message, /User "system:anonymous" cannot create resource "selfsubjectreviews"/);

    const noUser = await requestAs(s, admin(s), 'POST', SSR, ssrBody, { 'impersonate-group': 'g1' });
    assert.equal(noUser.status, 500);
    assert.match(noUser.json().message, /without impersonating a user/);

    // bob may not impersonate until a role lets him impersonate jane, and only jane.
    const denied = await requestAs(s, { token: 'static-bob' }, 'GET', '/api/v1/namespaces', undefined, { 'impersonate-user': 'jane' });
    assert.equal(denied.status, 403);
    assert.equal(denied.json().message, 'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope');
    const applied = await s.kubectl(['apply', '-f', '-'], `
apiVersion: rbac.authorization.svc.io/v1
kind: ClusterRole
metadata: {name: impersonate-jane}
rules: [{apiGroups: [""], resources: [users], resourceNames: [jane], verbs: [impersonate]}]
---
apiVersion: rbac.authorization.svc.io/v1
kind: ClusterRoleBinding
metadata: {name: bob-impersonates}
roleRef: {apiGroup: rbac.authorization.svc.io, kind: ClusterRole, name: impersonate-jane}
subjects: [{apiGroup: rbac.authorization.svc.io, kind: User, name: bob}]
`);
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual((await whoami(s, { token: 'static-bob' }, { 'impersonate-user': 'jane' })).user, { username: 'jane', groups: ['system:authenticated'] });
    const other = await requestAs(s, { token: 'static-bob' }, 'POST', SSR, ssrBody, { 'impersonate-user': 'john' });
    assert.equal(other.status, 403);
    const group = await requestAs(s, { token: 'static-bob' }, 'POST', SSR, ssrBody, { 'impersonate-user': 'jane', 'impersonate-group': 'system:masters' });
    assert.equal(group.status, 403);
    assert.equal(group.json().message, 'groups "system:masters" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope');
    const extra = await requestAs(s, { token: 'static-bob' }, 'POST', SSR, ssrBody, { 'impersonate-user': 'jane', 'impersonate-extra-acme.com%2fproject': 'x' });
    assert.equal(extra.json().message, 'userextras.authentication.svc.io "x" is forbidden: User "bob" cannot impersonate resource "userextras/acme.com/project" in API group "authentication.svc.io" at the cluster scope');

    // kubectl --as and --as-group: authorization sees the impersonated user.
    const asJane = await s.kubectl(['get', 'secrets', '-n', 'default', '--as', 'jane']);
    assert.equal(asJane.code, 1);
    assert.match(asJane.stderr, /secrets is forbidden: User "jane" cannot list resource "secrets" in API group "" in the namespace "default"/);
    const asAdmin = await s.kubectl(['get', 'secrets', '-n', 'default', '--as', 'jane', '--as-group', 'system:masters']);
    assert.equal(asAdmin.code, 0, asAdmin.stderr);
  });

  test('TokenReview: the user of a token, and the audience intersection', async () => {
    const review = async (spec: object) => requestAs(s, admin(s), 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { apiVersion: 'authentication.svc.io/v1', kind: 'TokenReview', spec });
    const ok = await review({ token: 'static-alice' });
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.json().status, {
      authenticated: true, user: { username: 'alice', uid: '1001', groups: ['devs', 'qa', 'system:authenticated'] }, audiences: ['https://kubernetes.default.svc.cluster.local'],
    });
    const bad = (await review({ token: 'nope' })).json().status;
    assert.equal(bad.authenticated, undefined, 'omitted when false, as Go omits it');
    assert.ok(bad.error);
    const empty = await review({});
    assert.equal(empty.status, 400);
    assert.equal(empty.json().message, 'token is required for TokenReview in authentication');

    const saToken = (await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { spec: { audiences: ['vault', 'db'] } })).json().status.token;
    const vault = (await review({ token: saToken, audiences: ['vault', 'other'] })).json().status;
    assert.equal(vault.authenticated, true);
    assert.deepEqual(vault.audiences, ['vault']);
    const apiOnly = (await review({ token: saToken })).json().status;
    assert.equal(apiOnly.authenticated, undefined);
    // A static token is good only for the API server's own audience.
    assert.equal((await review({ token: 'static-alice', audiences: ['vault'] })).json().status.authenticated, undefined);
    // Creating a TokenReview needs permission (system:auth-delegator has it).
    assert.equal((await requestAs(s, { token: 'static-bob' }, 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token: 'static-alice' } })).status, 403);
  });
});

describe('anonymous authentication off', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ access: { anonymousAuth: false } }); });
  after(() => s.stop());

  test('a request without a credential is 401, even on public paths', async () => {
    assertUnauthorized(await requestAs(s, {}, 'GET', '/healthz'));
    assertUnauthorized(await requestAs(s, {}, 'GET', '/api/v1/namespaces'));
    assert.equal((await requestAs(s, admin(s), 'GET', '/healthz')).status, 200);
  });

  test('bootstrap tokens are not accepted without --enable-bootstrap-token-auth', async () => {
    await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/kube-system/secrets', {
      metadata: { name: 'bootstrap-token-abcdef' }, type: 'bootstrap.platform.io/token',
      stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' },
    });
    assertUnauthorized(await requestAs(s, { token: 'abcdef.0123456789abcdef' }, 'GET', '/healthz'));
  });
});
