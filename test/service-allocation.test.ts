// End-to-end: Services get cluster IPs and node ports from the configured ranges, driven by kubectl and raw
// HTTP against a real Capstan; conflicts are 422s in Kubernetes' words; state survives a restart.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { kubernetesService } from './support/services.ts';

// Requested addresses (10.0.0.2-16) and node ports (30000-30085) are in the lower bands that dynamic
// allocation leaves to them while the rest of the range has room, as in Kubernetes.
const inRange = (ip: string) => /^10\.0\.0\.(\d+)$/.test(ip) && Number(ip.split('.')[3]) >= 1 && Number(ip.split('.')[3]) <= 254;

describe('Service cluster IP and node port allocation', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const failing = async (args: string[]) => {
    const r = await s.kubectl(args);
    assert.notEqual(r.code, 0, `${args.join(' ')} succeeded`);
    return r.stderr.trim();
  };
  const specOf = async (name: string) => JSON.parse(await kubectl(['get', 'svc', name, '-o', 'json'])).spec;

  it('the kubernetes Service in default holds the first address, port 443 to the secure port', async () => {
    // The server makes it once it serves.
    await kubectl(['wait', '--for=create', 'service/kubernetes', '--timeout=60s']);
    const spec = await specOf('kubernetes');
    assert.deepEqual([spec.clusterIP, spec.clusterIPs, spec.type], ['10.0.0.1', ['10.0.0.1'], 'ClusterIP']);
    assert.deepEqual(spec.ports, [{ name: 'https', protocol: 'TCP', port: 443, targetPort: s.port }]);
  });

  it('a ClusterIP Service gets a free address in range; NodePort a port in range', async () => {
    await kubectl(['create', 'service', 'clusterip', 'web', '--tcp=80:8080']);
    const web = await specOf('web');
    assert.ok(inRange(web.clusterIP) && web.clusterIP !== '10.0.0.1', web.clusterIP);
    assert.deepEqual([web.clusterIPs, web.ipFamilies, web.ipFamilyPolicy], [[web.clusterIP], ['IPv4'], 'SingleStack']);
    await kubectl(['create', 'service', 'nodeport', 'np', '--tcp=80:80']);
    const np = await specOf('np');
    assert.ok(np.ports[0].nodePort >= 30000 && np.ports[0].nodePort <= 32767, String(np.ports[0].nodePort));
    assert.match(await kubectl(['get', 'svc', 'np']), new RegExp(`80:${np.ports[0].nodePort}/TCP`));
  });

  it('conflicts and out-of-range requests are 422 Invalid with Kubernetes\' messages', async () => {
    await kubectl(['create', 'service', 'clusterip', 'fixed', '--clusterip=10.0.0.5', '--tcp=80']);
    assert.equal(await failing(['create', 'service', 'clusterip', 'fixed2', '--clusterip=10.0.0.5', '--tcp=80']),
      'error: failed to create ClusterIP service: Service "fixed2" is invalid: spec.clusterIPs: Invalid value: []string{"10.0.0.5"}: failed to allocate IP 10.0.0.5: provided IP is already allocated');
    assert.equal(await failing(['create', 'service', 'clusterip', 'far', '--clusterip=10.1.0.5', '--tcp=80']),
      'error: failed to create ClusterIP service: Service "far" is invalid: spec.clusterIPs: Invalid value: []string{"10.1.0.5"}: failed to allocate IP 10.1.0.5: the provided IP (10.1.0.5) is not in the valid range. The range of valid IPs is 10.0.0.0/24');
    await kubectl(['create', 'service', 'nodeport', 'np30080', '--tcp=80:80', '--node-port=30080']);
    assert.equal(await failing(['create', 'service', 'nodeport', 'np2', '--tcp=80:80', '--node-port=30080']),
      'error: failed to create NodePort service: Service "np2" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated');
    const r = await s.request('POST', '/api/v1/namespaces/default/services', { body: JSON.stringify({ metadata: { name: 'low' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] } }) });
    assert.equal(r.status, 422);
    assert.equal(r.json().reason, 'Invalid');
    assert.equal(r.json().message, 'Service "low" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767');
    assert.deepEqual(r.json().details.causes, [{ reason: 'FieldValueInvalid', message: 'Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767', field: 'spec.ports[0].nodePort' }]);
  });

  it('a create refused by validation keeps nothing it took', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/services', { body: JSON.stringify({ metadata: { name: 'bad' }, spec: { clusterIP: '10.0.0.7', type: 'NodePort', sessionAffinity: 'Sometimes', ports: [{ port: 80, nodePort: 30077 }] } }) });
    assert.equal(r.status, 422);
    await kubectl(['create', 'service', 'nodeport', 'good', '--tcp=80:80', '--node-port=30077']);
    await kubectl(['create', 'service', 'clusterip', 'good-ip', '--clusterip=10.0.0.7', '--tcp=80']);
  });

  it('delete gives the address and node port back: the same ones can be asked for again', async () => {
    await kubectl(['delete', 'svc', 'fixed', 'np30080']);
    await kubectl(['create', 'service', 'clusterip', 'fixed2', '--clusterip=10.0.0.5', '--tcp=80']);
    await kubectl(['create', 'service', 'nodeport', 'np2', '--tcp=80:80', '--node-port=30080']);
    assert.equal((await specOf('fixed2')).clusterIP, '10.0.0.5');
  });

  it('type changes: ClusterIP -> NodePort takes a port, -> ExternalName gives the address back, and back again', async () => {
    await kubectl(['create', 'service', 'clusterip', 'moving', '--clusterip=10.0.0.6', '--tcp=80']);
    await kubectl(['patch', 'svc', 'moving', '-p', '{"spec":{"type":"NodePort"}}']);
    let spec = await specOf('moving');
    assert.equal(spec.clusterIP, '10.0.0.6');
    assert.ok(spec.ports[0].nodePort >= 30000, String(spec.ports[0].nodePort));
    const nodePort = spec.ports[0].nodePort;
    await kubectl(['patch', 'svc', 'moving', '-p', '{"spec":{"type":"ExternalName","externalName":"example.com"}}']);
    spec = await specOf('moving');
    assert.deepEqual([spec.type, spec.clusterIP, spec.clusterIPs, spec.ipFamilies, spec.ipFamilyPolicy, spec.ports[0].nodePort], ['ExternalName', undefined, undefined, undefined, undefined, undefined]);
    // Both are free again.
    await kubectl(['create', 'service', 'nodeport', 'taker', '--tcp=80:80', `--node-port=${nodePort}`]);
    await kubectl(['create', 'service', 'clusterip', 'taker-ip', '--clusterip=10.0.0.6', '--tcp=80']);
    await kubectl(['patch', 'svc', 'moving', '-p', '{"spec":{"type":"ClusterIP","externalName":null}}']);
    spec = await specOf('moving');
    assert.ok(inRange(spec.clusterIP) && spec.clusterIP !== '10.0.0.6', spec.clusterIP);
    // The cluster IP may not change.
    const r = await s.kubectl(['patch', 'svc', 'moving', '-p', '{"spec":{"clusterIP":"10.0.0.8","clusterIPs":["10.0.0.8"]}}']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /spec\.clusterIPs\[0\]: Invalid value: \[\]string\{"10\.0\.0\.8"\}: may not change once set/);
  });

  it('LoadBalancer: node ports and, with externalTrafficPolicy Local, a health check port; allocateLoadBalancerNodePorts=false takes none', async () => {
    const post = async (name: string, spec: object) => {
      const r = await s.request('POST', '/api/v1/namespaces/default/services', { body: JSON.stringify({ metadata: { name }, spec }) });
      assert.equal(r.status, 201, r.body);
      return r.json().spec;
    };
    const local = await post('lb-local', { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] });
    assert.ok(local.healthCheckNodePort >= 30000 && local.ports[0].nodePort >= 30000 && local.healthCheckNodePort !== local.ports[0].nodePort);
    const bare = await post('lb-bare', { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80 }] });
    assert.deepEqual([bare.ports[0].nodePort, bare.healthCheckNodePort, inRange(bare.clusterIP)], [undefined, undefined, true]);
  });

  it('dry run shows placeholders (the network address, ports from 32769) and keeps nothing', async () => {
    const out = JSON.parse(await kubectl(['create', 'service', 'nodeport', 'dry', '--tcp=80:80', '--dry-run=server', '-o', 'json']));
    assert.equal(out.spec.clusterIP, '10.0.0.0');
    assert.equal(out.spec.ports[0].nodePort, 32769);
    assert.match(await failing(['get', 'svc', 'dry']), /NotFound|not found/);
    const asked = JSON.parse(await kubectl(['create', 'service', 'clusterip', 'dry', '--clusterip=10.0.0.9', '--tcp=80', '--dry-run=server', '-o', 'json']));
    assert.equal(asked.spec.clusterIP, '10.0.0.9');
    await kubectl(['create', 'service', 'clusterip', 'real', '--clusterip=10.0.0.9', '--tcp=80']);
    assert.match(await failing(['create', 'service', 'clusterip', 'dry', '--clusterip=10.0.0.9', '--tcp=80', '--dry-run=server']), /provided IP is already allocated/);
    const update = JSON.parse(await kubectl(['patch', 'svc', 'real', '-p', '{"spec":{"type":"NodePort"}}', '--dry-run=server', '-o', 'json']));
    assert.equal(update.spec.ports[0].nodePort, 32769);
    assert.equal((await specOf('real')).ports[0].nodePort, undefined);
  });

  it('headless Services allocate nothing', async () => {
    await kubectl(['create', 'service', 'clusterip', 'headless', '--clusterip=None', '--tcp=80']);
    const spec = await specOf('headless');
    assert.deepEqual([spec.clusterIP, spec.clusterIPs, spec.ipFamilyPolicy, spec.ipFamilies], ['None', ['None'], 'SingleStack', ['IPv4']]);
    assert.match(await kubectl(['get', 'svc', 'headless']), /headless\s+ClusterIP\s+None\s/);
  });
});

