// End-to-end over raw HTTP: the query parameters of the write verbs — accepted where the spec lists them,
// bad values refused with 400 (422 for fieldManager and force, as Kubernetes validates them), unknown
// parameters and other verbs' parameters ignored.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { assertNothingWritten, call, configMapMarker, expectStatus, type RawResponse } from './support/write-helpers.ts';

const NS = 'write-params';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const MERGE = { 'content-type': 'application/merge-patch+json' };

describe('write query parameters', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    assert.equal((await call(s, 'POST', CM, { metadata: { name: 'target' } })).status, 201);
  });
  after(async () => { await s.stop(); });

  const refused = (action: () => Promise<RawResponse>) => assertNothingWritten(s, CM, configMapMarker, action);

  it('every listed parameter is accepted on its verbs', async () => {
    const write = 'pretty=true&dryRun=All&fieldManager=tester&fieldValidation=Strict';
    assert.equal((await call(s, 'POST', `${CM}?${write}`, { metadata: { name: 'p1' } })).status, 201);
    assert.equal((await call(s, 'PUT', `${CM}/target?${write}`, { metadata: { name: 'target' } })).status, 200);
    assert.equal((await call(s, 'PATCH', `${CM}/target?${write}`, '{"data":{"a":"b"}}', MERGE)).status, 200);
    const del = 'pretty=1&dryRun=All&gracePeriodSeconds=30&propagationPolicy=Foreground&ignoreStoreReadErrorWithClusterBreakingPotential=false';
    assert.equal((await call(s, 'DELETE', `${CM}/target?${del}`)).status, 200);
    const dc = `${del}&labelSelector=a%3Db&fieldSelector=metadata.name%3Dx&limit=10&resourceVersion=0&resourceVersionMatch=NotOlderThan&timeoutSeconds=5`;
    const r = await call(s, 'DELETE', `${CM}?${dc}`);
    assert.equal(r.status, 200, r.body);
    assert.equal((await call(s, 'GET', `${CM}/target`)).status, 200);
  });

  it('unknown parameters, and parameters of other verbs, are ignored', async () => {
    assert.equal((await call(s, 'POST', `${CM}?colour=blue&limit=abc&watch=maybe&propagationPolicy=x&gracePeriodSeconds=y`, { metadata: { name: 'p2' } })).status, 201);
    assert.equal((await call(s, 'PUT', `${CM}/p2?timeoutSeconds=z&labelSelector===`, { metadata: { name: 'p2' } })).status, 200);
    assert.equal((await call(s, 'DELETE', `${CM}/p2?fieldValidation=nope&fieldManager=%07&force=maybe`)).status, 200);
  });

  it('booleans read as Go reads them: only 0, f and false are false', async () => {
    // pretty alone is read by strconv.ParseBool (isPrettyPrint): a value it cannot parse is false.
    const pretty = await call(s, 'POST', `${CM}?pretty=T&dryRun=All`, { metadata: { name: 'p3' } });
    assert.match(pretty.body, /^\{\n {2}"kind"/);
    const plain = await call(s, 'POST', `${CM}?pretty=FALSE&dryRun=All`, { metadata: { name: 'p3' } });
    assert.match(plain.body, /^\{"kind"/);
    assert.match((await call(s, 'POST', `${CM}?pretty=yes&dryRun=All`, { metadata: { name: 'p3' } })).body, /^\{"kind"/);
  });

  it('an unknown value of an enumerated option is 422 for the verb\'s options kind, and writes nothing', async () => {
    expectStatus(await refused(() => call(s, 'POST', `${CM}?fieldValidation=Loose`, { metadata: { name: 'e1' } })), 422, 'Invalid',
      'CreateOptions.meta.svc.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"');
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/target?fieldValidation=strict`, { metadata: { name: 'target' }, data: { x: '1' } })), 422, 'Invalid', /^UpdateOptions\.meta\.svc\.io "" is invalid: fieldValidation: /);
    expectStatus(await refused(() => call(s, 'PATCH', `${CM}/target?fieldValidation=Loose`, '{"data":{"x":"1"}}', MERGE)), 422, 'Invalid', /^PatchOptions\.meta\.svc\.io /);
    for (const [method, path, body, kind] of [['POST', CM, { metadata: { name: 'e2' } }, 'CreateOptions'], ['PUT', `${CM}/target`, { metadata: { name: 'target' }, data: { y: '1' } }, 'UpdateOptions'], ['DELETE', `${CM}/target`, undefined, 'DeleteOptions'], ['DELETE', CM, undefined, 'DeleteOptions']] as const) {
      const status = expectStatus(await refused(() => call(s, method, `${path}?dryRun=true`, body)), 422, 'Invalid', `${kind}.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"true"}: supported values: "All"`);
      assert.deepEqual(status.details, { group: 'meta.svc.io', kind, causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: []string{"true"}: supported values: "All"', field: 'dryRun' }] });
    }
    expectStatus(await refused(() => call(s, 'PATCH', `${CM}/target?dryRun=All&dryRun=Some`, '{"data":{"x":"1"}}', MERGE)), 422, 'Invalid', 'PatchOptions.meta.svc.io "" is invalid: dryRun: Unsupported value: []string{"All", "Some"}: supported values: "All"');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/target?propagationPolicy=orphan`)), 422, 'Invalid',
      'DeleteOptions.meta.svc.io "" is invalid: propagationPolicy: Unsupported value: "orphan": supported values: "Foreground", "Background", "Orphan", "nil"');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}?resourceVersion=1&resourceVersionMatch=Newest`)), 400, 'BadRequest',
      'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan"');
    expectStatus(await call(s, 'GET', `${CM}?includeObject=All`), 400, 'BadRequest',
      'Unable to convert to Table as requested: includeObject: Invalid value: "All": must be \'Metadata\', \'Object\', \'None\', or empty');
  });

  it('integers are Go integers: anything else is 400', async () => {
    expectStatus(await call(s, 'GET', `${CM}?limit=ten`), 400, 'BadRequest', 'strconv.ParseInt: parsing "ten": invalid syntax');
    expectStatus(await call(s, 'GET', `${CM}?timeoutSeconds=1.5`), 400, 'BadRequest', 'strconv.ParseInt: parsing "1.5": invalid syntax');
    expectStatus(await call(s, 'GET', `${CM}?limit=99999999999999999999`), 400, 'BadRequest', 'strconv.ParseInt: parsing "99999999999999999999": value out of range');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}/target?gracePeriodSeconds=1e3`)), 400, 'BadRequest', 'strconv.ParseInt: parsing "1e3": invalid syntax');
    expectStatus(await refused(() => call(s, 'DELETE', `${CM}?timeoutSeconds=x`)), 400, 'BadRequest', 'strconv.ParseInt: parsing "x": invalid syntax');
    assert.equal((await call(s, 'GET', `${CM}?limit=%2B2&timeoutSeconds=-1`)).status, 200);
  });

  it('fieldManager: at most 128 bytes of printable characters (422 on the verb\'s options)', async () => {
    const long = 'm'.repeat(129);
    expectStatus(await refused(() => call(s, 'POST', `${CM}?fieldManager=${long}`, { metadata: { name: 'f1' } })), 422, 'Invalid',
      'CreateOptions.meta.svc.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/target?fieldManager=${long}`, { metadata: { name: 'target' }, data: { z: '1' } })), 422, 'Invalid',
      'UpdateOptions.meta.svc.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    const st = expectStatus(await refused(() => call(s, 'PATCH', `${CM}/target?fieldManager=a%09b`, '{"data":{"z":"1"}}', MERGE)), 422, 'Invalid',
      'PatchOptions.meta.svc.io "" is invalid: fieldManager: Invalid value: "a\\tb": invalid character U+0009 (at position 1)');
    assert.deepEqual(st.details, { group: 'meta.svc.io', kind: 'PatchOptions', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "a\\tb": invalid character U+0009 (at position 1)', field: 'fieldManager' }] });
    assert.equal((await call(s, 'POST', `${CM}?fieldManager=${'m'.repeat(128)}`, { metadata: { name: 'f2' } })).status, 201);
    assert.equal((await call(s, 'POST', `${CM}?fieldManager=${encodeURIComponent('kubectl édit ✓')}`, { metadata: { name: 'f3' } })).status, 201);
  });
});
