// End-to-end: DaemonSets and StatefulSets (apps/v1) driven by the real kubectl and raw HTTP against a real
// Capstan: apply from YAML, the defaults, the columns kubectl prints, explain, Kubernetes' refusals (no
// selector, a selector or another fixed field changed), warnings, and the status and scale sub-resources.
// No controller runs for these kinds: nothing creates their pods, and their status is what a client writes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { header, row } from './support/kubectl-table.ts';

const DAEMONSET = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      nodeSelector: {disk: ssd}
      containers:
      - name: agent
        image: agent:1.0
`;

const STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  replicas: 2
  selector:
    matchLabels: {app: db}
  template:
    metadata:
      labels: {app: db}
    spec:
      containers:
      - name: postgres
        image: postgres:17
        volumeMounts:
        - {name: data, mountPath: /var/lib/postgresql}
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 1024Mi
`;

const BASE = '/apis/apps/v1/namespaces/default';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const IMMUTABLE = "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

describe('DaemonSets and StatefulSets with kubectl', () => {
  let s: TestServer;
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const get = async (path: string) => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.body);
    return r.json();
  };
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('apply -f creates both, with their defaults; applying the same manifest again changes nothing', async () => {
    const created = await kubectl(['apply', '-f', '-'], `${DAEMONSET}---\n${STATEFULSET}`);
    assert.match(created, /daemonset\.apps\/agent created/);
    assert.match(created, /statefulset\.apps\/db created/);

    const ds = await get(`${BASE}/daemonsets/agent`);
    assert.deepEqual(ds.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    assert.equal(ds.spec.revisionHistoryLimit, 10);
    assert.equal(ds.metadata.annotations['deprecated.daemonset.template.generation'], '1');
    assert.deepEqual(ds.status, { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
    assert.equal(ds.spec.template.spec.containers[0].imagePullPolicy, 'IfNotPresent');

    const sts = await get(`${BASE}/statefulsets/db`);
    assert.deepEqual([sts.spec.replicas, sts.spec.podManagementPolicy, sts.spec.revisionHistoryLimit, sts.spec.serviceName], [2, 'OrderedReady', 10, 'db']);
    assert.deepEqual(sts.spec.updateStrategy, { type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    assert.deepEqual(sts.spec.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Retain', whenScaled: 'Retain' });
    assert.deepEqual(sts.spec.volumeClaimTemplates, [{
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', creationTimestamp: null },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' }, status: { phase: 'Pending' },
    }]);
    assert.deepEqual(sts.status, { replicas: 0, availableReplicas: 0 });

    // The claim templates read back with more than the manifest says: a new apply sends them again, and they are the same.
    const again = await kubectl(['apply', '-f', '-'], `${DAEMONSET}---\n${STATEFULSET}`);
    assert.match(again, /daemonset\.apps\/agent unchanged/);
    assert.match(again, /statefulset\.apps\/db (configured|unchanged)/);
    const after = await get(`${BASE}/statefulsets/db`);
    assert.deepEqual([after.metadata.generation, after.metadata.resourceVersion], [sts.metadata.generation, sts.metadata.resourceVersion]);
  });

  it('get prints the columns kubectl prints for them, wide ones too', async () => {
    const ds = await kubectl(['get', 'ds']);
    assert.deepEqual(header(ds), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE']);
    assert.deepEqual(row(ds, 'agent').slice(0, 7), ['agent', '0', '0', '0', '0', '0', 'disk=ssd']);
    const dsWide = await kubectl(['get', 'daemonsets', '-o', 'wide']);
    assert.deepEqual(header(dsWide), ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    assert.deepEqual(row(dsWide, 'agent').slice(8), ['agent', 'agent:1.0', 'app=agent']);

    const sts = await kubectl(['get', 'sts']);
    assert.deepEqual(header(sts), ['NAME', 'READY', 'AGE']);
    assert.deepEqual(row(sts, 'db').slice(0, 2), ['db', '0/2']);
    const stsWide = await kubectl(['get', 'statefulsets', '-o', 'wide']);
    assert.deepEqual(header(stsWide), ['NAME', 'READY', 'AGE', 'CONTAINERS', 'IMAGES']);
    assert.deepEqual(row(stsWide, 'db').slice(3), ['postgres', 'postgres:17']);

    const all = await kubectl(['get', 'all']);
    assert.match(all, /daemonset\.apps\/agent/);
    assert.match(all, /statefulset\.apps\/db/);
  });

  it('explain shows their fields', async () => {
    const cases: [string, RegExp][] = [
      ['daemonset.spec', /FIELD: spec <DaemonSetSpec>[\s\S]*revisionHistoryLimit\s+<integer>[\s\S]*selector\s+<LabelSelector> -required-[\s\S]*template\s+<PodTemplateSpec> -required-[\s\S]*updateStrategy\s+<DaemonSetUpdateStrategy>/],
      ['ds.spec.updateStrategy.rollingUpdate', /maxSurge\s+<IntOrString>[\s\S]*maxUnavailable\s+<IntOrString>/],
      ['ds.status', /currentNumberScheduled\s+<integer> -required-[\s\S]*numberReady\s+<integer> -required-/],
      ['statefulset.spec', /FIELD: spec <StatefulSetSpec>[\s\S]*ordinals\s+<StatefulSetOrdinals>[\s\S]*persistentVolumeClaimRetentionPolicy\s+<StatefulSetPersistentVolumeClaimRetentionPolicy>[\s\S]*serviceName\s+<string> -required-[\s\S]*volumeClaimTemplates\s+<\[\]PersistentVolumeClaim>/],
      ['sts.spec.updateStrategy.rollingUpdate', /maxUnavailable\s+<IntOrString>[\s\S]*partition\s+<integer>/],
      ['sts.spec.volumeClaimTemplates.spec', /accessModes\s+<\[\]string>/],
    ];
    for (const [path, re] of cases) assert.match(await kubectl(['explain', path]), re, path);
  });

  it('a DaemonSet without a selector, or with a changed one, is refused with 422', async () => {
    const noSelector = { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'bare' }, spec: { template: { metadata: { labels: { app: 'bare' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
    const raw = await s.request('POST', `${BASE}/daemonsets`, { body: JSON.stringify(noSelector) });
    assert.equal(raw.status, 422, raw.body);
    assert.equal(raw.json().reason, 'Invalid');
    // Kubernetes' own DaemonSet rules only find the mismatch; the `Required value` is the schema's (its OpenAPI marks the field required).
    assert.deepEqual(raw.json().details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"bare"}: `selector` does not match template `labels`',
    ]);
    const viaKubectl = await s.kubectl(['create', '-f', '-'], DAEMONSET.replace('name: agent', 'name: bare').replace('  selector:\n    matchLabels: {app: agent}\n', ''));
    assert.notEqual(viaKubectl.code, 0);
    assert.match(viaKubectl.stderr, /The DaemonSet "bare" is invalid: \n\* spec\.selector: Required value\n\* spec\.template\.metadata\.labels: Invalid value: map\[string\]string\{"app":"agent"\}: `selector` does not match template `labels`/);

    const moved = await s.request('PATCH', `${BASE}/daemonsets/agent`, { body: JSON.stringify({ spec: { selector: { matchLabels: { app: 'agent', v: '2' } }, template: { metadata: { labels: { app: 'agent', v: '2' } } } } }), headers: MERGE });
    assert.equal(moved.status, 422, moved.body);
    assert.equal(moved.json().message, 'DaemonSet.apps "agent" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"agent", "v":"2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable');
    const movedByApply = await s.kubectl(['apply', '-f', '-'], DAEMONSET.replaceAll('{app: agent}', '{app: agent2}'));
    assert.notEqual(movedByApply.code, 0);
    assert.match(movedByApply.stderr, /spec\.selector: Invalid value: v1\.LabelSelector\{MatchLabels:map\[string\]string\{"app":"agent2"\}.*\}: field is immutable/);
  });

  it('a StatefulSet without a selector, or with a fixed field changed, is refused with 422', async () => {
    const noSelector = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'bare' }, spec: { serviceName: 'bare', template: { metadata: { labels: { app: 'bare' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
    const raw = await s.request('POST', `${BASE}/statefulsets`, { body: JSON.stringify(noSelector) });
    assert.equal(raw.status, 422, raw.body);
    assert.equal(raw.json().message, 'StatefulSet.apps "bare" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: map[string]string{"app":"bare"}: `selector` does not match template `labels`]');
    const viaKubectl = await s.kubectl(['apply', '-f', '-'], STATEFULSET.replace('name: db\n', 'name: bare\n').replace('  selector:\n    matchLabels: {app: db}\n', ''));
    assert.notEqual(viaKubectl.code, 0);
    assert.match(viaKubectl.stderr, /The StatefulSet "bare" is invalid: \n\* spec\.selector: Required value\n\* spec\.template\.metadata\.labels: Invalid value: map\[string\]string\{"app":"db"\}: `selector` does not match template `labels`/);

    const moved = await s.request('PATCH', `${BASE}/statefulsets/db`, { body: JSON.stringify({ spec: { selector: { matchLabels: { app: 'db', v: '2' } }, template: { metadata: { labels: { app: 'db', v: '2' } } } } }), headers: MERGE });
    assert.equal(moved.status, 422, moved.body);
    assert.equal(moved.json().message, `StatefulSet.apps "db" is invalid: ${IMMUTABLE}`);
    const resized = await s.kubectl(['apply', '-f', '-'], STATEFULSET.replace('storage: 1024Mi', 'storage: 2Gi'));
    assert.notEqual(resized.code, 0);
    assert.ok(resized.stderr.includes(IMMUTABLE), resized.stderr);
    // What may change, changes: a new image is a new generation.
    assert.match(await kubectl(['apply', '-f', '-'], STATEFULSET.replace('postgres:17', 'postgres:18')), /statefulset\.apps\/db configured/);
    assert.equal((await get(`${BASE}/statefulsets/db`)).metadata.generation, 2);
  });

  it('a new pod template is a new template generation of the DaemonSet; its warnings come back', async () => {
    const deprecated = DAEMONSET.replace('    metadata:\n      labels: {app: agent}\n', '    metadata:\n      labels: {app: agent}\n      annotations: {scheduler.alpha.platform.io/critical-pod: ""}\n');
    const r = await s.kubectl(['apply', '-f', '-'], deprecated);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Warning: spec\.template\.metadata\.annotations\[scheduler\.alpha\.platform\.io\/critical-pod\]: non-functional in v1\.16\+; use the "priorityClassName" field instead/);
    const ds = await get(`${BASE}/daemonsets/agent`);
    assert.deepEqual([ds.metadata.annotations['deprecated.daemonset.template.generation'], ds.metadata.generation], ['2', 2]);
  });

  it('status: written through /status only, checked, and shown in the columns', async () => {
    const ds = await get(`${BASE}/daemonsets/agent`);
    const dsStatus = { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2, numberUnavailable: 1, observedGeneration: 2 };
    const put = await s.request('PUT', `${BASE}/daemonsets/agent/status`, { body: JSON.stringify({ ...ds, status: dsStatus }) });
    assert.equal(put.status, 200, put.body);
    assert.deepEqual(put.json().status, dsStatus);
    assert.deepEqual(row(await kubectl(['get', 'ds', 'agent']), 'agent').slice(1, 6), ['3', '3', '2', '3', '2']);
    // The main resource keeps the status as it is.
    const ignored = await s.request('PUT', `${BASE}/daemonsets/agent`, { body: JSON.stringify({ ...put.json(), status: { ...dsStatus, numberReady: 0 } }) });
    assert.equal(ignored.json().status.numberReady, 2);

    const sts = await get(`${BASE}/statefulsets/db`);
    const bad = await s.request('PUT', `${BASE}/statefulsets/db/status`, { body: JSON.stringify({ ...sts, status: { replicas: 1, readyReplicas: 2 } }) });
    assert.equal(bad.status, 422, bad.body);
    assert.equal(bad.json().message, 'StatefulSet.apps "db" is invalid: status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas');
    const patched = await kubectl(['patch', 'sts', 'db', '--subresource=status', '--type=merge', '-p', '{"status":{"replicas":2,"readyReplicas":1,"availableReplicas":1}}']);
    assert.match(patched, /statefulset\.apps\/db patched/);
    assert.deepEqual(row(await kubectl(['get', 'sts', 'db']), 'db').slice(0, 2), ['db', '1/2']);
  });

  it('scale: a StatefulSet has the scale sub-resource, a DaemonSet has none', async () => {
    assert.match(await kubectl(['scale', 'statefulset', 'db', '--replicas=3']), /statefulset\.apps\/db scaled/);
    const scale = await get(`${BASE}/statefulsets/db/scale`);
    assert.deepEqual([scale.apiVersion, scale.kind, scale.spec, scale.status], ['autoscaling/v1', 'Scale', { replicas: 3 }, { replicas: 2, selector: 'app=db' }]);
    const put = await s.request('PUT', `${BASE}/statefulsets/db/scale`, { body: JSON.stringify({ ...scale, spec: { replicas: 1 } }) });
    assert.equal(put.status, 200, put.body);
    assert.equal((await get(`${BASE}/statefulsets/db`)).spec.replicas, 1);
    const negative = await s.request('PUT', `${BASE}/statefulsets/db/scale`, { body: JSON.stringify({ ...scale, metadata: { name: 'db', namespace: 'default' }, spec: { replicas: -1 } }) });
    assert.equal(negative.status, 422, negative.body);

    assert.equal((await s.request('GET', `${BASE}/daemonsets/agent/scale`)).status, 404);
    const dsScale = await s.kubectl(['scale', 'ds', 'agent', '--replicas=2']);
    assert.notEqual(dsScale.code, 0);
  });
});
