// The server's own writes record field ownership as Kubernetes' components' do: the API server's bootstrap
// objects under kube-apiserver, the flow control configuration under its producer, the controllers' writes
// under kube-controller-manager; so an apply that changes one of their values conflicts with that manager.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer } from './support/capstan.ts';
import { until } from './support/until.ts';

const managers = (obj: any) => (obj.metadata.managedFields ?? []).map((e: any) => `${e.manager} ${e.operation} ${e.apiVersion}`);

test('system objects name the component that wrote them in managedFields, and an apply conflicts with it', async () => {
  const s = await startTestServer({ controllers: ['*'] });
  try {
    const ns = (await s.request('GET', '/api/v1/namespaces/default')).json();
    assert.deepEqual(managers(ns), ['kube-apiserver Update v1']);
    assert.deepEqual(ns.metadata.managedFields[0].fieldsV1, { 'f:metadata': { 'f:labels': { '.': {}, 'f:platform.io/metadata.name': {} } } });
    const admin = (await s.request('GET', '/apis/rbac.authorization.svc.io/v1/clusterroles/admin')).json();
    assert.deepEqual(managers(admin), ['kube-apiserver Update rbac.authorization.svc.io/v1']);
    // The producer writes the spec, the consumer (soon after) the status' Dangling condition.
    const exemptPath = '/apis/flowcontrol.apiserver.svc.io/v1/flowschemas/exempt';
    await until(async () => managers((await s.request('GET', exemptPath)).json()).length === 2, 'the consumer\'s status write');
    const exempt = (await s.request('GET', exemptPath)).json();
    assert.deepEqual(managers(exempt).sort(), [
      'api-priority-and-fairness-config-consumer-v1 Update flowcontrol.apiserver.svc.io/v1',
      'api-priority-and-fairness-config-producer-v1 Update flowcontrol.apiserver.svc.io/v1',
    ]);
    const consumer = exempt.metadata.managedFields.find((e: any) => e.manager === 'api-priority-and-fairness-config-consumer-v1');
    assert.equal(consumer.subresource, 'status');
    assert.deepEqual(Object.keys(consumer.fieldsV1), ['f:status']);
    const rootCaPath = '/api/v1/namespaces/default/configmaps/kube-root-ca.crt';
    await until(async () => (await s.request('GET', rootCaPath)).status === 200, 'kube-root-ca.crt to be published');
    const rootCa = (await s.request('GET', rootCaPath)).json();
    assert.deepEqual(managers(rootCa), ['kube-controller-manager Update v1']);

    const apply = await s.request('PATCH', '/api/v1/namespaces/default?fieldManager=me', {
      headers: { 'content-type': 'application/apply-patch+yaml' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'platform.io/metadata.name': 'other' } } }),
    });
    assert.equal(apply.status, 409, apply.body);
    assert.equal(apply.json().message, 'Apply failed with 1 conflict: conflict with "kube-apiserver" using v1: .metadata.labels.platform.io/metadata.name');
  } finally {
    await s.stop();
  }
});
