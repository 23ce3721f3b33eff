// A client that writes with the resourceVersion it was just answered must not get a 409 because a
// server's watch cache has not seen that write yet: on etcd the cache trails storage, and a second server
// may not have seen the write at all.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd, type EtcdCluster } from './support/etcd-process.ts';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { EtcdStorage } from '../src/storage/etcd.ts';

const PATH = '/api/v1/namespaces/default/configmaps';

describe('read-modify-write on etcd', () => {
  let etcd: EtcdCluster;
  let dir: string;
  const servers: TestServer[] = [];
  before(async () => {
    etcd = await startEtcd();
    dir = await mkdtemp(join(tmpdir(), 'capstan-rmw-'));
    for (let i = 0; i < 2; i++) {
      const storage = await EtcdStorage.connect({ endpoints: etcd.endpoints, prefix: '/registry' });
      servers.push(await startTestServer({ inMemory: false, dataDir: join(dir, String(i)), storage }));
    }
  });
  after(async () => {
    for (const s of servers) await s.stop().catch(() => {});
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('updates with the resourceVersion just returned succeed through either server, every time', async () => {
    const [a, b] = servers;
    let obj = (await a.request('POST', PATH, { body: JSON.stringify({ metadata: { name: 'rmw' }, data: { n: '0' } }) })).json();
    for (let i = 1; i <= 60; i++) {
      // Alternate servers, and read back through the other one half of the time, as clients behind a balancer do.
      const writer = i % 2 ? b : a;
      if (i % 4 === 0) {
        const got = await (writer === a ? b : a).request('GET', `${PATH}/rmw`);
        assert.equal(got.status, 200, got.body);
        assert.equal(got.json().metadata.resourceVersion, obj.metadata.resourceVersion);
      }
      // A write elsewhere moves etcd's revision past every configmap event the caches will see.
      if (i % 3 === 0) assert.equal((await a.request('POST', '/api/v1/namespaces/default/secrets', { body: JSON.stringify({ metadata: { generateName: 'other-' } }) })).status, 201);
      const r = await writer.request('PUT', `${PATH}/rmw`, { body: JSON.stringify({ ...obj, data: { n: String(i) } }) });
      assert.equal(r.status, 200, `cycle ${i}: ${r.body}`);
      obj = r.json();
      assert.equal(obj.data.n, String(i));
    }
  });

  it('merge patches with the resourceVersion just returned succeed through either server; a stale one is a 409', async () => {
    const [a, b] = servers;
    let obj = (await a.request('POST', PATH, { body: JSON.stringify({ metadata: { name: 'rmw-patch' }, data: { n: '0' } }) })).json();
    const first = obj.metadata.resourceVersion;
    for (let i = 1; i <= 30; i++) {
      const writer = i % 2 ? b : a;
      const patch = { metadata: { resourceVersion: obj.metadata.resourceVersion }, data: { n: String(i) } };
      const r = await writer.request('PATCH', `${PATH}/rmw-patch`, { body: JSON.stringify(patch), headers: { 'content-type': 'application/merge-patch+json' } });
      assert.equal(r.status, 200, `cycle ${i}: ${r.body}`);
      obj = r.json();
    }
    const stale = await b.request('PATCH', `${PATH}/rmw-patch`, { body: JSON.stringify({ metadata: { resourceVersion: first }, data: { n: 'x' } }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(stale.status, 409);
    assert.equal(stale.json().reason, 'Conflict');
  });
});
