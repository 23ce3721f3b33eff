import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import type { KindDefinition } from '../apis/kind.ts';
import { S } from '../apis/meta/schema.ts';
import { ObjectMeta } from '../apis/meta/v1.ts';
import type { ServedKind } from './discovery.ts';
import {
  buildOpenApiV3, definitionNameForRef, kindDefinitionName, openApiHash, openApiV2Document, openApiV3Document, openApiV3Index,
  openApiV3Key, openApiV3Keys, openApiV3Schemas, parseOpenApiV3Key,
} from './openapi.ts';
import { servedKinds } from './openapi.fixture.ts';

type Json = Record<string, any>;

const served = servedKinds();
const apps = openApiV3Document(served, 'apps', 'v1')! as unknown as Json;
const core = openApiV3Document(served, '', 'v1')! as unknown as Json;
const rbac = openApiV3Document(served, 'rbac.authorization.svc.io', 'v1')! as unknown as Json;
const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function* operations(doc: Json): Generator<[string, string, Json]> {
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const m of METHODS) if (item[m]) yield [path, m, item[m]];
  }
}

function* walk(value: unknown, path = '$'): Generator<[string, Json]> {
  if (Array.isArray(value)) { for (let i = 0; i < value.length; i++) yield* walk(value[i], `${path}[${i}]`); return; }
  if (value && typeof value === 'object') {
    yield [path, value as Json];
    for (const [k, v] of Object.entries(value)) yield* walk(v, `${path}.${k}`);
  }
}

/** What kubectl's query_param_verifier_v3 does: a PATCH with this GVK that lists the query parameter. */
function supportsQueryParam(doc: Json, gvk: { group: string; version: string; kind: string }, param: string): boolean | undefined {
  for (const item of Object.values(doc.paths as Json)) {
    const op = item.patch;
    if (!op) continue;
    const g = op['x-kubernetes-group-version-kind'];
    if (g?.group !== gvk.group || g?.version !== gvk.version || g?.kind !== gvk.kind) continue;
    return (op.parameters as Json[]).some((p) => p.name === param && p.in === 'query');
  }
  return undefined;
}

/** What `kubectl explain` does: the GVK of the list operation, then the schema carrying that GVK. */
function explainSchema(doc: Json, collectionPath: string): [string, Json] {
  const gvk = doc.paths[collectionPath].get['x-kubernetes-group-version-kind'];
  const found = Object.entries(doc.components.schemas as Json).filter(([, s]) =>
    (s['x-kubernetes-group-version-kind'] ?? []).some((k: Json) => k.group === gvk.group && k.version === gvk.version && k.kind === gvk.kind));
  assert.equal(found.length, 1, `one schema for ${JSON.stringify(gvk)}`);
  return found[0]!;
}

function resolve(doc: Json, node: Json): Json {
  const ref = node.$ref ?? (node.allOf?.length === 1 ? node.allOf[0].$ref : undefined);
  if (!ref) return node;
  const prefix = doc.openapi ? '#/components/schemas/' : '#/definitions/';
  assert.ok(ref.startsWith(prefix), ref);
  const target = (doc.openapi ? doc.components.schemas : doc.definitions)[ref.slice(prefix.length)];
  assert.ok(target, `${ref} resolves`);
  return target;
}

test('v3 document header', () => {
  assert.equal(apps.openapi, '3.0.0');
  assert.deepEqual(apps.info, { title: 'Kubernetes', version: 'unversioned' });
  assert.equal((openApiV3Document(served, 'apps', 'v1', { infoVersion: 'v1.32.0' }) as Json).info.version, 'v1.32.0');
  assert.equal(openApiV3Document(served, 'apps', 'v1beta1'), undefined);
  assert.equal(openApiV3Document(served, 'batch', 'v1'), undefined);
});

