// The field manager over real kinds: reset fields per endpoint, and what a create records for a Deployment.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deploymentKind } from '../../apis/apps/deployment.ts';
import { allKinds } from '../../apis/index.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { applyObject, recordUpdate } from './field-manager.ts';
import { fieldManagerScope, storageSchemaOf } from './kind-scope.ts';
import { pathString } from './path.ts';

describe('fieldManagerScope', () => {
  it('the main resource resets status; /status resets everything but status, labels and annotations', () => {
    const main = fieldManagerScope(deploymentKind, 'v1', '');
    assert.equal(main.apiVersion, 'apps/v1');
    assert.deepEqual(main.resetFields!.paths().map(pathString), ['.status']);
    const status = fieldManagerScope(deploymentKind, 'v1', 'status');
    const reset = status.resetFields!.paths().map(pathString);
    assert.ok(reset.includes('.spec') && reset.includes('.metadata.finalizers') && reset.includes('.metadata.ownerReferences'));
    assert.ok(!reset.includes('.status') && !reset.includes('.metadata.labels') && !reset.includes('.metadata.annotations'));
    const cm = allKinds().find((d) => d.kind === 'ConfigMap' && d.group === '')!;
    assert.equal(fieldManagerScope(cm, 'v1', '').resetFields, undefined, 'a kind without status resets nothing');
    assert.equal(storageSchemaOf(cm), cm.versions[0].schema);
  });
});

describe('a Deployment', () => {
  const scope = fieldManagerScope(deploymentKind, 'v1', '');
  const created = (): ApiObject => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'ns', labels: { app: 'd' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'd' } },
      template: { metadata: { creationTimestamp: null, labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    },
  } as unknown as ApiObject);

  it('a create records no "." for by-value structs and never-omitted lists, and one for new maps and pointers', () => {
    const obj = created();
    recordUpdate(scope, undefined, obj, 'kubectl-create');
    assert.deepEqual(obj.metadata.managedFields![0].fieldsV1, {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
        'f:template': {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
        },
      },
    });
  });

  it('an apply merges containers by name and conflicts on a field another manager owns', () => {
    const live = created();
    recordUpdate(scope, undefined, live, 'kubectl-create');
    live.metadata.uid = 'u';
    const config = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { template: { spec: { containers: [{ name: 'sidecar', image: 's' }] } } } } as unknown as ApiObject;
    const out = applyObject(scope, live, config, { manager: 'mesh', force: false });
    const containers = (out.spec as { template: { spec: { containers: { name: string }[] } } }).template.spec.containers;
    assert.deepEqual(containers.map((c) => c.name), ['c', 'sidecar']);
    const bump = { ...config, spec: { replicas: 3 } } as unknown as ApiObject;
    assert.throws(() => applyObject(scope, live, bump, { manager: 'mesh', force: false }), { code: 409, message: 'Apply failed with 1 conflict: conflict with "kubectl-create" using apps/v1: .spec.replicas' });
  });
});
