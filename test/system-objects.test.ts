// End-to-end: objects Kubernetes' API server keeps in place come back when deleted: the `kubernetes`
// Service, a system namespace, and the API Priority and Fairness configuration.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { kubernetesService } from './support/services.ts';
import { until } from './support/until.ts';

describe('system objects', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ systemObjectsResyncMs: 100 }); });
  after(async () => { await s.stop(); });

  const status = async (path: string) => (await s.request('GET', path)).status;

  it('the kubernetes Service comes back after a delete, at the same address', async () => {
    const first = await kubernetesService(s);
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/default/services/kubernetes')).status, 200);
    await until(async () => (await status('/api/v1/namespaces/default/services/kubernetes')) === 200, 'the kubernetes Service to come back');
    assert.equal((await kubernetesService(s)).spec.clusterIP, first.spec.clusterIP);
  });

  it('the kubernetes Service gets its ports and type back when they are changed', async () => {
    await kubernetesService(s);
    const patched = await s.request('PATCH', '/api/v1/namespaces/default/services/kubernetes', {
      headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { ports: [{ name: 'web', port: 8443, protocol: 'TCP', targetPort: 1 }] } }),
    });
    assert.equal(patched.status, 200, patched.body);
    await until(async () => {
      const ports = (await s.request('GET', '/api/v1/namespaces/default/services/kubernetes')).json().spec.ports;
      return ports.length === 1 && ports[0].name === 'https' && ports[0].port === 443;
    }, 'the kubernetes Service\'s ports to be put back');
    const ports = (await s.request('GET', '/api/v1/namespaces/default/services/kubernetes')).json().spec.ports;
    assert.equal(ports[0].targetPort, Number(new URL(s.url).port));
  });

  it('default, kube-system and kube-public may not be deleted', async () => {
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const r = await s.request('DELETE', `/api/v1/namespaces/${name}`);
      assert.equal(r.status, 403, name);
      assert.equal(r.json().message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
    }
  });

  it('kube-node-lease may be deleted, and comes back once its deletion is done', async () => {
    assert.equal((await s.request('DELETE', '/api/v1/namespaces/kube-node-lease')).status, 200);
    await until(async () => {
      const r = await s.request('GET', '/api/v1/namespaces/kube-node-lease');
      return r.status === 200 && r.json().status.phase === 'Active';
    }, 'kube-node-lease to be active again');
  });

  it('a deleted suggested flow schema and a changed mandatory priority level are put back', async () => {
    const path = '/apis/flowcontrol.apiserver.svc.io/v1';
    assert.equal((await s.request('DELETE', `${path}/flowschemas/probes`)).status, 200);
    const patched = await s.request('PATCH', `${path}/prioritylevelconfigurations/catch-all`, {
      headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { limited: { nominalConcurrencyShares: 99 } } }),
    });
    assert.equal(patched.status, 200, patched.body);
    await until(async () => (await status(`${path}/flowschemas/probes`)) === 200, 'the probes flow schema to come back');
    await until(async () => (await s.request('GET', `${path}/prioritylevelconfigurations/catch-all`)).json().spec.limited.nominalConcurrencyShares !== 99, 'catch-all to be put back');
  });
});
