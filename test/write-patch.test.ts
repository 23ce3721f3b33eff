// End-to-end over raw HTTP: PATCH with JSON Patch and JSON Merge Patch — results, field validation of the
// patch and of the patched object, and every refusal with Kubernetes' code and text, writing nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { assertNothingWritten, call, configMapMarker, expectStatus, warnings, type RawResponse } from './support/write-helpers.ts';

const NS = 'write-patch';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const JSONPATCH = { 'content-type': 'application/json-patch+json' };

describe('patch', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => { await s.stop(); });

  const refused = (action: () => Promise<RawResponse>) => assertNothingWritten(s, CM, configMapMarker, action);
  const create = async (name: string, extra: object = {}) => {
    const r = await call(s, 'POST', CM, { metadata: { name }, ...extra });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const merge = (name: string, patch: unknown, query = '') => call(s, 'PATCH', `${CM}/${name}${query}`, JSON.stringify(patch), MERGE);
  const jsonPatch = (name: string, ops: unknown, query = '') => call(s, 'PATCH', `${CM}/${name}${query}`, JSON.stringify(ops), JSONPATCH);

  it('merge patch merges, null deletes', async () => {
    const old = await create('p1', { data: { a: '1', b: '2' } });
    const r = await merge('p1', { metadata: { labels: { x: 'y' } }, data: { a: null, c: '3' } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().data, { b: '2', c: '3' });
    assert.deepEqual(r.json().metadata.labels, { x: 'y' });
    assert.ok(Number(r.json().metadata.resourceVersion) > Number(old.metadata.resourceVersion));
    assert.equal((await call(s, 'GET', `${CM}/p1`)).body, r.body);
  });

  it('JSON patch applies its operations in order', async () => {
    await create('p2', { data: { a: '1' } });
    const r = await jsonPatch('p2', [{ op: 'add', path: '/data/b', value: '2' }, { op: 'remove', path: '/data/a' }, { op: 'test', path: '/data/b', value: '2' }]);
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().data, { b: '2' });
  });

  it('a patch that changes nothing writes nothing', async () => {
    const old = await create('p3', { data: { a: '1' } });
    const r = await refused(() => merge('p3', { data: { a: '1' } }));
    assert.equal(r.status, 200);
    assert.equal(r.json().metadata.resourceVersion, old.metadata.resourceVersion);
  });

  it('a failed test operation is 422', async () => {
    await create('p4', { data: { a: '1' } });
    const st = expectStatus(await refused(() => jsonPatch('p4', [{ op: 'replace', path: '/data/a', value: '9' }, { op: 'test', path: '/data/a', value: 'x' }])), 422, 'Invalid',
      'the server rejected our request due to an error in our request');
    assert.deepEqual(st.details, { causes: [{ reason: 'UnexpectedServerResponse', message: 'testing value /data/a failed: test failed' }] });
    const missing = expectStatus(await refused(() => jsonPatch('p4', [{ op: 'remove', path: '/data/zz' }])), 422, 'Invalid');
    assert.equal(missing.details.causes[0].message, 'error in remove for path: \'/data/zz\': Unable to remove nonexistent key: zz: missing value');
  });

  it('more than 10,000 JSON patch operations is 413', async () => {
    await create('p5');
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' }));
    expectStatus(await refused(() => jsonPatch('p5', ops)), 413, 'RequestEntityTooLarge', 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    const atLimit = await jsonPatch('p5', ops.slice(1));
    assert.equal(atLimit.status, 200, atLimit.body.slice(0, 300));
  });

  it('a patch of a missing object is 404, even a malformed one', async () => {
    expectStatus(await refused(() => merge('absent', { data: { a: '1' } })), 404, 'NotFound', 'configmaps "absent" not found');
    expectStatus(await refused(() => call(s, 'PATCH', `${CM}/absent`, '{bad', MERGE)), 404, 'NotFound', 'configmaps "absent" not found');
    // Leases are created by PUT, never by a JSON or merge patch.
    expectStatus(await call(s, 'PATCH', `/apis/coordination.svc.io/v1/namespaces/${NS}/leases/l`, '{}', MERGE), 404, 'NotFound', 'leases.coordination.svc.io "l" not found');
  });

  it('malformed patches are 400 with Kubernetes\' texts', async () => {
    await create('p6');
    expectStatus(await refused(() => call(s, 'PATCH', `${CM}/p6`, '{bad', MERGE)), 400, 'BadRequest', 'error decoding patch: invalid character \'b\' looking for beginning of object key string');
    expectStatus(await refused(() => call(s, 'PATCH', `${CM}/p6?fieldValidation=Ignore`, '{bad', MERGE)), 400, 'BadRequest', 'Invalid JSON Patch');
    expectStatus(await refused(() => call(s, 'PATCH', `${CM}/p6`, '"text"', MERGE)), 400, 'BadRequest', 'error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}');
    expectStatus(await refused(() => call(s, 'PATCH', `${CM}/p6`, '{"op":"add"}', JSONPATCH)), 400, 'BadRequest', 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp');
  });

  it('force is only for apply: 422 for any value on other patches', async () => {
    await create('p7');
    for (const value of ['true', 'false']) {
      const st = expectStatus(await refused(() => merge('p7', { data: { a: '1' } }, `?force=${value}`)), 422, 'Invalid', 'PatchOptions.meta.svc.io "" is invalid: force: Forbidden: may not be specified for non-apply patch');
      assert.deepEqual(st.details, { group: 'meta.svc.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' }] });
    }
  });

  it('a patch that sets a stale resourceVersion is 409; the current one applies', async () => {
    const old = await create('p8');
    await merge('p8', { data: { a: '1' } });
    expectStatus(await refused(() => merge('p8', { metadata: { resourceVersion: old.metadata.resourceVersion }, data: { a: '2' } })), 409, 'Conflict',
      'Operation cannot be fulfilled on configmaps "p8": the object has been modified; please apply your changes to the latest version and try again');
    const current = (await call(s, 'GET', `${CM}/p8`)).json().metadata.resourceVersion;
    const ok = await jsonPatch('p8', [{ op: 'replace', path: '/metadata/resourceVersion', value: current }, { op: 'replace', path: '/data/a', value: '3' }]);
    assert.equal(ok.status, 200, ok.body);
  });

  it('an unknown patch content type is 415 listing the accepted ones', async () => {
    await create('p9');
    for (const type of ['text/plain', 'application/json', 'application/yaml']) {
      expectStatus(await refused(() => call(s, 'PATCH', `${CM}/p9`, '{"data":{"a":"1"}}', { 'content-type': type })), 415, 'UnsupportedMediaType',
        /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json/);
    }
  });

  it('a patched object that does not decode is 422 patch: Invalid value', async () => {
    await create('p10', { data: { a: '1' } });
    const st = expectStatus(await refused(() => merge('p10', { data: { a: 5 } })), 422, 'Invalid');
    const current = (await call(s, 'GET', `${CM}/p10`)).json();
    const patched = JSON.stringify({ ...current, data: { a: 5 } });
    assert.equal(st.message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(patched)}: json: cannot unmarshal number into Go struct field ConfigMap.data of type string`);
    assert.deepEqual(st.details.causes, [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(patched)}: json: cannot unmarshal number into Go struct field ConfigMap.data of type string`, field: 'patch' }]);
    const kind = expectStatus(await refused(() => jsonPatch('p10', [{ op: 'replace', path: '/kind', value: 'Secret' }])), 422, 'Invalid');
    assert.match(kind.message, /: converting \(v1\.Secret\) to \(core\.ConfigMap\): unknown conversion$/);
    const notObject = expectStatus(await refused(() => jsonPatch('p10', [{ op: 'replace', path: '', value: [] }])), 422, 'Invalid');
    assert.match(notObject.message, /^ "" is invalid: patch: Invalid value: "\[\]": couldn't get version\/kind; json parse error: json: cannot unmarshal array into Go value of type struct/);
  });

  it('a patch may not rename or move the object', async () => {
    await create('p11');
    expectStatus(await refused(() => merge('p11', { metadata: { name: 'renamed' } })), 400, 'BadRequest', 'the name of the object (renamed) does not match the name on the URL (p11)');
    expectStatus(await refused(() => merge('p11', { metadata: { namespace: 'default' } })), 400, 'BadRequest', 'the namespace of the object (default) does not match the namespace on the request (write-patch)');
    expectStatus(await refused(() => jsonPatch('p11', [{ op: 'remove', path: '/metadata/name' }])), 400, 'BadRequest', 'the name of the object () does not match the name on the URL (p11)');
  });

  it('fieldValidation: the patch\'s and the object\'s strict errors, warned or refused', async () => {
    await create('p12');
    const warned = await merge('p12', { data: { a: '1' }, spec: { foo: 1 } });
    assert.equal(warned.status, 200);
    assert.deepEqual(warnings(warned), ['unknown field "spec"']);
    const dup = await call(s, 'PATCH', `${CM}/p12`, '{"data":{"a":"2"},"data":{"a":"3"}}', MERGE);
    assert.deepEqual(warnings(dup), ['duplicate field "data"']);
    assert.deepEqual(dup.json().data, { a: '3' });
    const ops = await jsonPatch('p12', [{ op: 'add', path: '/spec', value: { foo: 1 }, extra: true }]);
    assert.deepEqual(warnings(ops), ['json patch unknown field "[0].extra"', 'unknown field "spec"']);
    const strict = expectStatus(await refused(() => jsonPatch('p12', [{ op: 'add', path: '/spec', value: { foo: 1 }, extra: true }], '?fieldValidation=Strict')), 422, 'Invalid');
    assert.match(strict.message, /^ "" is invalid: patch: Invalid value: ".*": strict decoding error: json patch unknown field "\[0\]\.extra", unknown field "spec"$/);
    const strictDup = expectStatus(await refused(() => call(s, 'PATCH', `${CM}/p12?fieldValidation=Strict`, '{"data":{"a":"4"},"data":{"a":"5"}}', MERGE)), 422, 'Invalid');
    assert.match(strictDup.message, /: strict decoding error: duplicate field "data"$/);
    const ignored = await merge('p12', { spec: { foo: 1 } }, '?fieldValidation=Ignore');
    assert.equal(ignored.status, 200);
    assert.deepEqual(warnings(ignored), []);
  });

  it('dryRun=All answers the patched object and stores nothing', async () => {
    const old = await create('p13', { data: { a: '1' } });
    const r = await refused(() => merge('p13', { data: { a: '2' } }, '?dryRun=All'));
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().data, { a: '2' });
    assert.equal(r.json().metadata.resourceVersion, old.metadata.resourceVersion);
    assert.deepEqual((await call(s, 'GET', `${CM}/p13`)).json().data, { a: '1' });
  });

  it('validation of the patched object is a 422 on the kind', async () => {
    await create('p14');
    expectStatus(await refused(() => merge('p14', { metadata: { labels: { 'bad key': 'v' } } })), 422, 'Invalid', /^ConfigMap "p14" is invalid: metadata\.labels: Invalid value: "bad key": /);
  });

  it('PATCH of a collection is 405', async () => {
    expectStatus(await call(s, 'PATCH', CM, '{}', MERGE), 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  });

  it('Secret stringData through a merge patch lands in data', async () => {
    const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
    assert.equal((await call(s, 'POST', SECRETS, { metadata: { name: 'ps' }, stringData: { a: 'A' } })).status, 201);
    const r = await call(s, 'PATCH', `${SECRETS}/ps`, JSON.stringify({ stringData: { b: 'B' } }), MERGE);
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().stringData, undefined);
    assert.deepEqual(r.json().data, { a: Buffer.from('A').toString('base64'), b: Buffer.from('B').toString('base64') });
  });
});
