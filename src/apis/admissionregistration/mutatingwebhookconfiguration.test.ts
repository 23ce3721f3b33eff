import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mutatingWebhookConfigurationKind as kind } from './mutatingwebhookconfiguration.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'pods.example.com',
  clientConfig: { service: { name: 'hook', namespace: 'system' } },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const config = (webhooks: unknown[], name = `mwc-${++n}`): ApiObject => ({ apiVersion: 'admissionregistration.svc.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks });
const causes = async (webhooks: unknown[]) => (await rejection(h.create(config(webhooks)))).causes;
type Hook = Record<string, any>;
const first = (o: ApiObject) => (o.webhooks as Hook[])[0];

test('declaration: cluster-scoped, api-extensions category, webhooks merged by name, Webhooks column', () => {
  assert.equal(kind.group, 'admissionregistration.svc.io');
  assert.equal(kind.namespaced, false);
  assert.deepEqual(kind.categories, ['api-extensions']);
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties;
  assert.equal(props.webhooks['x-platform-patch-merge-key'], 'name');
  assert.equal(props.webhooks['x-platform-list-type'], 'map');
  const w = props.webhooks.items.properties;
  assert.equal(w.matchConditions['x-platform-patch-merge-key'], 'name');
  assert.equal(w.rules['x-platform-list-type'], 'atomic');
  assert.deepEqual(['name', 'clientConfig', 'rules', 'failurePolicy', 'namespaceSelector', 'sideEffects', 'timeoutSeconds', 'admissionReviewVersions', 'matchPolicy', 'reinvocationPolicy', 'objectSelector', 'matchConditions'].map((k) => w[k]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.type]), [['Name', 'string'], ['Webhooks', 'integer'], ['Age', 'string']]);
});

test('defaults: failurePolicy Fail, matchPolicy Equivalent, timeout 10, reinvocation Never, selectors {}, scope *, port 443', async () => {
  const obj = await h.create(config([hook()]));
  const w = first(obj);
  assert.equal(w.failurePolicy, 'Fail');
  assert.equal(w.matchPolicy, 'Equivalent');
  assert.equal(w.timeoutSeconds, 10);
  assert.equal(w.reinvocationPolicy, 'Never');
  assert.deepEqual(w.namespaceSelector, {});
  assert.deepEqual(w.objectSelector, {});
  assert.equal(w.rules[0].scope, '*');
  assert.equal(w.clientConfig.service.port, 443);
  assert.equal(obj.metadata.generation, 1);
  assert.equal(kind.tableColumns![1].cell(obj), 1);
  const kept = first(await h.create(config([hook({ failurePolicy: 'Ignore', matchPolicy: 'Exact', timeoutSeconds: 5, reinvocationPolicy: 'IfNeeded', clientConfig: { service: { name: 's', namespace: 'n', port: 8443 } } })])));
  assert.deepEqual([kept.failurePolicy, kept.matchPolicy, kept.timeoutSeconds, kept.reinvocationPolicy, kept.clientConfig.service.port], ['Ignore', 'Exact', 5, 'IfNeeded', 8443]);
});

test('sideEffects is required and None or NoneOnDryRun', async () => {
  assert.deepEqual(await causes([hook({ sideEffects: undefined })]), ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
  assert.deepEqual(await causes([hook({ sideEffects: 'Some' })]), ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
});

test('admissionReviewVersions: required, DNS labels, no duplicates, v1 or v1beta1 among them', async () => {
  assert.deepEqual(await causes([hook({ admissionReviewVersions: [] })]), ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
  assert.deepEqual(await causes([hook({ admissionReviewVersions: ['v2'] })]), ['webhooks[0].admissionReviewVersions: Invalid value: []string{"v2"}: must include at least one of v1, v1beta1']);
  assert.deepEqual(await causes([hook({ admissionReviewVersions: ['v1', 'v1'] })]), ['webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version']);
  const bad = await causes([hook({ admissionReviewVersions: ['V1', 'v1'] })]);
  assert.equal(bad.length, 1);
  assert.match(bad[0], /^webhooks\[0\]\.admissionReviewVersions\[0\]: Invalid value: "V1": a DNS-1035 label must consist of lower case/);
  const ok = await h.create(config([hook({ admissionReviewVersions: ['v2', 'v1beta1'] })]));
  assert.ok(ok.metadata.uid);
});

test('clientConfig: exactly one of url and service', async () => {
  assert.deepEqual(await causes([hook({ clientConfig: {} })]), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(await causes([hook({ clientConfig: { url: 'https://a.example.com', service: { name: 's', namespace: 'n' } } })]), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
});

test('url: https, with a host, without user info, fragment or query', async () => {
  const url = (u: string) => causes([hook({ clientConfig: { url: u } })]);
  assert.deepEqual(await url('http://hook.example.com/x'), [`webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`]);
  assert.deepEqual(await url('https:///path'), ['webhooks[0].clientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]']);
  assert.deepEqual(await url('https://user:pw@hook.example.com'), ['webhooks[0].clientConfig.url: Invalid value: "user:pw": user information is not permitted in the URL']);
  assert.deepEqual(await url('https://hook.example.com/#frag'), ['webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL']);
  assert.deepEqual(await url('https://hook.example.com/?a=b'), ['webhooks[0].clientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL']);
  assert.deepEqual(await url('https://hook.example.com:x/'), ['webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://hook.example.com:x/": invalid port ":x" after host; desired format: https://host[/path]']);
  // Go's %q of the URL: \x01, not JSON's \u0001.
  assert.deepEqual(await url('https://hook.example.com/\u0001'), ['webhooks[0].clientConfig.url: Required value: url must be a valid URL: parse "https://hook.example.com/\\x01": net/url: invalid control character in URL; desired format: https://host[/path]']);
  const ok = await h.create(config([hook({ clientConfig: { url: 'https://hook.example.com:8443/mutate', caBundle: Buffer.from('ca').toString('base64') } })]));
  assert.equal(first(ok).clientConfig.service, undefined);
});

test('service: name, namespace, port 1-65535, path segments', async () => {
  const svc = (s: Record<string, unknown>) => causes([hook({ clientConfig: { service: s } })]);
  assert.deepEqual(await svc({}), [
    'webhooks[0].clientConfig.service.name: Required value: service name is required',
    'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required',
  ]);
  assert.deepEqual(await svc({ name: 's', namespace: 'n', port: 70000 }), ['webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive']);
  assert.deepEqual(await svc({ name: 's', namespace: 'n', path: 'mutate' }), [`webhooks[0].clientConfig.service.path: Invalid value: "mutate": must start with a '/'`]);
  assert.deepEqual(await svc({ name: 's', namespace: 'n', path: '/a//b' }), ['webhooks[0].clientConfig.service.path: Invalid value: "/a//b": segment[1] may not be empty']);
  const upper = await svc({ name: 's', namespace: 'n', path: '/Mutate' });
  assert.equal(upper.length, 1);
  assert.match(upper[0], /^webhooks\[0\]\.clientConfig\.service\.path: Invalid value: "\/Mutate": segment\[0\]: a lowercase RFC 1123 subdomain/);
});

test('name: fully qualified and unique', async () => {
  assert.deepEqual(await causes([hook({ name: 'hook' })]), ['webhooks[0].name: Invalid value: "hook": should be a domain with at least three segments separated by dots']);
  assert.deepEqual(await causes([hook({ name: '' })]), ['webhooks[0].name: Required value']);
  assert.deepEqual(await causes([hook(), hook()]), ['webhooks[1].name: Duplicate value: "pods.example.com"']);
});

test('failurePolicy, matchPolicy, reinvocationPolicy values and the timeout range', async () => {
  assert.deepEqual(await causes([hook({ failurePolicy: 'Retry' })]), ['webhooks[0].failurePolicy: Unsupported value: "Retry": supported values: "Fail", "Ignore"']);
  assert.deepEqual(await causes([hook({ matchPolicy: 'Loose' })]), ['webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"']);
  assert.deepEqual(await causes([hook({ reinvocationPolicy: 'Always' })]), ['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
  assert.deepEqual(await causes([hook({ timeoutSeconds: 31 })]), ['webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds']);
  assert.deepEqual(await causes([hook({ timeoutSeconds: 0 })]), ['webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds']);
});

test('rules: required lists, known operations and scopes, * alone', async () => {
  const rule = (r: Record<string, unknown>) => causes([hook({ rules: [r] })]);
  assert.deepEqual(await rule({}), [
    'webhooks[0].rules[0].operations: Required value',
    'webhooks[0].rules[0].apiGroups: Required value',
    'webhooks[0].rules[0].apiVersions: Required value',
    'webhooks[0].rules[0].resources: Required value',
  ]);
  assert.deepEqual(await rule({ operations: ['*', 'CREATE', 'PATCH'], apiGroups: ['*', 'apps'], apiVersions: ['*', 'v1'], resources: ['pods'], scope: 'Global' }), [
    `webhooks[0].rules[0].operations: Invalid value: []string{"*", "CREATE", "PATCH"}: if '*' is present, must not specify other operations`,
    'webhooks[0].rules[0].operations[2]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
    `webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
    `webhooks[0].rules[0].apiVersions: Invalid value: []string{"*", "v1"}: if '*' is present, must not specify other API versions`,
    'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
  ]);
});

test('rules: resources and sub-resources do not overlap', async () => {
  const res = (resources: string[]) => causes([hook({ rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources }] })]);
  assert.deepEqual(await res(['*/*', 'pods']), [`webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`]);
  assert.deepEqual(await res(['*', 'pods']), [`webhooks[0].rules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources without subresources`]);
  assert.deepEqual(await res(['pods/*', 'pods/log']), [`webhooks[0].rules[0].resources[1]: Invalid value: "pods/log": if 'pods/*' is present, must not specify pods/log`]);
  assert.deepEqual(await res(['*/scale', 'deployments/scale']), [`webhooks[0].rules[0].resources[1]: Invalid value: "deployments/scale": if '*/scale' is present, must not specify deployments/scale`]);
  assert.deepEqual(await res(['pods', '']), ['webhooks[0].rules[0].resources[1]: Required value']);
  const ok = await h.create(config([hook({ rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*', 'pods/log', '*/scale'] }] })]));
  assert.ok(ok.metadata.uid);
});

test('selectors are label selectors', async () => {
  assert.deepEqual(await causes([hook({ namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In' }] } })]), [
    "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
  ]);
  assert.deepEqual(await causes([hook({ objectSelector: { matchLabels: { 'bad key!': 'x' } } })]).then((c) => c.length), 1);
});

test('matchConditions: at most 64, named by qualified names, unique, with an expression', async () => {
  const many = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
  assert.deepEqual(await causes([hook({ matchConditions: many })]), ['webhooks[0].matchConditions: Too many: 65: must have at most 64 items']);
  assert.deepEqual(await causes([hook({ matchConditions: [{ name: 'a', expression: '  ' }, { expression: 'true' }, { name: 'a', expression: 'true' }] })]), [
    'webhooks[0].matchConditions[0].expression: Required value',
    'webhooks[0].matchConditions[1].name: Required value',
    'webhooks[0].matchConditions[2].name: Duplicate value: "a"',
  ]);
  const bad = await causes([hook({ matchConditions: [{ name: '-bad', expression: 'true' }] })]);
  assert.equal(bad.length, 1);
  assert.match(bad[0], /^webhooks\[0\]\.matchConditions\[0\]\.name: Invalid value: "-bad": name part must consist of alphanumeric characters/);
  const ok = await h.create(config([hook({ matchConditions: [{ name: 'example.com/not-system', expression: "!request.userInfo.username.startsWith('system:')" }] })]));
  assert.ok(ok.metadata.uid);
});

test('matchConditions: expressions are compiled when stored; one that does not compile, or is not a bool, is refused', async () => {
  const conditions = (...expressions: string[]) => [hook({ matchConditions: expressions.map((expression, i) => ({ name: `c${i}`, expression })) })];
  const found = await causes(conditions(
    ' request.userInfo.username == ',
    'request.nosuch == "x"',
    'undeclared.x',
    'request.userInfo.username',
    'object.spec.enabled',
    "quantity('1Gi').isGreaterThan(quantity('1'))",
  ));
  // Compilation errors carry the CEL subset's own message (cel-go's words where the subset knows them).
  const expected = [
    // The value shown is the expression trimmed.
    /^webhooks\[0\]\.matchConditions\[0\]\.expression: Invalid value: "request\.userInfo\.username ==": compilation failed: ERROR: <input>:1:\d+: Syntax error: /,
    /^webhooks\[0\]\.matchConditions\[1\]\.expression: Invalid value: "request\.nosuch == \\"x\\"": compilation failed: ERROR: <input>:1:\d+: undefined field 'nosuch'$/,
    /^webhooks\[0\]\.matchConditions\[2\]\.expression: Invalid value: "undeclared\.x": compilation failed: ERROR: <input>:1:0: undeclared reference to 'undeclared'/,
    /^webhooks\[0\]\.matchConditions\[3\]\.expression: Invalid value: "request\.userInfo\.username": must evaluate to bool$/,
    // Kubernetes refuses a dyn result at compile time as well.
    /^webhooks\[0\]\.matchConditions\[4\]\.expression: Invalid value: "object\.spec\.enabled": must evaluate to bool$/,
    // What the subset lacks is refused now, not at every request.
    /^webhooks\[0\]\.matchConditions\[5\]\.expression: Invalid value: "quantity\('1Gi'\)\.isGreaterThan\(quantity\('1'\)\)": compilation failed: ERROR: <input>:1:0: undeclared reference to 'quantity'/,
  ];
  assert.equal(found.length, expected.length, found.join('\n'));
  found.forEach((cause, i) => assert.match(cause, expected[i]!));
  const ok = await h.create(config([hook({ matchConditions: [
    { name: 'typed', expression: "object.metadata.name == 'x' || has(object.spec)" },
    { name: 'authorizer', expression: "authorizer.group('apps').resource('deployments').check('create').allowed()" },
  ] })], 'compiled'));
  assert.ok(ok.metadata.uid);
});

test('update: validated again, generation bumped when webhooks change; stored problems are tolerated', async () => {
  const made = await h.create(config([hook()], 'updated'));
  const changed = await h.update({ ...made, webhooks: [hook({ timeoutSeconds: 3 })] });
  assert.equal(changed.metadata.generation, 2);
  assert.deepEqual((await rejection(h.update({ ...made, webhooks: [hook({ timeoutSeconds: 99 })] }))).causes, ['webhooks[0].timeoutSeconds: Invalid value: 99: the timeout value must be between 1 and 30 seconds']);
});

test('update: problems already stored are tolerated, new ones are not', async () => {
  // A configuration stored before the rules tightened (unknown review versions, side effects Some).
  const storedName = 'legacy';
  const made = await h.create(config([hook()], storedName));
  const legacy = structuredClone(made);
  (legacy.webhooks as Hook[])[0].admissionReviewVersions = ['v2'];
  (legacy.webhooks as Hook[])[0].sideEffects = 'Some';
  await h.seed(legacy);
  const relabelled = await h.update({ ...legacy, metadata: { ...legacy.metadata, labels: { a: 'b' } } });
  assert.equal(relabelled.metadata.labels?.a, 'b');
  assert.deepEqual((await rejection(h.update({ ...legacy, webhooks: [{ ...(legacy.webhooks as Hook[])[0], sideEffects: 'Sometimes' }] }))).causes, [
    'webhooks[0].sideEffects: Unsupported value: "Sometimes": supported values: "None", "NoneOnDryRun", "Some", "Unknown"',
  ]);
});
