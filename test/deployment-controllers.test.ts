// End-to-end: the deployment and ReplicaSet controllers behind a real server, driven with kubectl as a user
// drives a cluster. No node agent runs, so the test plays its part: it reports pods Running and Ready through
// /status. Covers kubectl create/scale/set image/rollout status/history/undo/restart, ProgressDeadlineExceeded
// when nothing becomes ready (the catalogue's Deployment progress transition), the pods a ReplicaSet makes
// (through admission: the default service account's token volume), and the garbage collector's cascade.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { pythonClient, runPython } from './support/python.ts';

type Obj = Record<string, any>;
const NS = 'rollouts';

describe('Deployments and ReplicaSets, with their controllers', () => {
  let s: TestServer;
  const kubectl = async (...args: string[]) => {
    const r = await s.kubectl(['-n', NS, ...args]);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const list = async (resource: string, selector = ''): Promise<Obj[]> => {
    const path = resource === 'pods' ? `/api/v1/namespaces/${NS}/pods` : `/apis/apps/v1/namespaces/${NS}/${resource}`;
    return (await s.request('GET', `${path}${selector ? `?labelSelector=${encodeURIComponent(selector)}` : ''}`)).json().items;
  };
  const get = async (resource: string, name: string): Promise<Obj> => (await s.request('GET', `/apis/apps/v1/namespaces/${NS}/${resource}/${name}`)).json();
  const condition = (d: Obj, type: string) => (d.status?.conditions ?? []).find((c: Obj) => c.type === type);
  /** The node agent's part: every pod of the namespace not yet ready is reported Running and Ready. */
  const reportReady = async () => {
    for (const pod of await list('pods')) {
      if (pod.metadata.deletionTimestamp || pod.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True')) continue;
      await s.request('PATCH', `/api/v1/namespaces/${NS}/pods/${pod.metadata.name}/status`, {
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } }),
      });
    }
  };
  /** Reports pods ready until the Deployment's rollout completes. */
  const rollOut = async (name: string) => {
    await until(async () => {
      await reportReady();
      const d = await get('deployments', name);
      return d.status?.observedGeneration === d.metadata.generation && condition(d, 'Progressing')?.reason === 'NewReplicaSetAvailable'
        && d.status.updatedReplicas === d.spec.replicas && d.status.availableReplicas === d.spec.replicas && d.status.replicas === d.spec.replicas;
    }, `rollout of ${name}`, 20_000);
  };

  before(async () => {
    // A short resync: the autoscaler looks at an HPA within range again only then.
    s = await startTestServer({ controllers: ['*'], controllerResyncMs: 1000 });
    assert.equal((await s.kubectl(['create', 'namespace', NS])).code, 0);
    await until(async () => (await s.request('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200, 'the default service account');
  });
  after(async () => { await s.stop(); });

  it('creating a Deployment makes its ReplicaSet and pods, admitted as requests are; ready pods make it available', async () => {
    await kubectl('create', 'deployment', 'web', '--image=nginx:1', '--replicas=3');
    await until(async () => (await list('pods', 'app=web')).length === 3, 'three pods');
    const [rs] = await list('replicasets', 'app=web');
    const d = await get('deployments', 'web');
    assert.equal(rs.metadata.ownerReferences[0].uid, d.metadata.uid);
    assert.equal(rs.metadata.annotations['deployment.platform.io/revision'], '1');
    const pods = await list('pods', 'app=web');
    for (const pod of pods) {
      assert.match(pod.metadata.name, new RegExp(`^${rs.metadata.name}-[a-z0-9]{5}$`));
      assert.deepEqual(pod.metadata.ownerReferences, [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
      assert.equal(pod.metadata.labels['pod-template-hash'], rs.metadata.labels['pod-template-hash']);
      // ServiceAccount admission ran: the default account and its token volume.
      assert.equal(pod.spec.serviceAccountName, 'default');
      assert.ok(pod.spec.volumes.some((v: Obj) => v.name.startsWith('kube-api-access-')));
      assert.equal(pod.metadata.managedFields[0].manager, 'kube-controller-manager');
    }
    await until(async () => condition(await get('deployments', 'web'), 'Available')?.reason === 'MinimumReplicasUnavailable', 'unavailable');
    await rollOut('web');
    const done = await get('deployments', 'web');
    assert.equal(condition(done, 'Available').status, 'True');
    assert.equal(condition(done, 'Progressing').message, `ReplicaSet "${rs.metadata.name}" has successfully progressed.`);
    const status = await kubectl('rollout', 'status', 'deployment/web', '--timeout=10s');
    assert.match(status, /successfully rolled out/);
    const table = await kubectl('get', 'deployment', 'web', '--no-headers');
    assert.match(table, /^web\s+3\/3\s+3\s+3\s/);
    // The controllers' Events, as kubectl describe lists them.
    const described = await kubectl('describe', 'deployment', 'web');
    assert.match(described, new RegExp(`Normal\\s+ScalingReplicaSet\\s+\\S+\\s+deployment-controller\\s+Scaled up replica set ${rs.metadata.name} to 3`));
    const rsEvents = await kubectl('get', 'events', '--field-selector', `involvedObject.name=${rs.metadata.name}`, '-o', 'jsonpath={range .items[*]}{.reason} {.source.component}{"\\n"}{end}');
    assert.equal(rsEvents.trim().split('\n').filter((l) => l === 'SuccessfulCreate replicaset-controller').length, 3);
  });

  it('kubectl set image rolls to a new ReplicaSet; rollout history and undo read its revisions; restart rolls again', async () => {
    await kubectl('set', 'image', 'deployment/web', 'nginx=nginx:2');
    await rollOut('web');
    let sets = (await list('replicasets', 'app=web')).sort((a, b) => Number(a.metadata.annotations['deployment.platform.io/revision']) - Number(b.metadata.annotations['deployment.platform.io/revision']));
    assert.deepEqual(sets.map((rs) => [rs.spec.replicas, rs.spec.template.spec.containers[0].image]), [[0, 'nginx:1'], [3, 'nginx:2']]);
    assert.equal((await list('pods', 'app=web')).filter((p) => !p.metadata.deletionTimestamp).length, 3);
    const history = await kubectl('rollout', 'history', 'deployment/web');
    assert.match(history, /^1\s/m);
    assert.match(history, /^2\s/m);
    await kubectl('rollout', 'undo', 'deployment/web');
    await rollOut('web');
    const d = await get('deployments', 'web');
    assert.equal(d.spec.template.spec.containers[0].image, 'nginx:1');
    assert.equal(d.metadata.annotations['deployment.platform.io/revision'], '3');
    sets = await list('replicasets', 'app=web');
    assert.equal(sets.length, 2);
    await kubectl('rollout', 'restart', 'deployment/web');
    await rollOut('web');
    assert.equal((await list('replicasets', 'app=web')).length, 3);
  });

  it('kubectl scale resizes the ReplicaSet, and its controller makes or deletes pods', async () => {
    await kubectl('scale', 'deployment/web', '--replicas=5');
    await rollOut('web');
    assert.equal((await list('pods', 'app=web')).filter((p) => !p.metadata.deletionTimestamp).length, 5);
    await kubectl('scale', 'deployment/web', '--replicas=1');
    await until(async () => (await list('pods', 'app=web')).length === 1, 'one pod left');
    await rollOut('web');
  });

  it('a rollout that makes no progress within progressDeadlineSeconds reports ProgressDeadlineExceeded, and rollout status says so', async () => {
    await s.kubectl(['-n', NS, 'apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'stuck' },
      spec: { replicas: 2, progressDeadlineSeconds: 2, selector: { matchLabels: { app: 'stuck' } }, template: { metadata: { labels: { app: 'stuck' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    }));
    // Nothing reports these pods ready: the controller looks again at the deadline by itself.
    await until(async () => condition(await get('deployments', 'stuck'), 'Progressing')?.reason === 'ProgressDeadlineExceeded', 'the deadline', 15_000);
    const d = await get('deployments', 'stuck');
    const [rs] = await list('replicasets', 'app=stuck');
    assert.deepEqual([condition(d, 'Progressing').status, condition(d, 'Progressing').message], ['False', `ReplicaSet "${rs.metadata.name}" has timed out progressing.`]);
    assert.deepEqual([d.status.replicas, d.status.updatedReplicas, d.status.unavailableReplicas, d.status.availableReplicas], [2, 2, 2, undefined]);
    const r = await s.kubectl(['-n', NS, 'rollout', 'status', 'deployment/stuck', '--timeout=10s']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /exceeded its progress deadline/);
  });

  it('a ReplicaSet on its own replaces a deleted pod, and deleting a Deployment removes its ReplicaSets and pods', async () => {
    const r = await s.kubectl(['-n', NS, 'apply', '-f', '-'], JSON.stringify({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'solo' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'solo' } }, template: { metadata: { labels: { app: 'solo' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    }));
    assert.equal(r.code, 0, r.stderr);
    await until(async () => (await list('pods', 'app=solo')).length === 2, 'two pods');
    const [victim] = await list('pods', 'app=solo');
    await kubectl('delete', 'pod', victim.metadata.name, '--wait=false');
    await until(async () => {
      const pods = await list('pods', 'app=solo');
      return pods.length === 2 && pods.every((p) => p.metadata.name !== victim.metadata.name);
    }, 'a replacement');
    await until(async () => (await get('replicasets', 'solo')).status?.replicas === 2, 'status.replicas');
    await kubectl('delete', 'deployment', 'web');
    await until(async () => (await list('replicasets', 'app=web')).length === 0 && (await list('pods', 'app=web')).length === 0, 'the cascade');
  });

  it('kubectl autoscale: an HPA scales its Deployment into [min, max] through the scale sub-resource; within range it reports that no metrics can be read', async () => {
    await s.kubectl(['-n', NS, 'create', 'deployment', 'auto', '--image=nginx', '--replicas=1']);
    await kubectl('autoscale', 'deployment', 'auto', '--min=3', '--max=5', '--cpu-percent=50');
    await until(async () => (await get('deployments', 'auto')).spec.replicas === 3, 'the scale-up to minReplicas');
    const hpa = async () => (await s.request('GET', `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/auto`)).json();
    await until(async () => condition(await hpa(), 'ScalingActive')?.reason === 'FailedGetResourceMetric', 'the metrics failure', 15_000);
    const h = await hpa();
    assert.deepEqual([h.status.currentReplicas, h.status.desiredReplicas, typeof h.status.lastScaleTime], [3, 3, 'string']);
    assert.equal(condition(h, 'AbleToScale').status, 'True');
    assert.match(condition(h, 'ScalingActive').message, /^the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: /);
    const described = await kubectl('describe', 'hpa', 'auto');
    assert.match(described, /Normal\s+SuccessfulRescale\s+\S+\s+horizontal-pod-autoscaler\s+New size: 3; reason: Current number of replicas below Spec.MinReplicas/);
    await kubectl('scale', 'deployment/auto', '--replicas=9');
    await until(async () => (await get('deployments', 'auto')).spec.replicas === 5, 'the scale-down to maxReplicas');
  });

  it('the official Python client reads a Deployment\'s status and conditions', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    const script = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
d = client.AppsV1Api().read_namespaced_deployment_status('stuck', '${NS}')
print(json.dumps({'conditions': sorted([c.type + '=' + c.reason for c in d.status.conditions]), 'replicas': d.status.replicas}))
`;
    const r = await runPython(script, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { conditions: ['Available=MinimumReplicasUnavailable', 'Progressing=ProgressDeadlineExceeded'], replicas: 2 });
  });
});
