// End-to-end: namespace lifecycle — deletion empties and removes the namespace; creation in a missing or
// terminating namespace is refused.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';

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

  it('a terminating namespace reports what holds it in its status conditions', async () => {
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'held' } }) })).status, 201);
    for (const name of ['a', 'b']) {
      const r = await s.request('POST', '/api/v1/namespaces/held/configmaps', { body: JSON.stringify({ metadata: { name, finalizers: ['example.com/hold'] } }) });
      assert.equal(r.status, 201);
    }
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/held')).status, 200);
    type Cond = { type: string; status: string; reason: string; message: string; lastTransitionTime: string };
    let conditions: Cond[] = [];
    await until(async () => {
      conditions = (await s.request('GET', '/api/v1/namespaces/held')).json().status.conditions ?? [];
      return conditions.some((c) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True');
    }, 'the finalizers condition');
    assert.deepEqual(conditions.map((c) => [c.type, c.status, c.reason, c.message]), [
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
      ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: configmaps. has 2 resource instances'],
      ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/hold in 2 resource instances'],
    ]);
    assert.ok(conditions.every((c) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(c.lastTransitionTime)));
    // kubectl shows them too.
    const described = await s.kubectl(['describe', 'namespace', 'held']);
    assert.match(described.stdout, /NamespaceFinalizersRemaining\s+True/);
    for (const name of ['a', 'b']) {
      await s.request('PATCH', `/api/v1/namespaces/held/configmaps/${name}`, { body: JSON.stringify({ metadata: { finalizers: null } }), headers: { 'content-type': 'application/merge-patch+json' } });
    }
    await until(async () => (await s.request('GET', '/api/v1/namespaces/held')).status === 404, 'the namespace to go');
  });

  it('the system namespaces cannot be deleted', async () => {
    const r = await s.request('DELETE', '/api/v1/namespaces/default');
    assert.equal(r.status, 403);
  });
});
