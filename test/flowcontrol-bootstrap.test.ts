// End-to-end: a fresh server has Kubernetes v1.32's API Priority and Fairness configuration, as kubectl
// and the clients see it (the objects themselves are tested in src/controllers/flowcontrol-bootstrap.test.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';

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

  it('every flow schema says whether its priority level exists (Dangling), as kubectl\'s MISSINGPL column shows', async () => {
    const FS = '/apis/flowcontrol.apiserver.svc.io/v1/flowschemas';
    const PL = '/apis/flowcontrol.apiserver.svc.io/v1/prioritylevelconfigurations';
    const dangling = async (name: string) => (await s.request('GET', `${FS}/${name}`)).json().status?.conditions?.find((c: { type: string }) => c.type === 'Dangling');
    await until(async () => (await dangling('catch-all'))?.status === 'False', 'catch-all Found');
    assert.deepEqual({ ...(await dangling('catch-all')), lastTransitionTime: undefined }, {
      type: 'Dangling', status: 'False', lastTransitionTime: undefined, reason: 'Found',
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "catch-all" and it exists',
    });
    const table = await s.kubectl(['get', 'flowschemas', 'catch-all', '--no-headers']);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^catch-all\s+catch-all\s+10000\s+ByUser\s+\S+\s+False\n$/);

    const created = await s.request('POST', FS, { body: JSON.stringify({
      apiVersion: 'flowcontrol.apiserver.svc.io/v1', kind: 'FlowSchema', metadata: { name: 'orphan' },
      spec: { priorityLevelConfiguration: { name: 'later' }, matchingPrecedence: 500 },
    }) });
    assert.equal(created.status, 201, created.body);
    await until(async () => (await dangling('orphan'))?.status === 'True', 'orphan NotFound');
    assert.equal((await dangling('orphan')).message, 'This FlowSchema references the PriorityLevelConfiguration object named "later" but there is no such object');
    const level = await s.request('POST', PL, { body: JSON.stringify({
      apiVersion: 'flowcontrol.apiserver.svc.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name: 'later' },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
    }) });
    assert.equal(level.status, 201, level.body);
    await until(async () => (await dangling('orphan'))?.reason === 'Found', 'orphan Found once its level exists');
  });
});
