// Patches without a resourceVersion are applied to whatever the object is when they land: under
// concurrency each is re-applied to the fresh object after losing a race, as Kubernetes does, and none is
// answered 409. One with a resourceVersion still gets the 409 once the object has moved on.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const PATH = '/api/v1/namespaces/default/configmaps';
const CONCURRENT = 20;

describe('concurrent patches of one object', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const patchAll = async (name: string, contentType: string, body: (i: number) => unknown) => {
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) =>
      s.request('PATCH', `${PATH}/${name}`, { body: JSON.stringify(body(i)), headers: { 'content-type': contentType } })));
    for (const r of answers) assert.equal(r.status, 200, r.body);
    const rvs = new Set(answers.map((r) => r.json().metadata.resourceVersion));
    assert.equal(rvs.size, CONCURRENT, 'each patch is a write of its own');
    const final = (await s.request('GET', `${PATH}/${name}`)).json();
    for (let i = 0; i < CONCURRENT; i++) assert.equal(final.data[`k${i}`], `v${i}`);
    return final;
  };

  const create = async (name: string) => {
    const r = await s.request('POST', PATH, { body: JSON.stringify({ metadata: { name }, data: { base: 'x' } }) });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };

  it(`${CONCURRENT} merge patches all succeed, each applied to the object as the others left it`, async () => {
    const created = await create('merge');
    await patchAll('merge', 'application/merge-patch+json', (i) => ({ data: { [`k${i}`]: `v${i}` } }));
    const stale = await s.request('PATCH', `${PATH}/merge`, {
      body: JSON.stringify({ metadata: { resourceVersion: created.metadata.resourceVersion }, data: { late: 'y' } }),
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(stale.status, 409);
    assert.equal(stale.json().reason, 'Conflict');
  });

  it(`${CONCURRENT} JSON patches all succeed`, async () => {
    await create('json');
    await patchAll('json', 'application/json-patch+json', (i) => [{ op: 'add', path: `/data/k${i}`, value: `v${i}` }]);
  });

  it(`${CONCURRENT} strategic merge patches all succeed`, async () => {
    await create('strategic');
    await patchAll('strategic', 'application/strategic-merge-patch+json', (i) => ({ data: { [`k${i}`]: `v${i}` } }));
  });

  it(`${CONCURRENT} unconditional updates all succeed`, async () => {
    await create('put');
    const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) =>
      s.request('PUT', `${PATH}/put`, { body: JSON.stringify({ metadata: { name: 'put' }, data: { [`k${i}`]: `v${i}` } }) })));
    for (const r of answers) assert.equal(r.status, 200, r.body);
    assert.equal(new Set(answers.map((r) => r.json().metadata.resourceVersion)).size, CONCURRENT);
  });
});
