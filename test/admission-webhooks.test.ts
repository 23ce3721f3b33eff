// Dynamic admission end to end: a real Capstan calling real HTTPS webhooks (their own CA) configured by
// Mutating- and ValidatingWebhookConfigurations created while the server runs.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { configureWebhooks, jsonPatch, MUTATING, startAdmissionWebhook, VALIDATING, type AdmissionWebhookServer, type Answer } from './support/admission-webhook.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { until } from './support/until.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let s: TestServer;
let hook: AdmissionWebhookServer;
let closedPort: number;
/** Answers by the path the webhook was configured with. */
const answers = new Map<string, (review: any) => Answer | Promise<Answer>>();
const reviewsAt = (path: string) => hook.reviews.filter((r) => r.path.split('?')[0] === path).map((r) => r.review);

// ConfigMaps in `audit-request` are audited at Request level, other ConfigMaps at Metadata.
const AUDIT_POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Request
  namespaces: [audit-request]
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
  resources: [{group: "", resources: [configmaps]}]
`;
let auditLog: string;

interface AuditEvent { auditID: string; stage: string; level: string; annotations?: Record<string, string> }
/** The ResponseComplete event of one request, once written. */
async function completedEvent(auditID: unknown): Promise<AuditEvent> {
  const find = async () => (await readFile(auditLog, 'utf8')).split('\n').filter(Boolean).map((l) => JSON.parse(l) as AuditEvent)
    .find((e) => e.auditID === auditID && e.stage === 'ResponseComplete');
  await until(async () => !!await find(), `the audit event of ${auditID}`);
  return (await find())!;
}

/** A webhook configuration that was stored before validation required side-effect-free webhooks (Kubernetes: created through v1beta1). */
const LEGACY_SIDE_EFFECTS = 'legacy-side-effects';

before(async () => {
  hook = await startAdmissionWebhook({ dnsNames: ['webhook.hooks.svc'], listen: '0.0.0.0' });
  hook.answer = (review, path) => (answers.get(path.split('?')[0]!) ?? (() => ({ allowed: true })))(review);
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  const storage = SqliteStorage.open(':memory:');
  await storage.create(`/registry/admissionregistration.svc.io/validatingwebhookconfigurations/${LEGACY_SIDE_EFFECTS}`, JSON.stringify({
    apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingWebhookConfiguration',
    metadata: { name: LEGACY_SIDE_EFFECTS, uid: '6f1c8a59-4f4e-4b8e-9a59-2f0d0c1b7a11', creationTimestamp: '2024-01-01T00:00:00Z', generation: 1 },
    webhooks: [{
      name: 'unknown-effects.example.com', clientConfig: { url: `${hook.origin}/unknown-effects`, caBundle: hook.caBundle },
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'], scope: '*' }],
      failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, sideEffects: 'Unknown', timeoutSeconds: 10, admissionReviewVersions: ['v1'],
    }],
  }));
  const dir = await mkdtemp(join(tmpdir(), 'capstan-admission-audit-'));
  const policyFile = join(dir, 'policy.yaml');
  auditLog = join(dir, 'audit.log');
  await writeFile(policyFile, AUDIT_POLICY);
  // A Service-based webhook is reached at its cluster IP: the range is loopback addresses (its first,
  // 127.0.0.1, goes to the platform Service), where the webhook listens.
  s = await startTestServer({ storage, audit: { policyFile, logPath: auditLog }, serviceClusterIPRange: '127.0.0.0/24' });
});
after(async () => { await s?.stop(); await hook?.close(); });

function webhook(name: string, path: string, extra: Record<string, unknown> = {}) {
  return {
    name, clientConfig: { url: `${hook.origin}${path}`, caBundle: hook.caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'],
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...extra,
  };
}

const configure = (collection: string, name: string, webhooks: unknown[]) => configureWebhooks(s, collection, name, webhooks);

/** A namespace labelled `test: <name>`, for webhooks that select it. */
async function namespace(name: string, labels: Record<string, string> = {}): Promise<void> {
  const r = await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { test: name, ...labels } } }) });
  assert.equal(r.status, 201, r.body);
}

const configMap = (name: string, extra: Record<string, unknown> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { k: 'v' } });
const createConfigMap = (ns: string, name: string, extra: Record<string, unknown> = {}, query = '') =>
  s.request('POST', `/api/v1/namespaces/${ns}/configmaps${query}`, { body: configMap(name, extra) });
const inNamespace = (ns: string) => ({ namespaceSelector: { matchLabels: { test: ns } } });

/** Adds `mutated: yes` to the object's labels. */
const addLabel = (key = 'mutated', value = 'yes') => (review: any) => ({
  allowed: true, ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { ...(review.request.object.metadata.labels ?? {}), [key]: value } }]),
});

describe('admission webhooks', () => {
  test('a mutating webhook adds a label with a JSON patch; the stored object has it', async () => {
    await namespace('mutate');
    answers.set('/mutate', addLabel());
    const remove = await configure(MUTATING, 'add-label', [webhook('add-label.example.com', '/mutate', inNamespace('mutate'))]);
    const r = await createConfigMap('mutate', 'one');
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json().metadata.labels, { mutated: 'yes' });
    assert.deepEqual((await s.request('GET', '/api/v1/namespaces/mutate/configmaps/one')).json().metadata.labels, { mutated: 'yes' });
    // The patched object is validated by the kind again.
    answers.set('/mutate', addLabel('bad', 'not a valid label value!'));
    const invalid = await createConfigMap('mutate', 'two');
    assert.equal(invalid.status, 422, invalid.body);
    assert.match(invalid.json().message, /metadata.labels: Invalid value: "not a valid label value!"/);
    await remove();
    // Gone from the configuration, gone from admission.
    assert.equal((await createConfigMap('mutate', 'three')).json().metadata.labels, undefined);
  });

  test('a validating webhook denies with its message and code; its warnings become Warning headers', async () => {
    await namespace('validate');
    answers.set('/deny', (review) => review.request.object.metadata.name.startsWith('forbidden')
      ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'forbidden-* names are reserved' } }
      : { allowed: true, warnings: ['checked by the test webhook'] });
    answers.set('/deny-plain', (review) => ({ allowed: review.request.object.metadata.name !== 'plain' }));
    const remove = await configure(VALIDATING, 'deny', [webhook('deny.example.com', '/deny', inNamespace('validate')), webhook('deny-plain.example.com', '/deny-plain', inNamespace('validate'))]);
    const denied = await createConfigMap('validate', 'forbidden-one');
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "deny.example.com" denied the request: forbidden-* names are reserved', reason: 'Forbidden', code: 403 });
    const plain = await createConfigMap('validate', 'plain');
    assert.equal(plain.status, 400);
    assert.equal(plain.json().message, 'admission webhook "deny-plain.example.com" denied the request without explanation');
    const ok = await createConfigMap('validate', 'allowed');
    assert.equal(ok.status, 201);
    assert.equal(ok.headers.warning, '299 - "checked by the test webhook"');
    // Nothing was stored for the denied requests.
    assert.equal((await s.request('GET', '/api/v1/namespaces/validate/configmaps/forbidden-one')).status, 404);
    const viaKubectl = await s.kubectl(['create', 'configmap', 'forbidden-two', '-n', 'validate']);
    assert.equal(viaKubectl.code, 1);
    assert.match(viaKubectl.stderr, /admission webhook "deny.example.com" denied the request: forbidden-\* names are reserved/);
    await remove();
  });

  test('an unreachable webhook fails the request with failurePolicy Fail, and is skipped with Ignore', async () => {
    await namespace('unreachable');
    const url = `https://127.0.0.1:${closedPort}/`;
    const unreachable = (name: string, policy: string) => ({ ...webhook(name, '/', inNamespace('unreachable')), clientConfig: { url, caBundle: hook.caBundle }, failurePolicy: policy });
    const removeIgnore = await configure(VALIDATING, 'unreachable-ignore', [unreachable('ignore.example.com', 'Ignore')]);
    assert.equal((await createConfigMap('unreachable', 'ignored')).status, 201);
    const removeFail = await configure(VALIDATING, 'unreachable-fail', [unreachable('fail.example.com', 'Fail')]);
    const r = await createConfigMap('unreachable', 'failed');
    assert.equal(r.status, 500);
    const message = `failed calling webhook "fail.example.com": failed to call webhook: Post "https://127.0.0.1:${closedPort}/?timeout=10s": dial tcp 127.0.0.1:${closedPort}: connect: connection refused`;
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
    await removeFail();
    await removeIgnore();
  });

  test('timeoutSeconds: a webhook slower than its timeout fails the call', async () => {
    await namespace('slow');
    answers.set('/slow', async () => { await sleep(2500); return { allowed: true }; });
    const remove = await configure(MUTATING, 'slow', [webhook('slow.example.com', '/slow', { ...inNamespace('slow'), timeoutSeconds: 1 })]);
    const r = await createConfigMap('slow', 'late');
    assert.equal(r.status, 500);
    assert.equal(r.json().message, `Internal error occurred: failed calling webhook "slow.example.com": failed to call webhook: Post "${hook.origin}/slow?timeout=1s": context deadline exceeded`);
    assert.equal(reviewsAt('/slow').length, 1);
    await remove();
  });

  test('namespaceSelector and objectSelector choose the requests a webhook sees', async () => {
    await namespace('selected', { team: 'blue' });
    await namespace('unselected', { team: 'red' });
    answers.set('/selectors', addLabel('seen'));
    const remove = await configure(MUTATING, 'selectors', [webhook('selectors.example.com', '/selectors', {
      namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['blue'] }] },
      objectSelector: { matchLabels: { watched: 'true' } },
    })]);
    const labelsOf = async (ns: string, name: string, labels: Record<string, string>) => (await createConfigMap(ns, name, { labels })).json().metadata.labels;
    assert.deepEqual(await labelsOf('selected', 'a', { watched: 'true' }), { watched: 'true', seen: 'yes' });
    assert.deepEqual(await labelsOf('selected', 'b', { watched: 'false' }), { watched: 'false' });
    assert.deepEqual(await labelsOf('unselected', 'c', { watched: 'true' }), { watched: 'true' });
    // An update matches when the old object carried the label.
    const update = await s.request('PUT', '/api/v1/namespaces/selected/configmaps/a', { body: configMap('a', { labels: { other: 'x' } }) });
    assert.deepEqual(update.json().metadata.labels, { other: 'x', seen: 'yes' });
    await remove();
  });

  test('a matchCondition decides whether the webhook is called; one that errors follows the failure policy', async () => {
    await namespace('conditions');
    answers.set('/conditions', addLabel('conditioned'));
    const remove = await configure(MUTATING, 'conditions', [webhook('conditions.example.com', '/conditions', {
      ...inNamespace('conditions'),
      matchConditions: [
        { name: 'only-with-data', expression: "has(object.data) && 'k' in object.data" },
        { name: 'not-for-skip', expression: "!object.metadata.name.startsWith('skip') && request.userInfo.username != 'nobody'" },
        { name: 'admins', expression: "authorizer.group('').resource('secrets').namespace('conditions').check('delete').allowed()" },
      ],
    })]);
    assert.deepEqual((await createConfigMap('conditions', 'called')).json().metadata.labels, { conditioned: 'yes' });
    assert.equal((await createConfigMap('conditions', 'skip-me')).json().metadata.labels, undefined);
    await remove();
    const removeBroken = await configure(MUTATING, 'broken-condition', [webhook('broken.example.com', '/conditions', {
      ...inNamespace('conditions'), matchConditions: [{ name: 'broken', expression: 'object.spec.replicas > 1' }],
    })]);
    const r = await createConfigMap('conditions', 'broken');
    assert.equal(r.status, 403);
    assert.equal(r.json().message, `configmaps "broken" is forbidden: expression 'object.spec.replicas > 1' resulted in error: no such key: spec`);
    await removeBroken();
  });

  test('dry run: refused by a webhook with side effects, allowed by one declared NoneOnDryRun', async () => {
    await namespace('dry');
    const secret = JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { a: 'b' } });
    const r = await s.request('POST', '/api/v1/namespaces/dry/secrets?dryRun=All', { body: secret });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "unknown-effects.example.com" does not support dry run', reason: 'BadRequest', code: 400 });
    answers.set('/dry', (review) => ({ allowed: review.request.dryRun === true }));
    const remove = await configure(VALIDATING, 'dry', [webhook('dry.example.com', '/dry', { ...inNamespace('dry'), sideEffects: 'NoneOnDryRun' })]);
    const dry = await createConfigMap('dry', 'dry', {}, '?dryRun=All');
    assert.equal(dry.status, 201, dry.body);
    assert.deepEqual(reviewsAt('/dry').at(-1).request.options, { kind: 'CreateOptions', apiVersion: 'meta.svc.io/v1', dryRun: ['All'] });
    assert.equal((await s.request('GET', '/api/v1/namespaces/dry/configmaps/dry')).status, 404);
    await remove();
  });

  test('reinvocation: an IfNeeded webhook is called again when a later webhook changed the object', async () => {
    await namespace('reinvoke');
    // "first" labels the object with the number of labels it saw; "second" adds its own label once.
    answers.set('/first', (review) => addLabel('first-saw', String(Object.keys(review.request.object.metadata.labels ?? {}).length))(review));
    answers.set('/second', (review) => (review.request.object.metadata.labels?.second ? { allowed: true } : addLabel('second')(review)));
    const remove = await configure(MUTATING, 'reinvoke', [
      webhook('first.example.com', '/first', { ...inNamespace('reinvoke'), reinvocationPolicy: 'IfNeeded' }),
      webhook('second.example.com', '/second', inNamespace('reinvoke')),
    ]);
    const r = await createConfigMap('reinvoke', 'twice');
    assert.deepEqual(r.json().metadata.labels, { 'first-saw': '2', second: 'yes' });
    assert.deepEqual([reviewsAt('/first').length, reviewsAt('/second').length], [2, 1]);
    await remove();
  });

  test('admissionReviewVersions: v1beta1 is sent when v1 is not listed; an answer may use the admission.k8s.io name', async () => {
    await namespace('versions');
    answers.set('/beta', (review) => ({ allowed: true, patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/annotations', value: { beta: review.apiVersion } }])).toString('base64') }));
    answers.set('/k8s-name', (review) => ({ raw: { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }) } }));
    const remove = await configure(MUTATING, 'versions', [
      webhook('beta.example.com', '/beta', { ...inNamespace('versions'), admissionReviewVersions: ['v1beta1'] }),
      webhook('k8s-name.example.com', '/k8s-name', { ...inNamespace('versions'), admissionReviewVersions: ['v2', 'v1'] }),
    ]);
    const r = await createConfigMap('versions', 'beta');
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json().metadata.annotations, { beta: 'admission.svc.io/v1beta1' });
    assert.equal(reviewsAt('/k8s-name').at(-1).apiVersion, 'admission.svc.io/v1');
    await remove();
  });

  test('the review: user, operation, objects and options of creates, updates, patches and deletes; a Service-based webhook', async () => {
    await namespace('fields');
    await namespace('hooks');
    // The webhook is reached through a Service's cluster IP and port; TLS names webhook.hooks.svc.
    const svc = await s.request('POST', '/api/v1/namespaces/hooks/services', { body: JSON.stringify({
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'webhook' }, spec: { clusterIP: '127.0.0.2', ports: [{ port: hook.port }] },
    }) });
    assert.equal(svc.status, 201, svc.body);
    const remove = await configure(VALIDATING, 'fields', [{
      ...webhook('fields.example.com', '/', inNamespace('fields')),
      clientConfig: { service: { namespace: 'hooks', name: 'webhook', port: hook.port, path: '/fields' }, caBundle: hook.caBundle },
      rules: [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    }]);
    assert.equal((await createConfigMap('fields', 'cm', {}, '?fieldManager=tester')).status, 201);
    const created = reviewsAt('/fields').at(-1).request;
    assert.deepEqual(created.userInfo, { username: 'capstan-admin', groups: ['system:masters', 'system:authenticated'] });
    assert.deepEqual([created.operation, created.name, created.namespace, created.oldObject, created.dryRun], ['CREATE', 'cm', 'fields', null, false]);
    assert.deepEqual([created.kind, created.resource, created.requestKind, created.requestResource],
      [{ group: '', version: 'v1', kind: 'ConfigMap' }, { group: '', version: 'v1', resource: 'configmaps' }, { group: '', version: 'v1', kind: 'ConfigMap' }, { group: '', version: 'v1', resource: 'configmaps' }]);
    assert.deepEqual(created.options, { kind: 'CreateOptions', apiVersion: 'meta.svc.io/v1', fieldManager: 'tester' });
    // The validating webhook sees the object as it is stored: uid, creation time, managed fields.
    assert.ok(created.object.metadata.uid && created.object.metadata.creationTimestamp && created.object.metadata.managedFields);

    const patched = await s.request('PATCH', '/api/v1/namespaces/fields/configmaps/cm?fieldValidation=Strict', {
      body: JSON.stringify({ data: { k: 'changed' } }), headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.body);
    const update = reviewsAt('/fields').at(-1).request;
    assert.deepEqual([update.operation, update.oldObject.data, update.object.data], ['UPDATE', { k: 'v' }, { k: 'changed' }]);
    assert.deepEqual(update.options, { kind: 'UpdateOptions', apiVersion: 'meta.svc.io/v1', fieldValidation: 'Strict' });

    const options = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    const deleted = await s.request('DELETE', '/api/v1/namespaces/fields/configmaps/cm', { body: options, headers: { 'content-length': String(options.length) } });
    assert.equal(deleted.status, 200, deleted.body);
    const del = reviewsAt('/fields').at(-1).request;
    assert.deepEqual([del.operation, del.object, del.oldObject.data], ['DELETE', null, { k: 'changed' }]);
    assert.deepEqual(del.options, { kind: 'DeleteOptions', apiVersion: 'meta.svc.io/v1', propagationPolicy: 'Background' });
    await remove();
  });

  test('kubectl apply goes through a mutating webhook (server-side too), which sees the merged object', async () => {
    await namespace('apply');
    answers.set('/apply', addLabel('applied-through', 'webhook'));
    const remove = await configure(MUTATING, 'apply', [webhook('apply.example.com', '/apply', inNamespace('apply'))]);
    const manifest = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: apply\n  labels:\n    app: demo\ndata:\n  key: ${value}\n`;
    const first = await s.kubectl(['apply', '-f', '-'], manifest('one'));
    assert.equal(first.code, 0, first.stderr);
    const second = await s.kubectl(['apply', '--server-side', '-f', '-'], manifest('two'));
    assert.equal(second.code, 0, second.stderr);
    const got = JSON.parse((await s.kubectl(['get', 'configmap', 'applied', '-n', 'apply', '-o', 'json'])).stdout);
    assert.deepEqual([got.metadata.labels, got.data], [{ app: 'demo', 'applied-through': 'webhook' }, { key: 'two' }]);
    // Server-side apply: the first patch is the apply; kubectl then moves field ownership with more patches.
    const reviews = reviewsAt('/apply');
    assert.deepEqual([reviews[0].request.operation, reviews[0].request.options.fieldManager], ['CREATE', 'kubectl-client-side-apply']);
    assert.deepEqual([reviews[1].request.operation, reviews[1].request.options.fieldManager, reviews[1].request.object.data.key], ['UPDATE', 'kubectl', 'two']);
    assert.deepEqual(reviews[1].request.oldObject.data, { key: 'one' });
    await remove();
  });

  test('matchPolicy Equivalent: a request through another version or group reaches the webhook in the version it asked for', async () => {
    await namespace('equivalent');
    answers.set('/hpa-v2', (review) => ({ allowed: true, ...jsonPatch([{ op: 'replace', path: '/spec/metrics/0/resource/target/averageUtilization', value: review.request.object.spec.metrics[0].resource.target.averageUtilization + 10 }]) }));
    answers.set('/events', () => ({ allowed: true, ...jsonPatch([{ op: 'replace', path: '/note', value: 'rewritten by the webhook' }]) }));
    const remove = await configure(MUTATING, 'equivalent', [
      webhook('hpa-v2.example.com', '/hpa-v2', { ...inNamespace('equivalent'), rules: [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'] }] }),
      webhook('events.example.com', '/events', { ...inNamespace('equivalent'), rules: [{ operations: ['CREATE'], apiGroups: ['events.k8s.io'], apiVersions: ['v1'], resources: ['events'] }] }),
    ]);
    const hpa = await s.request('POST', '/apis/autoscaling/v1/namespaces/equivalent/horizontalpodautoscalers', { body: JSON.stringify({
      apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 3, targetCPUUtilizationPercentage: 50 },
    }) });
    assert.equal(hpa.status, 201, hpa.body);
    assert.equal(hpa.json().spec.targetCPUUtilizationPercentage, 60);
    const seen = reviewsAt('/hpa-v2').at(-1).request;
    assert.deepEqual([seen.object.apiVersion, seen.kind.version, seen.requestKind.version], ['autoscaling/v2', 'v2', 'v1']);

    const event = await s.request('POST', '/api/v1/namespaces/equivalent/events', { body: JSON.stringify({
      apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'equivalent' },
      reason: 'Tested', message: 'original', type: 'Normal', eventTime: '2024-05-01T10:00:00.000000Z', reportingComponent: 'test', reportingInstance: 'test-1', action: 'Test',
    }) });
    assert.equal(event.status, 201, event.body);
    assert.equal(event.json().message, 'rewritten by the webhook');
    const eventReview = reviewsAt('/events').at(-1).request;
    assert.deepEqual([eventReview.object.apiVersion, eventReview.object.note, eventReview.resource.group, eventReview.requestResource.group], ['events.svc.io/v1', 'original', 'events.svc.io', '']);
    await remove();
  });

  test('webhook configurations themselves never go to webhooks', async () => {
    answers.set('/everything', () => ({ allowed: false, status: { message: 'no' } }));
    const remove = await configure(VALIDATING, 'everything', [webhook('everything.example.com', '/everything', {
      rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }],
      objectSelector: { matchLabels: { 'deny-me': 'true' } },
    })]);
    const config = { apiVersion: 'admissionregistration.svc.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'labelled', labels: { 'deny-me': 'true' } }, webhooks: [] };
    assert.equal((await s.request('POST', VALIDATING, { body: JSON.stringify(config) })).status, 201);
    assert.equal((await s.request('DELETE', `${VALIDATING}/labelled`)).status, 200);
    assert.equal(reviewsAt('/everything').length, 0);
    await remove();
  });
  test('ResourceQuota runs after the validating webhooks: a request a webhook refuses is not charged; one it allows still is', async () => {
    await namespace('quota-order');
    const quotas = '/api/v1/namespaces/quota-order/resourcequotas';
    assert.equal((await s.request('POST', quotas, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { configmaps: '2' } } }) })).status, 201);
    // What the quota controller would write: admission enforces a quota once its status is filled.
    const current = (await s.request('GET', `${quotas}/q`)).json();
    const filled = await s.request('PUT', `${quotas}/q/status`, { body: JSON.stringify({ ...current, status: { hard: { configmaps: '2' }, used: { configmaps: '0' } } }) });
    assert.equal(filled.status, 200, filled.body);
    const used = async () => (await s.request('GET', `${quotas}/q`)).json().status.used.configmaps;
    answers.set('/quota-order', (review) => review.request.object.metadata.labels?.deny
      ? { allowed: false, status: { code: 403, reason: 'Forbidden', message: 'denied by label' } }
      : { allowed: true });
    const remove = await configure(VALIDATING, 'quota-order', [webhook('quota-order.example.com', '/quota-order', inNamespace('quota-order'))]);
    for (const name of ['denied-1', 'denied-2', 'denied-3']) {
      const denied = await createConfigMap('quota-order', name, { labels: { deny: 'yes' } });
      assert.equal(denied.status, 403, denied.body);
      assert.equal(denied.json().message, 'admission webhook "quota-order.example.com" denied the request: denied by label');
    }
    assert.equal(await used(), '0');
    for (const name of ['one', 'two']) assert.equal((await createConfigMap('quota-order', name)).status, 201);
    assert.equal(await used(), '2');
    const calls = reviewsAt('/quota-order').length;
    const over = await createConfigMap('quota-order', 'three');
    assert.equal(over.status, 403, over.body);
    assert.equal(over.json().message, 'configmaps "three" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
    // The webhook saw (and allowed) the request quota then refused.
    assert.equal(reviewsAt('/quota-order').length, calls + 1);
    await remove();
  });

  test('audit annotations: webhooks\' own as <webhook>/<key>, each mutating call, its patch at Request level, calls that failed open', async () => {
    await namespace('audit-request');
    await namespace('audit-metadata');
    const mutate = (review: any) => ({
      allowed: true, auditAnnotations: { 'seen-by': 'mutator', 'not a key': 'dropped' },
      ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { ...(review.request.object.metadata.labels ?? {}), mutated: 'yes' } }]),
    });
    answers.set('/audit-mutate', mutate);
    answers.set('/audit-validate', () => ({ allowed: true, auditAnnotations: { decision: 'allowed' } }));
    const selected = { namespaceSelector: { matchExpressions: [{ key: 'test', operator: 'In', values: ['audit-request', 'audit-metadata'] }] } };
    const removeMutating = await configure(MUTATING, 'audit-mutating', [
      webhook('mutator.example.com', '/audit-mutate', selected),
      webhook('unreachable.example.com', '/down', { ...selected, clientConfig: { url: `https://127.0.0.1:${closedPort}/down`, caBundle: hook.caBundle }, failurePolicy: 'Ignore' }),
    ]);
    const removeValidating = await configure(VALIDATING, 'audit-validating', [webhook('validator.example.com', '/audit-validate', selected)]);

    const mutation = '{"configuration":"audit-mutating","webhook":"mutator.example.com","mutated":true}';
    const unreachable = '{"configuration":"audit-mutating","webhook":"unreachable.example.com","mutated":false}';
    const atRequest = await createConfigMap('audit-request', 'one');
    assert.equal(atRequest.status, 201, atRequest.body);
    const requestEvent = await completedEvent(atRequest.headers['audit-id']);
    assert.equal(requestEvent.level, 'Request');
    const admission = (e: AuditEvent) => Object.fromEntries(Object.entries(e.annotations ?? {}).filter(([k]) => !k.startsWith('authorization.')));
    assert.deepEqual(admission(requestEvent), {
      'mutator.example.com/seen-by': 'mutator',
      'mutation.webhook.admission.svc.io/round_0_index_0': mutation,
      'patch.webhook.admission.svc.io/round_0_index_0': '{"configuration":"audit-mutating","webhook":"mutator.example.com","patch":[{"op":"add","path":"/metadata/labels","value":{"mutated":"yes"}}],"patchType":"JSONPatch"}',
      'mutation.webhook.admission.svc.io/round_0_index_1': unreachable,
      'failed-open.mutation.webhook.admission.svc.io/round_0_index_1': 'unreachable.example.com',
      'validator.example.com/decision': 'allowed',
    });

    // At Metadata level the patch (which may carry the object's data) is left out.
    const atMetadata = await createConfigMap('audit-metadata', 'one');
    assert.equal(atMetadata.status, 201, atMetadata.body);
    const metadataEvent = await completedEvent(atMetadata.headers['audit-id']);
    assert.equal(metadataEvent.level, 'Metadata');
    assert.deepEqual(admission(metadataEvent), {
      'mutator.example.com/seen-by': 'mutator',
      'mutation.webhook.admission.svc.io/round_0_index_0': mutation,
      'mutation.webhook.admission.svc.io/round_0_index_1': unreachable,
      'failed-open.mutation.webhook.admission.svc.io/round_0_index_1': 'unreachable.example.com',
      'validator.example.com/decision': 'allowed',
    });

    // A refused request keeps what admission recorded before the refusal.
    answers.set('/audit-validate', () => ({ allowed: false, auditAnnotations: { decision: 'denied' }, status: { message: 'no' } }));
    const denied = await createConfigMap('audit-metadata', 'two');
    assert.equal(denied.status, 400, denied.body);
    const deniedEvent = await completedEvent(denied.headers['audit-id']);
    assert.equal(deniedEvent.annotations?.['validator.example.com/decision'], 'denied');
    assert.equal(deniedEvent.annotations?.['mutation.webhook.admission.svc.io/round_0_index_0'], mutation);
    await removeValidating();
    await removeMutating();
  });
});
