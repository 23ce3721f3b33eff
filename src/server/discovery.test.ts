import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregatedDiscovery, apiGroup, apiGroupList, apiResourceList, coreVersions, kindsIn, servedGroups, storageVersionHash,
} from './discovery.ts';
import { ConfigMap, Deployment, servedKinds } from './openapi.fixture.ts';

const served = servedKinds();

test('storageVersionHash matches the values Kubernetes publishes', () => {
  assert.equal(storageVersionHash('', 'v1', 'Pod'), 'xPOwRZ+Yhw8=');
  assert.equal(storageVersionHash('', 'v1', 'ConfigMap'), 'qFsyl6wFWjQ=');
  assert.equal(storageVersionHash('apps', 'v1', 'Deployment'), '8aSe+NMegvE=');
});

test('servedGroups keeps first-appearance group order and preference version order', () => {
  assert.deepEqual(servedGroups(served), [
    { name: '', versions: ['v1'] },
    { name: 'apps', versions: ['v1', 'v1beta2'] },
    { name: 'rbac.authorization.svc.io', versions: ['v1'] },
  ]);
  // Version order comes from def.versions, not from the order of the served list.
  const reversed = [{ def: Deployment, version: Deployment.versions[1]! }, { def: Deployment, version: Deployment.versions[0]! }];
  assert.deepEqual(servedGroups(reversed), [{ name: 'apps', versions: ['v1', 'v1beta2'] }]);
  // Unserved versions are left out.
  assert.deepEqual(servedGroups([{ def: Deployment, version: Deployment.versions[1]! }]), [{ name: 'apps', versions: ['v1beta2'] }]);
});

test('kindsIn lists each kind once, sorted by resource', () => {
  const dup = [...served, { def: ConfigMap, version: ConfigMap.versions[0]! }];
  assert.deepEqual(kindsIn(dup, '', 'v1').map((k) => k.def.plural), ['configmaps', 'namespaces', 'pods']);
  assert.deepEqual(kindsIn(served, 'apps', 'v2'), []);
});

test('/api lists v1 with the server address', () => {
  assert.deepEqual(coreVersions('10.0.0.1:6443'), {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '10.0.0.1:6443' }],
  });
});

