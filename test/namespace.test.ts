// End-to-end: namespace lifecycle — deletion empties and removes the namespace; creation in a missing or
// terminating namespace is refused.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('namespace lifecycle', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('creating in a missing namespace is 404', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/nope/configmaps', { body: JSON.stringify({ metadata: { name: 'a' } }) });
    assert.equal(r.status, 404);
    assert.equal(r.json().message, 'namespaces "nope" not found');
  });

  it('deleting a namespace deletes its content, then the namespace', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'doomed' } }) })).status, 201);
    assert.equal((await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: JSON.stringify({ metadata: { name: 'a', finalizers: ['example.com/hold'] } }) })).status, 201);
    const del = await s.request('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(del.status, 200);
    assert.equal(del.json().status.phase, 'Terminating');
    const refused = await s.request('POST', '/api/v1/namespaces/doomed/configmaps', { body: JSON.stringify({ metadata: { name: 'b' } }) });
    assert.equal(refused.status, 403);
    assert.match(refused.json().message, /unable to create new content in namespace doomed because it is being terminated/);
    // The finalizer holds the configmap, and so the namespace, until it is released.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await s.request('GET', '/api/v1/namespaces/doomed')).status, 200);
    const patched = await s.request('PATCH', '/api/v1/namespaces/doomed/configmaps/a', { body: JSON.stringify({ metadata: { finalizers: null } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 200, patched.body);
    for (let i = 0; i < 100; i++) {
      if ((await s.request('GET', '/api/v1/namespaces/doomed')).status === 404) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail('the namespace was not removed');
  });

  it('the system namespaces cannot be deleted', async () => {
    const r = await s.request('DELETE', '/api/v1/namespaces/default');
    assert.equal(r.status, 403);
  });
});
