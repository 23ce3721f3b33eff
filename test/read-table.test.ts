// End-to-end: server-side printing (Table) for get and list, with each includeObject policy, in the group
// kubectl names (meta.k8s.io) and the spec's (meta.svc.io), and 406 for a Table of an unknown group.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const TABLE_V1 = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const KUBECTL_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('tables', () => {
  let s: TestServer;
  const base = '/api/v1/namespaces/tbl/configmaps';
  const get = async (path: string, accept: string) => {
    const r = await s.request('GET', path, { headers: { accept } });
    return { status: r.status, body: r.json(), headers: r.headers };
  };

  before(async () => {
    s = await startTestServer();
    assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tbl' } }) })).status, 201);
    for (const [name, data] of [['t1', { a: '1' }], ['t2', { a: '1', b: '2' }], ['t3', {}]] as const) {
      assert.equal((await s.request('POST', base, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { t: 'x' } }, data }) })).status, 201);
    }
  });
  after(async () => { await s.stop(); });

  it('a get as a Table: the kind\'s columns, one row, and the object\'s metadata by default', async () => {
    const r = await get(`${base}/t2`, TABLE_V1);
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'Table');
    assert.equal(r.body.apiVersion, 'meta.k8s.io/v1');
    const obj = (await s.request('GET', `${base}/t2`)).json();
    assert.deepEqual(r.body.metadata, { resourceVersion: obj.metadata.resourceVersion });
    assert.deepEqual(r.body.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]), [['Name', 'string', 'name', 0], ['Data', 'string', '', 0], ['Age', 'string', '', 0]]);
    assert.ok(r.body.columnDefinitions.every((c: any) => typeof c.description === 'string' && c.description.length > 0));
    assert.equal(r.body.rows.length, 1);
    assert.deepEqual(r.body.rows[0].cells.slice(0, 2), ['t2', 2]);
    assert.deepEqual(r.body.rows[0].object, { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata });
  });

  it('includeObject=None leaves the object null, Object carries the whole object', async () => {
    const none = await get(`${base}/t1?includeObject=None`, TABLE_V1);
    assert.equal(none.body.rows[0].object, null);
    assert.deepEqual(none.body.rows[0].cells.slice(0, 2), ['t1', 1]);
    const full = await get(`${base}/t1?includeObject=Object`, TABLE_V1);
    assert.equal(full.body.rows[0].object.kind, 'ConfigMap');
    assert.equal(full.body.rows[0].object.apiVersion, 'v1');
    assert.deepEqual(full.body.rows[0].object.data, { a: '1' });
    const meta = await get(`${base}/t1?includeObject=Metadata`, TABLE_V1);
    assert.equal(meta.body.rows[0].object.kind, 'PartialObjectMetadata');
  });

  it('a list as a Table: a row per object, the list\'s metadata, paging', async () => {
    const r = await get(base, KUBECTL_ACCEPT);
    assert.equal(r.status, 200);
    assert.equal(r.body.kind, 'Table');
    assert.equal(r.body.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(r.body.rows.map((row: any) => row.cells[0]), ['t1', 't2', 't3']);
    assert.deepEqual(r.body.rows.map((row: any) => row.cells[1]), [1, 2, 0]);
    assert.ok(r.body.metadata.resourceVersion);
    const paged = await get(`${base}?limit=2`, TABLE_V1);
    assert.deepEqual(paged.body.rows.map((row: any) => row.cells[0]), ['t1', 't2']);
    assert.equal(paged.body.metadata.remainingItemCount, 1);
    const rest = await get(`${base}?limit=2&continue=${encodeURIComponent(paged.body.metadata.continue)}`, TABLE_V1);
    assert.deepEqual(rest.body.rows.map((row: any) => row.cells[0]), ['t3']);
    assert.equal(rest.body.metadata.resourceVersion, paged.body.metadata.resourceVersion);
    const selected = await get(`${base}?labelSelector=t%3Dx&fieldSelector=metadata.name%3Dt3`, TABLE_V1);
    assert.deepEqual(selected.body.rows.map((row: any) => row.cells[0]), ['t3']);
    const empty = await get('/api/v1/namespaces/nothing/configmaps', TABLE_V1);
    assert.deepEqual(empty.body.rows, []);
    assert.equal(empty.body.columnDefinitions.length, 3);
  });

  it('answers in the group and version asked for: meta.svc.io, v1beta1', async () => {
    const svc = await get(`${base}/t1`, 'application/json;as=Table;v=v1;g=meta.svc.io');
    assert.equal(svc.body.apiVersion, 'meta.svc.io/v1');
    assert.equal(svc.body.rows[0].object.apiVersion, 'meta.svc.io/v1');
    const beta = await get(base, 'application/json;as=Table;v=v1beta1;g=meta.k8s.io');
    assert.equal(beta.body.apiVersion, 'meta.k8s.io/v1beta1');
    assert.equal(beta.body.rows[0].object.apiVersion, 'meta.k8s.io/v1beta1');
  });

  it('a cluster-scoped object as a Table', async () => {
    const r = await get('/api/v1/namespaces/tbl', TABLE_V1);
    assert.equal(r.body.kind, 'Table');
    assert.equal(r.body.rows[0].cells[0], 'tbl');
  });

  it('a Table of an unknown group or version is 406 unless a plain type is acceptable too', async () => {
    for (const accept of ['application/json;as=Table;v=v1;g=example.com', 'application/json;as=Table;v=v2;g=meta.k8s.io']) {
      const r = await get(`${base}/t1`, accept);
      assert.equal(r.status, 406, accept);
      assert.equal(r.body.reason, 'NotAcceptable', accept);
      assert.equal(r.body.code, 406, accept);
      assert.match(r.body.message, /^only the following media types are accepted: application\/json, /, accept);
    }
    const fallback = await get(`${base}/t1`, 'application/json;as=Table;v=v1;g=example.com, application/json');
    assert.equal(fallback.status, 200);
    assert.equal(fallback.body.kind, 'ConfigMap');
  });
});
