// End-to-end: a fresh server has Kubernetes v1.32's API Priority and Fairness configuration, as kubectl
// and the clients see it (the objects themselves are tested in src/controllers/flowcontrol-bootstrap.test.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('flow control bootstrap configuration', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  const names = async (resource: string) => {
    const r = await s.request('GET', `/apis/flowcontrol.apiserver.svc.io/v1/${resource}`);
    assert.equal(r.status, 200, r.body);
    return (r.json().items as { metadata: { name: string } }[]).map((i) => i.metadata.name).sort();
  };

  it('has the mandatory and suggested priority levels and flow schemas from the start', async () => {
    assert.deepEqual(await names('prioritylevelconfigurations'), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
    assert.deepEqual(await names('flowschemas'), ['catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts', 'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election']);
    const exempt = await s.request('GET', '/apis/flowcontrol.apiserver.svc.io/v1/prioritylevelconfigurations/exempt');
    assert.equal(exempt.json().spec.type, 'Exempt');
    assert.equal(exempt.json().metadata.annotations['apf.platform.io/autoupdate-spec'], 'true');
    const out = await s.kubectl(['get', 'flowschemas', 'catch-all', '-o', 'jsonpath={.spec.priorityLevelConfiguration.name}']);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), 'catch-all');
  });
});
