// End-to-end: protocol behaviours found by the fourth black-box conformance sweep against Kubernetes v1.32
// (the apiserver's handler chain, negotiation and registry, where the spec is silent).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const json = (o: unknown) => JSON.stringify(o);
const CM = '/api/v1/namespaces/default/configmaps';

describe('conformance sweep 4: protocol', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    assert.equal((await s.request('POST', CM, { body: json({ metadata: { name: 'p' } }) })).status, 201);
  });
  after(async () => { await s.stop(); });

  it('curl, Wget and browsers get indented JSON (errors too) unless pretty says otherwise; pretty is read by strconv.ParseBool', async () => {
    const curl = { 'user-agent': 'curl/8.5.0' };
    const got = await s.request('GET', `${CM}/p`, { headers: curl });
    assert.match(got.body, /^\{\n {2}"kind": "ConfigMap",\n {2}"apiVersion": "v1",\n {2}"metadata": \{\n {4}"name": "p",/);
    assert.ok(got.body.endsWith('\n  }\n}'), 'json.MarshalIndent writes no final newline');
    assert.match((await s.request('GET', `${CM}/missing`, { headers: { 'user-agent': 'Wget/1.21.4' } })).body, /^\{\n {2}"kind": "Status"/);
    assert.match((await s.request('GET', CM, { headers: { 'user-agent': 'Mozilla/5.0 (X11)' } })).body, /^\{\n {2}"kind": "ConfigMapList"/);
    assert.match((await s.request('GET', `${CM}/p?pretty=false`, { headers: curl })).body, /^\{"kind":"ConfigMap"/);
    assert.match((await s.request('GET', `${CM}/p?pretty=yes`, { headers: curl })).body, /^\{"kind":"ConfigMap"/);
    assert.match((await s.request('GET', `${CM}/p?pretty=`, { headers: curl })).body, /^\{\n/);
    assert.match((await s.request('GET', `${CM}/p`, { headers: { 'user-agent': 'kubectl/v1.32.0' } })).body, /^\{"kind":"ConfigMap"/);
    assert.match((await s.request('GET', `${CM}/p?pretty=t`)).body, /^\{\n/);
    // YAML has no pretty form.
    assert.match((await s.request('GET', `${CM}/p`, { headers: { ...curl, accept: 'application/yaml' } })).body, /^apiVersion: v1\n/);
  });

  it('every answer carries an Audit-ID, the client\'s when it sent one, also without an audit log', async () => {
    const a = await s.request('GET', `${CM}/p`);
    assert.match(String(a.headers['audit-id']), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const b = await s.request('GET', `${CM}/p`);
    assert.notEqual(b.headers['audit-id'], a.headers['audit-id']);
    assert.equal((await s.request('GET', `${CM}/p`, { headers: { 'audit-id': 'my-trace' } })).headers['audit-id'], 'my-trace');
    const refused = await s.request('GET', CM, { anonymous: true });
    assert.equal(refused.status, 403);
    assert.ok(refused.headers['audit-id']);
    assert.ok((await s.request('GET', '/nowhere')).headers['audit-id']);
  });

  it('a name that cannot be a path segment is 400 Name parameter invalid on get, update, patch and delete', async () => {
    // ('.' and '..' never arrive: URL clients resolve them as dot segments.)
    const cases: [string, string][] = [['a%25b', `"a%b": may not contain '%'`], ['50%25', `"50%": may not contain '%'`]];
    for (const [segment, text] of cases) {
      for (const [method, body, headers] of [['GET'], ['DELETE'], ['PUT', json({ metadata: { name: decodeURIComponent(segment) } })], ['PATCH', '{}', { 'content-type': 'application/merge-patch+json' }]] as [string, string?, Record<string, string>?][]) {
        const r = await s.request(method, `${CM}/${segment}`, { body, headers });
        assert.equal(r.status, 400, `${method} ${segment}: ${r.body}`);
        assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Name parameter invalid: ${text}`, reason: 'BadRequest', code: 400 });
      }
    }
    // Cluster-scoped kinds too.
    const ns = await s.request('GET', '/api/v1/namespaces/a%25b');
    assert.equal(ns.status, 400, ns.body);
    assert.equal(ns.json().message, `Name parameter invalid: "a%b": may not contain '%'`);
    // An escaped slash is a slash, as in Go's decoded URL.Path: the name ends before it and the rest is an
    // unknown sub-resource, so the answer is 404, not "Name parameter invalid".
    await s.request('POST', CM, { body: json({ metadata: { name: 'a' } }) });
    for (const method of ['GET', 'DELETE']) assert.equal((await s.request(method, `${CM}/a%2Fb`)).status, 404, method);
    assert.equal((await s.request('GET', `${CM}/a`)).status, 200);
  });

  it('a create that carries a resourceVersion is a 500 without a reason, as Kubernetes\' storage leaks it', async () => {
    const r = await s.request('POST', CM, { body: json({ metadata: { name: 'with-rv', resourceVersion: '5' } }) });
    assert.equal(r.status, 500);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'resourceVersion should not be set on objects to be created', code: 500 });
    assert.equal((await s.request('GET', `${CM}/with-rv`)).status, 404);
    // A version that does not parse as a uint64 (or is 0) is dropped; a dry run does not reach the check.
    assert.equal((await s.request('POST', `${CM}?dryRun=All`, { body: json({ metadata: { name: 'with-rv', resourceVersion: '5' } }) })).status, 201);
    const created = await s.request('POST', CM, { body: json({ metadata: { name: 'with-rv', resourceVersion: '-1' } }) });
    assert.equal(created.status, 201, created.body);
    assert.notEqual(created.json().metadata.resourceVersion, '-1');
  });
});
