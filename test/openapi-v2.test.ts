// End-to-end: /openapi/v2 in gnostic's protobuf form, as kubectl fetches it when the v3 document cannot
// answer its field-validation question (kinds without a PATCH operation, `kind: List`), and kubectl's
// client-side validation reading it.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest } from 'node:https';
import { gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { decodeOpenApiV2, withoutZeroFields } from '../src/server/openapi-v2-protobuf.fixture.ts';

const KUBECTL_ACCEPT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const PROTOBUF_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

interface RawAnswer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

function rawGet(s: TestServer, path: string, headers: Record<string, string>): Promise<RawAnswer> {
  const url = new URL(path, s.url);
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers, agent: false, ...s.credentials }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const SELF_SUBJECT_REVIEW = '{"apiVersion":"authentication.svc.io/v1","kind":"SelfSubjectReview"}';
const TOKEN_REVIEW = '{"apiVersion":"authentication.svc.io/v1","kind":"TokenReview","spec":{"token":"not-a-token"}}';
const ACCESS_REVIEW = (extra = '') => `{"apiVersion":"authorization.svc.io/v1","kind":"SelfSubjectAccessReview","spec":{"resourceAttributes":{"verb":"get","resource":"pods"${extra}}}}`;

describe('/openapi/v2 as protobuf', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('answers kubectl\'s Accept with the gnostic Document of the JSON document, sharing its ETag', async () => {
    const json = await rawGet(s, '/openapi/v2', { accept: 'application/json' });
    assert.equal(json.status, 200);
    assert.equal(json.headers['content-type'], 'application/json');
    const proto = await rawGet(s, '/openapi/v2', { accept: KUBECTL_ACCEPT });
    assert.equal(proto.status, 200);
    assert.equal(proto.headers['content-type'], PROTOBUF_TYPE);
    assert.equal(proto.headers.vary, 'Accept, Accept-Encoding');
    assert.match(String(proto.headers.etag), /^"[0-9A-F]{128}"$/);
    assert.equal(proto.headers.etag, json.headers.etag);
    const doc = JSON.parse(json.body.toString('utf8'));
    assert.deepEqual(decodeOpenApiV2(proto.body), withoutZeroFields(doc));

    const current = await rawGet(s, '/openapi/v2', { accept: PROTOBUF_TYPE, 'accept-encoding': 'gzip' });
    assert.equal(current.status, 200);
    assert.equal(current.headers['content-encoding'], 'gzip');
    assert.equal(current.headers['content-type'], PROTOBUF_TYPE);
    assert.deepEqual(gunzipSync(current.body), proto.body);
  });

  it('answers 304 for a matching If-None-Match and 406 for a type it does not serve', async () => {
    const first = await rawGet(s, '/openapi/v2', { accept: KUBECTL_ACCEPT });
    const again = await rawGet(s, '/openapi/v2', { accept: KUBECTL_ACCEPT, 'if-none-match': String(first.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, first.headers.etag);
    const stale = await rawGet(s, '/openapi/v2', { accept: KUBECTL_ACCEPT, 'if-none-match': '"0"' });
    assert.equal(stale.status, 200);
    const refused = await rawGet(s, '/openapi/v2', { accept: 'text/html' });
    assert.equal(refused.status, 406);
    assert.equal(refused.body.length, 0);
  });

  it('answers 304 for a v3 group-version document the client holds', async () => {
    const first = await rawGet(s, '/openapi/v3/api/v1', { accept: 'application/json' });
    assert.equal(first.status, 200);
    const again = await rawGet(s, '/openapi/v3/api/v1', { accept: 'application/json', 'if-none-match': String(first.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, first.headers.etag);
    assert.equal((await rawGet(s, '/openapi/v3/api/v1', { accept: 'application/json', 'if-none-match': '"0"' })).status, 200);
  });

  it('kubectl validates a List on the client with the v2 schema', async () => {
    let r = await s.kubectl(['create', '-f', '-'], '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"listed","namespace":"default"},"bogus":1}]}');
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'error: error validating "STDIN": error validating data: ValidationError(ConfigMap): unknown field "bogus" in io.svc.api.core.v1.ConfigMap; if you choose to ignore these errors, turn validation off with --validate=false\n');
    r = await s.kubectl(['create', '-f', '-'], '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"listed","namespace":"default"}}]}');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/listed created\n');
    r = await s.kubectl(['apply', '-f', '-'], '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"applied","namespace":"default"},"data":{"a":"1"}}]}');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/applied created\n');
  });

  it('a kind with a PATCH operation still gets the server\'s strict field validation', async () => {
    const manifest = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"strict","namespace":"default"},"bogus":1}';
    const message = 'Error from server (BadRequest): error when creating "STDIN": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"\n';
    let r = await s.kubectl(['create', '-f', '-'], manifest);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, message);
    r = await s.kubectl(['create', '--validate=strict', '-f', '-'], manifest);
    assert.equal(r.stderr, message);
    r = await s.kubectl(['create', '--validate=warn', '-f', '-'], manifest);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'configmap/strict created\n');
    assert.equal(r.stderr, 'Warning: unknown field "bogus"\n');
  });

  // For a kind without a PATCH operation kubectl validates on the client, after asking the CRD list
  // (as apiextensions.k8s.io) whether the kind is a custom one.
  describe('review kinds (no PATCH operation)', () => {
    const kubectl = (args: string[], input: string) => s.kubectl(args, input);

    it('create -f succeeds with default validation and prints what Kubernetes prints', async () => {
      let r = await kubectl(['create', '-f', '-'], SELF_SUBJECT_REVIEW);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'selfsubjectreview.authentication.svc.io/<unknown> created\n');
      r = await kubectl(['create', '-f', '-', '-o', 'jsonpath={.status.userInfo.username}'], SELF_SUBJECT_REVIEW);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'capstan-admin');
      r = await kubectl(['create', '-f', '-'], TOKEN_REVIEW);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'tokenreview.authentication.svc.io/<unknown> created\n');
      r = await kubectl(['create', '--validate=strict', '-f', '-'], ACCESS_REVIEW());
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'selfsubjectaccessreview.authorization.svc.io/<unknown> created\n');
    });

    it('an unknown field is reported by the client-side validation, or warned about with --validate=warn', async () => {
      let r = await kubectl(['create', '-f', '-'], ACCESS_REVIEW(',"bogus":1'));
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'error: error validating "STDIN": error validating data: ValidationError(SelfSubjectAccessReview.spec.resourceAttributes): unknown field "bogus" in io.svc.api.authorization.v1.ResourceAttributes; if you choose to ignore these errors, turn validation off with --validate=false\n');
      r = await kubectl(['create', '--validate=warn', '-f', '-'], ACCESS_REVIEW(',"bogus":1'));
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'selfsubjectaccessreview.authorization.svc.io/<unknown> created\n');
      assert.match(r.stderr, /cannot perform warn validation if server-side field validation is unsupported, skipping validation\n/);
      assert.match(r.stderr, /Warning: unknown field "spec\.resourceAttributes\.bogus"\n$/);
    });

    it('apply -f of a nameless review fails as kubectl fails for it, after validation', async () => {
      const r = await kubectl(['apply', '-f', '-'], SELF_SUBJECT_REVIEW);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'error: error when retrieving current configuration of:\nResource: "authentication.svc.io/v1, Resource=selfsubjectreviews", GroupVersionKind: "authentication.svc.io/v1, Kind=SelfSubjectReview"\nName: "", Namespace: ""\nfrom server for: "STDIN": resource name may not be empty\n');
    });
  });
});
