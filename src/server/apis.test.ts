import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiSurface, type ServedResource } from './apis.ts';
import type { KindDefinition } from '../apis/kind.ts';

function entry(group: string, plural: string): ServedResource {
  const version = { name: 'v1', stability: 'stable' as const, schema: {} as never };
  const def = { group, kind: plural, plural, singular: plural, namespaced: true, versions: [version], storageVersion: 'v1' } as unknown as KindDefinition;
  return { def, version, store: {} as never };
}

describe('ApiSurface.servingGroup', () => {
  const surface = new ApiSurface();
  surface.add(entry('rbac.authorization.svc.io', 'roles'));
  surface.add(entry('apps', 'deployments'));
  surface.add(entry('both.svc.io', 'things'));
  surface.add(entry('both.k8s.io', 'things'));

  it('serves Kubernetes\' name of a renamed group from the renamed group', () => {
    assert.equal(surface.servingGroup('rbac.authorization.k8s.io'), 'rbac.authorization.svc.io');
    assert.equal(surface.servingGroup('rbac.authorization.svc.io'), 'rbac.authorization.svc.io');
  });

  it('leaves a group alone when it is served itself, or when its renamed form is not served', () => {
    assert.equal(surface.servingGroup('both.k8s.io'), 'both.k8s.io');
    assert.equal(surface.servingGroup('networking.k8s.io'), 'networking.k8s.io');
    assert.equal(surface.servingGroup('apps'), 'apps');
    assert.equal(surface.servingGroup(''), '');
  });
});