test('v3 paths cover collection, all-namespaces list, item, status, views and watch', () => {
  assert.deepEqual(Object.keys(apps.paths), [
    '/apis/apps/v1/deployments',
    '/apis/apps/v1/namespaces/{namespace}/deployments',
    '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
    '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
    '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/status',
    '/apis/apps/v1/watch/deployments',
    '/apis/apps/v1/watch/namespaces/{namespace}/deployments',
    '/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}',
  ]);
  assert.deepEqual(Object.keys(rbac.paths), [
    '/apis/rbac.authorization.svc.io/v1/clusterroles',
    '/apis/rbac.authorization.svc.io/v1/clusterroles/{name}',
    '/apis/rbac.authorization.svc.io/v1/watch/clusterroles',
    '/apis/rbac.authorization.svc.io/v1/watch/clusterroles/{name}',
  ]);
  assert.ok(core.paths['/api/v1/configmaps']);
  assert.ok(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post);
  assert.ok(core.paths['/api/v1/namespaces/{name}/status']);
});

test('operation ids, actions and tags follow Kubernetes', () => {
  const ids = (doc: Json) => Object.fromEntries([...operations(doc)].map(([path, m, op]) => [`${m} ${path}`, [op.operationId, op['x-kubernetes-action']]]));
  const a = ids(apps);
  assert.deepEqual(a['get /apis/apps/v1/namespaces/{namespace}/deployments'], ['listAppsV1NamespacedDeployment', 'list']);
  assert.deepEqual(a['post /apis/apps/v1/namespaces/{namespace}/deployments'], ['createAppsV1NamespacedDeployment', 'post']);
  assert.deepEqual(a['delete /apis/apps/v1/namespaces/{namespace}/deployments'], ['deleteAppsV1CollectionNamespacedDeployment', 'deletecollection']);
  assert.deepEqual(a['get /apis/apps/v1/namespaces/{namespace}/deployments/{name}'], ['readAppsV1NamespacedDeployment', 'get']);
  assert.deepEqual(a['put /apis/apps/v1/namespaces/{namespace}/deployments/{name}'], ['replaceAppsV1NamespacedDeployment', 'put']);
  assert.deepEqual(a['patch /apis/apps/v1/namespaces/{namespace}/deployments/{name}'], ['patchAppsV1NamespacedDeployment', 'patch']);
  assert.deepEqual(a['delete /apis/apps/v1/namespaces/{namespace}/deployments/{name}'], ['deleteAppsV1NamespacedDeployment', 'delete']);
  assert.deepEqual(a['patch /apis/apps/v1/namespaces/{namespace}/deployments/{name}/status'], ['patchAppsV1NamespacedDeploymentStatus', 'patch']);
  assert.deepEqual(a['put /apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'], ['replaceAppsV1NamespacedDeploymentScale', 'put']);
  assert.deepEqual(a['get /apis/apps/v1/deployments'], ['listAppsV1DeploymentForAllNamespaces', 'list']);
  assert.deepEqual(a['get /apis/apps/v1/watch/deployments'], ['watchAppsV1DeploymentListForAllNamespaces', 'watchlist']);
  assert.deepEqual(a['get /apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}'], ['watchAppsV1NamespacedDeployment', 'watch']);
  assert.equal(a['delete /apis/apps/v1/namespaces/{namespace}/deployments/{name}/status'], undefined);
  const c = ids(core);
  assert.deepEqual(c['get /api/v1/namespaces/{namespace}/configmaps'], ['listCoreV1NamespacedConfigMap', 'list']);
  assert.deepEqual(c['get /api/v1/namespaces'], ['listCoreV1Namespace', 'list']);
  assert.deepEqual(c['post /api/v1/namespaces/{namespace}/pods/{name}/eviction'], ['createCoreV1NamespacedPodEviction', 'post']);
  assert.deepEqual(ids(rbac)['get /apis/rbac.authorization.svc.io/v1/clusterroles'], ['listRbacAuthorizationV1ClusterRole', 'list']);
  assert.deepEqual(rbac.paths['/apis/rbac.authorization.svc.io/v1/clusterroles'].get.tags, ['rbacAuthorization_v1']);
  assert.deepEqual(core.paths['/api/v1/namespaces'].post.tags, ['core_v1']);
  assert.equal(core.paths['/api/v1/namespaces/{namespace}/configmaps'].post.description, 'create a ConfigMap');
  // Operation ids are unique within a document.
  for (const doc of [apps, core, rbac]) {
    const all = [...operations(doc)].map(([, , op]) => op.operationId);
    assert.equal(new Set(all).size, all.length);
  }
});