describe('Service allocation across a restart and with other ranges', () => {
  it('what is taken stays taken after a restart; --service-cluster-ip-range and --service-node-port-range are honoured', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'capstan-svc-'));
    const opts = { inMemory: false, dataDir, serviceClusterIPRange: '10.96.0.0/16', serviceNodePortRange: '20000-20099' };
    try {
      let s = await startTestServer(opts);
      const post = (name: string, spec: object) => s.request('POST', '/api/v1/namespaces/default/services', { body: JSON.stringify({ metadata: { name }, spec: { ports: [{ port: 80 }], ...spec } }) });
      try {
        assert.equal((await kubernetesService(s)).spec.clusterIP, '10.96.0.1');
        const np = await post('np', { type: 'NodePort', clusterIP: '10.96.0.7' });
        assert.equal(np.status, 201, np.body);
        const port = np.json().spec.ports[0].nodePort;
        assert.ok(port >= 20000 && port <= 20099, String(port));
      } finally {
        await s.stop();
      }
      s = await startTestServer(opts);
      try {
        const port = (await s.request('GET', '/api/v1/namespaces/default/services/np')).json().spec.ports[0].nodePort;
        const again = await post('np2', { type: 'NodePort', clusterIP: '10.96.0.7', ports: [{ port: 80, nodePort: port }] });
        assert.equal(again.status, 422);
        assert.match(again.json().message, /failed to allocate IP 10\.96\.0\.7: provided IP is already allocated/);
        const portTaken = await post('np3', { type: 'NodePort', ports: [{ port: 80, nodePort: port }] });
        assert.equal(portTaken.json().message, `Service "np3" is invalid: spec.ports[0].nodePort: Invalid value: ${port}: provided port is already allocated`);
      } finally {
        await s.stop();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a wrong range stops the start with the flag named', async () => {
    await assert.rejects(startTestServer({ serviceClusterIPRange: '10.0.0.0/33' }), /invalid argument "10\.0\.0\.0\/33" for "--service-cluster-ip-range" flag: service-cluster-ip-range\[0\] is not a valid cidr/);
  });
});
