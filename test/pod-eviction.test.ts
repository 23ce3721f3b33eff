// End-to-end: a Pod's eviction sub-resource (the spec's example of a virtual resource type), as Kubernetes
// v1.32 serves it when no PodDisruptionBudget stands in the way: POST a policy/v1 Eviction (v1beta1 read
// too) and the pod is deleted with the Eviction's deleteOptions, answered 201 with a Success Status. Driven
// with raw HTTP, kubectl drain (which evicts once discovery lists the sub-resource), the official JavaScript
// and Python clients, and an admission webhook that sees the Eviction.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { pythonClient, runPython } from './support/python.ts';
import { requestAs, userCertificate } from './support/auth.ts';
import { configureWebhooks, startAdmissionWebhook, VALIDATING, type AdmissionWebhookServer } from './support/admission-webhook.ts';

const NS = 'evict';
const pods = `/api/v1/namespaces/${NS}/pods`;
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

describe('pods/eviction', () => {
  let s: TestServer;
  let hook: AdmissionWebhookServer;
  const json = (body: unknown) => ({ body: JSON.stringify(body) });
  const createPod = async (name: string, spec: Record<string, unknown> = {}) => {
    const r = await s.request('POST', pods, json({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }], ...spec } }));
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const evict = (pod: string, body: unknown, query = '') => s.request('POST', `${pods}/${pod}/eviction${query}`, json(body));
  const exists = async (pod: string) => (await s.request('GET', `${pods}/${pod}`)).status === 200;

  before(async () => {
    s = await startTestServer();
    hook = await startAdmissionWebhook();
    assert.equal((await s.request('POST', '/api/v1/namespaces', json({ metadata: { name: NS } }))).status, 201);
    assert.equal((await s.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, json({ metadata: { name: 'default' } }))).status, 201);
  });
  after(async () => { await hook.close(); await s.stop(); });

  it('is listed in discovery and OpenAPI as a create of policy/v1 Eviction', async () => {
    const resources = (await s.request('GET', '/api/v1')).json().resources;
    assert.deepEqual(resources.find((r: { name: string }) => r.name === 'pods/eviction'), {
      name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'],
    });
    const openapi = (await s.request('GET', '/openapi/v2')).json();
    const post = openapi.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post;
    assert.equal(post.operationId, 'createCoreV1NamespacedPodEviction');
    assert.deepEqual(post['x-kubernetes-group-version-kind'], { group: 'policy', kind: 'Eviction', version: 'v1' });
    assert.ok(openapi.definitions['io.svc.api.policy.v1.Eviction'].properties.deleteOptions);
  });

  it('deletes the pod and answers 201 with a Success Status; v1beta1 and a bodiless type are read too', async () => {
    await createPod('a');
    const r = await evict('a', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'a', namespace: NS } });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json(), SUCCESS);
    assert.equal(await exists('a'), false);
    await createPod('b');
    assert.equal((await evict('b', { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'b' } })).status, 201);
    await createPod('c');
    assert.equal((await evict('c', { metadata: { name: 'c' } })).status, 201);
    assert.equal(await exists('b') || await exists('c'), false);
  });

  it('dry runs, from the query or the deleteOptions, leave the pod', async () => {
    await createPod('dry');
    assert.equal((await evict('dry', { metadata: { name: 'dry' } }, '?dryRun=All')).status, 201);
    assert.equal((await evict('dry', { metadata: { name: 'dry' }, deleteOptions: { dryRun: ['All'] } })).status, 201);
    assert.equal(await exists('dry'), true);
  });

  it('refuses what Kubernetes refuses, and changes nothing', async () => {
    await createPod('keep');
    const cases: [unknown, number, string][] = [
      [{ metadata: { name: 'other' } }, 400, 'name in URL does not match name in Eviction object'],
      [{ metadata: { name: 'keep', namespace: 'default' } }, 400, 'the namespace of the provided object does not match the namespace sent on the request'],
      [{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'keep' } }, 400, 'Pod in version "v1" cannot be handled as a Eviction: converting (v1.Pod) to (policy.Eviction): unknown conversion'],
      [{ metadata: { name: 'keep' }, deleteOptions: 'now' }, 400, 'Eviction in version "v1" cannot be handled as a Eviction'],
      [{ metadata: { name: 'keep' }, deleteOptions: { preconditions: { uid: 'not-its-uid' } } }, 409, 'the UID in the precondition (not-its-uid) does not match the UID in record'],
      [{ metadata: { name: 'keep' }, deleteOptions: { propagationPolicy: 'Sometimes' } }, 422, 'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Unsupported value: "Sometimes"'],
    ];
    for (const [body, code, message] of cases) {
      const r = await evict('keep', body);
      assert.equal(r.status, code, `${JSON.stringify(body)}: ${r.body}`);
      assert.ok(r.json().message.includes(message), `${JSON.stringify(body)}: ${r.json().message}`);
    }
    assert.equal(await exists('keep'), true);
    const missing = await evict('absent', { metadata: { name: 'absent' } });
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'pods "absent" not found');
    // Only create: another method on the sub-resource has no route.
    assert.equal((await s.request('GET', `${pods}/keep/eviction`)).status, 405);
  });

  it('is authorized as create on pods/eviction', async () => {
    await createPod('guarded');
    const bob = await userCertificate(s, 'bob');
    const r = await requestAs(s, bob, 'POST', `${pods}/guarded/eviction`, { metadata: { name: 'guarded' } });
    assert.equal(r.status, 403);
    assert.equal(r.json().message, `pods "guarded" is forbidden: User "bob" cannot create resource "pods/eviction" in API group "" in the namespace "${NS}"`);
    assert.equal(await exists('guarded'), true);
  });

  it('is admitted as a CREATE of pods/eviction: a validating webhook sees the Eviction and may refuse it', async () => {
    await createPod('hooked');
    hook.answer = (review) => review.request.object.metadata.name === 'hooked' ? { allowed: false, status: { code: 403, message: 'not this one' } } : { allowed: true };
    const remove = await configureWebhooks(s, VALIDATING, 'eviction-guard', [{
      name: 'evictions.example.com', admissionReviewVersions: ['v1'], sideEffects: 'None',
      clientConfig: { url: `${hook.origin}/validate`, caBundle: hook.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'] }],
    }]);
    try {
      const r = await evict('hooked', { metadata: { name: 'hooked' } });
      assert.equal(r.status, 403, r.body);
      assert.match(r.json().message, /not this one/);
      assert.equal(await exists('hooked'), true);
      const request = hook.reviews.at(-1)!.review.request;
      assert.deepEqual([request.kind, request.resource, request.subResource, request.operation, request.name, request.namespace], [
        { group: 'policy', version: 'v1', kind: 'Eviction' }, { group: '', version: 'v1', resource: 'pods' }, 'eviction', 'CREATE', 'hooked', NS,
      ]);
      assert.deepEqual([request.object.apiVersion, request.object.kind, request.object.metadata.name], ['policy/v1', 'Eviction', 'hooked']);
      // A pod's own CREATE does not match the rule; other pods' evictions are allowed.
      await createPod('allowed');
      assert.equal((await evict('allowed', { metadata: { name: 'allowed' } })).status, 201);
    } finally {
      await remove();
    }
  });

  it('kubectl drain cordons the node and evicts its pods', async () => {
    assert.equal((await s.request('POST', '/api/v1/nodes', json({ metadata: { name: 'worker-1' } }))).status, 201);
    await createPod('on-node-1', { nodeName: 'worker-1' });
    await createPod('on-node-2', { nodeName: 'worker-1' });
    await createPod('elsewhere');
    const r = await s.kubectl(['drain', 'worker-1', '--force', '--timeout=30s']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /evicting pod evict\/on-node-1/);
    assert.match(r.stdout, /node\/worker-1 drained/);
    assert.equal(await exists('on-node-1') || await exists('on-node-2'), false);
    assert.equal(await exists('elsewhere'), true);
    assert.equal((await s.request('GET', '/api/v1/nodes/worker-1')).json().spec.unschedulable, true);
  });

  it('the JavaScript client\'s createNamespacedPodEviction evicts', async () => {
    await createPod('js');
    const kc = new k8s.KubeConfig();
    kc.loadFromString(s.kubeconfig);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespacedPodEviction({ name: 'js', namespace: NS, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'js', namespace: NS } } });
    assert.equal(await exists('js'), false);
  });

  it('the Python client\'s create_namespaced_pod_eviction evicts', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    await createPod('py');
    const script = `
import sys
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
client.CoreV1Api().create_namespaced_pod_eviction('py', '${NS}', client.V1Eviction(metadata=client.V1ObjectMeta(name='py', namespace='${NS}'), delete_options=client.V1DeleteOptions(grace_period_seconds=0)))
print('ok')
`;
    const r = await runPython(script, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(await exists('py'), false);
  });
});
