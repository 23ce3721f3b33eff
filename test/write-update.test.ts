// End-to-end over raw HTTP: PUT (update) and the status sub-resource — name and namespace checks,
// optimistic concurrency, no-op updates, create-on-update, what each write may change; refusals write nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { assertNothingWritten, call, configMapMarker, expectStatus, type RawResponse } from './support/write-helpers.ts';

const NS = 'write-update';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const LEASES = `/apis/coordination.svc.io/v1/namespaces/${NS}/leases`;
const NODES = '/api/v1/nodes';

describe('update', () => {
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

  it('writes the new object with a new resourceVersion, keeping identity and creation time', async () => {
    const old = await create('u1', { data: { a: '1' } });
    const r = await call(s, 'PUT', `${CM}/u1`, { metadata: { name: 'u1', resourceVersion: old.metadata.resourceVersion, creationTimestamp: '2001-01-01T00:00:00Z' }, data: { a: '2' } });
    assert.equal(r.status, 200, r.body);
    const obj = r.json();
    assert.deepEqual(obj.data, { a: '2' });
    assert.equal(obj.metadata.uid, old.metadata.uid);
    assert.equal(obj.metadata.creationTimestamp, old.metadata.creationTimestamp);
    assert.ok(Number(obj.metadata.resourceVersion) > Number(old.metadata.resourceVersion));
    assert.equal((await call(s, 'GET', `${CM}/u1`)).body, r.body);
  });

  it('the name in the body must be the URL\'s, and present', async () => {
    await create('u2');
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/u2`, { metadata: { name: 'other' } })), 400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (u2)');
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/u2`, { metadata: {} })), 400, 'BadRequest', 'the name of the object () does not match the name on the URL (u2)');
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/u2`, { metadata: { name: 'u2', namespace: 'default' } })), 400, 'BadRequest', 'the namespace of the object (default) does not match the namespace on the request (write-update)');
  });

  it('a stale resourceVersion is 409 Conflict', async () => {
    const old = await create('u3');
    const updated = await call(s, 'PUT', `${CM}/u3`, { metadata: { name: 'u3', resourceVersion: old.metadata.resourceVersion }, data: { v: '1' } });
    assert.equal(updated.status, 200);
    const msg = 'Operation cannot be fulfilled on configmaps "u3": the object has been modified; please apply your changes to the latest version and try again';
    const st = expectStatus(await refused(() => call(s, 'PUT', `${CM}/u3`, { metadata: { name: 'u3', resourceVersion: old.metadata.resourceVersion }, data: { v: '2' } })), 409, 'Conflict', msg);
    assert.deepEqual(st.details, { name: 'u3', kind: 'configmaps' });
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/u3`, { metadata: { name: 'u3', resourceVersion: 'garbage' } })), 409, 'Conflict', msg);
    assert.deepEqual((await call(s, 'GET', `${CM}/u3`)).json().data, { v: '1' });
  });

  it('without a resourceVersion: unconditional for ConfigMap, 422 for Lease', async () => {
    await create('u4');
    const r = await call(s, 'PUT', `${CM}/u4`, { metadata: { name: 'u4' }, data: { x: 'y' } });
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().data, { x: 'y' });
    const lease = await call(s, 'POST', LEASES, { metadata: { name: 'l1' }, spec: { holderIdentity: 'a' } });
    assert.equal(lease.status, 201, lease.body);
    const refusedLease = await assertNothingWritten(s, LEASES, (name) => ({ metadata: { name } }),
      () => call(s, 'PUT', `${LEASES}/l1`, { metadata: { name: 'l1' }, spec: { holderIdentity: 'b' } }));
    const st = expectStatus(refusedLease, 422, 'Invalid', 'leases.coordination.svc.io "l1" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update');
    assert.deepEqual(st.details, { name: 'l1', group: 'coordination.svc.io', kind: 'leases', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' }] });
  });

  it('an update that changes nothing writes nothing: same resourceVersion, no watch event', async () => {
    const old = await create('u5', { data: { a: '1' }, metadata: { name: 'u5', labels: { l: 'v' } } });
    const r = await refused(() => call(s, 'PUT', `${CM}/u5`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u5', labels: { l: 'v' }, resourceVersion: old.metadata.resourceVersion }, data: { a: '1' } }));
    assert.equal(r.status, 200, r.body);
    assert.equal(r.json().metadata.resourceVersion, old.metadata.resourceVersion);
    // Without a resourceVersion too.
    const again = await refused(() => call(s, 'PUT', `${CM}/u5`, { metadata: { name: 'u5', labels: { l: 'v' } }, data: { a: '1' } }));
    assert.equal(again.json().metadata.resourceVersion, old.metadata.resourceVersion);
  });

  it('a ConfigMap gets no generation of its own; one sent is kept and may not go down', async () => {
    const plain = await create('gen1');
    assert.equal(plain.metadata.generation, undefined);
    const withGen = await create('gen2', { metadata: { name: 'gen2', generation: 4 } });
    assert.equal(withGen.metadata.generation, 4);
    const r = await call(s, 'PUT', `${CM}/gen2`, { metadata: { name: 'gen2', generation: 9 }, data: { a: 'b' } });
    assert.equal(r.json().metadata.generation, 4);
    expectStatus(await refused(() => call(s, 'POST', CM, { metadata: { name: 'gen3', generation: -1 } })), 422, 'Invalid', 'ConfigMap "gen3" is invalid: metadata.generation: Invalid value: -1: must be greater than or equal to 0');
  });

  it('uid and deletionTimestamp cannot be changed by an update', async () => {
    const old = await create('u6');
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/u6`, { metadata: { name: 'u6', uid: '00000000-0000-0000-0000-000000000000' } })), 422, 'Invalid',
      'ConfigMap "u6" is invalid: metadata.uid: Invalid value: "00000000-0000-0000-0000-000000000000": field is immutable');
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/u6`, { metadata: { name: 'u6', deletionTimestamp: '2030-01-01T00:00:00Z' } })), 422, 'Invalid',
      /^ConfigMap "u6" is invalid: metadata\.deletionTimestamp: Invalid value: .*field is immutable/);
    const same = await call(s, 'PUT', `${CM}/u6`, { metadata: { name: 'u6', uid: old.metadata.uid }, data: { ok: 'yes' } });
    assert.equal(same.status, 200, same.body);
  });

  it('PUT of a missing object: 404, except for kinds that create on update (Lease: 201)', async () => {
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/absent`, { metadata: { name: 'absent' } })), 404, 'NotFound', 'configmaps "absent" not found');
    const r = await call(s, 'PUT', `${LEASES}/made-by-put`, { metadata: { name: 'made-by-put' }, spec: { holderIdentity: 'me' } });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().spec.holderIdentity, 'me');
    assert.ok(r.json().metadata.uid);
    const again = await call(s, 'PUT', `${LEASES}/made-by-put`, { metadata: { name: 'made-by-put', resourceVersion: r.json().metadata.resourceVersion }, spec: { holderIdentity: 'you' } });
    assert.equal(again.status, 200, again.body);
    expectStatus(await call(s, 'PUT', `${LEASES}/nope/status`, { metadata: { name: 'nope' } }), 404, 'NotFound');
  });

  it('dryRun=All answers the would-be object and stores nothing', async () => {
    const old = await create('u7', { data: { a: '1' } });
    const r = await refused(() => call(s, 'PUT', `${CM}/u7?dryRun=All`, { metadata: { name: 'u7' }, data: { a: '2' } }));
    assert.equal(r.status, 200, r.body);
    assert.deepEqual(r.json().data, { a: '2' });
    assert.equal(r.json().metadata.resourceVersion, old.metadata.resourceVersion);
    assert.deepEqual((await call(s, 'GET', `${CM}/u7`)).json().data, { a: '1' });
    expectStatus(await call(s, 'PUT', `${CM}/u7?dryRun=All`, { metadata: { name: 'u7' }, data: { 'bad key': '2' } }), 422, 'Invalid');
  });

  it('fieldValidation on update: Strict refuses, Warn warns, Ignore drops', async () => {
    await create('u8');
    const body = '{"metadata":{"name":"u8"},"data":{"a":"1"},"spec":{"foo":1},"data":{"a":"2"}}';
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/u8?fieldValidation=Strict`, body)), 400, 'BadRequest',
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec", duplicate field "data"');
    const warn = await call(s, 'PUT', `${CM}/u8`, body);
    assert.equal(warn.status, 200);
    assert.equal(warn.headers.warning, '299 - "unknown field \\"spec\\"", 299 - "duplicate field \\"data\\""');
    assert.deepEqual(warn.json().data, { a: '2' });
    const ignore = await call(s, 'PUT', `${CM}/u8?fieldValidation=Ignore`, body);
    assert.equal(ignore.status, 200);
    assert.equal(ignore.headers.warning, undefined);
  });

  it('ConfigMap immutable: data may not change, metadata may', async () => {
    await create('frozen', { immutable: true, data: { a: '1' } });
    const st = expectStatus(await refused(() => call(s, 'PUT', `${CM}/frozen`, { metadata: { name: 'frozen' }, immutable: true, data: { a: '2' } })), 422, 'Invalid');
    assert.match(st.message, /^ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set$/);
    expectStatus(await refused(() => call(s, 'PUT', `${CM}/frozen`, { metadata: { name: 'frozen' }, data: { a: '1' } })), 422, 'Invalid',
      /^ConfigMap "frozen" is invalid: immutable: Forbidden: field is immutable when `immutable` is set$/);
    const labelled = await call(s, 'PUT', `${CM}/frozen`, { metadata: { name: 'frozen', labels: { x: 'y' } }, immutable: true, data: { a: '1' } });
    assert.equal(labelled.status, 200, labelled.body);
  });

  it('Secret: stringData is merged into data and never returned', async () => {
    const SECRETS = `/api/v1/namespaces/${NS}/secrets`;
    const r = await call(s, 'POST', SECRETS, { metadata: { name: 's1' }, data: { a: Buffer.from('A').toString('base64') }, stringData: { b: 'B', a: 'over' } });
    assert.equal(r.status, 201, r.body);
    assert.equal(r.json().stringData, undefined);
    assert.deepEqual(r.json().data, { a: Buffer.from('over').toString('base64'), b: Buffer.from('B').toString('base64') });
    assert.equal(r.json().type, 'Opaque');
    const got = (await call(s, 'GET', `${SECRETS}/s1`)).json();
    assert.equal(got.stringData, undefined);
    const put = await call(s, 'PUT', `${SECRETS}/s1`, { metadata: { name: 's1' }, data: got.data, stringData: { c: 'C' } });
    assert.equal(put.status, 200, put.body);
    assert.equal(put.json().stringData, undefined);
    assert.equal(put.json().data.c, Buffer.from('C').toString('base64'));
    const dry = await call(s, 'POST', `${SECRETS}?dryRun=All`, { metadata: { name: 's2' }, stringData: { x: 'X' } });
    assert.equal(dry.json().stringData, undefined);
    assert.equal(dry.json().data.x, Buffer.from('X').toString('base64'));
    expectStatus(await call(s, 'POST', SECRETS, { metadata: { name: 's3' }, data: { a: 'not base64!' } }), 400, 'BadRequest', /^Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3$/);
  });

  describe('status sub-resource (Node)', () => {
    const node = (name: string, extra: object = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: { podCIDR: '10.0.0.0/24' }, ...extra });

    it('a write to the main resource ignores status', async () => {
      const created = await call(s, 'POST', NODES, node('n1', { status: { capacity: { cpu: '2' } } }));
      assert.equal(created.status, 201, created.body);
      const old = created.json();
      const r = await call(s, 'PUT', `${NODES}/n1`, { ...old, spec: { ...old.spec, unschedulable: true }, status: { capacity: { cpu: '64' } } });
      assert.equal(r.status, 200, r.body);
      assert.equal(r.json().spec.unschedulable, true);
      assert.deepEqual(r.json().status.capacity, { cpu: '2' });
      // A status-only change through the main resource is a no-op.
      const noop = await call(s, 'PUT', `${NODES}/n1`, { ...r.json(), status: { capacity: { cpu: '64' } } });
      assert.equal(noop.json().metadata.resourceVersion, r.json().metadata.resourceVersion);
    });

    it('a write to /status changes status, labels and annotations only', async () => {
      const old = (await call(s, 'GET', `${NODES}/n1`)).json();
      const r = await call(s, 'PUT', `${NODES}/n1/status`, {
        ...old,
        metadata: { ...old.metadata, labels: { zone: 'a' }, annotations: { note: 'x' }, finalizers: ['example.com/f'] },
        spec: { ...old.spec, unschedulable: false },
        status: { capacity: { cpu: '64' } },
      });
      assert.equal(r.status, 200, r.body);
      const obj = r.json();
      assert.deepEqual(obj.status.capacity, { cpu: '64' });
      assert.equal(obj.spec.unschedulable, true);
      assert.deepEqual(obj.metadata.labels, { zone: 'a' });
      assert.deepEqual(obj.metadata.annotations, { note: 'x' });
      assert.equal(obj.metadata.finalizers, undefined);
      const viaGet = await call(s, 'GET', `${NODES}/n1/status`);
      assert.equal(viaGet.status, 200);
      assert.equal(viaGet.body, r.body);
    });

    it('PATCH /status patches the status', async () => {
      const r = await call(s, 'PATCH', `${NODES}/n1/status`, { status: { capacity: { cpu: '8' } }, spec: { unschedulable: false } }, { 'content-type': 'application/merge-patch+json' });
      assert.equal(r.status, 200, r.body);
      assert.deepEqual(r.json().status.capacity, { cpu: '8' });
      assert.equal(r.json().spec.unschedulable, true);
    });

    it('kinds without status have no /status; DELETE on /status is 405', async () => {
      await create('nostatus');
      expectStatus(await call(s, 'GET', `${CM}/nostatus/status`), 404, 'NotFound', 'the server could not find the requested resource');
      expectStatus(await call(s, 'PUT', `${CM}/nostatus/status`, { metadata: { name: 'nostatus' } }), 404, 'NotFound', 'the server could not find the requested resource');
      expectStatus(await call(s, 'DELETE', `${NODES}/n1/status`), 405, 'MethodNotAllowed');
    });
  });
});
