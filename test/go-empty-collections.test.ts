// Empty lists and maps as Kubernetes stores them: etcd holds built-in objects as protobuf, where `[]` and
// `{}` read back as Go's nil, answered without the field (`omitempty`) or as `null` (a field without it,
// such as a ClusterRole's rules). Whatever verb carried them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { startTestServer, type TestServer } from './support/capstan.ts';

const ROLES = '/apis/rbac.authorization.svc.io/v1/clusterroles';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const POLICIES = '/apis/networking.svc.io/v1/namespaces/default/networkpolicies';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

function deployment(name: string): Record<string, any> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels: {} },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name }, annotations: {} },
        spec: { containers: [{ name: 'c', image: 'nginx', ports: [], env: [], volumeMounts: [], args: [] }], volumes: [] },
      },
    },
  };
}

function assertNoEmptyLists(d: any, where: string): void {
  const c = d.spec.template.spec.containers[0];
  for (const f of ['ports', 'env', 'volumeMounts', 'args']) assert.equal(f in c, false, `${where}: container ${f}`);
  assert.equal('volumes' in d.spec.template.spec, false, `${where}: volumes`);
  assert.equal('labels' in d.metadata, false, `${where}: labels`);
  assert.equal('annotations' in d.spec.template.metadata, false, `${where}: template annotations`);
}

describe('empty lists and maps as Kubernetes stores them', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const send = async (method: string, path: string, body: unknown, type = 'application/json') => {
    const r = await s.request(method, path, { body: JSON.stringify(body), headers: { 'content-type': type } });
    assert.ok(r.status === 200 || r.status === 201, r.body);
    return r;
  };
  const get = async (path: string) => {
    const r = await s.request('GET', path);
    assert.equal(r.status, 200, r.body);
    return r;
  };

  it('a ClusterRole without rules, or with rules: [], answers "rules": null', async () => {
    for (const [name, extra] of [['none', {}], ['empty', { rules: [] }]] as const) {
      const created = await send('POST', ROLES, { apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: `no-rules-${name}` }, ...extra });
      assert.match(created.body, /"rules":null/, `${name}: create answer`);
      assert.equal(created.json().rules, null);
      const got = await get(`${ROLES}/no-rules-${name}`);
      assert.match(got.body, /"rules":null/, `${name}: get`);
      const listed = await get(ROLES);
      assert.equal(listed.json().items.find((r: any) => r.metadata.name === `no-rules-${name}`).rules, null, `${name}: list`);
    }
    const r = await s.kubectl(['get', 'clusterrole', 'no-rules-empty', '-o', 'json']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /"rules": null/);
    // A rule's verbs lack omitempty too: an empty list is null, which validation then requires.
    const bad = await s.request('POST', ROLES, { body: JSON.stringify({ metadata: { name: 'bad' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }] }) });
    assert.equal(bad.status, 422, bad.body);
    assert.match(bad.json().message, /rules\[0\]\.verbs: Required value/);
  });

  it('a Deployment: empty ports, env, volumeMounts, volumes and labels are absent (create, update, patch)', async () => {
    const created = await send('POST', DEPLOYMENTS, deployment('empties'));
    assertNoEmptyLists(created.json(), 'create');
    assertNoEmptyLists((await get(`${DEPLOYMENTS}/empties`)).json(), 'get');

    const current = (await get(`${DEPLOYMENTS}/empties`)).json();
    Object.assign(current.spec.template.spec.containers[0], { ports: [], env: [] });
    const updated = await send('PUT', `${DEPLOYMENTS}/empties`, current);
    assertNoEmptyLists(updated.json(), 'update');
    assert.equal(updated.json().metadata.resourceVersion, current.metadata.resourceVersion, 'nothing Go would encode changed');

    const patch = { spec: { template: { spec: { containers: [{ name: 'c', volumeMounts: [], env: [] }] } } } };
    const patched = await send('PATCH', `${DEPLOYMENTS}/empties`, patch, 'application/strategic-merge-patch+json');
    assertNoEmptyLists(patched.json(), 'strategic merge patch');
    assert.equal(patched.json().metadata.resourceVersion, current.metadata.resourceVersion);
  });

  it('a NetworkPolicy with ingress: [] has no ingress, and policyTypes default to Ingress', async () => {
    const created = await send('POST', POLICIES, {
      apiVersion: 'networking.svc.io/v1', kind: 'NetworkPolicy', metadata: { name: 'deny' },
      spec: { podSelector: {}, ingress: [], egress: [] },
    });
    const spec = created.json().spec;
    assert.equal('ingress' in spec, false);
    assert.equal('egress' in spec, false);
    assert.deepEqual(spec.policyTypes, ['Ingress']);
    assert.deepEqual(spec.podSelector, {}, 'a struct, not a map: kept');
  });

  it('a ConfigMap with data: {} has no data', async () => {
    const created = await send('POST', CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'empty', finalizers: [] }, data: {}, binaryData: {} });
    assert.deepEqual(Object.keys(created.json()).sort(), ['apiVersion', 'kind', 'metadata']);
    assert.equal('finalizers' in created.json().metadata, false);
  });

  it('server-side apply of empty lists: stored as Kubernetes does, and applying again changes nothing', async () => {
    const role = YAML.stringify({ apiVersion: 'rbac.authorization.svc.io/v1', kind: 'ClusterRole', metadata: { name: 'applied' }, rules: [] });
    const first = await s.kubectl(['apply', '--server-side', '--field-manager=first', '-f', '-', '-o', 'json'], role);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(JSON.parse(first.stdout).rules, null);
    const again = await s.kubectl(['apply', '--server-side', '--field-manager=first', '-f', '-', '-o', 'json'], role);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(JSON.parse(again.stdout).metadata.resourceVersion, JSON.parse(first.stdout).metadata.resourceVersion);

    const manifest = YAML.stringify(deployment('ssa'));
    const applied = await s.kubectl(['apply', '--server-side', '--field-manager=first', '-f', '-', '-o', 'json'], manifest);
    assert.equal(applied.code, 0, applied.stderr);
    assertNoEmptyLists(JSON.parse(applied.stdout), 'server-side apply');
    const reapplied = await s.kubectl(['apply', '--server-side', '--field-manager=first', '-f', '-', '-o', 'json'], manifest);
    assert.equal(reapplied.code, 0, reapplied.stderr);
    assert.equal(JSON.parse(reapplied.stdout).metadata.resourceVersion, JSON.parse(applied.stdout).metadata.resourceVersion);
    // Another manager applying the object without the empty lists (what the first stored): no conflict.
    const plain = deployment('ssa');
    delete plain.metadata.labels;
    delete plain.spec.template.metadata.annotations;
    delete plain.spec.template.spec.volumes;
    plain.spec.template.spec.containers = [{ name: 'c', image: 'nginx' }];
    const other = await s.kubectl(['apply', '--server-side', '--field-manager=second', '-f', '-', '-o', 'json'], YAML.stringify(plain));
    assert.equal(other.code, 0, other.stderr);
    assertNoEmptyLists(JSON.parse(other.stdout), 'second applier');

    // kubectl's client-side apply, twice: the second finds nothing to store.
    const cm = YAML.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'csa' }, data: {} });
    assert.equal((await s.kubectl(['apply', '-f', '-'], cm)).code, 0);
    const rv = (await get(`${CONFIGMAPS}/csa`)).json().metadata.resourceVersion;
    assert.equal((await s.kubectl(['apply', '-f', '-'], cm)).code, 0);
    assert.equal((await get(`${CONFIGMAPS}/csa`)).json().metadata.resourceVersion, rv);
  });
});
