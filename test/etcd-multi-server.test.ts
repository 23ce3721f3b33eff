// Scale-out: two Capstan servers on one etcd serve one API; controllers run on exactly one of them.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd, type EtcdCluster } from './support/etcd-process.ts';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { watchHttp1 } from './support/watch-client.ts';
import { EtcdStorage } from '../src/storage/etcd.ts';
import { until } from './support/until.ts';


describe('two servers on one etcd', () => {
  let etcd: EtcdCluster;
  let dir: string;
  const servers: TestServer[] = [];
  const start = async () => {
    const storage = await EtcdStorage.connect({ endpoints: etcd.endpoints, prefix: '/registry' });
    const s = await startTestServer({ inMemory: false, dataDir: dir, storage, leaderElection: { leaseDurationSeconds: 2, retryPeriodMs: 200 } });
    servers.push(s);
    return s;
  };
  before(async () => {
    etcd = await startEtcd();
    dir = await mkdtemp(join(tmpdir(), 'capstan-multi-'));
    await start();
    await start();
  });
  after(async () => {
    for (const s of servers) await s.stop().catch(() => {});
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('a write through one is in the other\'s lists and watches, in order', async () => {
    const [a, b] = servers;
    const list = (await b.request('GET', '/api/v1/namespaces/default/configmaps')).json();
    const watch = await watchHttp1(b, `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
    const rvs: string[] = [];
    for (let i = 0; i < 10; i++) {
      const writer = i % 2 ? b : a;
      const r = await writer.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: `m${i}` } }) });
      assert.equal(r.status, 201, r.body);
      rvs.push(r.json().metadata.resourceVersion);
    }
    const events = (await watch.take(10, 20_000)).map((e) => `${e.type}:${e.object.metadata.name}:${e.object.metadata.resourceVersion}`);
    watch.close();
    assert.deepEqual(events, rvs.map((rv, i) => `ADDED:m${i}:${rv}`));
    const names = (await b.request('GET', '/api/v1/namespaces/default/configmaps')).json().items.map((o: { metadata: { name: string } }) => o.metadata.name);
    for (let i = 0; i < 10; i++) assert.ok(names.includes(`m${i}`));
  });

  it('a stale update through either server is a 409', async () => {
    const [a, b] = servers;
    const created = (await a.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ metadata: { name: 'stale' }, data: { v: '1' } }) })).json();
    const updated = await a.request('PUT', '/api/v1/namespaces/default/configmaps/stale', { body: JSON.stringify({ ...created, data: { v: '2' } }) });
    assert.equal(updated.status, 200);
    const stale = await b.request('PUT', '/api/v1/namespaces/default/configmaps/stale', { body: JSON.stringify({ ...created, data: { v: '3' } }) });
    assert.equal(stale.status, 409);
    assert.equal(stale.json().reason, 'Conflict');
  });

  it('controllers run on exactly one server, and another takes over when it stops', async () => {
    await until(() => servers.filter((s) => s.isLeader()).length === 1, 'one leader');
    const leader = servers.find((s) => s.isLeader())!;
    const follower = servers.find((s) => !s.isLeader())!;
    const lease = (await follower.request('GET', '/apis/coordination.svc.io/v1/namespaces/kube-system/leases/capstan-controller-manager')).json();
    assert.ok(lease.spec.holderIdentity);
    assert.equal(lease.spec.leaseDurationSeconds, 2);
    const transitions = lease.spec.leaseTransitions;
    await leader.stop();
    servers.splice(servers.indexOf(leader), 1);
    await until(() => follower.isLeader(), 'the take-over');
    const after = (await follower.request('GET', '/apis/coordination.svc.io/v1/namespaces/kube-system/leases/capstan-controller-manager')).json();
    assert.notEqual(after.spec.holderIdentity, lease.spec.holderIdentity);
    assert.equal(after.spec.leaseTransitions, transitions + 1);
    // The new leader's controllers work: a namespace deletion completes.
    assert.equal((await follower.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ metadata: { name: 'gone-soon' } }) })).status, 201);
    assert.equal((await follower.request('DELETE', '/api/v1/namespaces/gone-soon')).status, 200);
    await until(async () => (await follower.request('GET', '/api/v1/namespaces/gone-soon')).status === 404, 'namespace removal');
  });
});
