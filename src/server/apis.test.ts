import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiSurface, buildSurface, isComputedResource, type ServedResource } from './apis.ts';
import type { KindDefinition } from '../apis/kind.ts';
import type { ComponentCheck } from '../apis/computed-kind.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { componentStatusKind } from '../apis/core/componentstatus.ts';
import type { ResourceStore } from '../registry/store.ts';

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

describe('buildSurface', () => {
  const components: ComponentCheck[] = [{ name: 'etcd-0', check: async () => ({ healthy: true, message: 'ok' }) }];
  const storesAskedFor: string[] = [];
  const storeOf = (def: KindDefinition) => { storesAskedFor.push(def.kind); return { def } as unknown as ResourceStore; };
  const surface = buildSurface([configMapKind, componentStatusKind], {}, storeOf, { components });

  it('serves a stored kind from its store and a computed kind from its source, with no store for it', async () => {
    assert.deepEqual(storesAskedFor, ['ConfigMap']);
    assert.deepEqual(surface.all.map((s) => s.def.plural), ['configmaps', 'componentstatuses']);
    assert.deepEqual(surface.served.map((s) => s.def.plural), ['configmaps']);
    const cs = surface.find('', 'v1', 'componentstatuses')!;
    assert.ok(isComputedResource(cs));
    assert.deepEqual((await cs.source.list()).map((o) => o.metadata.name), ['etcd-0']);
    assert.equal(surface.lookup('', 'v1', 'componentstatuses'), undefined);
    assert.equal(surface.lookup('', 'v1', 'configmaps')?.store.def, configMapKind);
    assert.ok(surface.hasGroupVersion('', 'v1'));
  });

  it('leaves out a computed kind that --runtime-config turns off', () => {
    const off = buildSurface([configMapKind, componentStatusKind], { 'v1/componentstatuses': 'false' }, storeOf, { components });
    assert.equal(off.find('', 'v1', 'componentstatuses'), undefined);
    assert.deepEqual(off.all.map((s) => s.def.plural), ['configmaps']);
  });
});
