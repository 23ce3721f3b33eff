// End-to-end: label selectors (every operator) and field selectors (metadata fields and per-kind ones) on
// lists, and their errors with Kubernetes' texts and precedence.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('selectors', () => {
  let s: TestServer;
  const base = '/api/v1/namespaces/sel/configmaps';
  const post = async (path: string, body: object) => {
    const r = await s.request('POST', path, { body: JSON.stringify(body) });
    assert.equal(r.status, 201, r.body);
  };
  const list = async (path: string, query: Record<string, string>) => {
    const r = await s.request('GET', `${path}?${new URLSearchParams(query)}`);
    return { status: r.status, body: r.json() };
  };
  const names = async (path: string, query: Record<string, string>) => {
    const r = await list(path, query);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.items.map((i: any) => i.metadata.name);
  };
  const badRequest = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });

  before(async () => {
    s = await startTestServer();
    for (const n of ['sel', 'sel2']) await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } });
    const labels: Record<string, Record<string, string> | undefined> = { s1: { app: 'web', tier: 'front' }, s2: { app: 'web', tier: 'back' }, s3: { app: 'db' }, s4: undefined };
    for (const [name, l] of Object.entries(labels)) await post(base, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: l } });
    await post('/api/v1/namespaces/sel2/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 's1', labels: { app: 'web' } } });
    await post('/api/v1/namespaces/sel/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'one' }, type: 'example.com/one' });
    await post('/api/v1/namespaces/sel/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'plain' } });
    await post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'cordoned' }, spec: { unschedulable: true } });
    await post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'open' } });
  });
  after(async () => { await s.stop(); });

  it('label selectors: equality, set-based, existence and conjunctions', async () => {
    const cases: [string, string[]][] = [
      ['', ['s1', 's2', 's3', 's4']],
      ['app=web', ['s1', 's2']],
      ['app==web', ['s1', 's2']],
      ['app!=web', ['s3', 's4']],
      ['app in (web,db)', ['s1', 's2', 's3']],
      ['app in (db)', ['s3']],
      ['app notin (web)', ['s3', 's4']],
      ['tier', ['s1', 's2']],
      ['!tier', ['s3', 's4']],
      ['app=web,tier=back', ['s2']],
      ['app in (web),!tier', []],
      ['app, tier notin (front)', ['s2', 's3']],
      ['nothing=here', []],
    ];
    for (const [selector, expected] of cases) assert.deepEqual(await names(base, { labelSelector: selector }), expected, selector);
  });

  it('field selectors on metadata.name and metadata.namespace, alone, negated and combined', async () => {
    assert.deepEqual(await names(base, { fieldSelector: 'metadata.name=s1' }), ['s1']);
    assert.deepEqual(await names(base, { fieldSelector: 'metadata.name==s2' }), ['s2']);
    assert.deepEqual(await names(base, { fieldSelector: 'metadata.name!=s1' }), ['s2', 's3', 's4']);
    assert.deepEqual(await names(base, { fieldSelector: 'metadata.name!=s1,metadata.name!=s4' }), ['s2', 's3']);
    assert.deepEqual(await names(base, { fieldSelector: 'metadata.namespace=sel2' }), []);
    const wide = await list('/api/v1/configmaps', { fieldSelector: 'metadata.name=s1' });
    assert.deepEqual(wide.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), ['sel/s1', 'sel2/s1']);
    const oneNs = await list('/api/v1/configmaps', { fieldSelector: 'metadata.namespace=sel2' });
    assert.deepEqual(oneNs.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), ['sel2/s1']);
    assert.deepEqual(await names('/api/v1/configmaps', { fieldSelector: 'metadata.name=s1,metadata.namespace=sel' }), ['s1']);
    assert.deepEqual(await names(base, { fieldSelector: 'metadata.name!=s1', labelSelector: 'app=web' }), ['s2']);
  });

  it('per-kind fields: Secret type, Node spec.unschedulable, Namespace status.phase', async () => {
    assert.deepEqual(await names('/api/v1/namespaces/sel/secrets', { fieldSelector: 'type=example.com/one' }), ['one']);
    assert.deepEqual(await names('/api/v1/namespaces/sel/secrets', { fieldSelector: 'type=Opaque' }), ['plain']);
    assert.deepEqual(await names('/api/v1/namespaces/sel/secrets', { fieldSelector: 'type!=Opaque,metadata.namespace=sel' }), ['one']);
    assert.deepEqual(await names('/api/v1/nodes', { fieldSelector: 'spec.unschedulable=true' }), ['cordoned']);
    assert.deepEqual(await names('/api/v1/nodes', { fieldSelector: 'spec.unschedulable=false' }), ['open']);
    assert.deepEqual(await names('/api/v1/nodes', { fieldSelector: 'metadata.name=open' }), ['open']);
    const active = await names('/api/v1/namespaces', { fieldSelector: 'status.phase=Active' });
    for (const n of ['default', 'sel', 'sel2']) assert.ok(active.includes(n), n);
    assert.deepEqual(await names('/api/v1/namespaces', { fieldSelector: 'status.phase=Terminating' }), []);
  });

  it('an unsupported field is 400: Kubernetes\' default text, or "field label not supported" for kinds with their own conversion', async () => {
    const cases: [string, string, string][] = [
      [base, 'spec.foo=x', '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      [base, 'metadata.name=s1,data.x=y', '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      ['/api/v1/namespaces/sel/secrets', 'spec.foo=x', 'field label not supported: spec.foo'],
      ['/api/v1/nodes', 'metadata.namespace=x', 'field label not supported: metadata.namespace'],
      ['/api/v1/nodes', 'spec.providerID=x', 'field label not supported: spec.providerID'],
      ['/api/v1/namespaces', 'metadata.namespace=x', 'field label not supported: metadata.namespace'],
    ];
    for (const [path, selector, message] of cases) {
      const r = await list(path, { fieldSelector: selector });
      assert.equal(r.status, 400, selector);
      assert.deepEqual(r.body, badRequest(message), selector);
    }
  });

  it('selector syntax errors are 400 with the parser\'s text', async () => {
    const field = await list(base, { fieldSelector: 'foo' });
    assert.deepEqual(field.body, badRequest("invalid selector: 'foo'; can't understand 'foo'"));
    const label = await list(base, { labelSelector: 'a in (b' });
    assert.deepEqual(label.body, badRequest("unable to parse requirement: found '', expected: ',' or ')'"));
    const value = await list(base, { labelSelector: 'app=-bad' });
    assert.equal(value.status, 400);
  });

  it('errors come in Kubernetes\' order: selector syntax, then ListOptions, then field labels', async () => {
    // A syntax error wins over invalid ListOptions.
    const syntax = await list(base, { labelSelector: 'a in (b', resourceVersionMatch: 'NotOlderThan' });
    assert.equal(syntax.status, 400);
    // Invalid ListOptions win over an unsupported field.
    const options = await list(base, { fieldSelector: 'spec.foo=x', resourceVersionMatch: 'NotOlderThan' });
    assert.equal(options.status, 422);
    assert.equal(options.body.reason, 'Invalid');
  });
});
