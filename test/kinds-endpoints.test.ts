// End-to-end: core v1 Endpoints over HTTP, with kubectl and the Python client, and the `kubernetes`
// Endpoints in `default` the server keeps beside the `kubernetes` Service.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { header, row } from './support/kubectl-table.ts';
import { pythonClient, runPython } from './support/python.ts';
import { until } from './support/until.ts';
import { advertisedAddress } from '../src/server/kubernetes-endpoints.ts';

const EP = '/api/v1/namespaces/default/endpoints';
const json = (o: unknown) => JSON.stringify(o);
const endpoints = (name: string, subsets: unknown[]) => ({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets });

const PYTHON = `
import sys, json
from kubernetes import client, config
config.load_kube_config(sys.argv[1])
core = client.CoreV1Api()
items = core.list_namespaced_endpoints('default').items
web = core.read_namespaced_endpoints('web', 'default')
print(json.dumps({
  'names': sorted(e.metadata.name for e in items),
  'type': type(web).__name__,
  'ips': [a.ip for a in web.subsets[0].addresses],
  'ports': [[p.name, p.port, p.protocol] for p in web.subsets[0].ports],
  'targetRef': web.subsets[0].addresses[0].target_ref.name,
}))
`;

describe('Endpoints', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ systemObjectsResyncMs: 100 }); });
  after(async () => { await s.stop(); });

  it('create, get, list, update, delete over HTTP', async () => {
    const created = await s.request('POST', EP, { body: json(endpoints('web', [{ addresses: [{ ip: '10.1.0.1', targetRef: { kind: 'Pod', name: 'web-0', namespace: 'default' } }, { ip: '10.1.0.2' }], ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443, appProtocol: 'https' }] }])) });
    assert.equal(created.status, 201, created.body);
    const obj = created.json();
    assert.equal(obj.kind, 'Endpoints');
    assert.equal(obj.metadata.generation, undefined);
    assert.deepEqual(obj.subsets[0].ports, [{ name: 'http', port: 80, protocol: 'TCP' }, { name: 'https', port: 443, protocol: 'TCP', appProtocol: 'https' }]);

    const got = await s.request('GET', `${EP}/web`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.json().subsets, obj.subsets);

    const listed = await s.request('GET', EP);
    assert.equal(listed.status, 200);
    assert.equal(listed.json().kind, 'EndpointsList');
    assert.ok(listed.json().items.some((i: { metadata: { name: string } }) => i.metadata.name === 'web'));
    const all = await s.request('GET', '/api/v1/endpoints');
    assert.equal(all.json().kind, 'EndpointsList');

    const updated = await s.request('PUT', `${EP}/web`, { body: json({ ...got.json(), subsets: [{ ...obj.subsets[0], notReadyAddresses: [{ ip: '10.1.0.3' }] }] }) });
    assert.equal(updated.status, 200, updated.body);
    assert.deepEqual(updated.json().subsets[0].notReadyAddresses, [{ ip: '10.1.0.3' }]);

    // PUT of a missing Endpoints creates it.
    const put = await s.request('PUT', `${EP}/made-by-put`, { body: json(endpoints('made-by-put', [{ addresses: [{ ip: '10.2.0.1' }] }])) });
    assert.equal(put.status, 201, put.body);
    const deleted = await s.request('DELETE', `${EP}/made-by-put`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.json().kind, 'Status');
    assert.equal((await s.request('GET', `${EP}/made-by-put`)).status, 404);
  });

  it('an invalid object is refused with Kubernetes\' messages', async () => {
    const r = await s.request('POST', EP, { body: json(endpoints('bad', [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 80 }, { name: 'b', port: 70000 }] }, { ports: [{ port: 1 }] }])) });
    assert.equal(r.status, 422, r.body);
    const status = r.json();
    assert.equal(status.reason, 'Invalid');
    assert.deepEqual(status.details, {
      name: 'bad', kind: 'Endpoints',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)', field: 'subsets[0].addresses[0].ip' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'subsets[0].ports[0].name' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: 70000: must be between 1 and 65535, inclusive', field: 'subsets[0].ports[1].port' },
        { reason: 'FieldValueRequired', message: 'Required value: must specify `addresses` or `notReadyAddresses`', field: 'subsets[1]' },
      ],
    });
    assert.equal(status.message, 'Endpoints "bad" is invalid: [subsets[0].addresses[0].ip: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128), subsets[0].ports[0].name: Required value, subsets[0].ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive, subsets[1]: Required value: must specify `addresses` or `notReadyAddresses`]');
  });

  it('kubectl get ep: NAME, ENDPOINTS, AGE', async () => {
    const many = endpoints('many', [{ addresses: [{ ip: '10.3.0.1' }, { ip: '10.3.0.2' }, { ip: 'fd00::3' }], ports: [{ name: 'a', port: 80 }, { name: 'b', port: 81 }] }]);
    assert.equal((await s.request('POST', EP, { body: json(many) })).status, 201);
    assert.equal((await s.request('POST', EP, { body: json({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'empty' } }) })).status, 201);
    const r = await s.kubectl(['get', 'ep', '-n', 'default']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(header(r.stdout), ['NAME', 'ENDPOINTS', 'AGE']);
    assert.deepEqual(row(r.stdout, 'many').slice(0, 2), ['many', '10.3.0.1:80,10.3.0.2:80,[fd00::3]:80 + 3 more...']);
    assert.deepEqual(row(r.stdout, 'empty').slice(0, 2), ['empty', '<none>']);
    const resources = await s.kubectl(['api-resources', '--api-group=']);
    assert.equal(resources.code, 0, resources.stderr);
    assert.deepEqual(row(resources.stdout, 'endpoints'), ['endpoints', 'ep', 'v1', 'true', 'Endpoints']);
    const explain = await s.kubectl(['explain', 'endpoints.subsets.addresses.ip']);
    assert.equal(explain.code, 0, explain.stderr);
    assert.match(explain.stdout, /The IP of this endpoint/);
  });

  const address = advertisedAddress('127.0.0.1');
  it('the kubernetes Endpoints points at the server, and comes back after a delete', { skip: !address && 'no network interface has an address an endpoint may name: the server keeps no kubernetes Endpoints' }, async () => {
    const read = async () => (await s.request('GET', `${EP}/kubernetes`));
    await until(async () => (await read()).status === 200, 'the kubernetes Endpoints');
    const kube = (await read()).json();
    assert.deepEqual(kube.subsets, [{ addresses: [{ ip: address }], ports: [{ name: 'https', port: s.port, protocol: 'TCP' }] }]);
    assert.equal(kube.metadata.labels['endpointslice.platform.io/skip-mirror'], 'true');
    assert.equal((await s.request('DELETE', `${EP}/kubernetes`)).status, 200);
    await until(async () => (await read()).status === 200, 'the kubernetes Endpoints to come back');
    const changed = await s.request('PATCH', `${EP}/kubernetes`, { body: json({ subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ name: 'x', port: 1 }] }] }), headers: { 'content-type': 'application/merge-patch+json' } });
    assert.equal(changed.status, 200, changed.body);
    await until(async () => json((await read()).json().subsets) === json(kube.subsets), 'the kubernetes Endpoints to be reset');
  });

  it('the Python client lists and reads them', { skip: !pythonClient && 'the Python kubernetes client is not importable' }, async () => {
    const r = await runPython(PYTHON, [s.kubeconfigPath]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim());
    assert.ok(out.names.includes('web') && out.names.includes('many'), r.stdout);
    assert.equal(out.type, 'V1Endpoints');
    assert.deepEqual(out.ips, ['10.1.0.1', '10.1.0.2']);
    assert.deepEqual(out.ports, [['http', 80, 'TCP'], ['https', 443, 'TCP']]);
    assert.equal(out.targetRef, 'web-0');
  });
});
