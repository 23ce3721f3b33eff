// RBAC escalation prevention compared with Kubernetes v1.32 (pkg/registry/rbac/*/policybased,
// pkg/registry/rbac/validation): the missing permissions a refusal lists, `escalate` limited to names, the
// aggregation rule, updates that only touch what the garbage collector maintains, and the registry errors a
// binding to an unusable role reference meets.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { admin, requestAs, tempFile, type Credentials } from './support/auth.ts';

const RBAC = 'rbac.authorization.svc.io';
const carol: Credentials = { token: 'token-carol' };
const WRITE = '[get, list, create, update, patch, delete]';
const prefix = `user "carol" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n`;

function forbiddenMessage(r: { status: number; body: string }): string {
  assert.equal(r.status, 403, r.body);
  return JSON.parse(r.body).message;
}

describe('sweep 6: RBAC escalation checks', () => {
  let s: TestServer;
  const roles = `/apis/${RBAC}/v1/namespaces/esc/roles`;
  const clusterRoles = `/apis/${RBAC}/v1/clusterroles`;
  const role = (name: string, rules: object[]) => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace: 'esc' }, rules });
  const clusterRole = (name: string, extra: object) => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, ...extra });

  before(async () => {
    s = await startTestServer({ access: { tokenAuthFile: await tempFile('tokens.csv', 'token-carol,carol,2\n') } });
    assert.equal((await s.kubectl(['create', 'namespace', 'esc'])).code, 0);
    // carol manages roles and bindings without `*` (which would include escalate and bind), may escalate
    // only the role named "named", may bind any cluster role, and reads config maps.
    const r = await s.kubectl(['apply', '-f', '-'], `
apiVersion: ${RBAC}/v1
kind: Role
metadata: {name: manager, namespace: esc}
rules:
- {apiGroups: [${RBAC}], resources: [roles, rolebindings], verbs: ${WRITE}}
- {apiGroups: [${RBAC}], resources: [roles], resourceNames: [named], verbs: [escalate]}
- {apiGroups: [""], resources: [configmaps], verbs: [get]}
---
apiVersion: ${RBAC}/v1
kind: RoleBinding
metadata: {name: carol, namespace: esc}
roleRef: {apiGroup: ${RBAC}, kind: Role, name: manager}
subjects: [{apiGroup: ${RBAC}, kind: User, name: carol}]
---
apiVersion: ${RBAC}/v1
kind: ClusterRole
metadata: {name: cluster-manager}
rules:
- {apiGroups: [${RBAC}], resources: [clusterroles, clusterrolebindings], verbs: ${WRITE}}
- {apiGroups: [${RBAC}], resources: [clusterroles], verbs: [bind]}
---
apiVersion: ${RBAC}/v1
kind: ClusterRoleBinding
metadata: {name: carol}
roleRef: {apiGroup: ${RBAC}, kind: ClusterRole, name: cluster-manager}
subjects: [{apiGroup: ${RBAC}, kind: User, name: carol}]
`);
    assert.equal(r.code, 0, r.stderr);
  });
  after(() => s.stop());

  test('missing permissions are compacted as Kubernetes does: one name per simple rule, verbs as they come', async () => {
    const named = await requestAs(s, carol, 'POST', roles, role('one-secret', [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['x'], verbs: ['get', 'list'] }]));
    assert.equal(forbiddenMessage(named), `roles.${RBAC} "one-secret" is forbidden: ${prefix}{APIGroups:[""], Resources:["secrets"], ResourceNames:["x"], Verbs:["get" "list"]}`);
    // Two names stay apart; several names in one rule are broken down to one each.
    const two = await requestAs(s, carol, 'POST', roles, role('two-secrets', [{ apiGroups: [''], resources: ['secrets'], resourceNames: ['x', 'y'], verbs: ['get'] }]));
    assert.equal(forbiddenMessage(two), `roles.${RBAC} "two-secrets" is forbidden: ${prefix}`
      + '{APIGroups:[""], Resources:["secrets"], ResourceNames:["x"], Verbs:["get"]}\n{APIGroups:[""], Resources:["secrets"], ResourceNames:["y"], Verbs:["get"]}');
    // A verb asked for twice is listed twice, as Kubernetes' CompactRules appends without removing repeats.
    const twice = await requestAs(s, carol, 'POST', roles, role('twice', [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }, { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }]));
    assert.equal(forbiddenMessage(twice), `roles.${RBAC} "twice" is forbidden: ${prefix}{APIGroups:[""], Resources:["secrets"], Verbs:["get" "get" "list"]}`);
  });

  test('escalate limited to a name allows updating that role, never creating it (a create has no request name)', async () => {
    const grant = [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];
    const create = await requestAs(s, carol, 'POST', roles, role('named', grant));
    assert.equal(forbiddenMessage(create), `roles.${RBAC} "named" is forbidden: ${prefix}{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`);
    assert.equal((await requestAs(s, admin(s), 'POST', roles, role('named', []))).status, 201);
    const update = await requestAs(s, carol, 'PUT', `${roles}/named`, role('named', grant));
    assert.equal(update.status, 200, update.body);
    assert.deepEqual(update.json().rules, grant);
    // Another name is refused on update too.
    assert.equal((await requestAs(s, admin(s), 'POST', roles, role('other', []))).status, 201);
    assert.equal((await requestAs(s, carol, 'PUT', `${roles}/other`, role('other', grant))).status, 403);
  });

  test('an aggregation rule needs full authority to set or to drop; one without selectors is only invalid', async () => {
    const empty = await requestAs(s, carol, 'POST', clusterRoles, clusterRole('no-selectors', { aggregationRule: { clusterRoleSelectors: [] } }));
    assert.equal(empty.status, 422, empty.body);
    assert.equal(empty.json().message, `ClusterRole.${RBAC} "no-selectors" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`);
    const set = await requestAs(s, carol, 'POST', clusterRoles, clusterRole('gathers', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { pick: 'me' } }] } }));
    assert.equal(forbiddenMessage(set), `clusterroles.${RBAC} "gathers" is forbidden: must have cluster-admin privileges to use the aggregationRule`);
    assert.equal((await requestAs(s, admin(s), 'POST', clusterRoles, clusterRole('gathers', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { pick: 'me' } }] } }))).status, 201);
    const current = (await requestAs(s, carol, 'GET', `${clusterRoles}/gathers`)).json();
    const dropped = await requestAs(s, carol, 'PUT', `${clusterRoles}/gathers`, { ...current, aggregationRule: null });
    assert.equal(forbiddenMessage(dropped), `clusterroles.${RBAC} "gathers" is forbidden: must have cluster-admin privileges to use the aggregationRule`);
  });

  test('an update touching only finalizers or owner references is not checked; one without resourceVersion is', async () => {
    assert.equal((await requestAs(s, admin(s), 'POST', clusterRoles, clusterRole('powerful', { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] }))).status, 201);
    // The role is stored without `rules` key order or empty fields mattering: the comparison is semantic.
    const current = (await requestAs(s, carol, 'GET', `${clusterRoles}/powerful`)).json();
    const finalizers = { ...current, metadata: { ...current.metadata, finalizers: ['example.com/keep'] } };
    const kept = await requestAs(s, carol, 'PUT', `${clusterRoles}/powerful`, finalizers);
    assert.equal(kept.status, 200, kept.body);
    assert.deepEqual(kept.json().metadata.finalizers, ['example.com/keep']);
    const { resourceVersion: _rv, ...unconditional } = kept.json().metadata;
    const refused = await requestAs(s, carol, 'PUT', `${clusterRoles}/powerful`, { ...kept.json(), metadata: { ...unconditional, finalizers: [] } });
    assert.match(forbiddenMessage(refused), new RegExp(`^clusterroles\\.${RBAC.replace(/\./g, '\\.')} "powerful" is forbidden: user "carol"`));
    const labelled = { ...kept.json(), metadata: { ...kept.json().metadata, labels: { a: 'b' } } };
    assert.equal((await requestAs(s, carol, 'PUT', `${clusterRoles}/powerful`, labelled)).status, 403);
    const patched = await requestAs(s, carol, 'PATCH', `${clusterRoles}/powerful`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
    assert.equal(patched.status, 200, patched.body);
    assert.equal(patched.json().metadata.finalizers, undefined);
  });

  test('a binding whose role reference cannot be read answers the registry\'s error', async () => {
    const binding = (kind: string, roleRef: object) => ({ apiVersion: `${RBAC}/v1`, kind, metadata: { name: 'odd', ...(kind === 'RoleBinding' ? { namespace: 'esc' } : {}) }, roleRef, subjects: [{ apiGroup: RBAC, kind: 'User', name: 'dave' }] });
    // A cluster role binding naming a Role: Kubernetes reads the Role without a namespace.
    const toRole = await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, binding('ClusterRoleBinding', { apiGroup: RBAC, kind: 'Role', name: 'manager' }));
    assert.equal(toRole.status, 400, toRole.body);
    assert.deepEqual(toRole.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Namespace parameter required.', reason: 'BadRequest', code: 400 });
    // An unknown kind is a plain error: `bind` on cluster roles does not let it through.
    const unknown = await requestAs(s, carol, 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, binding('ClusterRoleBinding', { apiGroup: RBAC, kind: 'Widget', name: 'x' }));
    assert.deepEqual(unknown.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'unsupported role reference kind: "Widget"', code: 500 });
    // The same bodies from system:masters skip the checks and meet validation.
    const invalid = await requestAs(s, admin(s), 'POST', `/apis/${RBAC}/v1/clusterrolebindings`, binding('ClusterRoleBinding', { apiGroup: RBAC, kind: 'Role', name: 'manager' }));
    assert.equal(invalid.status, 422, invalid.body);
    assert.equal(invalid.json().message, `ClusterRoleBinding.${RBAC} "odd" is invalid: roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"`);
  });
});
