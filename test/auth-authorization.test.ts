// Authorization end to end: RBAC with its defaults, bindings, resource names, sub-resources, non-resource
// URLs, aggregation and escalation prevention; the Node authorizer's limits; AlwaysAllow, AlwaysDeny and
// ABAC; the access review APIs.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { admin, eventually, kubectlAs, requestAs, tempFile, userCertificate, type Credentials } from './support/auth.ts';

const RBAC = 'rbac.authorization.svc.io';
const bob: Credentials = { token: 'token-bob' };
const carol: Credentials = { token: 'token-carol' };
const TOKENS = 'token-bob,bob,1\ntoken-carol,carol,2,"auditors"\n';

async function apply(s: TestServer, yaml: string): Promise<void> {
  const r = await s.kubectl(['apply', '-f', '-'], yaml);
  assert.equal(r.code, 0, r.stderr);
}

function forbiddenMessage(r: { status: number; body: string }): string {
  assert.equal(r.status, 403, r.body);
  return JSON.parse(r.body).message;
}

describe('RBAC', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ access: { tokenAuthFile: await tempFile('tokens.csv', TOKENS) } });
    await s.kubectl(['create', 'namespace', 'team']);
  });
  after(() => s.stop());

  test('the default cluster roles and bindings exist', async () => {
    const roles = (await requestAs(s, admin(s), 'GET', `/apis/${RBAC}/v1/clusterroles`)).json().items.map((r: any) => r.metadata.name);
    for (const name of ['cluster-admin', 'admin', 'edit', 'view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer', 'system:node', 'system:auth-delegator', 'system:aggregate-to-view']) {
      assert.ok(roles.includes(name), name);
    }
    const masters = (await requestAs(s, admin(s), 'GET', `/apis/${RBAC}/v1/clusterrolebindings/cluster-admin`)).json();
    assert.deepEqual(masters.subjects, [{ kind: 'Group', apiGroup: RBAC, name: 'system:masters' }]);
    assert.equal(masters.metadata.labels['platform.io/bootstrapping'], 'rbac-defaults');
    const view = (await requestAs(s, admin(s), 'GET', `/apis/${RBAC}/v1/clusterroles/view`)).json();
    assert.ok(view.rules.some((r: any) => r.resources.includes('configmaps') && r.verbs.includes('list')), 'view is aggregated');
  });

  test('no binding, no access: Kubernetes\' messages for resources and paths', async () => {
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', '/api/v1/namespaces/team/configmaps')),
      'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "team"');
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', '/api/v1/namespaces/team/configmaps/x')),
      'configmaps "x" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "team"');
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', '/api/v1/nodes')),
      'nodes is forbidden: User "bob" cannot list resource "nodes" in API group "" at the cluster scope');
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', `/apis/${RBAC}/v1/clusterroles`)),
      `clusterroles.${RBAC} is forbidden: User "bob" cannot list resource "clusterroles" in API group "${RBAC}" at the cluster scope`);
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', '/healthz/ping')), 'forbidden: User "bob" cannot get path "/healthz/ping"');
    // Discovery and health are every authenticated user's.
    assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 200);
    assert.equal((await requestAs(s, bob, 'GET', '/readyz')).status, 200);
    const get = await kubectlAs(s, bob, ['get', 'configmaps', '-n', 'team']);
    assert.equal(get.code, 1);
    assert.match(get.stderr, /Error from server \(Forbidden\): configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "team"/);
  });

  test('role bindings grant in their namespace; names, sub-resources, wildcards and URLs match as Kubernetes does', async () => {
    await s.kubectl(['create', 'configmap', 'app-config', '-n', 'team', '--from-literal=a=1']);
    await s.kubectl(['create', 'configmap', 'other', '-n', 'team', '--from-literal=a=1']);
    await s.kubectl(['create', 'serviceaccount', 'robot', '-n', 'team']);
    await apply(s, `
apiVersion: ${RBAC}/v1
kind: Role
metadata: {name: reader, namespace: team}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [list, watch]}
- {apiGroups: [""], resources: [configmaps], resourceNames: [app-config], verbs: ["*"]}
- {apiGroups: [""], resources: [serviceaccounts/token], verbs: [create]}
---
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: {name: bob-reads, namespace: team}
roleRef: {apiGroup: ${RBAC}, kind: Role, name: reader}
subjects: [{apiGroup: ${RBAC}, kind: User, name: bob}]
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: {name: health-details}
rules: [{nonResourceURLs: ["/healthz/*"], verbs: [get]}]
---
apiVersion: ${RBAC}/v1
kind: ClusterRoleBinding
metadata: {name: auditors-health}
roleRef: {apiGroup: ${RBAC}, kind: ClusterRole, name: health-details}
subjects: [{apiGroup: ${RBAC}, kind: Group, name: auditors}]
`);
    assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/team/configmaps')).status, 200);
    assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/team/configmaps/app-config')).status, 200);
    assert.equal((await requestAs(s, bob, 'DELETE', '/api/v1/namespaces/team/configmaps/app-config', undefined, { 'content-length': '0' })).status, 200);
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', '/api/v1/namespaces/team/configmaps/other')),
      'configmaps "other" is forbidden: User "bob" cannot get resource "configmaps" in API group "" in the namespace "team"');
    assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/configmaps')).status, 403);
    // The token sub-resource is granted apart from the service account itself.
    assert.equal((await requestAs(s, bob, 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { spec: {} })).status, 201);
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', '/api/v1/namespaces/team/serviceaccounts/robot')),
      'serviceaccounts "robot" is forbidden: User "bob" cannot get resource "serviceaccounts" in API group "" in the namespace "team"');
    assert.equal(forbiddenMessage(await requestAs(s, carol, 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { spec: {} })),
      'serviceaccounts "robot" is forbidden: User "carol" cannot create resource "serviceaccounts/token" in API group "" in the namespace "team"');
    // A non-resource URL rule for a group.
    assert.equal((await requestAs(s, carol, 'GET', '/healthz/ping')).status, 200);
    assert.equal((await requestAs(s, bob, 'GET', '/healthz/ping')).status, 403);
    // kubectl sees the same.
    const cm = await kubectlAs(s, bob, ['get', 'configmaps', '-n', 'team', '-o', 'name']);
    assert.equal(cm.code, 0, cm.stderr);
    assert.match(cm.stdout, /configmap\/other/);
    const can = await kubectlAs(s, bob, ['auth', 'can-i', 'delete', 'configmaps/other', '-n', 'team']);
    assert.equal(can.stdout.trim(), 'no');
  });

  test('service accounts bound by a role binding; the admin cluster role through a binding', async () => {
    const token = (await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', { spec: {} })).json().status.token;
    const robot = { token };
    assert.equal((await requestAs(s, robot, 'GET', '/api/v1/namespaces/team/secrets')).status, 403);
    await apply(s, `
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: {name: robot-admin, namespace: team}
roleRef: {apiGroup: ${RBAC}, kind: ClusterRole, name: admin}
subjects: [{kind: ServiceAccount, name: robot}]
`);
    assert.equal((await requestAs(s, robot, 'GET', '/api/v1/namespaces/team/secrets')).status, 200);
    assert.equal((await requestAs(s, robot, 'GET', '/api/v1/namespaces/default/secrets')).status, 403);
    const sar = await kubectlAs(s, robot, ['auth', 'can-i', 'create', 'rolebindings.rbac.authorization.svc.io', '-n', 'team']);
    assert.equal(sar.stdout.trim(), 'yes');
  });

  test('escalation: roles and bindings may grant only what their author holds, unless escalate or bind allow it', async () => {
    await s.kubectl(['create', 'namespace', 'esc']);
    await apply(s, `
apiVersion: ${RBAC}/v1
kind: Role
metadata: {name: role-manager, namespace: esc}
rules:
- {apiGroups: [${RBAC}], resources: [roles, rolebindings], verbs: [create, get, list, update, delete]}
- {apiGroups: [""], resources: [configmaps], verbs: [get]}
---
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: {name: carol-manages, namespace: esc}
roleRef: {apiGroup: ${RBAC}, kind: Role, name: role-manager}
subjects: [{apiGroup: ${RBAC}, kind: User, name: carol}]
`);
    const role = (name: string, rules: object[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace: 'esc' }, rules });
    const held = await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/namespaces/esc/roles`, role('cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
    assert.equal(held.status, 201, held.body);
    const escalating = await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/namespaces/esc/roles`, role('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }, { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }]));
    assert.equal(forbiddenMessage(escalating),
      `roles.${RBAC} "secret-reader" is forbidden: user "carol" (groups=["auditors" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`);
    // Updating a role to grant more is refused the same way.
    const update = await requestAs(s, carol, 'PUT', `/apis/${RBAC}/v1/namespaces/esc/roles/cm-reader`, role('cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'delete'] }]));
    assert.equal(update.status, 403);
    // Binding a role with more than carol holds is refused; bind permission on that role allows it.
    const binding = { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'dave-views', namespace: 'esc' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'dave' }] };
    const bindRefused = await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/namespaces/esc/rolebindings`, binding);
    assert.match(forbiddenMessage(bindRefused), new RegExp(`^rolebindings\\.${RBAC.replace(/\./g, '\\.')} "dave-views" is forbidden: user "carol" \\(groups=\\["auditors" "system:authenticated"\\]\\) is attempting to grant RBAC permissions not currently held:\\n`));
    const missingRole = await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/namespaces/esc/rolebindings`, { ...binding, metadata: { name: 'x', namespace: 'esc' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'nope' } });
    // Kubernetes reads the role from its registry: a missing one is that registry's NotFound.
    assert.equal(missingRole.status, 404, missingRole.body);
    assert.deepEqual(missingRole.json().details, { name: 'nope', group: RBAC, kind: 'roles' });
    assert.equal(missingRole.json().message, `roles.${RBAC} "nope" not found`);
    const held2 = await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/namespaces/esc/rolebindings`, { ...binding, metadata: { name: 'dave-cm', namespace: 'esc' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'cm-reader' } });
    assert.equal(held2.status, 201, held2.body);
    await apply(s, `
apiVersion: ${RBAC}/v1
kind: Role
metadata: {name: binder, namespace: esc}
rules:
- {apiGroups: [${RBAC}], resources: [clusterroles], resourceNames: [view], verbs: [bind]}
- {apiGroups: [${RBAC}], resources: [roles], verbs: [escalate]}
---
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: {name: carol-binds, namespace: esc}
roleRef: {apiGroup: ${RBAC}, kind: Role, name: binder}
subjects: [{apiGroup: ${RBAC}, kind: User, name: carol}]
`);
    assert.equal((await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/namespaces/esc/rolebindings`, binding)).status, 201);
    assert.equal((await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/namespaces/esc/roles`, role('secret-reader', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }]))).status, 201);
    // system:masters may grant anything.
    assert.equal((await requestAs(s, admin(s), 'POST', `/apis/${RBAC}/v1/namespaces/esc/roles`, role('all', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]))).status, 201);
  });

  test('aggregation: a cluster role labelled aggregate-to-view adds its rules to view, edit and admin', async () => {
    await apply(s, `
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata:
  name: widgets-view
  labels: {rbac.authorization.platform.io/aggregate-to-view: "true"}
rules: [{apiGroups: [example.com], resources: [widgets], verbs: [get, list]}]
`);
    const hasWidgets = async (name: string) => ((await requestAs(s, admin(s), 'GET', `/apis/${RBAC}/v1/clusterroles/${name}`)).json().rules ?? []).some((r: any) => r.resources?.includes('widgets'));
    await eventually(async () => (await hasWidgets('view')) && (await hasWidgets('edit')) && (await hasWidgets('admin')));
    // A direct change of an aggregated role's rules is put back by the controller.
    const view = (await requestAs(s, admin(s), 'GET', `/apis/${RBAC}/v1/clusterroles/view`)).json();
    await requestAs(s, admin(s), 'PUT', `/apis/${RBAC}/v1/clusterroles/view`, { ...view, rules: [] });
    await eventually(() => hasWidgets('view'));
  });
});

describe('default policy reconciliation across restarts', () => {
  test('missing default permissions come back, additions stay, autoupdate=false is respected', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-rbac-'));
    try {
      let s = await startTestServer({ inMemory: false, dataDir });
      const path = `/apis/${RBAC}/v1/clusterroles/system:basic-user`;
      const role = (await requestAs(s, admin(s), 'GET', path)).json();
      role.rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }];
      assert.equal((await requestAs(s, admin(s), 'PUT', path, role)).status, 200);
      const discovery = (await requestAs(s, admin(s), 'GET', `/apis/${RBAC}/v1/clusterroles/system:discovery`)).json();
      discovery.metadata.annotations['rbac.authorization.platform.io/autoupdate'] = 'false';
      discovery.rules = [];
      assert.equal((await requestAs(s, admin(s), 'PUT', `/apis/${RBAC}/v1/clusterroles/system:discovery`, discovery)).status, 200);
      await s.stop();

      s = await startTestServer({ inMemory: false, dataDir });
      const after = (await requestAs(s, admin(s), 'GET', path)).json();
      assert.ok(after.rules.some((r: any) => r.resources.includes('configmaps')), 'the addition stays');
      assert.ok(after.rules.some((r: any) => r.resources.includes('selfsubjectaccessreviews')), 'the default rule is back');
      assert.deepEqual((await requestAs(s, admin(s), 'GET', `/apis/${RBAC}/v1/clusterroles/system:discovery`)).json().rules ?? [], []);
      await s.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('Node authorizer', () => {
  let s: TestServer;
  let n1: Credentials;
  before(async () => {
    s = await startTestServer();
    n1 = await userCertificate(s, 'system:node:n1', ['system:nodes']);
    for (const name of ['n1', 'n2']) await requestAs(s, admin(s), 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name } });
    await s.kubectl(['create', 'secret', 'generic', 'used', '-n', 'default', '--from-literal=a=b']);
    await s.kubectl(['create', 'secret', 'generic', 'unused', '-n', 'default', '--from-literal=a=b']);
    // The account pods run as (the service account controller is off in API tests).
    await s.kubectl(['create', 'serviceaccount', 'default', '-n', 'default']);
  });
  after(() => s.stop());

  test('a node reads and writes its own Node, not another', async () => {
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/nodes/n1')).status, 200);
    const node = (await requestAs(s, n1, 'GET', '/api/v1/nodes/n1')).json();
    node.metadata.labels = { ready: 'yes' };
    assert.equal((await requestAs(s, n1, 'PUT', '/api/v1/nodes/n1', node)).status, 200);
    assert.equal(forbiddenMessage(await requestAs(s, n1, 'GET', '/api/v1/nodes/n2')),
      'nodes "n2" is forbidden: User "system:node:n1" cannot get resource "nodes" in API group "" at the cluster scope: can only access the node with the same name as the requesting node');
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dn1')).status, 200);
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/nodes')).status, 403);
    assert.equal((await requestAs(s, n1, 'DELETE', '/api/v1/nodes/n1')).status, 403);
    const create = await requestAs(s, n1, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n3' } });
    assert.equal(forbiddenMessage(create), 'nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"');
  });

  test('a node holds its own lease in kube-node-lease only', async () => {
    const lease = (name: string) => ({ apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec: { holderIdentity: name } });
    assert.equal((await requestAs(s, n1, 'POST', '/apis/coordination.svc.io/v1/namespaces/kube-node-lease/leases', lease('n1'))).status, 201);
    assert.equal((await requestAs(s, n1, 'GET', '/apis/coordination.svc.io/v1/namespaces/kube-node-lease/leases/n1')).status, 200);
    assert.equal(forbiddenMessage(await requestAs(s, n1, 'POST', '/apis/coordination.svc.io/v1/namespaces/kube-node-lease/leases', lease('n2'))),
      'leases.coordination.svc.io "n2" is forbidden: can only access node lease with the same name as the requesting node');
    await requestAs(s, admin(s), 'POST', '/apis/coordination.svc.io/v1/namespaces/kube-node-lease/leases', lease('n2'));
    assert.equal((await requestAs(s, n1, 'GET', '/apis/coordination.svc.io/v1/namespaces/kube-node-lease/leases/n2')).status, 403);
    assert.equal((await requestAs(s, n1, 'GET', '/apis/coordination.svc.io/v1/namespaces/default/leases/n1')).status, 403);
  });

  test('a node reads only the secrets its pods use, and nothing else', async () => {
    assert.equal(forbiddenMessage(await requestAs(s, n1, 'GET', '/api/v1/namespaces/default/secrets/used')),
      `secrets "used" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`);
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/namespaces/default/configmaps')).status, 403);
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/namespaces')).status, 403);
    const pods = await requestAs(s, admin(s), 'GET', '/api/v1/namespaces/default/pods');
    if (pods.status !== 200) return; // Pods are not served by this build: the pod relationship is covered by unit tests.
    const created = await requestAs(s, admin(s), 'POST', '/api/v1/namespaces/default/pods', {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' },
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }], volumes: [{ name: 's', secret: { secretName: 'used' } }] },
    });
    assert.equal(created.status, 201, created.body);
    await eventually(async () => (await requestAs(s, n1, 'GET', '/api/v1/namespaces/default/secrets/used')).status === 200);
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/namespaces/default/pods/web')).status, 200);
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1')).status, 200);
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/pods')).status, 403);
    assert.equal((await requestAs(s, n1, 'GET', '/api/v1/namespaces/default/secrets/unused')).status, 403);
    assert.equal((await requestAs(s, n1, 'PUT', '/api/v1/namespaces/default/secrets/used', { metadata: { name: 'used' } })).status, 403);
    const n2 = await userCertificate(s, 'system:node:n2', ['system:nodes']);
    assert.equal((await requestAs(s, n2, 'GET', '/api/v1/namespaces/default/secrets/used')).status, 403);
  });
});

describe('AlwaysAllow, AlwaysDeny and the system:masters bypass', () => {
  test('AlwaysAllow lets everyone do everything', async () => {
    const s = await startTestServer({ access: { modes: ['AlwaysAllow'], tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/kube-system/secrets')).status, 200);
      assert.equal((await requestAs(s, {}, 'GET', '/api/v1/namespaces')).status, 200);
    } finally { await s.stop(); }
  });

  test('AlwaysDeny refuses everyone but system:masters; it gives no opinion, so a later authorizer may allow', async () => {
    const s = await startTestServer({ access: { modes: ['AlwaysDeny'], tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal(forbiddenMessage(await requestAs(s, bob, 'GET', '/api/v1/namespaces')),
        'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope: Everything is forbidden.');
      assert.equal((await requestAs(s, {}, 'GET', '/healthz')).status, 403);
      assert.equal((await requestAs(s, admin(s), 'GET', '/api/v1/namespaces')).status, 200);
      assert.equal((await s.kubectl(['get', 'namespaces'])).code, 0);
    } finally { await s.stop(); }
    const chain = await startTestServer({ access: { modes: ['AlwaysDeny', 'RBAC'], tokenAuthFile: await tempFile('t.csv', TOKENS) } });
    try {
      assert.equal((await requestAs(chain, bob, 'GET', '/apis')).status, 200);
      assert.equal((await requestAs(chain, bob, 'GET', '/api/v1/namespaces')).status, 403);
    } finally { await chain.stop(); }
  });

  test('bad --authorization-mode values are start-up errors', async () => {
    await assert.rejects(startTestServer({ access: { modes: ['RBAC', 'Magic'] } }), /authorization-mode "Magic" is not a valid mode/);
    await assert.rejects(startTestServer({ access: { modes: ['RBAC', 'RBAC'] } }), /authorization-mode "RBAC" has mode specified more than once/);
    await assert.rejects(startTestServer({ access: { modes: ['ABAC'] } }), /authorization-mode ABAC's authorization policy file not passed/);
    await assert.rejects(startTestServer({ access: { modes: ['Webhook'] } }), /authorization-mode Webhook's authorization config file not passed/);
  });
});

describe('ABAC', () => {
  let s: TestServer;
  before(async () => {
    const policy = [
      `{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"user": "bob", "namespace": "*", "resource": "configmaps", "apiGroup": "", "readonly": true}}`,
      `{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"group": "auditors", "nonResourcePath": "/healthz/*", "readonly": true}}`,
      `{"apiVersion": "abac.authorization.platform.io/v1beta1", "kind": "Policy", "spec": {"group": "system:authenticated", "nonResourcePath": "*", "readonly": true}}`,
    ].join('\n');
    s = await startTestServer({ access: { modes: ['ABAC'], policyFile: await tempFile('policy.jsonl', policy), tokenAuthFile: await tempFile('t.csv', TOKENS) } });
  });
  after(() => s.stop());

  test('policies allow by user, group, read-only and path; anything else has no policy', async () => {
    assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
    assert.equal(forbiddenMessage(await requestAs(s, bob, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'x' } })),
      'configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default": No policy matched.');
    assert.equal((await requestAs(s, bob, 'GET', '/api/v1/namespaces/default/secrets')).status, 403);
    assert.equal((await requestAs(s, carol, 'GET', '/healthz/ping')).status, 200);
    assert.equal((await requestAs(s, bob, 'GET', '/apis')).status, 200);
    assert.equal((await requestAs(s, {}, 'GET', '/apis')).status, 403);
  });
});

describe('access reviews', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ access: { tokenAuthFile: await tempFile('tokens.csv', TOKENS) } });
    await s.kubectl(['create', 'namespace', 'team']);
    await apply(s, `
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: {name: bob-edits, namespace: team}
roleRef: {apiGroup: ${RBAC}, kind: ClusterRole, name: edit}
subjects: [{apiGroup: ${RBAC}, kind: User, name: bob}]
`);
  });
  after(() => s.stop());

  const review = (who: Credentials, kind: string, body: object, ns?: string) => {
    const plural = `${kind.toLowerCase()}s`;
    const path = ns ? `/apis/authorization.svc.io/v1/namespaces/${ns}/${plural}` : `/apis/authorization.svc.io/v1/${plural}`;
    return requestAs(s, who, 'POST', path, { apiVersion: 'authorization.svc.io/v1', kind, ...body });
  };

  test('SubjectAccessReview answers for any user from the same authorizers', async () => {
    const allowed = await review(admin(s), 'SubjectAccessReview', { spec: { user: 'bob', resourceAttributes: { namespace: 'team', verb: 'create', resource: 'configmaps' } } });
    assert.equal(allowed.status, 201);
    assert.deepEqual(allowed.json().status, { allowed: true, reason: `RBAC: allowed by RoleBinding "bob-edits/team" of ClusterRole "edit" to User "bob"` });
    assert.equal(allowed.json().kind, 'SubjectAccessReview');
    const denied = (await review(admin(s), 'SubjectAccessReview', { spec: { user: 'bob', resourceAttributes: { namespace: 'default', verb: 'get', resource: 'configmaps' } } })).json().status;
    assert.deepEqual(denied, { allowed: false });
    const masters = (await review(admin(s), 'SubjectAccessReview', { spec: { user: 'x', groups: ['system:masters'], nonResourceAttributes: { path: '/anything', verb: 'delete' } } })).json().status;
    assert.equal(masters.allowed, true);
    const invalid = await review(admin(s), 'SubjectAccessReview', { spec: { resourceAttributes: { verb: 'get' } } });
    assert.equal(invalid.status, 422);
    assert.equal(invalid.json().message, 'SubjectAccessReview.authorization.svc.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified');
    const neither = await review(admin(s), 'SubjectAccessReview', { spec: { user: 'bob' } });
    assert.equal(neither.json().message, 'SubjectAccessReview.authorization.svc.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
    assert.equal(forbiddenMessage(await review(bob, 'SubjectAccessReview', { spec: { user: 'bob', nonResourceAttributes: { path: '/', verb: 'get' } } })),
      'subjectaccessreviews.authorization.svc.io is forbidden: User "bob" cannot create resource "subjectaccessreviews" in API group "authorization.svc.io" at the cluster scope');
    assert.equal((await requestAs(s, admin(s), 'GET', '/apis/authorization.svc.io/v1/subjectaccessreviews')).status, 405);
  });

  test('SelfSubjectAccessReview and kubectl auth can-i answer for the caller', async () => {
    const mine = (await review(bob, 'SelfSubjectAccessReview', { spec: { resourceAttributes: { namespace: 'team', verb: 'delete', resource: 'secrets' } } })).json();
    assert.equal(mine.status.allowed, true);
    assert.equal((await review(bob, 'SelfSubjectAccessReview', { spec: { resourceAttributes: { namespace: 'team', verb: 'create', resource: 'roles', group: RBAC } } })).json().status.allowed, false);
    const yes = await kubectlAs(s, bob, ['auth', 'can-i', 'create', 'configmaps', '-n', 'team']);
    assert.equal(yes.stdout.trim(), 'yes');
    const no = await kubectlAs(s, bob, ['auth', 'can-i', 'get', 'nodes']);
    assert.equal(no.stdout.trim(), 'no');
    assert.equal(no.code, 1);
    const asBob = await s.kubectl(['auth', 'can-i', 'list', 'secrets', '-n', 'team', '--as', 'bob']);
    assert.equal(asBob.stdout.trim(), 'yes');
  });

  test('LocalSubjectAccessReview is limited to its namespace', async () => {
    const ok = await review(admin(s), 'LocalSubjectAccessReview', { metadata: { namespace: 'team' }, spec: { user: 'bob', resourceAttributes: { namespace: 'team', verb: 'list', resource: 'pods' } } }, 'team');
    assert.equal(ok.status, 201, ok.body);
    assert.equal(ok.json().status.allowed, true);
    const mismatch = await review(admin(s), 'LocalSubjectAccessReview', { spec: { user: 'bob', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } } }, 'team');
    assert.equal(mismatch.status, 422);
    assert.equal(mismatch.json().message, 'LocalSubjectAccessReview.authorization.svc.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "default": must match metadata.namespace');
    const nonResource = await review(admin(s), 'LocalSubjectAccessReview', { spec: { user: 'bob', nonResourceAttributes: { path: '/', verb: 'get' } } }, 'team');
    assert.match(nonResource.json().message, /spec.nonResourceAttributes: Invalid value: .*disallowed on this kind of request/);
  });

  test('SelfSubjectRulesReview lists what the caller may do', async () => {
    const r = await review(bob, 'SelfSubjectRulesReview', { spec: { namespace: 'team' } });
    assert.equal(r.status, 201);
    const st = r.json().status;
    assert.equal(st.incomplete, false);
    assert.ok(st.resourceRules.some((x: any) => x.resources.includes('configmaps') && x.verbs.includes('create')));
    assert.ok(st.resourceRules.some((x: any) => x.resources.includes('selfsubjectaccessreviews')));
    assert.ok(st.nonResourceRules.some((x: any) => x.nonResourceURLs.includes('/healthz')));
    const list = await kubectlAs(s, bob, ['auth', 'can-i', '--list', '-n', 'team']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /\nconfigmaps\s+\[\]\s+\[\]\s+\[create update patch delete deletecollection get list watch\]\n/);
  });
});
