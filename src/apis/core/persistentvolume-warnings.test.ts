import { test } from 'node:test';
import assert from 'node:assert/strict';
import { persistentVolumeWarnings, mountOptionAnnotationErrors, MOUNT_OPTIONS_ANNOTATION } from './persistentvolume-warnings.ts';
import { fieldErrorText } from '../../machinery/field-errors.ts';
import type { ApiObject } from '../meta/v1.ts';

const pv = (spec: Record<string, unknown>, annotations?: Record<string, string>): ApiObject => ({ metadata: { name: 'p', ...(annotations ? { annotations } : {}) }, spec });

test('a plain volume has no warnings', () => {
  assert.deepEqual(persistentVolumeWarnings(pv({ hostPath: { path: '/x' }, persistentVolumeReclaimPolicy: 'Retain' })), []);
});

test('deprecated annotations, Recycle, node labels and plugins warn, in Kubernetes\' order', () => {
  const obj = pv({
    persistentVolumeReclaimPolicy: 'Recycle',
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Exists' }, { key: 'beta.platform.io/os', operator: 'In', values: ['linux'] }] }] } },
    rbd: { monitors: ['m'], image: 'i' },
  }, { 'volume.beta.platform.io/storage-class': 'gold', [MOUNT_OPTIONS_ANNOTATION]: 'ro' });
  assert.deepEqual(persistentVolumeWarnings(obj), [
    'metadata.annotations[volume.beta.platform.io/storage-class]: deprecated since v1.8; use "storageClassName" attribute instead',
    'metadata.annotations[volume.beta.platform.io/mount-options]: deprecated since v1.31; use "mountOptions" attribute instead',
    'spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[1].key: beta.platform.io/os is deprecated since v1.14; use "platform.io/os" instead',
    'spec.rbd: deprecated in v1.28, non-functional in v1.31+',
  ]);
});

test('the mount-options annotation is refused on plugins without mount options', () => {
  const annotated = { [MOUNT_OPTIONS_ANNOTATION]: 'ro' };
  assert.deepEqual(mountOptionAnnotationErrors(pv({ hostPath: { path: '/x' } }, annotated)).map(fieldErrorText), [
    'metadata.annotations.volume.beta.platform.io/mount-options: Forbidden: may not specify mount options for this volume type',
  ]);
  assert.deepEqual(mountOptionAnnotationErrors(pv({ nfs: { server: 's', path: '/p' } }, annotated)), []);
  assert.deepEqual(mountOptionAnnotationErrors(pv({ hostPath: { path: '/x' } })), []);
});
