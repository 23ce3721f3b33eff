// End-to-end: a built-in kind's required fields answer with the kind's own errors, as Kubernetes' do; the
// schema's `required` list adds a plain `Required value` only where the kind says nothing about the field.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('required fields of built-in kinds', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  async function causes(path: string, body: unknown): Promise<string[]> {
    const r = await s.request('POST', path, { body: JSON.stringify(body) });
    assert.equal(r.status, 422, r.body);
    const status = r.json();
    assert.equal(status.reason, 'Invalid');
    return status.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
  }

  it('owner references missing their fields', async () => {
    assert.deepEqual(await causes('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o1', ownerReferences: [{}] } }), [
      'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
      'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    ]);
  });

  it('an IngressClass parameters reference without kind and name', async () => {
    assert.deepEqual(await causes('/apis/networking.svc.io/v1/ingressclasses', { apiVersion: 'networking.svc.io/v1', kind: 'IngressClass', metadata: { name: 'i9' }, spec: { controller: 'example.com/c', parameters: {} } }), [
      'spec.parameters.kind: Required value: kind is required',
      'spec.parameters.name: Required value: name is required',
    ]);
  });

  it('an empty quota scope selector requirement', async () => {
    assert.deepEqual(await causes('/api/v1/namespaces/default/resourcequotas', { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { scopeSelector: { matchExpressions: [{}] } } }), [
      'spec.scopeSelector.matchExpressions.scopeName: Invalid value: "": unsupported scope',
      'spec.scopeSelector.matchExpressions.operator: Invalid value: "": not a valid selector operator',
    ]);
  });

  it('an empty label selector requirement', async () => {
    const found = await causes('/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' },
      spec: { selector: { matchExpressions: [{}] }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
    assert.ok(found.includes('spec.selector.matchExpressions[0].operator: Invalid value: "": not a valid selector operator'), found.join('\n'));
    assert.ok(found.includes('spec.selector.matchExpressions[0].key: Invalid value: "": name part must be non-empty'), found.join('\n'));
    assert.deepEqual(found.filter((c) => c.includes('Required value')), []);
  });

  it('a Service port without its number is port 0, as Go decodes it', async () => {
    assert.deepEqual(await causes('/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{}] } }), [
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive',
    ]);
  });

  it('a field the kind does not check itself still needs the schema: a Deployment without containers', async () => {
    assert.deepEqual(await causes('/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd2' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: {} } },
    }), ['spec.template.spec.containers: Required value']);
  });
});
