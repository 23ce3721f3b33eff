import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LeanObject, metaOf, internNamespace } from './cached-object.ts';
import { decodeKv, encodeObject } from './cache.ts';

const json = '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","namespace":"ns","resourceVersion":"7","labels":{"app":"x"}},"data":{"k":"v"}}';

test('a lean object parses its JSON when read, and readers share the parse while one holds it', () => {
  const obj = new LeanObject('/registry/core/configmaps/ns/a', 'ns', 7, json, metaOf({ labels: { app: 'x' } }));
  assert.deepEqual([obj.key, obj.namespace, obj.name, obj.modRevision, obj.json], ['/registry/core/configmaps/ns/a', 'ns', 'a', 7, json]);
  const first = obj.object;
  assert.deepEqual(first, JSON.parse(json));
  assert.equal(obj.object, first);
});

test('an object handed over at construction is the one readers get', () => {
  const parsed = JSON.parse(json);
  assert.equal(new LeanObject('/k/ns/a', 'ns', 7, json, {}, parsed).object, parsed);
});

test('the digest keeps labels, owners, deletion and finalizers; objects without them share one empty digest', () => {
  const owners = [{ uid: 'o' }];
  const meta = metaOf({ name: 'a', labels: { a: 'b' }, ownerReferences: owners, deletionTimestamp: 't', finalizers: ['f'], annotations: { big: 'x' } });
  assert.deepEqual(meta, { labels: { a: 'b' }, ownerReferences: owners, deletionTimestamp: 't', finalizers: ['f'] });
  assert.equal(meta.ownerReferences, owners);
  assert.equal(metaOf({ name: 'a', ownerReferences: [], finalizers: [] }), metaOf({ name: 'b' }));
  assert.deepEqual(metaOf(undefined), {});
});

test('a copied digest does not follow later changes to the written object', () => {
  const metadata = { labels: { a: 'b' }, ownerReferences: [{ uid: 'o' }], finalizers: ['f'] };
  const meta = metaOf(metadata, true);
  metadata.labels.a = 'changed';
  metadata.ownerReferences[0].uid = 'changed';
  metadata.finalizers.push('g');
  assert.deepEqual(meta, { labels: { a: 'b' }, ownerReferences: [{ uid: 'o' }], finalizers: ['f'] });
});

test('namespaces are interned', () => {
  const a = internNamespace(['team', 'a'].join('-'));
  assert.equal(internNamespace(`team-${'a'}`), a);
});

test('decoded and written objects carry the digest of their metadata', () => {
  const kv = { key: '/registry/core/configmaps/ns/a', value: JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'ns', labels: { app: 'x' }, ownerReferences: [{ uid: 'o' }] } }), createRevision: 1, modRevision: 3 };
  assert.deepEqual(decodeKv(kv).meta, { labels: { app: 'x' }, ownerReferences: [{ uid: 'o' }] });
  const written = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'ns', labels: { app: 'x' } } };
  const served = encodeObject(written).at(kv.key, 4);
  written.metadata.labels.app = 'changed';
  assert.deepEqual(served.meta, { labels: { app: 'x' } });
  assert.equal(served.object.metadata.labels.app, 'x');
});
