import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { persistentVolumeClaimResize, growsStorage } from './persistent-volume-claim-resize.ts';
import { storageClassOf as claimClass } from '../apis/core/persistentvolume-common.ts';
import type { AdmissionAttributes } from './chain.ts';
import { storageClassKind } from '../apis/storage/storageclass.ts';
import { persistentVolumeClaimKind } from '../apis/core/persistentvolumeclaim.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { requestContext } from '../apis/kind-harness.ts';
import { StatusError } from '../machinery/status.ts';
import type { ServedResource } from '../server/apis.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const storage = SqliteStorage.open(':memory:');
const classes = new ResourceStore(storageClassKind, storage);
before(async () => {
  await classes.cache.start();
  const ctx = { ctx: requestContext(), dryRun: false };
  await classes.create('', { apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name: 'expandable' }, provisioner: 'csi.example.com', allowVolumeExpansion: true } as ApiObject, ctx);
  await classes.create('', { apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name: 'fixed' }, provisioner: 'csi.example.com', allowVolumeExpansion: false } as ApiObject, ctx);
  await classes.create('', { apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name: 'unsaid' }, provisioner: 'csi.example.com' } as ApiObject, ctx);
});
after(async () => { classes.cache.stop(); await storage.close(); });

const BETA = 'volume.beta.platform.io/storage-class';
const claim = (size: unknown, cls?: string | null, phase = 'Bound', annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: size === undefined ? {} : { storage: size } }, ...(cls !== undefined ? { storageClassName: cls } : {}) },
  status: { phase },
} as ApiObject);
const plugin = persistentVolumeClaimResize(() => classes, storage);
const attrs = (object: ApiObject, oldObject: ApiObject, subresource = '', operation: AdmissionAttributes['operation'] = 'UPDATE'): AdmissionAttributes => ({
  operation, served: { def: persistentVolumeClaimKind, store: { gr: { group: '', resource: 'persistentvolumeclaims' } } } as unknown as ServedResource,
  namespace: 'ns', name: 'data', object, oldObject, ctx: requestContext(subresource),
});
const check = async (object: ApiObject, oldObject: ApiObject, subresource = '') => { await plugin.validate!(attrs(object, oldObject, subresource)); };
const refusal = (message: string) => (e: unknown) => {
  assert.ok(e instanceof StatusError);
  assert.equal(e.code, 403);
  assert.equal(e.reason, 'Forbidden');
  assert.equal(e.message, `persistentvolumeclaims "data" is forbidden: ${message}`);
  return true;
};
const ONLY_BOUND = 'Only bound persistent volume claims can be expanded';
const MUST_SUPPORT = 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

test('the class: the beta annotation first (even ""), else storageClassName, else ""', () => {
  assert.equal(claimClass(claim('1Gi')), '');
  assert.equal(claimClass(claim('1Gi', 'fast')), 'fast');
  assert.equal(claimClass(claim('1Gi', 'fast', 'Bound', { [BETA]: 'gold' })), 'gold');
  assert.equal(claimClass(claim('1Gi', 'fast', 'Bound', { [BETA]: '' })), '');
});

test('growing compares quantities; a missing request is zero', () => {
  assert.equal(growsStorage(claim('2Gi'), claim('1Gi')), true);
  assert.equal(growsStorage(claim('1024Mi'), claim('1Gi')), false);
  assert.equal(growsStorage(claim('1G'), claim('1Gi')), false);
  assert.equal(growsStorage(claim('1Gi'), claim(undefined)), true);
  assert.equal(growsStorage(claim('not-a-size'), claim('1Gi')), false);
});

test('a bound claim of a class allowing expansion may grow; shrinking or keeping the size is not looked at', async () => {
  assert.equal(plugin.name, 'PersistentVolumeClaimResize');
  await check(claim('2Gi', 'expandable'), claim('1Gi', 'expandable'));
  await check(claim('2Gi', undefined, 'Bound', { [BETA]: 'expandable' }), claim('1Gi', undefined, 'Bound', { [BETA]: 'expandable' }));
  await check(claim('1Gi', 'fixed', 'Pending'), claim('2Gi', 'fixed', 'Pending'));
  await check(claim('1Gi', null, 'Pending'), claim('1Gi', null, 'Pending'));
});

test('growing an unbound claim is forbidden, whatever its class', async () => {
  await assert.rejects(check(claim('2Gi', 'expandable', 'Pending'), claim('1Gi', 'expandable', 'Pending')), refusal(ONLY_BOUND));
  await assert.rejects(check(claim('2Gi', 'expandable', 'Bound'), claim('1Gi', 'expandable', 'Lost')), refusal(ONLY_BOUND));
});

test('growing needs the same non-empty class, existing and allowing expansion', async () => {
  for (const [cls, oldCls] of [['fixed', 'fixed'], ['unsaid', 'unsaid'], ['missing', 'missing'], ['', ''], [null, null], ['expandable', 'fixed'], ['expandable', '']] as const) {
    await assert.rejects(check(claim('2Gi', cls), claim('1Gi', oldCls)), refusal(MUST_SUPPORT), `${cls} / ${oldCls}`);
  }
  await assert.rejects(check(claim('2Gi', 'expandable', 'Bound', { [BETA]: 'fixed' }), claim('1Gi', 'expandable', 'Bound', { [BETA]: 'fixed' })), refusal(MUST_SUPPORT));
});

test('creates, subresources and other resources are not looked at', async () => {
  await check(claim('2Gi', 'fixed', 'Pending'), claim('1Gi', 'fixed', 'Pending'), 'status');
  await plugin.validate!(attrs(claim('2Gi', 'fixed', 'Pending'), claim('1Gi', 'fixed', 'Pending'), '', 'CREATE'));
});