test('every operation carries the GVK it answers; views carry their own', () => {
  for (const [path, , op] of operations(apps)) {
    const expected = path.endsWith('/scale') ? { group: 'autoscaling', kind: 'Scale', version: 'v1' } : { group: 'apps', kind: 'Deployment', version: 'v1' };
    assert.deepEqual(op['x-kubernetes-group-version-kind'], expected, path);
    assert.deepEqual(op.responses['401'], { description: 'Unauthorized' });
  }
  assert.deepEqual(core.paths['/api/v1/namespaces/{namespace}/pods/{name}/eviction'].post['x-kubernetes-group-version-kind'], { group: 'policy', kind: 'Eviction', version: 'v1' });
});

test('kubectl finds fieldValidation on the PATCH of every kind (server-side field validation)', () => {
  assert.equal(supportsQueryParam(apps, { group: 'apps', version: 'v1', kind: 'Deployment' }, 'fieldValidation'), true);
  assert.equal(supportsQueryParam(core, { group: '', version: 'v1', kind: 'ConfigMap' }, 'fieldValidation'), true);
  assert.equal(supportsQueryParam(core, { group: '', version: 'v1', kind: 'Namespace' }, 'fieldValidation'), true);
  assert.equal(supportsQueryParam(rbac, { group: 'rbac.authorization.svc.io', version: 'v1', kind: 'ClusterRole' }, 'fieldValidation'), true);
  assert.equal(supportsQueryParam(apps, { group: 'apps', version: 'v1', kind: 'ReplicaSet' }, 'fieldValidation'), undefined);
});

