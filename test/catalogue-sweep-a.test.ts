// Catalogue sweep A: identity, tokens and certificate requests as Kubernetes v1.32 serves them, where a
// probe of the running server found Capstan answering otherwise.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { fixtures, b64 } from '../src/apis/certificates/testdata/pki.ts';

const NS = '/api/v1/namespaces/default';
const CSRS = '/apis/certificates.svc.io/v1/certificatesigningrequests';

async function send(s: TestServer, method: string, path: string, body?: unknown, headers?: Record<string, string>) {
  const res = await s.request(method, path, { body: body === undefined ? undefined : JSON.stringify(body), headers });
  return { status: res.status, warning: res.headers.warning, body: res.json() };
}

describe('TokenRequest (serviceaccounts/{name}/token)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ access: { serviceAccountMaxTokenExpirationSeconds: 7200 } });
    for (const name of ['robot', 'other']) assert.equal((await send(s, 'POST', `${NS}/serviceaccounts`, { metadata: { name } })).status, 201);
    const pod = { metadata: { name: 'runner' }, spec: { serviceAccountName: 'other', automountServiceAccountToken: false, nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } };
    assert.equal((await send(s, 'POST', `${NS}/pods`, pod)).status, 201);
    assert.equal((await send(s, 'POST', '/api/v1/nodes', { metadata: { name: 'n1' } })).status, 201);
  });
  after(async () => { await s.stop(); });

  it('a name in the body must be the service account\'s', async () => {
    const r = await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { metadata: { name: 'someone-else' }, spec: {} });
    assert.equal(r.status, 422);
    assert.equal(r.body.message, 'TokenRequest.authentication.svc.io "robot" is invalid: metadata.name: Invalid value: "someone-else": must match the service account name if specified');
    assert.deepEqual(r.body.details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: "someone-else": must match the service account name if specified', field: 'metadata.name' }]);
    assert.equal((await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { metadata: { name: 'robot' }, spec: {} })).status, 201);
  });

  it('binds only to a Pod, Secret or Node; other kinds are a bad request', async () => {
    const r = await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { spec: { boundObjectRef: { kind: 'Deployment', apiVersion: 'apps/v1', name: 'd' } } });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'cannot bind token to object of type apps/v1, Kind=Deployment');
  });

  it('a pod-bound token is only for the account the pod runs as', async () => {
    const r = await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner' } } });
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.');
    const ok = await send(s, 'POST', `${NS}/serviceaccounts/other/token`, { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner' } } });
    assert.equal(ok.status, 201);
  });

  it('binds to a Node (ServiceAccountTokenNodeBinding, beta in v1.32): the review names the node', async () => {
    const missing = await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'nowhere' } } });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.message, 'nodes "nowhere" not found');
    const node = (await send(s, 'GET', '/api/v1/nodes/n1')).body;
    const made = await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n1' } } });
    assert.equal(made.status, 201);
    assert.equal(made.body.spec.boundObjectRef.uid, node.metadata.uid);
    const review = await send(s, 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { spec: { token: made.body.status.token } });
    assert.equal(review.body.status.authenticated, true);
    assert.deepEqual(review.body.status.user.extra['authentication.platform.io/node-name'], ['n1']);
    assert.deepEqual(review.body.status.user.extra['authentication.platform.io/node-uid'], [node.metadata.uid]);
  });

  it('a longer expiration than --service-account-max-token-expiration is shortened, with a warning', async () => {
    const r = await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { spec: { expirationSeconds: 10000 } });
    assert.equal(r.status, 201);
    assert.equal(r.body.spec.expirationSeconds, 7200);
    assert.equal(r.warning, '299 - "requested expiration of 10000 seconds shortened to 7200 seconds"');
  });

  it('TokenReview is cluster-scoped: a namespace in the body is dropped from the answer', async () => {
    const token = (await send(s, 'POST', `${NS}/serviceaccounts/robot/token`, { spec: {} })).body.status.token;
    const r = await send(s, 'POST', '/apis/authentication.svc.io/v1/tokenreviews', { metadata: { name: 'x', namespace: 'default' }, spec: { token } });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body.metadata, { name: 'x', creationTimestamp: null });
    assert.equal(r.body.status.user.username, 'system:serviceaccount:default:robot');
  });
});

describe('CertificateSigningRequest: a write of the main resource changes metadata only', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('spec and status in a PUT or PATCH are ignored, not refused', async () => {
    const f = await fixtures();
    const made = (await send(s, 'POST', CSRS, { metadata: { name: 'fixed' }, spec: { request: b64(f.ecdsaRequest), signerName: 'example.com/signer', usages: ['client auth'] } })).body;
    const put = await send(s, 'PUT', `${CSRS}/fixed`, {
      ...made, metadata: { ...made.metadata, labels: { a: 'b' } },
      spec: { ...made.spec, signerName: 'example.com/other', usages: ['server auth'], username: 'mallory' },
      status: { conditions: [{ type: 'Approved', status: 'True' }] },
    });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body.metadata.labels, { a: 'b' });
    assert.deepEqual(put.body.spec, made.spec);
    assert.deepEqual(put.body.status, {});
    const patched = await send(s, 'PATCH', `${CSRS}/fixed`, { spec: { expirationSeconds: 900 }, metadata: { labels: { c: 'd' } } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200);
    assert.deepEqual(patched.body.spec, made.spec);
    assert.deepEqual(patched.body.metadata.labels, { a: 'b', c: 'd' });
  });
});
