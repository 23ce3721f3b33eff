import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluatePolicy, loadAuditPolicy, parseAuditPolicy, type PolicyAttributes } from './policy.ts';

const attrs = (over: Partial<PolicyAttributes> = {}): PolicyAttributes => ({
  user: { username: 'alice', groups: ['dev', 'system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '/api/v1/namespaces/a/pods/p',
  namespace: 'a', apiGroup: '', resource: 'pods', subresource: '', name: 'p', ...over,
});

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  users: [system:kube-proxy]
- level: None
  nonResourceURLs: [/healthz*, /version]
- level: Metadata
  resources: [{group: "", resources: [secrets, configmaps]}]
- level: Request
  verbs: [create]
  resources: [{group: rbac.authorization.k8s.io}]
  omitStages: [ResponseComplete]
- level: RequestResponse
  userGroups: [dev]
  resources: [{group: apps, resources: ["deployments/*", "*/status"]}]
- level: Request
  namespaces: [kube-system]
- level: Metadata
  omitManagedFields: true
`;

test('the first matching rule sets the level; stages of policy and rule are both omitted', () => {
  const p = parseAuditPolicy(POLICY);
  const level = (a: Partial<PolicyAttributes>) => evaluatePolicy(p, attrs(a)).level;
  assert.equal(level({ user: { username: 'system:kube-proxy', groups: [] } }), 'None');
  assert.equal(level({ isResourceRequest: false, path: '/healthz/etcd', verb: 'get' }), 'None');
  assert.equal(level({ isResourceRequest: false, path: '/version', verb: 'get' }), 'None');
  assert.equal(level({ resource: 'secrets' }), 'Metadata');
  // A rule naming Kubernetes' group matches the renamed one the server serves.
  const rbac = evaluatePolicy(p, attrs({ verb: 'create', apiGroup: 'rbac.authorization.svc.io', resource: 'roles', name: '' }));
  assert.equal(rbac.level, 'Request');
  assert.deepEqual([...rbac.omitStages].sort(), ['RequestReceived', 'ResponseComplete']);
  assert.equal(level({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale' }), 'RequestResponse');
  assert.equal(level({ apiGroup: 'apps', resource: 'replicasets', subresource: 'status' }), 'RequestResponse');
  // `deployments/*` covers the resource itself too, as Kubernetes' checker reads it.
  assert.equal(level({ apiGroup: 'apps', resource: 'deployments' }), 'RequestResponse');
  assert.equal(level({ apiGroup: 'apps', resource: 'replicasets' }), 'Metadata');
  assert.equal(level({ apiGroup: 'apps', resource: 'deployments', subresource: 'scale', user: { username: 'bob', groups: [] } }), 'Metadata');
  assert.equal(level({ namespace: 'kube-system' }), 'Request');
  const last = evaluatePolicy(p, attrs({ resource: 'pods' }));
  assert.deepEqual([last.level, last.omitManagedFields, [...last.omitStages]], ['Metadata', true, ['RequestReceived']]);
});

test('no matching rule means None; resourceNames narrow a rule; nothing matches an unauthenticated user by name', () => {
  const p = parseAuditPolicy('apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: Request\n  resources: [{group: "", resources: [configmaps], resourceNames: [x]}]\n- level: Metadata\n  userGroups: [dev]\n');
  assert.equal(evaluatePolicy(p, attrs({ resource: 'configmaps', name: 'x' })).level, 'Request');
  assert.equal(evaluatePolicy(p, attrs({ resource: 'configmaps', name: 'y' })).level, 'Metadata');
  assert.equal(evaluatePolicy(p, attrs({ resource: 'configmaps', name: 'y', user: undefined })).level, 'None');
});

test('a policy that names its version but not its kind is a Policy (the decoder fills the kind in)', () => {
  assert.equal(parseAuditPolicy('apiVersion: audit.svc.io/v1\nrules: [{level: Metadata}]\n').rules.length, 1);
});

test('invalid policies are refused with Kubernetes messages', () => {
  const refused = (text: string) => { try { parseAuditPolicy(text); } catch (e) { return (e as Error).message; } assert.fail('accepted'); };
  assert.equal(refused('apiVersion: audit.svc.io/v1\nkind: Policy\nrules: []\n'), 'loaded illegal policy with 0 rules');
  assert.equal(refused('apiVersion: audit.k8s.io/v1beta1\nkind: Policy\nrules: []\n'), 'failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1beta1" in scheme "pkg/audit/scheme.go"');
  // What a document leaves out the decoder takes from the internal Policy, which LoadPolicyFromBytes refuses.
  assert.equal(refused('rules: [{level: None}]\n'), 'unknown group version field audit.svc.io/__internal, Kind=Policy in policy');
  assert.equal(refused('kind: Policy\nrules: [{level: None}]\n'), 'unknown group version field audit.svc.io/__internal, Kind=Policy in policy');
  // null (an empty file too) unmarshals into a struct without error: a document that names nothing.
  assert.equal(refused('null\n'), 'unknown group version field audit.svc.io/__internal, Kind=Policy in policy');
  assert.equal(refused(''), 'unknown group version field audit.svc.io/__internal, Kind=Policy in policy');
  assert.equal(refused('kind: Rule\nrules: []\n'), 'failed decoding: no kind "Rule" is registered for version "audit.svc.io/__internal" in scheme "pkg/audit/scheme.go"');
  assert.equal(refused('apiVersion: v1\nrules: []\n'), 'failed decoding: no kind "Policy" is registered for version "v1" in scheme "pkg/audit/scheme.go"');
  assert.equal(refused('apiVersion: other.svc.io/\nrules: []\n'), "failed decoding: Object 'apiVersion' is missing in 'apiVersion: other.svc.io/\nrules: []\n'");
  // A document that is not an object is named by its JSON kind, as Go's decoder names it.
  assert.equal(refused('true\n'), 'failed decoding: couldn\'t get version/kind; json parse error: json: cannot unmarshal bool into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
  assert.match(refused('- a\n'), /cannot unmarshal array into Go value/);
  assert.equal(refused('apiVersion: audit.svc.io/v1\nkind: Policy\nrules:\n- level: Everything\n'), 'rules[0].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"');
  assert.equal(refused([
    'apiVersion: audit.svc.io/v1', 'kind: Policy', 'omitStages: [Sometimes]', 'rules:', '- {}',
    '- level: None', '  nonResourceURLs: [healthz, "/a*b"]', '  namespaces: [x]',
    '- level: None', '  resources: [{group: "Bad_Group", resourceNames: [n]}]', '',
  ].join('\n')), [
    '[omitStages[0]: Invalid value: "Sometimes": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic',
    'rules[0].level: Required value',
    `rules[1].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character`,
    `rules[1].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule`,
    'rules[1].nonResourceURLs: Invalid value: ["healthz","/a*b"]: rules cannot apply to both regular resources and non-resource URLs',
    `rules[2].resources.group: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    'rules[2].resources.resourceNames: Invalid value: ["n"]: using resourceNames requires at least one resource]',
  ].join(', '));
});

test('loading names the file, as the API server reports a bad policy at start', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'audit-policy-'));
  const path = join(dir, 'policy.yaml');
  await writeFile(path, 'apiVersion: audit.svc.io/v1\nkind: Policy\nrules: []\n');
  await assert.rejects(loadAuditPolicy(path), { message: `loading audit policy file: loaded illegal policy with 0 rules: from file ${path}` });
  await assert.rejects(loadAuditPolicy(join(dir, 'missing.yaml')), /^Error: loading audit policy file: failed to read file path ".*missing\.yaml": ENOENT/);
  await writeFile(path, '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}');
  assert.equal((await loadAuditPolicy(path)).rules[0].level, 'Metadata');
});