test('query and path parameters per verb', () => {
  const names = (op: Json) => (op.parameters ?? []).map((p: Json) => p.name);
  const item = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
  const collection = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments'];
  assert.deepEqual(names(item), ['name', 'namespace', 'pretty']);
  assert.deepEqual(item.parameters[0], { description: 'name of the Deployment', in: 'path', name: 'name', required: true, schema: { type: 'string', uniqueItems: true } });
  assert.deepEqual(names(collection), ['namespace', 'pretty']);
  assert.deepEqual(names(collection.get), ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch']);
  assert.deepEqual(names(collection.post), ['dryRun', 'fieldManager', 'fieldValidation']);
  assert.deepEqual(names(collection.delete), ['continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds']);
  assert.deepEqual(names(item.get), []);
  assert.deepEqual(names(item.put), ['dryRun', 'fieldManager', 'fieldValidation']);
  assert.deepEqual(names(item.patch), ['dryRun', 'fieldManager', 'fieldValidation', 'force']);
  assert.deepEqual(names(item.delete), ['dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'propagationPolicy']);
  assert.deepEqual(item.patch.parameters.find((p: Json) => p.name === 'force').schema, { type: 'boolean', uniqueItems: true });
  assert.match(item.patch.parameters.find((p: Json) => p.name === 'fieldManager').description, /required for apply requests/);
  assert.deepEqual(names(rbac.paths['/apis/rbac.authorization.svc.io/v1/clusterroles/{name}']), ['name', 'pretty']);
});

test('request bodies and responses reference the right schemas', () => {
  const ref = (name: string) => ({ schema: { $ref: `#/components/schemas/${name}` } });
  const item = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
  const deployment = 'io.svc.api.apps.v1.Deployment';
  assert.deepEqual(item.put.requestBody, { content: { '*/*': ref(deployment) }, required: true });
  assert.deepEqual(Object.keys(item.patch.requestBody.content), ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
  assert.deepEqual(item.patch.requestBody.content['application/strategic-merge-patch+json'], ref('io.svc.apimachinery.pkg.apis.meta.v1.Patch'));
  assert.deepEqual(item.delete.requestBody, { content: { '*/*': ref('io.svc.apimachinery.pkg.apis.meta.v1.DeleteOptions') } });
  assert.deepEqual(Object.keys(item.put.responses), ['200', '201', '401']);
  assert.deepEqual(item.put.responses['200'].content['application/json'], ref(deployment));
  assert.deepEqual(Object.keys(item.get.responses['200'].content), ['application/json', 'application/vnd.platform.protobuf', 'application/yaml']);
  assert.deepEqual(item.delete.responses['202'].content['application/json'], ref('io.svc.apimachinery.pkg.apis.meta.v1.Status'));
  const collection = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments'];
  assert.deepEqual(Object.keys(collection.post.responses), ['200', '201', '202', '401']);
  assert.deepEqual(collection.get.responses['200'].content['application/json;stream=watch'], ref('io.svc.api.apps.v1.DeploymentList'));
  const watch = apps.paths['/apis/apps/v1/watch/namespaces/{namespace}/deployments'].get;
  assert.deepEqual(watch.responses['200'].content['application/json'], ref('io.svc.apimachinery.pkg.apis.meta.v1.WatchEvent'));
  const scale = apps.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'];
  assert.deepEqual(scale.put.requestBody.content['*/*'], ref('io.svc.api.autoscaling.v1.Scale'));
});

test('a kind that answers DELETE with the object says so', () => {
  const def: KindDefinition = {
    group: 'example.svc.io', kind: 'Widget', plural: 'widgets', singular: 'widget', namespaced: false, storageVersion: 'v1', deleteReturnsObject: true,
    versions: [{ name: 'v1', stability: 'stable', schema: S.object({ metadata: ObjectMeta }) }],
  };
  const doc = openApiV3Document([{ def, version: def.versions[0]! }], 'example.svc.io', 'v1') as unknown as Json;
  const del = doc.paths['/apis/example.svc.io/v1/widgets/{name}'].delete;
  assert.equal(del.operationId, 'deleteExampleV1Widget');
  assert.equal(del.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/io.svc.api.example.v1.Widget');
});

test('kubectl explain finds each kind schema through its list operation', () => {
  const [name, schema] = explainSchema(apps, '/apis/apps/v1/namespaces/{namespace}/deployments');
  assert.equal(name, 'io.svc.api.apps.v1.Deployment');
  assert.equal(schema.description, 'Deployment enables declarative updates for Pods and ReplicaSets.');
  assert.deepEqual(schema['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
  const spec = resolve(apps, schema.properties.spec);
  assert.deepEqual(spec.required, ['selector', 'template']);
  const podSpec = resolve(apps, resolve(apps, spec.properties.template).properties.spec);
  const containers = podSpec.properties.containers;
  assert.equal(containers['x-kubernetes-patch-merge-key'], 'name');
  assert.equal(containers['x-kubernetes-patch-strategy'], 'merge');
  assert.equal(containers['x-kubernetes-list-type'], 'map');
  assert.deepEqual(containers['x-kubernetes-list-map-keys'], ['name']);
  assert.equal(containers['x-platform-patch-merge-key'], 'name');
  assert.deepEqual(resolve(apps, containers.items).required, ['name']);
  assert.equal(explainSchema(core, '/api/v1/namespaces')[0], 'io.svc.api.core.v1.Namespace');
  assert.equal(explainSchema(core, '/api/v1/configmaps')[0], 'io.svc.api.core.v1.ConfigMap');
  assert.equal(explainSchema(rbac, '/apis/rbac.authorization.svc.io/v1/clusterroles')[0], 'io.svc.api.rbac.v1.ClusterRole');
});

test('list kinds and view kinds are published with their GVK', () => {
  const schemas = apps.components.schemas;
  const list = schemas['io.svc.api.apps.v1.DeploymentList'];
  assert.deepEqual(list['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'DeploymentList', version: 'v1' }]);
  assert.deepEqual(list.required, ['items']);
  assert.deepEqual(list.properties.items.items, { $ref: '#/components/schemas/io.svc.api.apps.v1.Deployment' });
  assert.equal(resolve(apps, list.properties.metadata), schemas['io.svc.apimachinery.pkg.apis.meta.v1.ListMeta']);
  assert.deepEqual(schemas['io.svc.api.autoscaling.v1.Scale']['x-kubernetes-group-version-kind'], [{ group: 'autoscaling', kind: 'Scale', version: 'v1' }]);
});

test('a view with its own schema publishes it', () => {
  const Scale = S.object({ metadata: ObjectMeta, spec: S.object({ replicas: S.int32() }, { ref: 'autoscaling.v1.ScaleSpec' }) }, { description: 'Scale represents a scaling request for a resource.' });
  // ViewSubresource has no schema field yet; OpenAPI reads one when a view carries it.
  const scaleView = { name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'update', 'patch'] as ('get' | 'update' | 'patch')[], schema: Scale };
  const def: KindDefinition = {
    group: 'apps', kind: 'StatefulSet', plural: 'statefulsets', singular: 'statefulset', namespaced: true, storageVersion: 'v1',
    views: [scaleView],
    versions: [{ name: 'v1', stability: 'stable', schema: S.object({ metadata: ObjectMeta }) }],
  };
  const doc = openApiV3Document([{ def, version: def.versions[0]! }], 'apps', 'v1') as unknown as Json;
  const scale = doc.components.schemas['io.svc.api.autoscaling.v1.Scale'];
  assert.equal(scale.description, 'Scale represents a scaling request for a resource.');
  assert.ok(doc.components.schemas['io.svc.api.autoscaling.v1.ScaleSpec']);
});

test('a field of a named type keeps its own description and patch strategy; the type keeps its own description', () => {
  const Strategy = S.object({ type: S.string() }, { ref: 'apps.v1.DeploymentStrategy', description: 'DeploymentStrategy describes how to replace existing pods with new ones.' });
  const field = { ...Strategy, 'x-proto': 4, 'x-type-description': Strategy.description, 'x-platform-patch-strategy': 'retainKeys', description: 'The deployment strategy to use.' };
  const def: KindDefinition = {
    group: 'apps', kind: 'Deployment', plural: 'deployments', singular: 'deployment', namespaced: true, storageVersion: 'v1',
    versions: [{ name: 'v1', stability: 'stable', schema: S.object({ metadata: ObjectMeta, spec: S.object({ strategy: field }, { ref: 'apps.v1.DeploymentSpec' }) }) }],
  };
  const doc = openApiV3Document([{ def, version: def.versions[0]! }], 'apps', 'v1') as unknown as Json;
  const type = doc.components.schemas['io.svc.api.apps.v1.DeploymentStrategy'];
  assert.equal(type.description, 'DeploymentStrategy describes how to replace existing pods with new ones.');
  assert.equal(type['x-kubernetes-patch-strategy'], undefined);
  assert.deepEqual(doc.components.schemas['io.svc.api.apps.v1.DeploymentSpec'].properties.strategy, {
    allOf: [{ $ref: '#/components/schemas/io.svc.api.apps.v1.DeploymentStrategy' }], description: 'The deployment strategy to use.',
    'x-platform-patch-strategy': 'retainKeys', 'x-kubernetes-patch-strategy': 'retainKeys',
  });
});

test('meta definitions: Status, DeleteOptions, Patch, WatchEvent, ListMeta', () => {
  const schemas = apps.components.schemas;
  const m = (k: string) => schemas[`io.svc.apimachinery.pkg.apis.meta.v1.${k}`];
  assert.deepEqual(m('Status')['x-kubernetes-group-version-kind'], [{ group: '', kind: 'Status', version: 'v1' }]);
  assert.equal(m('Status').properties.code.format, 'int32');
  assert.deepEqual(m('DeleteOptions')['x-kubernetes-group-version-kind'].map((g: Json) => `${g.group}/${g.version}`), ['/v1', 'apps/v1', 'apps/v1beta2', 'rbac.authorization.svc.io/v1']);
  assert.deepEqual(m('Patch'), { description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.', type: 'object' });
  assert.deepEqual(m('WatchEvent').required, ['type', 'object']);
  assert.deepEqual(m('WatchEvent').properties.object.allOf, [{ $ref: '#/components/schemas/io.svc.apimachinery.pkg.runtime.RawExtension' }]);
  assert.ok(m('WatchEvent').properties.object.description.startsWith('Object is:'));
  assert.ok(m('ListMeta').properties.continue);
  assert.ok(schemas['io.svc.apimachinery.pkg.runtime.RawExtension']);
});

test('scalar types are published as Kubernetes publishes them', () => {
  const schemas = apps.components.schemas;
  assert.deepEqual(schemas['io.svc.apimachinery.pkg.apis.meta.v1.Time'], { description: schemas['io.svc.apimachinery.pkg.apis.meta.v1.Time'].description, type: 'string', format: 'date-time' });
  const intOrString = schemas['io.svc.apimachinery.pkg.util.intstr.IntOrString'];
  assert.equal(intOrString.format, 'int-or-string');
  assert.equal(intOrString.type, undefined);
  assert.deepEqual(intOrString.oneOf, [{ type: 'integer' }, { type: 'string' }]);
  assert.equal(intOrString['x-kubernetes-int-or-string'], true);
  const quantity = schemas['io.svc.apimachinery.pkg.api.resource.Quantity'];
  assert.deepEqual(quantity.oneOf, [{ type: 'string' }, { type: 'number' }]);
  assert.equal(quantity['x-kubernetes-int-or-string'], undefined);
  // A field with its own description refers to the type through allOf.
  const rolling = schemas['io.svc.api.apps.v1.RollingUpdateDeployment'];
  assert.deepEqual(rolling.properties.maxSurge, {
    allOf: [{ $ref: '#/components/schemas/io.svc.apimachinery.pkg.util.intstr.IntOrString' }],
    description: 'The maximum number of pods that can be scheduled above the desired number of pods.',
  });
  const limits = schemas['io.svc.api.core.v1.ResourceRequirements'].properties.limits;
  assert.equal(limits.type, 'object');
  assert.deepEqual(limits.additionalProperties, { $ref: '#/components/schemas/io.svc.apimachinery.pkg.api.resource.Quantity' });
  const configMap = core.components.schemas['io.svc.api.core.v1.ConfigMap'];
  assert.deepEqual(configMap.properties.binaryData.additionalProperties, { type: 'string', format: 'byte' });
  assert.deepEqual(configMap.properties.data, { description: 'Data contains the configuration data.', type: 'object', additionalProperties: { type: 'string' } });
  assert.equal(configMap.required, undefined);
  const objectMeta = schemas['io.svc.apimachinery.pkg.apis.meta.v1.ObjectMeta'];
  assert.deepEqual(objectMeta.properties.creationTimestamp, { $ref: '#/components/schemas/io.svc.apimachinery.pkg.apis.meta.v1.Time' });
  assert.equal(objectMeta.properties.finalizers['x-kubernetes-list-type'], 'set');
  assert.equal(schemas['io.svc.apimachinery.pkg.apis.meta.v1.LabelSelector']['x-kubernetes-map-type'], 'atomic');
  assert.equal(schemas['io.svc.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'].properties.fieldsV1['x-kubernetes-preserve-unknown-fields'], true);
  const ns = core.components.schemas['io.svc.api.core.v1.NamespaceStatus'];
  assert.deepEqual(ns.properties.phase, { enum: ['Active', 'Terminating'], type: 'string' });
});

test('no internal keys, no dangling references, plain data', () => {
  for (const doc of [apps, core, rbac, openApiV2Document(served) as unknown as Json]) {
    assert.deepEqual(JSON.parse(JSON.stringify(doc)), doc);
    for (const [path, node] of walk(doc)) {
      assert.equal(Object.getOwnPropertySymbols(node).length, 0, path);
      for (const key of ['x-proto', 'x-ref', 'x-platform-type', '$id']) assert.equal(key in node, false, `${path}.${key}`);
      if (typeof node.$ref === 'string') resolve(doc, node);
      if (node.patternProperties) assert.fail(`${path} has patternProperties`);
    }
  }
});

test('recursive and union schemas convert', () => {
  const Props = Type.Recursive((This) => S.object({ description: S.string(), properties: S.map(This), items: This }, { ref: 'apiextensions.v1.JSONSchemaProps' }));
  const def: KindDefinition = {
    group: 'apiextensions.svc.io', kind: 'Thing', plural: 'things', singular: 'thing', namespaced: false, storageVersion: 'v1',
    versions: [{
      name: 'v1', stability: 'stable', schema: S.object({
        metadata: ObjectMeta,
        schema: Props,
        mode: Type.Union([Type.Literal('A'), Type.Literal('B')]),
        note: Type.Union([S.string(), Type.Null()]),
      }),
    }],
  };
  const doc = openApiV3Document([{ def, version: def.versions[0]! }], 'apiextensions.svc.io', 'v1') as unknown as Json;
  const props = doc.components.schemas['io.svc.api.apiextensions.v1.JSONSchemaProps'];
  assert.deepEqual(props.properties.items, { $ref: '#/components/schemas/io.svc.api.apiextensions.v1.JSONSchemaProps' });
  assert.deepEqual(props.properties.properties.additionalProperties, { $ref: '#/components/schemas/io.svc.api.apiextensions.v1.JSONSchemaProps' });
  const thing = doc.components.schemas['io.svc.api.apiextensions.v1.Thing'];
  assert.deepEqual(thing.properties.mode, { type: 'string', enum: ['A', 'B'] });
  assert.deepEqual(thing.properties.note, { nullable: true, type: 'string' });
  const v2 = openApiV2Document([{ def, version: def.versions[0]! }]) as unknown as Json;
  assert.deepEqual(v2.definitions['io.svc.api.apiextensions.v1.Thing'].properties.note, { type: 'string' });
});

test('definition names', () => {
  assert.equal(kindDefinitionName('', 'v1', 'ConfigMap'), 'io.svc.api.core.v1.ConfigMap');
  assert.equal(kindDefinitionName('coordination.svc.io', 'v1', 'Lease'), 'io.svc.api.coordination.v1.Lease');
  assert.equal(definitionNameForRef('meta.v1.ObjectMeta'), 'io.svc.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  assert.equal(definitionNameForRef('core.v1.PodSpec'), 'io.svc.api.core.v1.PodSpec');
  assert.equal(definitionNameForRef('networking.v1.IngressSpec'), 'io.svc.api.networking.v1.IngressSpec');
});

test('v3 index, keys and hashes', () => {
  assert.deepEqual(openApiV3Keys(served), ['api/v1', 'apis/apps/v1', 'apis/apps/v1beta2', 'apis/rbac.authorization.svc.io/v1']);
  assert.equal(openApiV3Key('', 'v1'), 'api/v1');
  assert.equal(openApiV3Key('apps', 'v1'), 'apis/apps/v1');
  assert.deepEqual(parseOpenApiV3Key('apis/apps/v1'), { group: 'apps', version: 'v1' });
  assert.deepEqual(parseOpenApiV3Key('/api/v1'), { group: '', version: 'v1' });
  assert.equal(parseOpenApiV3Key('apis/apps'), undefined);
  assert.equal(parseOpenApiV3Key('version'), undefined);

  const built = buildOpenApiV3(served);
  assert.deepEqual([...built.documents.keys()], openApiV3Keys(served));
  for (const [key, { document, json, hash }] of built.documents) {
    assert.equal(json, JSON.stringify(document));
    assert.match(hash, /^[0-9A-F]{128}$/);
    assert.equal(hash, openApiHash(json));
    assert.equal(hash, openApiHash(document));
    assert.equal(built.index.paths[key]!.serverRelativeURL, `/openapi/v3/${key}?hash=${hash}`);
  }
  // Deterministic: a second build gives the same bytes.
  assert.equal(buildOpenApiV3(servedKinds()).documents.get('apis/apps/v1')!.json, built.documents.get('apis/apps/v1')!.json);

  const index = openApiV3Index(served, { version: 'ABC' });
  assert.deepEqual(Object.keys(index.paths), ['api/v1', 'apis/apps/v1', 'apis/apps/v1beta2', 'apis/rbac.authorization.svc.io/v1', 'version']);
  assert.equal(index.paths.version!.serverRelativeURL, '/openapi/v3/version?hash=ABC');
  assert.equal(index.paths['api/v1']!.serverRelativeURL, built.index.paths['api/v1']!.serverRelativeURL);
});

test('v2 document covers every group-version with #/definitions references', () => {
  const v2 = openApiV2Document(served) as unknown as Json;
  assert.equal(v2.swagger, '2.0');
  assert.deepEqual(v2.info, { title: 'Kubernetes', version: 'v1.32.0' });
  for (const p of ['/api/v1/namespaces/{namespace}/configmaps', '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', '/apis/apps/v1beta2/namespaces/{namespace}/deployments', '/apis/rbac.authorization.svc.io/v1/clusterroles']) {
    assert.ok(v2.paths[p], p);
  }
  const patch = v2.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'].patch;
  assert.deepEqual(patch.consumes, ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
  assert.deepEqual(patch.parameters[0], { in: 'body', name: 'body', required: true, schema: { $ref: '#/definitions/io.svc.apimachinery.pkg.apis.meta.v1.Patch' } });
  assert.ok(patch.parameters.some((p: Json) => p.name === 'fieldValidation' && p.in === 'query' && p.type === 'string'));
  assert.deepEqual(patch['x-kubernetes-group-version-kind'], { group: 'apps', kind: 'Deployment', version: 'v1' });
  assert.deepEqual(patch.responses['200'], { description: 'OK', schema: { $ref: '#/definitions/io.svc.api.apps.v1.Deployment' } });
  assert.deepEqual(v2.definitions['io.svc.api.apps.v1beta2.Deployment']['x-kubernetes-group-version-kind'], [{ group: 'apps', kind: 'Deployment', version: 'v1beta2' }]);
  assert.deepEqual(v2.definitions['io.svc.apimachinery.pkg.api.resource.Quantity'].type, 'string');
  assert.deepEqual(v2.definitions['io.svc.apimachinery.pkg.util.intstr.IntOrString'].type, 'string');
  assert.deepEqual(v2.definitions['io.svc.api.apps.v1.RollingUpdateDeployment'].properties.maxSurge, {
    $ref: '#/definitions/io.svc.apimachinery.pkg.util.intstr.IntOrString',
    description: 'The maximum number of pods that can be scheduled above the desired number of pods.',
  });
  for (const [path, node] of walk(v2)) {
    for (const key of ['oneOf', 'anyOf', 'allOf', 'nullable', 'requestBody', 'components']) assert.equal(key in node, false, `${path}.${key}`);
  }
});

test('openApiV3Schemas holds the definitions of every group-version', () => {
  const all = openApiV3Schemas(served);
  for (const name of ['io.svc.api.core.v1.ConfigMap', 'io.svc.api.core.v1.PodList', 'io.svc.api.apps.v1.Deployment', 'io.svc.api.apps.v1beta2.Deployment', 'io.svc.api.rbac.v1.ClusterRole', 'io.svc.api.policy.v1.Eviction']) {
    assert.ok(all[name], name);
  }
  const sameAsDoc: ServedKind[] = served;
  assert.deepEqual(all['io.svc.api.apps.v1.Deployment'], (openApiV3Document(sameAsDoc, 'apps', 'v1') as unknown as Json).components.schemas['io.svc.api.apps.v1.Deployment']);
});
