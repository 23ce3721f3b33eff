// End-to-end: a Node's status.nodeInfo under both names of its two version fields. The catalogue calls them
// nodeAgentVersion and proxyVersion; Kubernetes, and so every official client, kubeletVersion and
// kubeProxyVersion, which its Go type always writes (the Python client refuses a Node without them). Capstan
// serves both names with one value, whichever a writer used.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { pythonClient, runPython } from './support/python.ts';

const SCRIPT = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
core = client.CoreV1Api()
out = {}
core.create_node(client.V1Node(metadata=client.V1ObjectMeta(name='py-node')))
out['bare'] = core.read_node('py-node').status.node_info.kubelet_version
info = {'machineID': 'm', 'systemUUID': 's', 'bootID': 'b', 'kernelVersion': '6.1', 'osImage': 'os', 'containerRuntimeVersion': 'containerd://1.7',
        'kubeletVersion': 'v1.32.0', 'kubeProxyVersion': 'v1.32.0', 'operatingSystem': 'linux', 'architecture': 'amd64'}
node = core.patch_node_status('py-node', {'status': {'nodeInfo': info}})
out['patched'] = [node.status.node_info.kubelet_version, node.status.node_info.kube_proxy_version]
node.status.node_info.kubelet_version = 'v1.32.1'
node = core.replace_node_status('py-node', node)
out['replaced'] = node.status.node_info.kubelet_version
out['listed'] = [n.status.node_info.kubelet_version for n in core.list_node().items]
sparse = core.read_node_status('sparse-node').status
out['sparse'] = [sparse.addresses[0].address, sparse.conditions[0].status, sparse.volumes_attached[0].device_path]
print(json.dumps(out))
`;

describe('Node status.nodeInfo: Kubernetes\' names and the catalogue\'s', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('a node registered with the catalogue\'s names reads back with Kubernetes\' too, and kubectl shows its version', async () => {
    const created = await s.request('POST', '/api/v1/nodes', { body: JSON.stringify({
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' },
      status: { nodeInfo: { nodeAgentVersion: 'v1.32.0', proxyVersion: 'v1.31.0', osImage: 'Debian' } },
    }) });
    assert.equal(created.status, 201, created.body);
    const info = created.json().status.nodeInfo;
    assert.deepEqual([info.kubeletVersion, info.nodeAgentVersion, info.kubeProxyVersion, info.proxyVersion], ['v1.32.0', 'v1.32.0', 'v1.31.0', 'v1.31.0']);
    // Go writes every field of the struct: the rest are empty strings.
    assert.equal(info.machineID, '');
    const got = await s.kubectl(['get', 'node', 'n1', '--no-headers']);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, /\sv1\.32\.0\s*$/);
    // A strictly validated write with Kubernetes' names (kubectl apply's default) is accepted as it is.
    const strict = await s.request('PUT', '/api/v1/nodes/n1/status?fieldValidation=Strict', { body: JSON.stringify({
      ...created.json(), status: { nodeInfo: { ...info, kubeletVersion: 'v1.32.2', nodeAgentVersion: 'v1.32.0' } },
    }) });
    assert.equal(strict.status, 200, strict.body);
    assert.equal(strict.headers.warning, undefined);
    const after = strict.json().status.nodeInfo;
    assert.deepEqual([after.kubeletVersion, after.nodeAgentVersion], ['v1.32.2', 'v1.32.2']);
    const patched = await s.request('PATCH', '/api/v1/nodes/n1/status', {
      body: JSON.stringify({ status: { nodeInfo: { proxyVersion: 'v1.32.3' } } }), headers: { 'content-type': 'application/merge-patch+json' },
    });
    assert.equal(patched.status, 200, patched.body);
    assert.equal(patched.json().status.nodeInfo.kubeProxyVersion, 'v1.32.3');
  });

  it('status items Go writes whole: an address, condition status or device path left out is answered as ""', async () => {
    const created = await s.request('POST', '/api/v1/nodes', { body: JSON.stringify({
      apiVersion: 'v1', kind: 'Node', metadata: { name: 'sparse-node' },
      status: { addresses: [{ type: 'InternalIP' }], conditions: [{ type: 'Ready' }], volumesAttached: [{ name: 'v' }], capacity: { cpu: '2' } },
    }) });
    assert.equal(created.status, 201, created.body);
    const status = created.json().status;
    assert.deepEqual(status.addresses, [{ type: 'InternalIP', address: '' }]);
    assert.deepEqual(status.conditions, [{ type: 'Ready', status: '' }]);
    assert.deepEqual(status.volumesAttached, [{ name: 'v', devicePath: '' }]);
    assert.deepEqual(Object.keys(status).slice(0, 2), ['capacity', 'allocatable']);
  });

  it('the official Python client reads, patches and replaces a node\'s status', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    const r = await runPython(SCRIPT, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim());
    assert.equal(out.bare, '');
    assert.deepEqual(out.patched, ['v1.32.0', 'v1.32.0']);
    assert.equal(out.replaced, 'v1.32.1');
    assert.ok(out.listed.includes('v1.32.1'));
    assert.deepEqual(out.sparse, ['', '', '']);
    const raw = (await s.request('GET', '/api/v1/nodes/py-node')).json().status.nodeInfo;
    assert.deepEqual([raw.kubeletVersion, raw.nodeAgentVersion], ['v1.32.1', 'v1.32.1']);
  });
});
