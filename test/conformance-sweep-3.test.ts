// End-to-end: behaviours found by the third black-box conformance sweep against Kubernetes v1.32: Go's
// omitempty on stored objects, and a kind served in two versions (HorizontalPodAutoscaler v1 and v2).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const json = (o: unknown) => JSON.stringify(o);

describe('conformance sweep 3', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('empty labels, annotations, finalizers and ownerReferences and an empty data map are not stored', async () => {
    const created = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'oe', labels: {}, annotations: {}, finalizers: [], ownerReferences: [] }, data: {}, binaryData: {} }),
    });
    assert.equal(created.status, 201, created.body);
    const body = created.json();
    for (const f of ['labels', 'annotations', 'finalizers', 'ownerReferences']) assert.equal(f in body.metadata, false, f);
    assert.equal('data' in body, false);
    assert.equal('binaryData' in body, false);
    assert.equal('data' in (await s.request('GET', '/api/v1/namespaces/default/configmaps/oe')).json(), false);
    // An update that only adds empty containers writes nothing: the resourceVersion stays.
    const put = await s.request('PUT', '/api/v1/namespaces/default/configmaps/oe', { body: json({ ...body, metadata: { ...body.metadata, labels: {} }, data: {} }) });
    assert.equal(put.status, 200, put.body);
    assert.equal(put.json().metadata.resourceVersion, body.metadata.resourceVersion);
    // A merge patch that empties data leaves data out.
    await s.request('PATCH', '/api/v1/namespaces/default/configmaps/oe', { body: json({ data: { a: 'b' }, metadata: { labels: { x: 'y' } } }), headers: { 'content-type': 'application/merge-patch+json' } });
    const emptied = await s.request('PATCH', '/api/v1/namespaces/default/configmaps/oe', { body: json({ data: { a: null }, metadata: { labels: { x: null } } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(emptied.status, 200, emptied.body);
    assert.equal('data' in emptied.json(), false);
    assert.equal('labels' in emptied.json().metadata, false);
  });

  it('a Secret sent with empty data and stringData stores neither', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/secrets', { body: json({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'oe' }, data: {}, stringData: {} }) });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(Object.keys(r.json()).sort(), ['apiVersion', 'kind', 'metadata', 'type']);
  });

  it('HorizontalPodAutoscaler: v2-only fields round-trip through v1 in the autoscaling.alpha.platform.io annotations', async () => {
    const hpa = {
      apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'rt' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
        ],
      },
    };
    assert.equal((await s.request('POST', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', { body: json(hpa) })).status, 201);
    const v1 = (await s.request('GET', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/rt')).json();
    assert.equal(v1.spec.targetCPUUtilizationPercentage, 50);
    assert.equal(v1.metadata.annotations['autoscaling.alpha.platform.io/metrics'], '[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]');
    v1.spec.maxReplicas = 7;
    const put = await s.request('PUT', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/rt', { body: json(v1) });
    assert.equal(put.status, 200, put.body);
    const v2 = (await s.request('GET', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/rt')).json();
    assert.equal(v2.spec.maxReplicas, 7);
    assert.equal(v2.metadata.annotations, undefined);
    // The annotation's metrics come first, the CPU target last, as Kubernetes' conversion orders them.
    assert.deepEqual(v2.spec.metrics.map((m: { resource: { name: string } }) => m.resource.name), ['memory', 'cpu']);
    // A removed version is not served.
    assert.equal((await s.request('GET', '/apis/autoscaling/v2beta2/namespaces/default/horizontalpodautoscalers')).status, 404);
  });
});
