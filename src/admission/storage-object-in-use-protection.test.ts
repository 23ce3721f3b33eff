import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storageObjectInUseProtection } from './storage-object-in-use-protection.ts';
import type { AdmissionAttributes } from './chain.ts';
import { persistentVolumeKind } from '../apis/core/persistentvolume.ts';
import { persistentVolumeClaimKind } from '../apis/core/persistentvolumeclaim.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { requestContext } from '../apis/kind-harness.ts';
import type { ServedResource } from '../server/apis.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { KindDefinition } from '../apis/kind.ts';

const plugin = storageObjectInUseProtection();
const finalizersAfter = (def: KindDefinition, finalizers?: string[], operation: AdmissionAttributes['operation'] = 'CREATE', subresource = '') => {
  const object: ApiObject = { apiVersion: 'v1', kind: 'X', metadata: { name: 'x', ...(finalizers ? { finalizers } : {}) } };
  plugin.admit!({ operation, served: { def } as unknown as ServedResource, namespace: '', name: 'x', object, ctx: requestContext(subresource) });
  return object.metadata.finalizers;
};

test('new PersistentVolumes and PersistentVolumeClaims get their protection finalizer once', () => {
  assert.equal(plugin.name, 'StorageObjectInUseProtection');
  assert.deepEqual(finalizersAfter(persistentVolumeKind), ['platform.io/pv-protection']);
  assert.deepEqual(finalizersAfter(persistentVolumeClaimKind), ['platform.io/pvc-protection']);
  assert.deepEqual(finalizersAfter(persistentVolumeClaimKind, ['example.com/keep']), ['example.com/keep', 'platform.io/pvc-protection']);
  assert.deepEqual(finalizersAfter(persistentVolumeClaimKind, ['platform.io/pvc-protection']), ['platform.io/pvc-protection']);
});

test('updates, sub-resources and other kinds are left alone', () => {
  assert.equal(finalizersAfter(persistentVolumeClaimKind, undefined, 'UPDATE'), undefined);
  assert.equal(finalizersAfter(persistentVolumeKind, undefined, 'CREATE', 'status'), undefined);
  assert.equal(finalizersAfter(configMapKind), undefined);
});
