// End-to-end over raw HTTP: POST (create) — metadata as Kubernetes fills it, and every refusal with its
// code, reason and text, each shown to write nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { assertNothingWritten, call, callChunked, configMapMarker, expectStatus, warnings } from './support/write-helpers.ts';

const NS = 'write-create';
const CM = `/api/v1/namespaces/${NS}/configmaps`;

describe('create', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => { await s.stop(); });

  /** Asserts that `action` is refused and leaves the configmaps of the namespace untouched. */
  const refused = (action: () => Promise<ReturnType<typeof call> extends Promise<infer R> ? R : never>) =>
    assertNothingWritten(s, CM, configMapMarker, action);

  it('fills the system metadata and takes the namespace from the URL', async () => {
    const r = await call(s, 'POST', CM, {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: { name: 'filled', uid: 'client-uid', creationTimestamp: '2000-01-01T00:00:00Z', resourceVersion: '0', deletionTimestamp: '2000-01-01T00:00:00Z', deletionGracePeriodSeconds: 3, selfLink: '/x' },
      data: { a: '1' },
    });
    assert.equal(r.status, 201, r.body);
    const obj = r.json();
    assert.deepEqual(Object.keys(obj).slice(0, 3), ['kind', 'apiVersion', 'metadata']);
    assert.equal(obj.metadata.namespace, NS);
    assert.match(obj.metadata.uid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(obj.metadata.uid, 'client-uid');
    assert.notEqual(obj.metadata.creationTimestamp, '2000-01-01T00:00:00Z');
    assert.match(obj.metadata.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.match(obj.metadata.resourceVersion, /^[1-9][0-9]*$/);
    // (A resourceVersion above 0 is refused: see conformance-sweep-4-protocol.test.ts.)
    assert.notEqual(obj.metadata.resourceVersion, '0');
    for (const f of ['deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink']) assert.equal(obj.metadata[f], undefined, f);
    // The stored object is what the create answered.
    const got = await call(s, 'GET', `${CM}/filled`);
    assert.equal(got.body, r.body);
  });

  it('a namespace in the body must be the URL\'s', async () => {
    assert.equal((await call(s, 'POST', CM, { metadata: { name: 'same-ns', namespace: NS } })).status, 201);
    const r = await refused(() => call(s, 'POST', CM, { metadata: { name: 'other-ns', namespace: 'default' } }));
    expectStatus(r, 400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
  });

  it('a cluster-scoped object drops a namespace from its body', async () => {
    const r = await call(s, 'POST', '/api/v1/nodes', { metadata: { name: 'node-ns', namespace: 'whatever' } });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().metadata.namespace, undefined);
  });

  it('generateName appends five characters of Kubernetes\' alphabet', async () => {
    const names = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const r = await call(s, 'POST', CM, { metadata: { generateName: 'gen-' } });
      assert.equal(r.status, 201, r.body);
      const { name, generateName } = r.json().metadata;
      assert.equal(generateName, 'gen-');
      assert.match(name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      names.add(name);
    }
    assert.equal(names.size, 5);
    // A long prefix is cut so that the name stays a DNS label.
    const long = await call(s, 'POST', CM, { metadata: { generateName: 'x'.repeat(70) } });
    assert.equal(long.status, 201, long.body);
    assert.equal(long.json().metadata.name.length, 63);
    // A name given beside generateName wins.
    const named = await call(s, 'POST', CM, { metadata: { name: 'given', generateName: 'gen-' } });
    assert.equal(named.json().metadata.name, 'given');
  });

  it('an invalid generateName is a 422 on generateName', async () => {
    const r = await refused(() => call(s, 'POST', CM, { metadata: { generateName: 'Bad_' } }));
    const st = expectStatus(r, 422, 'Invalid');
    assert.match(st.message, /^ConfigMap "Bad_[a-z0-9]{5}" is invalid: \[metadata\.generateName: Invalid value: "Bad_": /);
  });

  it('a missing name is 422 name or generateName is required', async () => {
    const r = await refused(() => call(s, 'POST', CM, { metadata: { labels: { a: 'b' } } }));
    const st = expectStatus(r, 422, 'Invalid', 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
    assert.deepEqual(st.details, { kind: 'ConfigMap', causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }] });
  });

  it('an existing name is 409 AlreadyExists', async () => {
    assert.equal((await call(s, 'POST', CM, { metadata: { name: 'dup' } })).status, 201);
    const r = await refused(() => call(s, 'POST', CM, { metadata: { name: 'dup' }, data: { changed: 'yes' } }));
    const st = expectStatus(r, 409, 'AlreadyExists', 'configmaps "dup" already exists');
    assert.deepEqual(st.details, { name: 'dup', kind: 'configmaps' });
    assert.equal((await call(s, 'GET', `${CM}/dup`)).json().data, undefined);
  });

  it('an existing object being deleted: the 409 says so', async () => {
    assert.equal((await call(s, 'POST', CM, { metadata: { name: 'going', finalizers: ['example.com/hold'] } })).status, 201);
    assert.equal((await call(s, 'DELETE', `${CM}/going`)).status, 200);
    const r = await call(s, 'POST', CM, { metadata: { name: 'going' } });
    expectStatus(r, 409, 'AlreadyExists', 'object is being deleted: configmaps "going" already exists');
  });

  it('labels and annotations: key and value syntax, 256 KiB of annotations', async () => {
    const bad = await refused(() => call(s, 'POST', CM, { metadata: { name: 'labels', labels: { 'a b': 'ok', ok: 'not ok!' } } }));
    const st = expectStatus(bad, 422, 'Invalid');
    assert.deepEqual(st.details.causes.map((c: any) => c.field), ['metadata.labels', 'metadata.labels']);
    assert.match(st.message, /metadata\.labels: Invalid value: "a b": name part must consist of alphanumeric characters/);
    assert.match(st.message, /metadata\.labels: Invalid value: "not ok!": a valid label must be an empty string or consist of alphanumeric characters/);
    const annotations = { big: 'x'.repeat(256 * 1024) };
    const tooBig = await refused(() => call(s, 'POST', CM, { metadata: { name: 'annotations', annotations } }));
    expectStatus(tooBig, 422, 'Invalid', 'ConfigMap "annotations" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes');
    const fits = await call(s, 'POST', CM, { metadata: { name: 'annotations', annotations: { big: 'x'.repeat(256 * 1024 - 3) } } });
    assert.equal(fits.status, 201);
  });

  it('ownerReferences and finalizers are validated and kept', async () => {
    const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'filled', uid: '6b8e5c1e-1f4e-4a43-9a53-5a8a3b0c2f11', controller: true };
    const ok = await call(s, 'POST', CM, { metadata: { name: 'owned', ownerReferences: [owner], finalizers: ['example.com/f'] } });
    assert.equal(ok.status, 201, ok.body);
    assert.deepEqual(ok.json().metadata.ownerReferences, [owner]);
    assert.deepEqual(ok.json().metadata.finalizers, ['example.com/f']);
    const noUid = await refused(() => call(s, 'POST', CM, { metadata: { name: 'owned2', ownerReferences: [{ ...owner, uid: '' }] } }));
    expectStatus(noUid, 422, 'Invalid', 'ConfigMap "owned2" is invalid: metadata.ownerReferences.uid: Invalid value: "": must not be empty');
    const badFinalizer = await refused(() => call(s, 'POST', CM, { metadata: { name: 'owned3', finalizers: ['no/good/name'] } }));
    expectStatus(badFinalizer, 422, 'Invalid', /^ConfigMap "owned3" is invalid: metadata\.finalizers: Invalid value: "no\/good\/name": /);
  });

  it('malformed JSON: the object provided is unrecognized', async () => {
    const r = await refused(() => call(s, 'POST', CM, '{"metadata":{"name":"x"}'));
    expectStatus(r, 400, 'BadRequest', 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"metadata":{"name":"x"})');
    const bad = await refused(() => call(s, 'POST', CM, '{"metadata": nope}'));
    expectStatus(bad, 400, 'BadRequest', 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: invalid character \'o\' in literal null (expecting \'u\') ({"metadata": nope})');
    const empty = await refused(() => call(s, 'POST', CM, ''));
    expectStatus(empty, 400, 'BadRequest', 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: unexpected end of JSON input (<empty>)');
    const list = await refused(() => call(s, 'POST', CM, '[1]'));
    expectStatus(list, 400, 'BadRequest', 'the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b315d)');
  });

  it('a body of another kind or version than the URL is a 400', async () => {
    const secret = await refused(() => call(s, 'POST', CM, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'k1' } }));
    expectStatus(secret, 400, 'BadRequest', 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion');
    const lease = await refused(() => call(s, 'POST', CM, { apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: 'k2' } }));
    expectStatus(lease, 400, 'BadRequest', 'Lease in version "v1" cannot be handled as a ConfigMap: converting (v1.Lease) to (core.ConfigMap): unknown conversion');
    const v2 = await refused(() => call(s, 'POST', CM, { apiVersion: 'v2', kind: 'ConfigMap', metadata: { name: 'k3' } }));
    expectStatus(v2, 400, 'BadRequest', /^ConfigMap in version "v2" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "v2" in scheme /);
    const group = await refused(() => call(s, 'POST', CM, { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'k4' } }));
    expectStatus(group, 400, 'BadRequest', /^ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps\/v1" in scheme /);
    const unknown = await refused(() => call(s, 'POST', CM, { kind: 'Gadget', metadata: { name: 'k5' } }));
    expectStatus(unknown, 400, 'BadRequest', /^Gadget in version "v1" cannot be handled as a ConfigMap: no kind "Gadget" is registered for version "v1" in scheme /);
    // Absent apiVersion and kind take the URL's.
    const bare = await call(s, 'POST', CM, { metadata: { name: 'bare' } });
    assert.equal(bare.status, 201);
    assert.equal(bare.json().kind, 'ConfigMap');
    assert.equal(bare.json().apiVersion, 'v1');
  });

  it('fields of the wrong type are a 400 with Go\'s decoder text', async () => {
    const meta = await refused(() => call(s, 'POST', CM, { metadata: 'x' }));
    expectStatus(meta, 400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal string into Go struct field ConfigMap.metadata of type v1.ObjectMeta');
    const data = await refused(() => call(s, 'POST', CM, { metadata: { name: 't' }, data: 5 }));
    expectStatus(data, 400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type map[string]string');
  });

  it('a body over 3 MiB is 413', async () => {
    const big = JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } });
    const r = await refused(() => call(s, 'POST', CM, big));
    expectStatus(r, 413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
    // Without a Content-Length, the limit holds while the body streams in.
    function* chunks() {
      yield '{"metadata":{"name":"big"},"data":{"a":"';
      for (let i = 0; i < 64; i++) yield 'x'.repeat(64 * 1024);
      yield '"}}';
    }
    const chunked = await refused(() => callChunked(s, CM, chunks()));
    expectStatus(chunked, 413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728');
    // Just under the limit is read (and then refused by validation: a ConfigMap holds at most 1 MiB).
    const under = await refused(() => call(s, 'POST', CM, JSON.stringify({ metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024 - 100) } })));
    expectStatus(under, 422, 'Invalid', 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes');
  });

  it('an unknown resource is 404, an unsupported method 405', async () => {
    expectStatus(await call(s, 'POST', `/api/v1/namespaces/${NS}/gadgets`, {}), 404, 'NotFound', 'the server could not find the requested resource');
    expectStatus(await call(s, 'POST', '/apis/nowhere.svc.io/v1/things', {}), 404, 'NotFound', 'the server could not find the requested resource');
    // No route serves the method on the path: go-restful's 405, without a kind.
    const noRoute = 'the server does not allow this method on the requested resource';
    expectStatus(await call(s, 'POST', `${CM}/named`, { metadata: { name: 'named' } }), 405, 'MethodNotAllowed', noRoute);
    expectStatus(await call(s, 'POST', '/api/v1/configmaps', { metadata: { name: 'x' } }), 405, 'MethodNotAllowed', noRoute);
    expectStatus(await call(s, 'PUT', CM, { metadata: { name: 'x' } }), 405, 'MethodNotAllowed', noRoute);
    expectStatus(await call(s, 'OPTIONS', CM), 405, 'MethodNotAllowed', noRoute);
  });

  it('creating in a missing namespace is 404 and writes nothing', async () => {
    const r = await refused(() => call(s, 'POST', '/api/v1/namespaces/absent/configmaps', { metadata: { name: 'x' } }));
    expectStatus(r, 404, 'NotFound', 'namespaces "absent" not found');
  });

  it('dryRun=All validates everything and stores nothing; its answer has no resourceVersion', async () => {
    const r = await refused(() => call(s, 'POST', `${CM}?dryRun=All`, { metadata: { name: 'dry', labels: { a: 'b' } }, data: { k: 'v' } }));
    assert.equal(r.status, 201, r.body);
    const obj = r.json();
    assert.equal(obj.metadata.name, 'dry');
    assert.equal(obj.metadata.resourceVersion, undefined);
    assert.ok(obj.metadata.uid);
    assert.ok(obj.metadata.creationTimestamp);
    expectStatus(await call(s, 'GET', `${CM}/dry`), 404, 'NotFound', 'configmaps "dry" not found');
    const gen = await refused(() => call(s, 'POST', `${CM}?dryRun=All`, { metadata: { generateName: 'dry-' } }));
    assert.match(gen.json().metadata.name, /^dry-[a-z0-9]{5}$/);
    // Refusals still happen.
    expectStatus(await call(s, 'POST', `${CM}?dryRun=All`, { metadata: { name: 'dup' } }), 409, 'AlreadyExists', 'configmaps "dup" already exists');
    expectStatus(await call(s, 'POST', `${CM}?dryRun=All`, { metadata: { name: 'Bad' } }), 422, 'Invalid');
    expectStatus(await call(s, 'POST', `${CM}?dryRun=foo`, { metadata: { name: 'dry' } }), 422, 'Invalid', 'CreateOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"foo"}: supported values: "All"');
  });

  it('warnings: unknown and duplicate fields in the decoder\'s order; sent with a refusal that comes after them too', async () => {
    const ok = await call(s, 'POST', CM, { metadata: { name: 'warned' }, spec: { foo: 1 } });
    assert.equal(ok.status, 201);
    assert.deepEqual(warnings(ok), ['unknown field "spec"']);
    // In the order Go's decoder meets them: the repeated key before the later unknown field.
    const ordered = await call(s, 'POST', CM, '{"metadata":{"name":"ordered"},"data":{},"data":{"a":"b"},"zzz":1}');
    assert.equal(ordered.status, 201);
    assert.deepEqual(warnings(ordered), ['duplicate field "data"', 'unknown field "zzz"']);
    assert.deepEqual(ordered.json().data, { a: 'b' });
    const strict = await call(s, 'POST', `${CM}?fieldValidation=Strict`, '{"metadata":{"name":"ordered2"},"data":{},"data":{"a":"b"},"zzz":1}');
    expectStatus(strict, 400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data", unknown field "zzz"');
    assert.equal(strict.headers.warning, undefined);
    // Kubernetes writes each warning to the answer's headers as it is recorded: a write refused after its
    // body was decoded keeps the decoder's warnings.
    const failed = await call(s, 'POST', CM, { metadata: { name: 'Warned!' }, spec: { foo: 1 } });
    assert.equal(failed.status, 422);
    assert.deepEqual(warnings(failed), ['unknown field "spec"']);
  });
});
