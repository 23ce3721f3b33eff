// End-to-end: a Pod's binding sub-resource, as a scheduler binds: POST a v1 Binding naming a node; the pod
// gets the node, the Binding's annotations and a True PodScheduled condition; Kubernetes' refusals.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { pythonClient, runPython } from './support/python.ts';

const NS = 'bind';
const pods = `/api/v1/namespaces/${NS}/pods`;
const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

describe('pods/binding', () => {
  let s: TestServer;
  const json = (body: unknown) => ({ body: JSON.stringify(body) });
  const createPod = async (name: string) => {
    const r = await s.request('POST', pods, json({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }] } }));
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const binding = (pod: string, node: string | undefined, meta: Record<string, unknown> = {}, kind = 'Node') =>
    ({ apiVersion: 'v1', kind: 'Binding', metadata: { name: pod, ...meta }, target: { kind, ...(node === undefined ? {} : { name: node }) } });
  const bind = (pod: string, body: unknown, query = '') => s.request('POST', `${pods}/${pod}/binding${query}`, json(body));
  const get = async (pod: string) => (await s.request('GET', `${pods}/${pod}`)).json();

  before(async () => {
    s = await startTestServer();
    assert.equal((await s.request('POST', '/api/v1/namespaces', json({ metadata: { name: NS } }))).status, 201);
    assert.equal((await s.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, json({ metadata: { name: 'default' } }))).status, 201);
  });
  after(async () => { await s.stop(); });

  it('is listed in discovery as a create of v1 Binding', async () => {
    const resources = (await s.request('GET', '/api/v1')).json().resources;
    assert.deepEqual(resources.find((r: { name: string }) => r.name === 'pods/binding'), {
      name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'],
    });
  });

  it('binds: the node, the annotations and PodScheduled True; the pod stays updatable', async () => {
    await createPod('a');
    const r = await bind('a', binding('a', 'node-1', { annotations: { 'scheduler.example/why': 'fit' } }));
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json(), SUCCESS);
    const pod = await get('a');
    assert.equal(pod.spec.nodeName, 'node-1');
    assert.equal(pod.metadata.annotations['scheduler.example/why'], 'fit');
    const scheduled = pod.status.conditions.filter((c: { type: string }) => c.type === 'PodScheduled');
    assert.equal(scheduled.length, 1);
    assert.equal(scheduled[0].status, 'True');
    assert.ok(scheduled[0].lastTransitionTime);
    const listed = (await s.request('GET', `${pods}?fieldSelector=spec.nodeName%3Dnode-1`)).json().items.map((i: { metadata: { name: string } }) => i.metadata.name);
    assert.deepEqual(listed, ['a']);
    const labelled = await s.request('PATCH', `${pods}/a`, { body: JSON.stringify({ metadata: { labels: { x: 'y' } } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(labelled.status, 200, labelled.body);
  });

  it('refuses a pod already bound, a name that differs, a bad target and a stale precondition, and changes nothing', async () => {
    await createPod('b');
    assert.equal((await bind('b', binding('b', 'node-1'))).status, 201);
    const again = await bind('b', binding('b', 'node-2'));
    assert.equal(again.status, 409, again.body);
    assert.equal(again.json().message, 'Operation cannot be fulfilled on pods/binding "b": pod b is already assigned to node "node-1"');
    assert.equal((await get('b')).spec.nodeName, 'node-1');

    const c = await createPod('c');
    const other = await bind('c', binding('d', 'node-1'));
    assert.equal(other.status, 400);
    assert.equal(other.json().message, 'name in URL does not match name in Binding object');
    const noName = await bind('c', binding('c', undefined));
    assert.equal(noName.status, 500);
    assert.equal(noName.json().message, 'target.name: Required value');
    const badKind = await bind('c', binding('c', 'node-1', {}, 'Pod'));
    assert.equal(badKind.status, 500);
    assert.equal(badKind.json().message, 'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"');
    const stale = await bind('c', binding('c', 'node-1', { uid: 'not-the-uid' }));
    assert.equal(stale.status, 409);
    assert.equal(stale.json().message, `Operation cannot be fulfilled on pods "c": Precondition failed: UID in precondition: not-the-uid, UID in object meta: ${c.metadata.uid}`);
    const staleVersion = await bind('c', binding('c', 'node-1', { resourceVersion: '1' }));
    assert.equal(staleVersion.status, 409);
    assert.equal(staleVersion.json().message, `Operation cannot be fulfilled on pods "c": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${c.metadata.resourceVersion}`);
    assert.equal((await bind('c', binding('c', 'node-1'), '?dryRun=All')).status, 201);
    assert.equal((await get('c')).spec.nodeName, undefined);
    const missing = await bind('nope', binding('nope', 'node-1'));
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'pods "nope" not found');
  });

  it('the official Python client binds a pod', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    await createPod('py');
    // The client reads the answer as a V1Binding, which a Status is not (as against Kubernetes): keep it raw.
    const r = await runPython(`
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
core = client.CoreV1Api()
body = client.V1Binding(metadata=client.V1ObjectMeta(name='py'), target=client.V1ObjectReference(kind='Node', name='node-9'))
resp = core.create_namespaced_pod_binding('py', '${NS}', body, _preload_content=False)
print(json.dumps([resp.status, core.read_namespaced_pod('py', '${NS}').spec.node_name]))
`, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout.trim()), [201, 'node-9']);
  });
});
