// The service accounts controller and the root CA publisher end to end: every namespace gets its `default`
// ServiceAccount and its `kube-root-ca.crt` ConfigMap, and gets them back when they are deleted or edited.
import { describe, it, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { builtinEnabled } from '../src/controllers/builtin.ts';

const DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

test('--controllers: the built-in controllers are on by default and answer to both their names', () => {
  for (const name of ['garbagecollector', 'serviceaccount', 'root-ca-cert-publisher', 'csrapproving', 'csrsigning', 'resourcequota']) {
    assert.equal(builtinEnabled(name), true, name);
    assert.equal(builtinEnabled(name, ['*', `-${name}`]), false, name);
    assert.equal(builtinEnabled(name, [name]), true, name);
    assert.equal(builtinEnabled(name, ['tokencleaner']), false, name);
  }
  assert.equal(builtinEnabled('serviceaccount', ['*', '-serviceaccount-controller']), false);
  assert.equal(builtinEnabled('csrsigning', ['certificatesigningrequest-signing-controller']), true);
});

describe('service accounts and the root CA in every namespace', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ controllers: ['*'], controllerResyncMs: 200 }); });
  after(async () => { await s.stop(); });

  const get = (path: string) => s.request('GET', path);
  const exists = (path: string) => until(async () => (await get(path)).status === 200, `${path} to exist`);
  const sa = (ns: string) => `/api/v1/namespaces/${ns}/serviceaccounts/default`;
  const ca = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;

  it('the system namespaces have both from the start', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      await exists(sa(ns));
      await exists(ca(ns));
      const cm = (await get(ca(ns))).json();
      assert.deepEqual(cm.data, { 'ca.crt': s.caCertPem });
      assert.deepEqual(cm.metadata.annotations, { 'platform.io/description': DESCRIPTION });
      const account = (await get(sa(ns))).json();
      assert.deepEqual(Object.keys(account).sort(), ['apiVersion', 'kind', 'metadata']);
    }
  });

  it('a new namespace gets them; kubectl sees them', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'fresh' } }) })).status, 201);
    await exists(sa('fresh'));
    await exists(ca('fresh'));
    const out = await s.kubectl(['get', 'serviceaccounts,configmaps', '-n', 'fresh', '-o', 'name']);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(out.stdout.trim().split('\n').sort(), ['configmap/kube-root-ca.crt', 'serviceaccount/default']);
  });

  it('deleted, they come back as new objects', async () => {
    const before = { sa: (await get(sa('default'))).json().metadata.uid, ca: (await get(ca('default'))).json().metadata.uid };
    assert.equal((await s.request('DELETE', sa('default'))).status, 200);
    assert.equal((await s.request('DELETE', ca('default'))).status, 200);
    await until(async () => { const r = await get(sa('default')); return r.status === 200 && r.json().metadata.uid !== before.sa; }, 'the account to come back');
    await until(async () => { const r = await get(ca('default')); return r.status === 200 && r.json().metadata.uid !== before.ca; }, 'the CA to come back');
  });

  it('an edited CA ConfigMap is put back, keeping what else it carries', async () => {
    const patch = { data: { 'ca.crt': 'not a CA', extra: 'x' }, metadata: { annotations: { 'platform.io/description': null, mine: 'kept' } } };
    const r = await s.request('PATCH', ca('kube-public'), { body: JSON.stringify(patch), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(r.status, 200, r.body);
    await until(async () => (await get(ca('kube-public'))).json().data['ca.crt'] === s.caCertPem, 'the CA to be restored');
    const cm = (await get(ca('kube-public'))).json();
    assert.deepEqual(cm.data, { 'ca.crt': s.caCertPem });
    assert.deepEqual(cm.metadata.annotations, { mine: 'kept', 'platform.io/description': DESCRIPTION });
  });

  it('a terminating namespace is not refilled: it goes away', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'leaving' } }) })).status, 201);
    await exists(sa('leaving'));
    await exists(ca('leaving'));
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/leaving')).status, 200);
    await until(async () => (await get('/api/v1/namespaces/leaving')).status === 404, 'the namespace to go');
  });
});

describe('one of them turned off', () => {
  it('--controllers=*,-serviceaccount-controller: namespaces get the CA but no account', async () => {
    const s = await startTestServer({ controllers: ['*', '-serviceaccount-controller'] });
    try {
      assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'only-ca' } }) })).status, 201);
      await until(async () => (await s.request('GET', '/api/v1/namespaces/only-ca/configmaps/kube-root-ca.crt')).status === 200, 'the CA');
      assert.deepEqual((await s.request('GET', '/api/v1/namespaces/only-ca/serviceaccounts')).json().items, []);
      assert.deepEqual((await s.request('GET', '/api/v1/namespaces/default/serviceaccounts')).json().items, []);
    } finally {
      await s.stop();
    }
  });
});
