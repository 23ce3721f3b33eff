// End-to-end: behaviours found by a black-box conformance sweep against Kubernetes v1.32, driven with the
// real clients (raw HTTPS, kubectl, the Python client when present).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { http2Session, startTestServer, type TestServer } from './support/capstan.ts';

const run = promisify(execFile);
const json = (o: unknown) => JSON.stringify(o);

describe('conformance sweep', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('SelfSubjectReview answers a new object stamped with its creation time', async () => {
    const r = await s.request('POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', {
      body: json({ apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview', metadata: { name: 'ignored', labels: { a: 'b' } } }),
    });
    assert.equal(r.status, 201);
    const body = r.json();
    assert.deepEqual(Object.keys(body.metadata), ['creationTimestamp']);
    assert.match(body.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(body.status.userInfo.groups.includes('system:masters'));
    // kubectl auth whoami reads it.
    const who = await s.kubectl(['auth', 'whoami', '-o', 'json']);
    assert.equal(who.code, 0, who.stderr);
    assert.ok(JSON.parse(who.stdout).metadata.creationTimestamp);
  });

  it('SelfSubjectRulesReview needs a namespace and answers only the status', async () => {
    const none = await s.request('POST', '/apis/authorization.svc.io/v1/selfsubjectrulesreviews', { body: json({ spec: {} }) });
    assert.equal(none.status, 400);
    assert.equal(none.json().message, 'no namespace on request');
    assert.equal(none.json().reason, 'BadRequest');
    const r = await s.request('POST', '/apis/authorization.svc.io/v1/selfsubjectrulesreviews', { body: json({ metadata: { name: 'x' }, spec: { namespace: 'default' } }) });
    assert.equal(r.status, 201);
    const body = r.json();
    assert.deepEqual(body.spec, {});
    assert.deepEqual(body.metadata, { creationTimestamp: null });
    assert.equal(body.status.incomplete, false);
    assert.ok(body.status.resourceRules.some((rule: { verbs: string[] }) => rule.verbs.includes('*')));
    const list = await s.kubectl(['auth', 'can-i', '--list', '-n', 'default']);
    assert.equal(list.code, 0, list.stderr);
  });

  it('TokenReview of a rejected token leaves authenticated out', async () => {
    const r = await s.request('POST', '/apis/authentication.svc.io/v1/tokenreviews', { body: json({ spec: { token: 'garbage' } }) });
    assert.equal(r.status, 201);
    assert.equal('authenticated' in r.json().status, false);
    assert.equal(r.json().status.error, 'invalid bearer token');
  });

  it('Impersonate-Group lines keep their commas over HTTP/1.1 and HTTP/2, as Go reads headers', async () => {
    const review = json({ apiVersion: 'authentication.svc.io/v1', kind: 'SelfSubjectReview' });
    const headers = { 'impersonate-user': 'bob', 'impersonate-group': ['a,b', 'c'], 'impersonate-extra-scopes': ['r,w', 'x'] } as unknown as Record<string, string>;
    const r = await s.request('POST', '/apis/authentication.svc.io/v1/selfsubjectreviews', { body: review, headers });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json().status.userInfo, { username: 'bob', groups: ['a,b', 'c', 'system:authenticated'], extra: { scopes: ['r,w', 'x'] } });
    const session = http2Session(s);
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = session.request({ ':method': 'POST', ':path': '/apis/authentication.svc.io/v1/selfsubjectreviews', 'content-type': 'application/json', ...headers });
        let text = '';
        req.setEncoding('utf8');
        req.on('data', (c: string) => { text += c; });
        req.on('end', () => resolve(text));
        req.on('error', reject);
        req.end(review);
      });
      assert.deepEqual(JSON.parse(body).status.userInfo.groups, ['a,b', 'c', 'system:authenticated']);
    } finally {
      session.close();
    }
  });

  it('a Table asked for with includeObject=None keeps each row\'s object as null', async () => {
    const r = await s.request('GET', '/api/v1/namespaces?includeObject=None', { headers: { accept: 'application/json;as=Table;v=v1;g=meta.svc.io' } });
    assert.equal(r.status, 200);
    assert.ok(r.json().rows.length > 0);
    for (const row of r.json().rows) assert.equal(row.object, null);
    assert.match(r.body, /"object":null/);
  });

  it('/apis and aggregated discovery list groups in Kubernetes\' group priority order', async () => {
    const groups = (await s.request('GET', '/apis')).json().groups.map((g: { name: string }) => g.name);
    assert.deepEqual(groups.slice(0, 5), ['apps', 'events.svc.io', 'authentication.svc.io', 'authorization.svc.io', 'autoscaling']);
    const agg = await s.request('GET', '/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } });
    assert.deepEqual(agg.json().items.map((g: { metadata: { name: string } }) => g.metadata.name), groups);
  });

  it('the Python client sees the same answers', { skip: !existsSync('/usr/bin/python3') }, async (t) => {
    const script = `
import json, sys
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
az = client.AuthorizationV1Api()
try:
    az.create_self_subject_rules_review(client.V1SelfSubjectRulesReview(spec=client.V1SelfSubjectRulesReviewSpec()))
    print("no error")
except client.ApiException as e:
    print(e.status, json.loads(e.body)["message"])
rr = az.create_self_subject_rules_review(client.V1SelfSubjectRulesReview(spec=client.V1SelfSubjectRulesReviewSpec(namespace="default")))
print(rr.status.incomplete, rr.spec.namespace)
tr = client.AuthenticationV1Api().create_token_review(client.V1TokenReview(spec=client.V1TokenReviewSpec(token="garbage")))
print(tr.status.authenticated)
`;
    let out: string;
    try {
      out = (await run('/usr/bin/python3', ['-c', script, s.kubeconfigPath], { timeout: 60_000 })).stdout;
    } catch (err) {
      if (/No module named 'kubernetes'/.test(String((err as { stderr?: string }).stderr))) { t.skip('the kubernetes package is not installed'); return; }
      throw err;
    }
    assert.deepEqual(out.trim().split('\n'), ['400 no namespace on request', 'False None', 'None']);
  });
});
