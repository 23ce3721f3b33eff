// Pods and workload pod templates are answered with Kubernetes' Warning headers (pkg/api/pod/warnings.go):
// on a valid create, on a workload update that makes a new generation, never on a pod update or an invalid write.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { warnings } from './support/write-helpers.ts';

const NS = 'default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const REPLICASETS = `/apis/apps/v1/namespaces/${NS}/replicasets`;
const json = (v: unknown) => JSON.stringify(v);

const template = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  metadata: { labels: { app: 'web' }, ...(annotations ? { annotations } : {}) },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const workload = (name: string, tpl: unknown) => ({ metadata: { name }, spec: { selector: { matchLabels: { app: 'web' } }, template: tpl } });

describe('pod and pod-template warnings', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    // The test server runs without the service account controller; pods need their namespace's default account.
    assert.equal((await s.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { body: json({ metadata: { name: 'default' } }) })).status, 201);
  });
  after(async () => { await s.stop(); });

  it('a pod create is warned about deprecated labels, plugins, duplicates and a negative grace period', async () => {
    const r = await s.request('POST', PODS, { body: json({
      metadata: { name: 'warned' },
      spec: {
        nodeSelector: { 'beta.platform.io/os': 'linux' },
        terminationGracePeriodSeconds: -3,
        volumes: [{ name: 'g', gitRepo: { repository: 'https://example.com/r.git' } }],
        containers: [{ name: 'c', image: 'nginx', env: [{ name: 'A', value: '1' }, { name: 'A', value: '2' }], ports: [{ containerPort: 80 }, { containerPort: 80 }] }],
      },
    }) });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(warnings(r), [
      'spec.nodeSelector[beta.platform.io/os]: deprecated since v1.14; use "platform.io/os" instead',
      'spec.volumes[0].gitRepo: deprecated in v1.11',
      'spec.containers[0].env[1]: hides previous definition of "A", which may be dropped when using apply',
      'spec.containers[0].ports[1]: duplicate port definition with spec.containers[0].ports[0]',
      'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    ]);
  });

  it('a pod update gives no warnings, and neither does an invalid pod', async () => {
    const before = await s.request('GET', `${PODS}/warned`);
    const pod = before.json();
    pod.metadata.labels = { touched: 'yes' };
    const r = await s.request('PUT', `${PODS}/warned`, { body: json(pod) });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(warnings(r), []);
    // Invalid by the kind's own rules (a negative grace period is also warned about when valid): no warnings.
    const invalid = await s.request('POST', PODS, { body: json({ metadata: { name: 'bad' }, spec: { nodeSelector: { 'beta.platform.io/os': 'linux' }, restartPolicy: 'Sometimes', containers: [{ name: 'c', image: 'nginx' }] } }) });
    assert.equal(invalid.status, 422, invalid.body);
    assert.deepEqual(warnings(invalid), []);
  });

  it('a valid write that then fails still carries the warnings recorded before, as Kubernetes answers them', async () => {
    const pod = { metadata: { name: 'twice' }, spec: { nodeSelector: { 'beta.platform.io/os': 'linux' }, containers: [{ name: 'c', image: 'nginx' }] } };
    const first = await s.request('POST', PODS, { body: json(pod) });
    assert.equal(first.status, 201, first.body);
    const again = await s.request('POST', `${PODS}?fieldValidation=Warn`, { body: json({ ...pod, extra: 1 }) });
    assert.equal(again.status, 409, again.body);
    assert.deepEqual(warnings(again), [
      'unknown field "extra"',
      'spec.nodeSelector[beta.platform.io/os]: deprecated since v1.14; use "platform.io/os" instead',
    ]);
  });

  it('a pod whose name is not a DNS label, with a deprecated AppArmor annotation', async () => {
    const r = await s.request('POST', PODS, { body: json({
      metadata: { name: 'dotted.name', annotations: { 'container.apparmor.security.beta.platform.io/c': 'runtime/default' } },
      spec: { containers: [{ name: 'c', image: 'nginx' }] },
    }) });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(warnings(r), [
      'metadata.annotations[container.apparmor.security.beta.platform.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead',
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
    ]);
  });

  it('a Deployment warns under spec.template on create and on an update that changes its generation', async () => {
    const tpl = template({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.platform.io/zone', operator: 'Exists' }] }] } } } });
    const created = await s.request('POST', DEPLOYMENTS, { body: json(workload('web', tpl)) });
    assert.equal(created.status, 201, created.body);
    const zone = 'spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.platform.io/zone is deprecated since v1.17; use "topology.platform.io/zone" instead';
    assert.deepEqual(warnings(created), [zone]);

    const labelsOnly = await s.request('PATCH', `${DEPLOYMENTS}/web`, { body: json({ metadata: { labels: { x: 'y' } } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(labelsOnly.status, 200, labelsOnly.body);
    assert.deepEqual(warnings(labelsOnly), []);

    const replicas = await s.request('PATCH', `${DEPLOYMENTS}/web`, { body: json({ spec: { replicas: 3 } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(replicas.status, 200, replicas.body);
    assert.deepEqual(warnings(replicas), [zone]);
  });

  it('a ReplicaSet warns about its name and its template', async () => {
    const r = await s.request('POST', REPLICASETS, { body: json(workload('rs.v1', template({ imagePullSecrets: [{ name: 'x' }, { name: 'x' }] }))) });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(warnings(r), [
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
      'spec.template.spec.imagePullSecrets[1].name: duplicate name "x"',
    ]);
  });

  it('kubectl prints the warnings on stderr', async () => {
    const tpl = template({}, { 'container.apparmor.security.beta.platform.io/c': 'unconfined' });
    const manifest = json({ apiVersion: 'apps/v1', kind: 'Deployment', ...workload('kubectl-web', tpl) });
    const out = await s.kubectl(['apply', '-n', NS, '-f', '-'], manifest);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /deployment\.apps\/kubectl-web created/);
    assert.equal(out.stderr.trim(), 'Warning: spec.template.metadata.annotations[container.apparmor.security.beta.platform.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead');

    const pod = await s.kubectl(['run', 'kubectl-pod', '-n', NS, '--image=nginx', '--overrides', json({ spec: { volumes: [{ name: 'v', flocker: { datasetName: 'd' } }] } })]);
    assert.equal(pod.code, 0, pod.stderr);
    assert.equal(pod.stderr.trim(), 'Warning: spec.volumes[0].flocker: deprecated in v1.22, non-functional in v1.25+');
  });
});
