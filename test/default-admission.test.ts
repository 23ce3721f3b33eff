// The admission plugins Kubernetes v1.32 runs by default on pods and storage objects, end to end: Priority,
// DefaultTolerationSeconds and StorageObjectInUseProtection, with the pvc-protection and pv-protection
// controllers that let protected deletes complete.
import { describe, it, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { builtinEnabled } from '../src/controllers/builtin.ts';

// What a Kubernetes v1.32 cluster answers for `kubectl run web --image=nginx` (renamed): the spec's
// tolerations, priority and preemptionPolicy, as the admission plugins set them.
const KUBERNETES_TOLERATIONS = [
  { key: 'node.platform.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.platform.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

test('--controllers: pvc-protection and pv-protection are on by default and answer to both their names', () => {
  for (const [name, long] of [['pvc-protection', 'persistentvolumeclaim-protection-controller'], ['pv-protection', 'persistentvolume-protection-controller']]) {
    assert.equal(builtinEnabled(name!), true);
    assert.equal(builtinEnabled(name!, ['*', `-${name}`]), false);
    assert.equal(builtinEnabled(name!, ['*', `-${long}`]), false);
    assert.equal(builtinEnabled(name!, [long!]), true);
  }
});

describe('default admission plugins', () => {
  let s: TestServer;
  before(async () => {
    // No volume binder: the unused volume and claim below would otherwise bind to each other.
    s = await startTestServer({ controllers: ['*', '-garbagecollector', '-root-ca-cert-publisher', '-csrapproving', '-csrsigning', '-resourcequota', '-serviceaccount-token', '-persistentvolume-binder', '-ephemeral-volume'], controllerResyncMs: 200 });
    await until(async () => (await s.request('GET', '/api/v1/namespaces/default/serviceaccounts/default')).status === 200, 'the default service account');
  });
  after(async () => { await s.stop(); });

  const get = (path: string) => s.request('GET', path);
  const post = (path: string, body: unknown) => s.request('POST', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const gone = (path: string) => until(async () => (await get(path)).status === 404, `${path} to be gone`);
  const pod = (name: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
  });

  it('kubectl run: the pod gets the default tolerations, priority 0 and PreemptLowerPriority', async () => {
    const r = await s.kubectl(['run', 'web', '--image=nginx']);
    assert.equal(r.code, 0, r.stderr);
    const spec = (await get('/api/v1/namespaces/default/pods/web')).json().spec;
    assert.deepEqual(spec.tolerations, KUBERNETES_TOLERATIONS);
    assert.equal(spec.priority, 0);
    assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(spec.priorityClassName, undefined);
  });

  it('a pod that tolerates every NoExecute taint gets no default toleration; a system class resolves', async () => {
    const r = await post('/api/v1/namespaces/default/pods', pod('critical', { priorityClassName: 'system-node-critical', tolerations: [{ operator: 'Exists', effect: 'NoExecute' }] }));
    assert.equal(r.status, 201, r.body);
    const spec = r.json().spec;
    assert.deepEqual(spec.tolerations, [{ operator: 'Exists', effect: 'NoExecute' }]);
    assert.equal(spec.priority, 2000001000);
    assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');
  });

  it('an unknown class and a stated priority are refused with Kubernetes\' 403', async () => {
    let r = await post('/api/v1/namespaces/default/pods', pod('p1', { priorityClassName: 'high' }));
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'pods "p1" is forbidden: no PriorityClass with name high was found');
    r = await post('/api/v1/namespaces/default/pods', pod('p2', { priority: 5 }));
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'pods "p2" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
    r = await post('/api/v1/namespaces/default/pods', pod('p3', { preemptionPolicy: 'Never' }));
    assert.equal(r.status, 403);
    assert.equal(r.json().message, 'pods "p3" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name');
  });

  it('PersistentVolumes and PersistentVolumeClaims get their protection finalizers; unused ones still go', async () => {
    let r = await post('/api/v1/persistentvolumes', {
      apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv1' } },
    });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json().metadata.finalizers, ['platform.io/pv-protection']);
    r = await post('/api/v1/namespaces/default/persistentvolumeclaims', {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'unused' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json().metadata.finalizers, ['platform.io/pvc-protection']);

    assert.equal((await s.request('DELETE', '/api/v1/persistentvolumes/pv1')).status, 200);
    await gone('/api/v1/persistentvolumes/pv1');
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/default/persistentvolumeclaims/unused')).status, 200);
    await gone('/api/v1/namespaces/default/persistentvolumeclaims/unused');
  });

  it('a claim used by a scheduled pod stays Terminating until the pod is deleted', async () => {
    const claimPath = '/api/v1/namespaces/default/persistentvolumeclaims/data';
    let r = await post('/api/v1/namespaces/default/persistentvolumeclaims', {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    assert.equal(r.status, 201, r.body);
    r = await post('/api/v1/namespaces/default/pods', pod('user', { nodeName: 'node-1', volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] }));
    assert.equal(r.status, 201, r.body);

    assert.equal((await s.request('DELETE', claimPath)).status, 200);
    const pvc = (await get(claimPath)).json();
    assert.ok(pvc.metadata.deletionTimestamp);
    assert.deepEqual(pvc.metadata.finalizers, ['platform.io/pvc-protection']);
    // A claim deleted afterwards going shows the controller has looked at `data` since, and kept it.
    r = await post('/api/v1/namespaces/default/persistentvolumeclaims', {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'later' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    assert.equal(r.status, 201, r.body);
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/default/persistentvolumeclaims/later')).status, 200);
    await gone('/api/v1/namespaces/default/persistentvolumeclaims/later');
    const listed = await s.kubectl(['get', 'pvc', 'data']);
    assert.match(listed.stdout, /^data\s+Terminating/m);

    assert.equal((await s.request('DELETE', '/api/v1/namespaces/default/pods/user?gracePeriodSeconds=0')).status, 200);
    await gone(claimPath);
  });
});
