import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from './support/capstan.ts';

const CRD_MANIFEST = `apiVersion: apiextensions.svc.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
`;

describe('CustomResourceDefinition: served, with none defined and none accepted', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(() => s?.stop());

  it('lists none, under the renamed group and under Kubernetes\' name of it', async () => {
    for (const group of ['apiextensions.svc.io', 'apiextensions.k8s.io']) {
      const r = await s.request('GET', `/apis/${group}/v1/customresourcedefinitions`);
      assert.equal(r.status, 200);
      const list = r.json();
      assert.equal(list.kind, 'CustomResourceDefinitionList');
      assert.equal(list.apiVersion, `${group}/v1`);
      assert.deepEqual(list.items, []);
    }
    const got = await s.kubectl(['get', 'crds']);
    assert.equal(got.code, 0, got.stderr);
    assert.equal(got.stderr, 'No resources found\n');
  });

  it('answers a get with 404 and a write with 405', async () => {
    const missing = await s.request('GET', '/apis/apiextensions.svc.io/v1/customresourcedefinitions/widgets.example.com');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'customresourcedefinitions.apiextensions.svc.io "widgets.example.com" not found');
    // Addressed by Kubernetes' name of the group, the error names that group.
    const aliased = await s.request('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
    assert.equal(aliased.status, 404);
    assert.equal(aliased.json().message, 'customresourcedefinitions.apiextensions.k8s.io "widgets.example.com" not found');
    assert.equal(aliased.json().details.group, 'apiextensions.k8s.io');
    const created = await s.kubectl(['create', '--validate=false', '-f', '-'], CRD_MANIFEST);
    assert.notEqual(created.code, 0);
    assert.match(created.stderr, /the server does not allow this method on the requested resource/);
  });

  it('is in discovery with get and list only', async () => {
    const group = (await s.request('GET', '/apis/apiextensions.svc.io/v1')).json();
    const crd = group.resources.find((r: { name: string }) => r.name === 'customresourcedefinitions');
    assert.deepEqual([...crd.verbs].sort(), ['get', 'list']);
    assert.deepEqual(crd.shortNames, ['crd', 'crds']);
    assert.equal(crd.namespaced, false);
  });
});
