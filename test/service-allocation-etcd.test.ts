// Two Capstan servers on one etcd share the allocation bitmaps: concurrent creates through both never get
// the same cluster IP or node port, and what one took or gave back the other sees.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEtcd, type EtcdCluster } from './support/etcd-process.ts';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { kubernetesService } from './support/services.ts';
import { EtcdStorage } from '../src/storage/etcd.ts';

describe('service allocation with two servers on one etcd', () => {
  let etcd: EtcdCluster;
  let dir: string;
  const servers: TestServer[] = [];
  before(async () => {
    etcd = await startEtcd();
    dir = await mkdtemp(join(tmpdir(), 'capstan-svc-etcd-'));
    for (let i = 0; i < 2; i++) {
      const storage = await EtcdStorage.connect({ endpoints: etcd.endpoints, prefix: '/registry' });
      servers.push(await startTestServer({ inMemory: false, dataDir: dir, storage }));
    }
  });
  after(async () => {
    for (const s of servers) await s.stop().catch(() => {});
    await etcd.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (s: TestServer, name: string, spec: object) =>
    s.request('POST', '/api/v1/namespaces/default/services', { body: JSON.stringify({ metadata: { name }, spec: { type: 'NodePort', ports: [{ port: 80 }], ...spec } }) });

  it('concurrent creates through both servers get distinct cluster IPs and node ports', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => post(servers[i % 2], `s${i}`, {})));
    for (const r of answers) assert.equal(r.status, 201, r.body);
    const ips = answers.map((r) => r.json().spec.clusterIP);
    const ports = answers.map((r) => r.json().spec.ports[0].nodePort);
    assert.equal(new Set(ips).size, 30);
    assert.equal(new Set(ports).size, 30);
    assert.ok(!ips.includes('10.0.0.1'), 'the kubernetes Service keeps the first address');
  });

  it('what one server took the other refuses; what one gave back the other hands out', async () => {
    const [a, b] = servers;
    assert.equal((await post(a, 'taken', { clusterIP: '10.0.0.3', ports: [{ port: 80, nodePort: 30003 }] })).status, 201);
    const refused = await post(b, 'again', { clusterIP: '10.0.0.3' });
    assert.equal(refused.status, 422);
    assert.equal(refused.json().message, 'Service "again" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.3"}: failed to allocate IP 10.0.0.3: provided IP is already allocated');
    const port = await post(b, 'again', { ports: [{ port: 80, nodePort: 30003 }] });
    assert.equal(port.json().message, 'Service "again" is invalid: spec.ports[0].nodePort: Invalid value: 30003: provided port is already allocated');
    assert.equal((await b.request('DELETE', '/api/v1/namespaces/default/services/taken')).status, 200);
    assert.equal((await post(a, 'again', { clusterIP: '10.0.0.3', ports: [{ port: 80, nodePort: 30003 }] })).status, 201);
    // One kubernetes Service, whichever server made it.
    assert.equal((await kubernetesService(a)).spec.clusterIP, '10.0.0.1');
  });
});
