// End-to-end: what a sweep of the catalogue (ResourceQuota, IngressClass, NetworkPolicy, Node, Deployment,
// PriorityLevelConfiguration, HorizontalPodAutoscaler, Lease) found Capstan doing differently from
// Kubernetes v1.32: error paths and texts of quota scope selectors, a Deployment's collision count, an
// autoscaler's status, and autoscaling/v1's current CPU utilization.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

type Obj = Record<string, any>;

describe('catalogue sweep B', () => {
  let s: TestServer;
  const send = async (method: string, path: string, body?: unknown) => {
    const r = await s.request(method, path, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return { status: r.status, body: r.json() as Obj };
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const r = await send(method, path, body);
    assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const causes = (b: Obj) => (b.details?.causes ?? []).map((c: Obj) => `${c.field}: ${c.message}`);

  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('ResourceQuota: scope selector errors sit at spec.scopeSelector.matchExpressions, the selector shown in Go syntax', async () => {
    const quota = (name: string, spec: Obj) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec });
    const path = '/api/v1/namespaces/default/resourcequotas';
    const applied = await send('POST', path, quota('applied', {
      hard: { services: '1' },
      scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] },
    }));
    assert.equal(applied.status, 422);
    assert.deepEqual(causes(applied.body), [
      'spec.scopeSelector.matchExpressions: Invalid value: core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{core.ScopedResourceSelectorRequirement{ScopeName:"PriorityClass", Operator:"In", Values:[]string{"high"}}}}: unsupported scope applied to resource',
    ]);
    const conflicting = await send('POST', path, quota('conflicting', {
      hard: { pods: '1' },
      scopeSelector: { matchExpressions: [{ scopeName: 'BestEffort', operator: 'Exists' }, { scopeName: 'NotBestEffort', operator: 'Exists' }] },
    }));
    assert.equal(conflicting.status, 422);
    assert.deepEqual(causes(conflicting.body), ['spec.scopeSelector.matchExpressions: Invalid value: []core.ResourceQuotaScope(nil): conflicting scopes']);
  });

  it('Deployment: a status that lowers or drops collisionCount "cannot be decremented"', async () => {
    const path = '/apis/apps/v1/namespaces/default/deployments';
    await ok('POST', path, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'collide' },
      spec: { selector: { matchLabels: { app: 'c' } }, template: { metadata: { labels: { app: 'c' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    const live = await ok('GET', `${path}/collide`);
    live.status = { collisionCount: 2 };
    const counted = await ok('PUT', `${path}/collide/status`, live);
    counted.status = { collisionCount: 1 };
    const lowered = await send('PUT', `${path}/collide/status`, counted);
    assert.equal(lowered.status, 422);
    assert.deepEqual(causes(lowered.body), ['status.collisionCount: Invalid value: 1: cannot be decremented']);
    counted.status = {};
    const dropped = await send('PUT', `${path}/collide/status`, counted);
    assert.equal(dropped.status, 422);
    assert.deepEqual(causes(dropped.body), ['status.collisionCount: Invalid value: 0: cannot be decremented']);
  });

  describe('HorizontalPodAutoscaler', () => {
    const v1 = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
    const v2 = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
    before(async () => {
      await ok('POST', v1, {
        apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web' },
        spec: { maxReplicas: 5, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, targetCPUUtilizationPercentage: 50 },
      });
    });

    it('autoscaling/v1 status.currentCPUUtilizationPercentage is kept, as the CPU entry of v2 currentMetrics', async () => {
      const live = await ok('GET', `${v1}/web`);
      live.status = { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 40 };
      const written = await ok('PUT', `${v1}/web/status`, live);
      assert.equal(written.status.currentCPUUtilizationPercentage, 40);
      assert.equal((await ok('GET', `${v1}/web`)).status.currentCPUUtilizationPercentage, 40);
      assert.deepEqual((await ok('GET', `${v2}/web`)).status.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40 } } }]);
    });

    it('a negative desiredReplicas is reported at status.desiredReplicasa, as Kubernetes spells it', async () => {
      const live = await ok('GET', `${v2}/web`);
      live.status = { currentReplicas: -1, desiredReplicas: -2 };
      const r = await send('PUT', `${v2}/web/status`, live);
      assert.equal(r.status, 422);
      assert.deepEqual(causes(r.body), [
        'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
        'status.desiredReplicasa: Invalid value: -2: must be greater than or equal to 0',
      ]);
    });
  });
});