test('/apis lists the named groups with their preferred version', () => {
  assert.deepEqual(apiGroupList(served), {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      {
        name: 'apps',
        versions: [{ groupVersion: 'apps/v1', version: 'v1' }, { groupVersion: 'apps/v1beta2', version: 'v1beta2' }],
        preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
      },
      {
        name: 'rbac.authorization.svc.io',
        versions: [{ groupVersion: 'rbac.authorization.svc.io/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'rbac.authorization.svc.io/v1', version: 'v1' },
      },
    ],
  });
  assert.deepEqual(apiGroupList([]), { kind: 'APIGroupList', apiVersion: 'v1', groups: [] });
});

test('/apis/{group} answers the group, or undefined when not served', () => {
  assert.deepEqual(apiGroup(served, 'rbac.authorization.svc.io'), {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: 'rbac.authorization.svc.io',
    versions: [{ groupVersion: 'rbac.authorization.svc.io/v1', version: 'v1' }],
    preferredVersion: { groupVersion: 'rbac.authorization.svc.io/v1', version: 'v1' },
  });
  assert.equal(apiGroup(served, 'batch'), undefined);
  assert.equal(apiGroup(served, ''), undefined);
});

test('/api/v1 lists resources and sub-resources in name order', () => {
  const list = apiResourceList(served, '', 'v1')!;
  assert.equal(list.kind, 'APIResourceList');
  assert.equal(list.apiVersion, 'v1');
  assert.equal(list.groupVersion, 'v1');
  assert.deepEqual(list.resources.map((r) => r.name), ['configmaps', 'namespaces', 'namespaces/status', 'pods', 'pods/eviction', 'pods/status']);
  const byName = Object.fromEntries(list.resources.map((r) => [r.name, r]));
  assert.deepEqual(byName.configmaps, {
    name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=',
  });
  assert.deepEqual(byName.pods!.categories, ['all']);
  assert.equal(byName.namespaces!.namespaced, false);
  assert.deepEqual(byName['namespaces/status'], { name: 'namespaces/status', singularName: '', namespaced: false, kind: 'Namespace', verbs: ['get', 'patch', 'update'] });
  assert.deepEqual(byName['pods/eviction'], { name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
  // Key order is Kubernetes' (clients do not care, but diffing against a real server is easier).
  assert.deepEqual(Object.keys(byName['pods/eviction']!), ['name', 'singularName', 'namespaced', 'group', 'version', 'kind', 'verbs']);
});

test('/apis/apps/v1 lists the scale view with its own group-version-kind', () => {
  const list = apiResourceList(served, 'apps', 'v1')!;
  assert.equal(list.groupVersion, 'apps/v1');
  assert.deepEqual(list.resources.map((r) => r.name), ['deployments', 'deployments/scale', 'deployments/status']);
  const [main, scale, status] = list.resources;
  assert.deepEqual(main!.shortNames, ['deploy']);
  assert.equal(main!.storageVersionHash, '8aSe+NMegvE=');
  assert.deepEqual(scale, { name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  assert.deepEqual(status, { name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment', verbs: ['get', 'patch', 'update'] });
  // The hash names the storage version whichever version is listed.
  assert.equal(apiResourceList(served, 'apps', 'v1beta2')!.resources[0]!.storageVersionHash, '8aSe+NMegvE=');
});

test('apiResourceList is undefined for a group-version that is not served', () => {
  assert.equal(apiResourceList(served, 'apps', 'v1beta1'), undefined);
  assert.equal(apiResourceList(served, 'batch', 'v1'), undefined);
});

test('aggregated discovery for /api holds the core group only', () => {
  const doc = aggregatedDiscovery(served, 'api', 'apidiscovery.k8s.io');
  assert.equal(doc.kind, 'APIGroupDiscoveryList');
  assert.equal(doc.apiVersion, 'apidiscovery.k8s.io/v2');
  assert.deepEqual(doc.metadata, {});
  assert.equal(doc.items.length, 1);
  const core = doc.items[0]!;
  assert.deepEqual(core.metadata, { name: '', creationTimestamp: null });
  assert.equal(core.versions.length, 1);
  assert.equal(core.versions[0]!.version, 'v1');
  assert.equal(core.versions[0]!.freshness, 'Current');
  const pods = core.versions[0]!.resources.find((r) => r.resource === 'pods')!;
  assert.deepEqual(pods, {
    resource: 'pods',
    responseKind: { group: '', version: '', kind: 'Pod' },
    scope: 'Namespaced',
    singularResource: 'pod',
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      { subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
      { subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
    ],
  });
  const configmaps = core.versions[0]!.resources.find((r) => r.resource === 'configmaps')!;
  assert.equal('categories' in configmaps, false);
  assert.equal('subresources' in configmaps, false);
  assert.equal(core.versions[0]!.resources.find((r) => r.resource === 'namespaces')!.scope, 'Cluster');
});

test('aggregated discovery for /apis holds every named group, versions in preference order', () => {
  const doc = aggregatedDiscovery(served, 'apis', 'apidiscovery.svc.io', 'v2beta1');
  assert.equal(doc.apiVersion, 'apidiscovery.svc.io/v2beta1');
  assert.deepEqual(doc.items.map((i) => i.metadata.name), ['apps', 'rbac.authorization.svc.io']);
  const apps = doc.items[0]!;
  assert.deepEqual(apps.versions.map((v) => v.version), ['v1', 'v1beta2']);
  const deployments = apps.versions[0]!.resources[0]!;
  assert.equal(deployments.resource, 'deployments');
  assert.deepEqual(deployments.subresources!.map((s) => [s.subresource, s.responseKind]), [
    ['scale', { group: 'autoscaling', version: 'v1', kind: 'Scale' }],
    ['status', { group: '', version: '', kind: 'Deployment' }],
  ]);
  const rbac = doc.items[1]!.versions[0]!.resources[0]!;
  assert.equal(rbac.scope, 'Cluster');
  assert.equal('shortNames' in rbac, false);
  assert.equal(aggregatedDiscovery([], 'apis', 'apidiscovery.k8s.io').items.length, 0);
});

test('documents are plain JSON data', () => {
  for (const doc of [aggregatedDiscovery(served, 'apis', 'apidiscovery.k8s.io'), apiResourceList(served, '', 'v1'), apiGroupList(served)]) {
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
  }
  // The inputs are not modified (a second call gives the same answer).
  assert.deepEqual(apiResourceList(served, '', 'v1'), apiResourceList(servedKinds(), '', 'v1'));
});

test('/apis and aggregated discovery list groups by Kubernetes group priority, not registration order', () => {
  const reversed = [...served].reverse();
  assert.deepEqual(apiGroupList(reversed).groups.map((g) => g.name), ['apps', 'rbac.authorization.svc.io']);
  assert.deepEqual(aggregatedDiscovery(reversed, 'apis', 'apidiscovery.k8s.io').items.map((g) => g.metadata.name), ['apps', 'rbac.authorization.svc.io']);
  assert.deepEqual(apiGroup(reversed, 'apps')!.versions.map((v) => v.version), ['v1', 'v1beta2']);
});
