import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { defaultStorageClass, defaultStorageClassPlugin, claimHasClass } from './default-storage-class.ts';
import type { AdmissionAttributes } from './chain.ts';
import { storageClassKind } from '../apis/storage/storageclass.ts';
import { persistentVolumeClaimKind } from '../apis/core/persistentvolumeclaim.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ServedResource } from '../server/apis.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const DEFAULT = 'storageclass.platform.io/is-default-class';
const BETA_DEFAULT = 'storageclass.beta.platform.io/is-default-class';
const storage = SqliteStorage.open(':memory:');
const classes = new ResourceStore(storageClassKind, storage);
before(async () => { await classes.cache.start(); });
after(async () => { classes.cache.stop(); await storage.close(); });

const cls = (name: string, annotations: Record<string, string> = {}, created = '2024-05-01T10:00:00Z'): ApiObject => ({
  apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name, creationTimestamp: created, annotations }, provisioner: 'csi.example.com',
} as ApiObject);
const claim = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const attrs = (object: ApiObject, operation: AdmissionAttributes['operation'] = 'CREATE', def = persistentVolumeClaimKind, subresource = ''): AdmissionAttributes => ({
  operation, served: { def } as unknown as ServedResource, namespace: 'ns', name: 'c', object, ctx: requestContext(subresource),
});
const plugin = defaultStorageClassPlugin(() => classes, storage);
const admitted = async (a: AdmissionAttributes) => { await plugin.admit!(a); return (a.object!.spec as { storageClassName?: string | null }).storageClassName; };
const ctx = { ctx: requestContext(), dryRun: false };

test('choosing the default: GA or beta annotation "true"; the newest; created together, the name sorting first', () => {
  assert.equal(defaultStorageClass([cls('a'), cls('b', { [DEFAULT]: 'false' })]), undefined);
  assert.equal(defaultStorageClass([cls('a', { [BETA_DEFAULT]: 'true' })])?.metadata.name, 'a');
  assert.equal(defaultStorageClass([
    cls('old', { [DEFAULT]: 'true' }, '2024-01-01T00:00:00Z'), cls('new', { [BETA_DEFAULT]: 'true' }, '2024-02-01T00:00:00Z'), cls('newest-plain', {}, '2024-03-01T00:00:00Z'),
  ])?.metadata.name, 'new');
  assert.equal(defaultStorageClass([cls('b', { [DEFAULT]: 'true' }), cls('a', { [DEFAULT]: 'true' })])?.metadata.name, 'a');
});

test('a claim has a class with storageClassName set (even "") or the beta annotation (any value)', () => {
  assert.equal(claimHasClass(claim()), false);
  assert.equal(claimHasClass(claim({ storageClassName: null })), false);
  assert.equal(claimHasClass(claim({ storageClassName: '' })), true);
  assert.equal(claimHasClass(claim({}, { 'volume.beta.platform.io/storage-class': '' })), true);
});

test('the plugin names the default class on a new claim that names none, reading classes as stored now', async () => {
  assert.equal(plugin.name, 'DefaultStorageClass');
  assert.equal(await admitted(attrs(claim())), undefined);
  await classes.create('', cls('plain'), ctx);
  assert.equal(await admitted(attrs(claim())), undefined);
  await classes.create('', cls('standard', { [DEFAULT]: 'true' }), ctx);
  assert.equal(await admitted(attrs(claim())), 'standard');
  assert.equal(await admitted(attrs(claim({ storageClassName: null }))), 'standard');
  const noSpec: ApiObject = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' } };
  assert.equal(await admitted(attrs(noSpec)), 'standard');
});

test('a claim naming a class (field, "" or beta annotation), an update, a subresource or another kind is left alone', async () => {
  await classes.create('', cls('fallback', { [DEFAULT]: 'true' }), ctx).catch(() => undefined);
  assert.equal(await admitted(attrs(claim({ storageClassName: 'fast' }))), 'fast');
  assert.equal(await admitted(attrs(claim({ storageClassName: '' }))), '');
  assert.equal(await admitted(attrs(claim({}, { 'volume.beta.platform.io/storage-class': 'gold' }))), undefined);
  assert.equal(await admitted(attrs(claim(), 'UPDATE')), undefined);
  assert.equal(await admitted(attrs(claim(), 'CREATE', persistentVolumeClaimKind, 'status')), undefined);
  const cm: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
  await plugin.admit!(attrs(cm, 'CREATE', configMapKind));
  assert.equal(cm.spec, undefined);
});
