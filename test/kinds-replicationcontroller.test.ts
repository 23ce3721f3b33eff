// End-to-end: ReplicationController (core/v1) against a real Capstan: created from YAML with its selector and
// labels defaulted from the template, Kubernetes' 422 messages, the status and scale sub-resources,
// `kubectl scale rc`, the columns of `kubectl get rc`, discovery and `kubectl get all`, protobuf, the garbage
// collector with an RC as owner, and the official Python client.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, rawRequest as raw, API_TEST_CONTROLLERS, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { header, row } from './support/kubectl-table.ts';
import { pythonClient, runPython } from './support/python.ts';
import { encodeProtobufObject, decodeProtobufObject } from '../src/server/codecs/protobuf-objects.ts';

const NS = 'rc-e2e';
const RCS = `/api/v1/namespaces/${NS}/replicationcontrollers`;
const PROTOBUF = 'application/vnd.platform.protobuf';

const MANIFEST = `apiVersion: v1
kind: ReplicationController
metadata:
  name: web
spec:
  template:
    metadata:
      labels: {app: web, tier: front}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
      - name: sidecar
        image: busybox:1.36
`;

const rcBody = (name: string, spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name }, spec });
const template = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({ metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra } });


describe('ReplicationController end to end', () => {
  let s: TestServer;
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(['-n', NS, ...args], input);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const get = async (path: string) => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.body);
    return r.json();
  };

  before(async () => {
    // The garbage collector runs: a ReplicationController owns pods.
    s = await startTestServer({ controllers: API_TEST_CONTROLLERS.filter((c) => c !== '-garbagecollector'), controllerResyncMs: 200 });
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: NS } }) })).status, 201);
    // Pods need their service account (the controller that makes it is off).
    assert.equal((await s.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: JSON.stringify({ metadata: { name: 'default' } }) })).status, 201);
    await kubectl(['create', '-f', '-'], MANIFEST);
  });
  after(async () => { await s?.stop(); });

  it('create: the selector and the labels come from the template, one replica, the template defaults, status.replicas 0', async () => {
    const rc = await get(`${RCS}/web`);
    assert.deepEqual([rc.apiVersion, rc.kind], ['v1', 'ReplicationController']);
    assert.deepEqual(rc.spec.selector, { app: 'web', tier: 'front' });
    assert.deepEqual(rc.metadata.labels, { app: 'web', tier: 'front' });
    assert.equal(rc.spec.replicas, 1);
    assert.equal(rc.metadata.generation, 1);
    assert.deepEqual(rc.status, { replicas: 0 });
    const podSpec = rc.spec.template.spec;
    assert.deepEqual([podSpec.restartPolicy, podSpec.dnsPolicy, podSpec.terminationGracePeriodSeconds, podSpec.schedulerName], ['Always', 'ClusterFirst', 30, 'default-scheduler']);
    assert.deepEqual([podSpec.containers[0].imagePullPolicy, podSpec.containers[0].terminationMessagePath], ['IfNotPresent', '/dev/termination-log']);
    assert.equal(rc.spec.template.metadata.creationTimestamp, null);
    // By short name, and selected by status.replicas.
    assert.match(await kubectl(['get', 'rc', '-o', 'name']), /^replicationcontroller\/web$/m);
    const byField = await get(`${RCS}?fieldSelector=status.replicas%3D0`);
    assert.deepEqual([byField.kind, byField.items.map((i: any) => i.metadata.name)], ['ReplicationControllerList', ['web']]);
    const bad = await s.request('GET', `${RCS}?fieldSelector=spec.replicas%3D1`);
    assert.equal(bad.status, 400);
    assert.equal(bad.json().message, 'field label not supported: spec.replicas');
  });

  it('validation: Kubernetes messages and paths', async () => {
    const invalid = async (name: string, spec: Record<string, unknown>) => {
      const r = await s.request('POST', RCS, { body: rcBody(name, spec) });
      assert.equal(r.status, 422, r.body);
      const st = r.json();
      assert.deepEqual([st.reason, st.details.kind, st.details.name], ['Invalid', 'ReplicationController', name]);
      return st.message;
    };
    assert.equal(await invalid('empty', {}), 'ReplicationController "empty" is invalid: [spec.selector: Required value, spec.template: Required value]');
    assert.equal(await invalid('mismatch', { selector: { app: 'db' }, template: template({ app: 'web' }) }),
      'ReplicationController "mismatch" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`');
    assert.equal(await invalid('counts', { replicas: -1, minReadySeconds: -5, template: template({ app: 'web' }, { restartPolicy: 'Never' }) }),
      'ReplicationController "counts" is invalid: [spec.minReadySeconds: Invalid value: -5: must be greater than or equal to 0, spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"]');
    assert.equal(await invalid('deadline', { template: template({ app: 'web' }, { activeDeadlineSeconds: 10 }) }),
      'ReplicationController "deadline" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported');
    // A name that is no DNS label is allowed, with Kubernetes' warning.
    const r = await s.request('POST', RCS, { body: rcBody('not.a.label', { template: template({ app: 'odd' }) }) });
    assert.equal(r.status, 201, r.body);
    assert.match(String(r.headers.warning), /metadata\.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended/);
    assert.equal((await s.request('DELETE', `${RCS}/not.a.label`)).status, 200);
  });

  it('status: written only through /status, bounded by status.replicas; a spec change makes a new generation', async () => {
    const rc = await get(`${RCS}/web`);
    const status = { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 };
    const main = await s.request('PUT', `${RCS}/web`, { body: JSON.stringify({ ...rc, status }) });
    assert.equal(main.status, 200, main.body);
    assert.deepEqual(main.json().status, { replicas: 0 });
    assert.equal(main.json().metadata.generation, 1);
    const put = await s.request('PUT', `${RCS}/web/status`, { body: JSON.stringify({ ...main.json(), status }) });
    assert.equal(put.status, 200, put.body);
    assert.deepEqual(put.json().status, status);
    const over = await s.request('PUT', `${RCS}/web/status`, { body: JSON.stringify({ ...put.json(), status: { replicas: 1, readyReplicas: 3 } }) });
    assert.equal(over.status, 422);
    assert.equal(over.json().message, 'ReplicationController "web" is invalid: status.readyReplicas: Invalid value: 3: cannot be greater than status.replicas');
    const patched = await s.request('PATCH', `${RCS}/web`, { body: JSON.stringify({ spec: { minReadySeconds: 5 } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patched.status, 200, patched.body);
    assert.deepEqual([patched.json().metadata.generation, patched.json().status], [2, status]);
  });

  it('scale: the Scale view with the selector as a string; kubectl scale rc; negative replicas refused', async () => {
    const scale = await get(`${RCS}/web/scale`);
    assert.deepEqual([scale.apiVersion, scale.kind, scale.metadata.name, scale.spec, scale.status], ['autoscaling/v1', 'Scale', 'web', { replicas: 1 }, { replicas: 2, selector: 'app=web,tier=front' }]);
    assert.match(await kubectl(['scale', 'rc', 'web', '--replicas=3']), /replicationcontroller\/web scaled/);
    assert.equal((await get(`${RCS}/web`)).spec.replicas, 3);
    assert.match(await kubectl(['scale', 'rc', 'web', '--current-replicas=3', '--replicas=4']), /replicationcontroller\/web scaled/);
    const put = await s.request('PUT', `${RCS}/web/scale`, { body: JSON.stringify({ ...scale, metadata: { name: 'web' }, spec: { replicas: -1 } }) });
    assert.equal(put.status, 422);
    assert.equal(put.json().message, 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const patch = await s.request('PATCH', `${RCS}/web/scale`, { body: JSON.stringify({ spec: { replicas: 2 } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(patch.status, 200, patch.body);
    assert.deepEqual(patch.json().spec, { replicas: 2 });
    assert.equal((await get(`${RCS}/web`)).spec.replicas, 2);
  });

  it('kubectl get rc: NAME DESIRED CURRENT READY AGE; wide adds CONTAINERS IMAGES SELECTOR', async () => {
    const table = await kubectl(['get', 'rc']);
    assert.deepEqual(header(table), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE']);
    assert.deepEqual(row(table, 'web').slice(0, 4), ['web', '2', '2', '1']);
    const wide = await kubectl(['get', 'replicationcontrollers', '-o', 'wide']);
    assert.deepEqual(header(wide), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    assert.deepEqual(row(wide, 'web').slice(5), ['nginx,sidecar', 'nginx:1.27,busybox:1.36', 'app=web,tier=front']);
    assert.match(await kubectl(['describe', 'rc', 'web']), /Selector:\s+app=web,tier=front/);
  });

  it('discovery: kubectl api-resources names it; kubectl get all lists it; explain reads its schema', async () => {
    const resources = await kubectl(['api-resources', '--api-group=']);
    assert.deepEqual(row(resources, 'replicationcontrollers'), ['replicationcontrollers', 'rc', 'v1', 'true', 'ReplicationController']);
    const v1 = await get('/api/v1');
    const names = v1.resources.filter((r: any) => r.name.startsWith('replicationcontrollers')).map((r: any) => [r.name, r.kind, r.group, r.version]);
    assert.deepEqual(names, [
      ['replicationcontrollers', 'ReplicationController', undefined, undefined],
      ['replicationcontrollers/scale', 'Scale', 'autoscaling', 'v1'],
      ['replicationcontrollers/status', 'ReplicationController', undefined, undefined],
    ]);
    const main = v1.resources.find((r: any) => r.name === 'replicationcontrollers');
    assert.deepEqual([main.shortNames, main.categories, main.singularName, main.namespaced], [['rc'], ['all'], 'replicationcontroller', true]);
    assert.match(await kubectl(['get', 'all']), /^replicationcontroller\/web\s/m);
    assert.match(await kubectl(['explain', 'rc.spec.selector']), /FIELD: selector <map\[string\]string>/);
  });

  it('RBAC: view reads replication controllers, their status and scale; edit also writes them and their scale', async () => {
    for (const [user, role] of [['rc-viewer', 'view'], ['rc-editor', 'edit']]) {
      await kubectl(['create', 'rolebinding', user, `--clusterrole=${role}`, `--user=${user}`]);
    }
    // kubectl reads `a/b` as resource and name: the sub-resource goes in --subresource.
    const can = async (user: string, verb: string, path: string) => {
      const [resource, sub] = path.split('/');
      return (await s.kubectl(['-n', NS, 'auth', 'can-i', verb, resource!, ...(sub ? [`--subresource=${sub}`] : []), '--as', user])).stdout.trim();
    };
    assert.deepEqual(await Promise.all([
      can('rc-viewer', 'get', 'replicationcontrollers'), can('rc-viewer', 'get', 'replicationcontrollers/status'), can('rc-viewer', 'get', 'replicationcontrollers/scale'),
      can('rc-viewer', 'update', 'replicationcontrollers'), can('rc-viewer', 'patch', 'replicationcontrollers/scale'),
      can('rc-editor', 'create', 'replicationcontrollers'), can('rc-editor', 'patch', 'replicationcontrollers/scale'), can('rc-editor', 'update', 'replicationcontrollers/status'),
    ]), ['yes', 'yes', 'yes', 'no', 'no', 'yes', 'yes', 'no']);
    const scaled = await s.kubectl(['-n', NS, 'scale', 'rc', 'web', '--replicas=2', '--as', 'rc-editor']);
    assert.equal(scaled.code, 0, scaled.stderr);
    const refused = await s.kubectl(['-n', NS, 'scale', 'rc', 'web', '--replicas=3', '--as', 'rc-viewer']);
    assert.match(refused.stderr, /is forbidden: User "rc-viewer" cannot patch resource "replicationcontrollers\/scale" in API group "" in the namespace "rc-e2e"/, refused.stderr);
  });

  it('protobuf: created from and read as protobuf', async () => {
    const body = encodeProtobufObject({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'proto' }, spec: { replicas: 0, template: template({ app: 'proto' }) } });
    const created = await raw(s, 'POST', RCS, { 'content-type': PROTOBUF, accept: PROTOBUF }, body);
    assert.equal(created.status, 201, created.body.toString());
    const obj = decodeProtobufObject(created.body) as any;
    assert.deepEqual([obj.kind, obj.spec.replicas, obj.spec.selector, obj.metadata.labels, obj.status], ['ReplicationController', 0, { app: 'proto' }, { app: 'proto' }, { replicas: 0 }]);
    const list = decodeProtobufObject((await raw(s, 'GET', RCS, { accept: PROTOBUF })).body) as any;
    assert.equal(list.kind, 'ReplicationControllerList');
    assert.ok(list.items.some((i: any) => i.metadata.name === 'proto'));
    const scale = decodeProtobufObject((await raw(s, 'GET', `${RCS}/proto/scale`, { accept: PROTOBUF })).body) as any;
    assert.deepEqual([scale.kind, scale.status], ['Scale', { replicas: 0, selector: 'app=proto' }]);
  });

  it('garbage collector: pods owned by a deleted RC go with it (background), or are orphaned (the v1 default)', async () => {
    const pod = async (name: string, owner: any) => {
      const r = await s.request('POST', `/api/v1/namespaces/${NS}/pods`, { body: JSON.stringify({
        metadata: { name, labels: owner.spec.selector, ownerReferences: [{ apiVersion: 'v1', kind: 'ReplicationController', name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true }] },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      }) });
      assert.equal(r.status, 201, r.body);
    };
    const mk = async (name: string) => {
      const r = await s.request('POST', RCS, { body: rcBody(name, { replicas: 0, template: template({ app: name }) }) });
      assert.equal(r.status, 201, r.body);
      return r.json();
    };
    const cascade = await mk('cascade');
    await pod('cascade-pod', cascade);
    assert.match(await kubectl(['delete', 'rc', 'cascade']), /replicationcontroller "cascade" deleted/);
    await until(async () => (await s.request('GET', `/api/v1/namespaces/${NS}/pods/cascade-pod`)).status === 404, 'the owned pod to be deleted');
    // Without a propagation policy a v1 ReplicationController orphans its pods.
    const orphaning = await mk('orphaning');
    await pod('orphan-pod', orphaning);
    assert.equal((await s.request('DELETE', `${RCS}/orphaning`)).status, 200);
    await until(async () => (await s.request('GET', `${RCS}/orphaning`)).status === 404, 'the RC to be deleted');
    await until(async () => !(await get(`/api/v1/namespaces/${NS}/pods/orphan-pod`)).metadata.ownerReferences, 'the pod to be orphaned');
  });

  it('the Python client reads it (CoreV1Api.read_namespaced_replication_controller) and scales it', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    const script = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
core = client.CoreV1Api()
rc = core.read_namespaced_replication_controller('web', sys.argv[2])
core.patch_namespaced_replication_controller_scale('web', sys.argv[2], {'spec': {'replicas': 5}})
sc = core.read_namespaced_replication_controller_scale('web', sys.argv[2])
items = core.list_namespaced_replication_controller(sys.argv[2]).items
print(json.dumps({'selector': rc.spec.selector, 'replicas': rc.spec.replicas, 'containers': [c.name for c in rc.spec.template.spec.containers],
  'status': rc.status.replicas, 'scaled': sc.spec.replicas, 'scaleSelector': sc.status.selector, 'names': sorted(i.metadata.name for i in items)}))
`;
    const r = await runPython(script, [s.kubeconfigPath, NS]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim());
    assert.deepEqual(out.selector, { app: 'web', tier: 'front' });
    assert.deepEqual([out.replicas, out.containers, out.status, out.scaled, out.scaleSelector], [2, ['nginx', 'sidecar'], 2, 5, 'app=web,tier=front']);
    assert.ok(out.names.includes('web'));
  });
});
