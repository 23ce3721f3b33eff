// End-to-end: Namespaces have no deletecollection, as in Kubernetes: discovery and OpenAPI leave it out,
// and DELETE on the collection is a 405 that deletes nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('namespaces without deletecollection', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('discovery lists the other verbs', async () => {
    const legacy = (await s.request('GET', '/api/v1')).json();
    const ns = legacy.resources.find((r: { name: string }) => r.name === 'namespaces');
    assert.deepEqual(ns.verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
    const cm = legacy.resources.find((r: { name: string }) => r.name === 'configmaps');
    assert.ok(cm.verbs.includes('deletecollection'));
    const aggregated = (await s.request('GET', '/api', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } })).json();
    const res = aggregated.items[0].versions[0].resources.find((r: { resource: string }) => r.resource === 'namespaces');
    assert.deepEqual(res.verbs, ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
  });

  it('OpenAPI has no deletecollection operation for namespaces', async () => {
    const doc = (await s.request('GET', '/openapi/v3/api/v1')).json();
    assert.equal(doc.paths['/api/v1/namespaces'].delete, undefined);
    assert.ok(doc.paths['/api/v1/namespaces'].get);
    assert.ok(doc.paths['/api/v1/namespaces/{namespace}/configmaps'].delete);
  });

  it('DELETE on the collection is a 405', async () => {
    await s.kubectl(['create', 'namespace', 'stays']);
    const r = await s.request('DELETE', '/api/v1/namespaces');
    assert.equal(r.status, 405);
    const st = r.json();
    assert.deepEqual([st.kind, st.status, st.reason, st.code], ['Status', 'Failure', 'MethodNotAllowed', 405]);
    assert.equal(st.message, 'the server does not allow this method on the requested resource');
    assert.equal((await s.request('GET', '/api/v1/namespaces/stays')).json().status.phase, 'Active');
  });
});
