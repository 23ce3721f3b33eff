// End-to-end: findings of a sweep with the official clients (@kubernetes/client-node and, when it can be
// imported, the Python `kubernetes` package) against Capstan, each compared with Kubernetes v1.32.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from './support/capstan.ts';

const PYTHON = '/usr/bin/python3';

function runPython(script: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(PYTHON, ['-c', script, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

const pythonClient = await runPython('import kubernetes', []).then((r) => r.code === 0, () => false);

describe('official clients against Capstan', () => {
  let s: TestServer;
  let kc: k8s.KubeConfig;
  let kubeconfigPath: string;
  before(async () => {
    s = await startTestServer();
    kc = new k8s.KubeConfig();
    kc.loadFromString(s.kubeconfig);
    kubeconfigPath = join(mkdtempSync(join(tmpdir(), 'clients-sweep-')), 'kubeconfig');
    writeFileSync(kubeconfigPath, s.kubeconfig);
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
    const r = await runPython(script, [kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    const fields = JSON.parse(r.stdout.trim());
    assert.ok('f:targetCPUUtilizationPercentage' in fields['f:spec'], r.stdout);
    assert.ok(!('f:metrics' in fields['f:spec']), r.stdout);
  });
});
