// End-to-end: behaviours found by the fifth black-box conformance sweep (the conventions' Endpoints,
// Resources and States sections) against Kubernetes v1.32 where the spec is silent.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const json = (o: unknown) => JSON.stringify(o);
const CM = '/api/v1/namespaces/default/configmaps';
const PATH_NOT_FOUND = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };

describe('conformance sweep 5: endpoints', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    assert.equal((await s.request('POST', CM, { body: json({ metadata: { name: 'c' } }) })).status, 201);
  });
  after(async () => { await s.stop(); });

  it('a namespaced kind\'s cluster-wide path is a collection only: its item and sub-resource paths are not routes', async () => {
    const patch = { 'content-type': 'application/merge-patch+json' };
    const cases: [string, string, string?, Record<string, string>?][] = [
      ['GET', '/api/v1/configmaps/c'],
      ['HEAD', '/api/v1/configmaps/c'],
      ['PUT', '/api/v1/configmaps/c', json({ metadata: { name: 'c', namespace: 'default' } })],
      ['PATCH', '/api/v1/configmaps/c', '{}', patch],
      ['DELETE', '/api/v1/configmaps/c'],
      ['GET', '/api/v1/configmaps/c?watch=1'],
      ['GET', '/api/v1/watch/configmaps/c'],
      ['GET', '/api/v1/pods/c/status'],
      ['GET', '/apis/apps/v1/deployments/c/scale'],
    ];
    for (const [method, path, body, headers] of cases) {
      const r = await s.request(method, path, { body, headers });
      assert.equal(r.status, 404, `${method} ${path}: ${r.body}`);
      if (method !== 'HEAD') assert.deepEqual(r.json(), PATH_NOT_FOUND, `${method} ${path}`);
    }
    // The collection itself still lists and watches across namespaces, and the object is untouched.
    const all = await s.request('GET', '/api/v1/configmaps?fieldSelector=metadata.name%3Dc');
    assert.equal(all.status, 200);
    assert.deepEqual(all.json().items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`), ['default/c']);
    assert.equal((await s.request('GET', `${CM}/c`)).status, 200);
  });

  it('an unknown resourceVersionMatch on a list is the ListOptions 422, naming the empty value among the supported ones', async () => {
    const r = await s.request('GET', `${CM}?resourceVersion=1&resourceVersionMatch=Newest`);
    assert.equal(r.status, 422, r.body);
    assert.deepEqual(r.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'ListOptions.meta.svc.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
      reason: 'Invalid',
      details: { group: 'meta.svc.io', kind: 'ListOptions', causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""', field: 'resourceVersionMatch' }] },
      code: 422,
    });
    // Without a resourceVersion both rules are broken, and both are reported.
    const both = await s.request('GET', `${CM}?resourceVersionMatch=exact`);
    assert.equal(both.status, 422, both.body);
    assert.deepEqual(both.json().details.causes.map((c: any) => c.reason), ['FieldValueForbidden', 'FieldValueNotSupported']);
    // A watch has its own rule: only NotOlderThan, and only with sendInitialEvents.
    const watch = await s.request('GET', `${CM}?watch=1&resourceVersionMatch=Newest`);
    assert.equal(watch.status, 422, watch.body);
    assert.equal(watch.json().message, 'ListOptions.meta.svc.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided, resourceVersionMatch: Unsupported value: "Newest": supported values: "NotOlderThan"]');
  });

  it('PUT creates a missing Event (core and events.svc.io), as Kubernetes\' event strategy allows; other kinds stay 404', async () => {
    const core = await s.request('PUT', '/api/v1/namespaces/default/events/e1', { body: json({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { namespace: 'default' } }) });
    assert.equal(core.status, 201, core.body);
    assert.equal(core.json().metadata.name, 'e1');
    const again = await s.request('PUT', '/api/v1/namespaces/default/events/e1', { body: json({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { namespace: 'default' }, message: 'm' }) });
    assert.equal(again.status, 200, again.body);
    const ev = await s.request('PUT', '/apis/events.svc.io/v1/namespaces/default/events/e2', { body: json({
      apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: 'e2' }, eventTime: '2026-01-01T00:00:00.000000Z',
      reportingController: 'x.io/c', reportingInstance: 'i', action: 'A', reason: 'R', type: 'Normal', regarding: { namespace: 'default' },
    }) });
    assert.equal(ev.status, 201, ev.body);
    const cm = await s.request('PUT', `${CM}/missing`, { body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'missing' } }) });
    assert.equal(cm.status, 404, cm.body);
    assert.equal(cm.json().message, 'configmaps "missing" not found');
  });

  it('a method no route of the path serves is the mux\'s 405 without a kind (POST or DELETE across namespaces, PUT or PATCH of a collection, POST of an item, DELETE of status)', async () => {
    const cases: [string, string, string?, Record<string, string>?][] = [
      ['POST', '/api/v1/configmaps', json({ metadata: { name: 'x', namespace: 'default' } })],
      ['DELETE', '/api/v1/configmaps'],
      ['PUT', CM, json({ metadata: { name: 'x' } })],
      ['PATCH', CM, '{}', { 'content-type': 'application/merge-patch+json' }],
      ['POST', `${CM}/c`, json({ metadata: { name: 'c' } })],
      ['DELETE', '/apis/apps/v1/namespaces/default/deployments/d/status'],
      ['OPTIONS', CM],
    ];
    for (const [method, path, body, headers] of cases) {
      const r = await s.request(method, path, { body, headers });
      assert.equal(r.status, 405, `${method} ${path}: ${r.body}`);
      assert.equal(r.json().reason, 'MethodNotAllowed', `${method} ${path}`);
      assert.equal(r.json().message, 'the server does not allow this method on the requested resource', `${method} ${path}`);
      assert.equal(r.json().details?.kind, undefined, `${method} ${path}`);
    }
  });
});
