// End-to-end: findings of a sweep with the official clients (@kubernetes/client-node and, when it can be
// imported, the Python `kubernetes` package) against Capstan, each compared with Kubernetes v1.32.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { pythonClient, runPython } from './support/python.ts';


describe('official clients against Capstan', () => {
  let s: TestServer;
  let kc: k8s.KubeConfig;
  before(async () => {
    s = await startTestServer();
    kc = new k8s.KubeConfig();
    kc.loadFromString(s.kubeconfig);
  });
  after(async () => { await s.stop(); });

  // Kubernetes' field manager compares objects in the request's version: an autoscaling/v1 write owns
  // targetCPUUtilizationPercentage (v1's field), not the v2 metrics it is stored as.
  it('an autoscaling/v1 HorizontalPodAutoscaler records its writer\'s fields in v1\'s shape', async () => {
    const hpa = kc.makeApiClient(k8s.AutoscalingV1Api);
    const created = await hpa.createNamespacedHorizontalPodAutoscaler({ namespace: 'default', body: {
      metadata: { name: 'h1' },
      spec: { maxReplicas: 3, scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, targetCPUUtilizationPercentage: 50 },
    } });
    const entry = created.metadata!.managedFields!.find((e) => e.manager === 'kubernetes-client-javascript');
    assert.equal(entry?.apiVersion, 'autoscaling/v1');
    assert.deepEqual(entry?.fieldsV1, { 'f:spec': {
      'f:maxReplicas': {}, 'f:minReplicas': {}, 'f:targetCPUUtilizationPercentage': {},
      'f:scaleTargetRef': {}, // v1's CrossVersionObjectReference is an atomic struct
    } });
    const patched = await hpa.patchNamespacedHorizontalPodAutoscaler({ name: 'h1', namespace: 'default', fieldManager: 'tuner', body: { spec: { targetCPUUtilizationPercentage: 70 } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    const byManager = Object.fromEntries(patched.metadata!.managedFields!.map((e) => [e.manager, e.fieldsV1]));
    assert.deepEqual(byManager.tuner, { 'f:spec': { 'f:targetCPUUtilizationPercentage': {} } });
    assert.deepEqual(byManager['kubernetes-client-javascript'], { 'f:spec': {
      'f:maxReplicas': {}, 'f:minReplicas': {}, 'f:scaleTargetRef': {},
    } });
  });

  // Kubernetes serves server-side apply on a workload's scale sub-resource (its scale handler moves the
  // ownership of spec.replicas between the Deployment's and the Scale's managers).
  it('server-side apply to a Deployment\'s scale sub-resource takes spec.replicas, with conflicts and force', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const ssa = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: {
      replicas: 1, selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    } };
    await apps.patchNamespacedDeployment({ name: 'web', namespace: 'default', fieldManager: 'apply_test', body: deployment }, ssa);
    const scale = (replicas: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default' }, spec: { replicas } });
    const replicaOwners = async () => {
      const d = await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' });
      return d.metadata!.managedFields!.filter((e) => (e.fieldsV1 as any)?.['f:spec']?.['f:replicas']).map((e) => `${e.manager}/${e.operation}/${e.subresource ?? ''}`).sort();
    };

    const err = await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', fieldManager: 'apply_scale', body: scale(17) }, ssa).then(() => undefined, (e) => e);
    assert.ok(err instanceof k8s.ApiException, String(err));
    assert.equal(err.code, 409);
    const status = JSON.parse(err.body);
    assert.equal(status.message, 'Apply failed with 1 conflict: conflict with "apply_test": .spec.replicas');

    const forced = await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', fieldManager: 'apply_scale', force: true, body: scale(17) }, ssa);
    assert.equal(forced.kind, 'Scale');
    assert.equal(forced.spec?.replicas, 17);
    assert.equal((await apps.readNamespacedDeployment({ name: 'web', namespace: 'default' })).spec?.replicas, 17);
    assert.deepEqual(await replicaOwners(), ['apply_scale/Apply/scale']);

    await apps.replaceNamespacedDeploymentScale({ name: 'web', namespace: 'default', fieldManager: 'replace_test', body: scale(7) });
    assert.deepEqual(await replicaOwners(), ['replace_test/Update/scale']);
    // The same value applied by another manager: both own it.
    await apps.patchNamespacedDeploymentScale({ name: 'web', namespace: 'default', fieldManager: 'co_owning_test', body: scale(7) }, ssa);
    assert.deepEqual(await replicaOwners(), ['co_owning_test/Apply/scale', 'replace_test/Update/scale']);
  });

  it('the Python client\'s AutoscalingV1Api reads the v1 fields it wrote as its own', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    const script = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
api = client.AutoscalingV1Api()
h = api.create_namespaced_horizontal_pod_autoscaler('default', client.V1HorizontalPodAutoscaler(
    metadata=client.V1ObjectMeta(name='py-h'),
    spec=client.V1HorizontalPodAutoscalerSpec(max_replicas=2, target_cpu_utilization_percentage=60,
        scale_target_ref=client.V1CrossVersionObjectReference(api_version='apps/v1', kind='Deployment', name='d'))))
print(json.dumps(h.metadata.managed_fields[0].fields_v1))
`;
    const r = await runPython(script, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    const fields = JSON.parse(r.stdout.trim());
    assert.ok('f:targetCPUUtilizationPercentage' in fields['f:spec'], r.stdout);
    assert.ok(!('f:metrics' in fields['f:spec']), r.stdout);
  });
});
