// Sweep of admission webhook calls against Kubernetes v1.32's dispatchers: the AdmissionReview request
// field by field (what test/admission-webhooks.test.ts leaves out), the HTTP request a webhook receives,
// and how a denial's Status is decoded. The webhook is a real HTTPS server here, with its own CA.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { configureWebhooks, MUTATING, VALIDATING } from './support/admission-webhook.ts';
import { generateCertificateAuthority } from '../src/pki/authority.ts';
import { issueServingCertificate } from '../src/pki/sign.ts';


interface Call { method: string; url: string; headers: IncomingHttpHeaders; review: any }
type Responder = (review: any) => Record<string, unknown>;

let s: TestServer;
let server: Server;
let origin: string;
let caBundle: string;
const calls: Call[] = [];
const responders = new Map<string, Responder>();
const callsTo = (path: string) => calls.filter((c) => c.url.split('?')[0] === path);

before(async () => {
  const ca = await generateCertificateAuthority({ commonName: 'sweep6-webhook-ca' });
  const serving = await issueServingCertificate(ca, { dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'] });
  caBundle = Buffer.from(ca.certPem).toString('base64');
  server = createServer({ cert: serving.certPem, key: serving.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const url = req.url ?? '';
      calls.push({ method: req.method ?? '', url, headers: req.headers, review });
      const respond = responders.get(url.split('?')[0]!) ?? (() => ({ allowed: true }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, ...respond(review) } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  s = await startTestServer();
});
after(async () => {
  await s?.stop();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

function webhook(name: string, path: string, rules: unknown[], extra: Record<string, unknown> = {}) {
  return { name, clientConfig: { url: `${origin}${path}`, caBundle }, sideEffects: 'None', admissionReviewVersions: ['v1'], rules, ...extra };
}

const configure = (collection: string, name: string, webhooks: unknown[]) => configureWebhooks(s, collection, name, webhooks);

async function namespace(name: string): Promise<void> {
  const r = await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { sweep6: name } } }) });
  assert.equal(r.status, 201, r.body);
}
const inNamespace = (ns: string) => ({ namespaceSelector: { matchLabels: { sweep6: ns } } });
const configMapRules = [{ operations: ['*'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];

describe('admission webhooks as Kubernetes calls them', () => {
  test('the HTTP request: a POST of JSON to the path with ?timeout, accepting JSON', async () => {
    await namespace('http');
    const remove = await configure(VALIDATING, 'http', [webhook('http.example.com', '/some//path/', configMapRules, { ...inNamespace('http'), timeoutSeconds: 7 })]);
    const r = await s.request('POST', '/api/v1/namespaces/http/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }) });
    assert.equal(r.status, 201, r.body);
    const call = callsTo('/some/path').at(-1)!;
    assert.equal(call.method, 'POST');
    assert.equal(call.url, '/some/path?timeout=7s');
    assert.equal(call.headers['content-type'], 'application/json');
    assert.equal(call.headers.accept, 'application/json, */*');
    assert.deepEqual(Object.keys(call.review), ['kind', 'apiVersion', 'request']);
    assert.deepEqual(Object.keys(call.review.request), [
      'uid', 'kind', 'resource', 'requestKind', 'requestResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options',
    ]);
    assert.match(call.review.request.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    await remove();
  });

  test('a create with generateName: no name in the request; mutating webhooks see the object as decoded, validating ones as stored', async () => {
    await namespace('generate');
    const remove = await configure(MUTATING, 'generate', [webhook('generate-m.example.com', '/generate-m', configMapRules, inNamespace('generate'))]);
    const removeV = await configure(VALIDATING, 'generate', [webhook('generate-v.example.com', '/generate-v', configMapRules, inNamespace('generate'))]);
    const r = await s.request('POST', '/api/v1/namespaces/generate/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' }, data: { a: 'b' } }) });
    assert.equal(r.status, 201, r.body);
    const generated = r.json().metadata.name;
    assert.match(generated, /^gen-[a-z0-9]{5}$/);
    const mutating = callsTo('/generate-m').at(-1)!.review.request;
    assert.equal('name' in mutating, false);
    assert.equal(mutating.namespace, 'generate');
    // Go's ObjectMeta always carries creationTimestamp: null until the object is stored.
    assert.deepEqual(mutating.object.metadata, { generateName: 'gen-', namespace: 'generate', creationTimestamp: null });
    const validating = callsTo('/generate-v').at(-1)!.review.request;
    assert.equal('name' in validating, false);
    assert.equal(validating.object.metadata.name, generated);
    assert.ok(validating.object.metadata.uid && validating.object.metadata.creationTimestamp);
    await removeV();
    await remove();
  });

  test('a patch that changes nothing does not make an IfNeeded webhook run again', async () => {
    await namespace('noop');
    responders.set('/noop-second', (review) => ({
      allowed: true,
      patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/data', value: review.request.object.data }])).toString('base64'), patchType: 'JSONPatch',
    }));
    const remove = await configure(MUTATING, 'noop', [
      webhook('noop-first.example.com', '/noop-first', configMapRules, { ...inNamespace('noop'), reinvocationPolicy: 'IfNeeded' }),
      webhook('noop-second.example.com', '/noop-second', configMapRules, inNamespace('noop')),
    ]);
    const r = await s.request('POST', '/api/v1/namespaces/noop/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } }) });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().metadata.creationTimestamp !== null, true);
    assert.deepEqual([callsTo('/noop-first').length, callsTo('/noop-second').length], [1, 1]);
    await remove();
  });

  test('userInfo carries the user\'s uid and extra; an update through the scale sub-resource names it', async () => {
    await namespace('users');
    const rules = [{ operations: ['*'], apiGroups: ['', 'apps'], apiVersions: ['v1'], resources: ['configmaps', 'deployments/scale'] }];
    const remove = await configure(VALIDATING, 'users', [webhook('users.example.com', '/users', rules, inNamespace('users'))]);
    const impersonate = { 'Impersonate-User': 'jane', 'Impersonate-Uid': 'jane-uid', 'Impersonate-Group': 'system:masters', 'Impersonate-Extra-Scopes': 'a' };
    const r = await s.request('POST', '/api/v1/namespaces/users/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }), headers: impersonate });
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(callsTo('/users').at(-1)!.review.request.userInfo, { username: 'jane', uid: 'jane-uid', groups: ['system:masters', 'system:authenticated'], extra: { scopes: ['a'] } });

    const deployment = await s.request('POST', '/apis/apps/v1/namespaces/users/deployments', { body: JSON.stringify({
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    }) });
    assert.equal(deployment.status, 201, deployment.body);
    const scaled = await s.request('PATCH', '/apis/apps/v1/namespaces/users/deployments/d/scale', { body: JSON.stringify({ spec: { replicas: 3 } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(scaled.status, 200, scaled.body);
    const scale = callsTo('/users').at(-1)!.review.request;
    assert.deepEqual([scale.kind, scale.resource, scale.subResource, scale.requestKind, scale.requestResource, scale.requestSubResource, scale.operation], [
      { group: 'autoscaling', version: 'v1', kind: 'Scale' }, { group: 'apps', version: 'v1', resource: 'deployments' }, 'scale',
      { group: 'autoscaling', version: 'v1', kind: 'Scale' }, { group: 'apps', version: 'v1', resource: 'deployments' }, 'scale', 'UPDATE',
    ]);
    assert.deepEqual([scale.object.kind, scale.object.apiVersion, scale.object.spec, scale.oldObject.spec], ['Scale', 'autoscaling/v1', { replicas: 3 }, { replicas: 1 }]);
    assert.deepEqual(scale.options, { kind: 'UpdateOptions', apiVersion: 'meta.svc.io/v1' });

    // A collection delete sends each object's DELETE, with its name and the request's options.
    const before = callsTo('/users').length;
    const deleted = await s.request('DELETE', '/api/v1/namespaces/users/configmaps?dryRun=All');
    assert.equal(deleted.status, 200, deleted.body);
    const del = callsTo('/users').slice(before).map((c) => c.review.request).find((q) => q.name === 'c');
    assert.deepEqual([del.operation, del.object, del.oldObject.metadata.name, del.dryRun, del.options], ['DELETE', null, 'c', true, { kind: 'DeleteOptions', apiVersion: 'meta.svc.io/v1', dryRun: ['All'] }]);
    await remove();
  });

  test('a denial whose Status fields are of the wrong type is an undecodable answer, subject to the failure policy', async () => {
    await namespace('status-types');
    const cases: [Record<string, unknown>, string][] = [
      [{ code: '403', message: 'string code' }, 'json: cannot unmarshal string into Go struct field Status.response.status.code of type int32'],
      [{ code: 403.5 }, 'json: cannot unmarshal number 403.5 into Go struct field Status.response.status.code of type int32'],
      [{ message: 5 }, 'json: cannot unmarshal number into Go struct field Status.response.status.message of type string'],
      [{ reason: ['Forbidden'] }, 'json: cannot unmarshal array into Go struct field Status.response.status.reason of type v1.StatusReason'],
      [{ details: 'none' }, 'json: cannot unmarshal string into Go struct field Status.response.status.details of type v1.StatusDetails'],
    ];
    let current: Record<string, unknown> = {};
    responders.set('/status-types', () => ({ allowed: false, status: current }));
    const remove = await configure(VALIDATING, 'status-types', [webhook('types.example.com', '/status-types', configMapRules, inNamespace('status-types'))]);
    for (const [i, [statusValue, error]] of cases.entries()) {
      current = statusValue;
      const r = await s.request('POST', '/api/v1/namespaces/status-types/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } }) });
      const message = `failed calling webhook "types.example.com": failed to call webhook: ${error}`;
      assert.equal(r.status, 500, r.body);
      assert.deepEqual(r.json(), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
    }
    // A well-typed denial keeps its code, reason and details.
    current = { code: 422, reason: 'Invalid', message: 'bad data', status: 'Success', details: { name: 'x', kind: 'ConfigMap', causes: [{ reason: 'FieldValueInvalid', message: 'm', field: 'data' }] } };
    const denied = await s.request('POST', '/api/v1/namespaces/status-types/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'typed' } }) });
    assert.deepEqual(denied.json(), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "types.example.com" denied the request: bad data', reason: 'Invalid',
      details: { name: 'x', kind: 'ConfigMap', causes: [{ reason: 'FieldValueInvalid', message: 'm', field: 'data' }] }, code: 422,
    });
    await remove();
    // Under failurePolicy Ignore the undecodable answer lets the request through.
    current = { code: '403' };
    const removeIgnore = await configure(VALIDATING, 'status-types-ignore', [webhook('types.example.com', '/status-types', configMapRules, { ...inNamespace('status-types'), failurePolicy: 'Ignore' })]);
    const ignored = await s.request('POST', '/api/v1/namespaces/status-types/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ignored' } }) });
    assert.equal(ignored.status, 201, ignored.body);
    await removeIgnore();
  });
});
