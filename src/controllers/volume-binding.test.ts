import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accessModeSet, findBestMatchForClaim, findMatchingVolume, hasAccessModes, isVolumeBoundToClaim, volumeModeMismatch, volumeUnsatisfying,
} from './volume-binding.ts';
import { storageClassOf as claimClass, storageClassOf as volumeClass } from '../apis/core/persistentvolume-common.ts';

type Obj = Record<string, any>;

const pv = (name: string, size: string, o: { modes?: string[]; cls?: string; mode?: string; phase?: string; labels?: Record<string, string>; claimRef?: Obj; deleting?: boolean } = {}): Obj => ({
  metadata: { name, ...(o.labels ? { labels: o.labels } : {}), ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: {
    capacity: { storage: size }, accessModes: o.modes ?? ['ReadWriteOnce'], volumeMode: o.mode ?? 'Filesystem',
    ...(o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.claimRef ? { claimRef: o.claimRef } : {}),
  },
  status: { phase: o.phase ?? 'Available' },
});
const pvc = (name: string, size: string, o: { modes?: string[]; cls?: string | null; mode?: string; selector?: Obj; uid?: string } = {}): Obj => ({
  metadata: { name, namespace: 'ns', uid: o.uid ?? `uid-${name}` },
  spec: {
    accessModes: o.modes ?? ['ReadWriteOnce'], resources: { requests: { storage: size } }, volumeMode: o.mode ?? 'Filesystem',
    ...(o.cls !== undefined ? { storageClassName: o.cls } : {}), ...(o.selector ? { selector: o.selector } : {}),
  },
});
const names = (v: Obj | undefined) => v?.metadata.name;

test('classes: the beta annotation wins; unset and "" are both no class', () => {
  assert.equal(claimClass(pvc('a', '1Gi')), '');
  assert.equal(claimClass(pvc('a', '1Gi', { cls: '' })), '');
  assert.equal(claimClass(pvc('a', '1Gi', { cls: null })), '');
  assert.equal(claimClass({ ...pvc('a', '1Gi', { cls: 'gold' }), metadata: { name: 'a', annotations: { 'volume.beta.platform.io/storage-class': 'silver' } } }), 'silver');
  assert.equal(volumeClass(pv('v', '1Gi', { cls: 'gold' })), 'gold');
  assert.equal(volumeClass(pv('v', '1Gi')), '');
});

test('access modes: a set in Kubernetes order; a volume must hold every mode asked for', () => {
  assert.deepEqual(accessModeSet(['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOnce', 'ReadOnlyMany']), ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany']);
  assert.deepEqual(accessModeSet(['ReadWriteOncePod']), ['ReadWriteOncePod']);
  assert.equal(hasAccessModes(pvc('c', '1Gi', { modes: ['ReadWriteOnce'] }), pv('v', '1Gi', { modes: ['ReadWriteOnce', 'ReadOnlyMany'] })), true);
  assert.equal(hasAccessModes(pvc('c', '1Gi', { modes: ['ReadWriteMany'] }), pv('v', '1Gi', { modes: ['ReadWriteOnce'] })), false);
  assert.equal(volumeModeMismatch({ spec: {} }, { spec: { volumeMode: 'Filesystem' } }), false);
  assert.equal(volumeModeMismatch({ spec: { volumeMode: 'Block' } }, { spec: {} }), true);
});

test('the smallest Available volume of the class that holds the request, selector and mode matching', () => {
  const claim = pvc('c', '2Gi', { cls: 'gold' });
  const volumes = [
    pv('big', '10Gi', { cls: 'gold' }), pv('right', '3Gi', { cls: 'gold' }), pv('small', '1Gi', { cls: 'gold' }),
    pv('other-class', '2Gi', { cls: 'silver' }), pv('no-class', '2Gi'), pv('block', '2Gi', { cls: 'gold', mode: 'Block' }),
    pv('pending', '2Gi', { cls: 'gold', phase: 'Pending' }), pv('deleting', '2Gi', { cls: 'gold', deleting: true }),
    pv('taken', '2Gi', { cls: 'gold', claimRef: { namespace: 'ns', name: 'someone-else' } }),
  ];
  assert.equal(names(findBestMatchForClaim(claim, volumes, false)), 'right');
  // 2Gi in another notation is as large as 2Gi.
  assert.equal(names(findBestMatchForClaim(claim, [...volumes, pv('exact', '2048Mi', { cls: 'gold' })], false)), 'exact');
  // A selector keeps only volumes whose labels match it.
  const selective = pvc('c', '2Gi', { cls: 'gold', selector: { matchLabels: { tier: 'fast' } } });
  assert.equal(findBestMatchForClaim(selective, volumes, false), undefined);
  assert.equal(names(findBestMatchForClaim(selective, [...volumes, pv('fast', '5Gi', { cls: 'gold', labels: { tier: 'fast' } })], false)), 'fast');
  // Unset and "" are the same class.
  assert.equal(names(findBestMatchForClaim(pvc('c', '1Gi', { cls: '' }), volumes, false)), 'no-class');
  assert.equal(names(findBestMatchForClaim(pvc('c', '1Gi'), volumes, false)), 'no-class');
});

test('volumes with the fewest access modes are searched first, then the smallest among them', () => {
  const claim = pvc('c', '1Gi', { modes: ['ReadWriteOnce'] });
  const volumes = [pv('rwo-rwx-small', '1Gi', { modes: ['ReadWriteOnce', 'ReadWriteMany'] }), pv('rwo-large', '10Gi', { modes: ['ReadWriteOnce'] })];
  assert.equal(names(findBestMatchForClaim(claim, volumes, false)), 'rwo-large');
  assert.equal(names(findBestMatchForClaim(pvc('c', '1Gi', { modes: ['ReadWriteMany'] }), volumes, false)), 'rwo-rwx-small');
  assert.equal(findBestMatchForClaim(pvc('c', '1Gi', { modes: ['ReadOnlyMany'] }), volumes, false), undefined);
});

test('a volume pre-bound to the claim wins whatever its class, phase and size above the request; never one bound elsewhere', () => {
  const claim = pvc('c', '1Gi', { cls: 'gold', uid: 'u1' });
  const prebound = pv('mine', '50Gi', { cls: 'silver', phase: 'Pending', claimRef: { namespace: 'ns', name: 'c' } });
  assert.equal(names(findMatchingVolume(claim, [pv('fits', '1Gi', { cls: 'gold' }), prebound], false)), 'mine');
  // With the claim's uid it still names this claim; with another uid it names a claim of the same name that went.
  assert.equal(isVolumeBoundToClaim({ spec: { claimRef: { namespace: 'ns', name: 'c', uid: 'u1' } } }, claim), true);
  assert.equal(isVolumeBoundToClaim({ spec: { claimRef: { namespace: 'ns', name: 'c', uid: 'u0' } } }, claim), false);
  assert.equal(isVolumeBoundToClaim({ spec: { claimRef: { namespace: 'other', name: 'c' } } }, claim), false);
  // Too small to hold the request: not that one.
  assert.equal(names(findMatchingVolume(pvc('c', '100Gi', { cls: 'gold' }), [prebound, pv('fits', '100Gi', { cls: 'gold' })], false)), 'fits');
  // Waiting for the first consumer: only a pre-bound volume is taken.
  assert.equal(findMatchingVolume(claim, [pv('fits', '1Gi', { cls: 'gold' })], true), undefined);
  assert.equal(names(findMatchingVolume(claim, [pv('fits', '1Gi', { cls: 'gold' }), prebound], true)), 'mine');
});

test('why a requested volume cannot serve a claim, in Kubernetes\' words', () => {
  const claim = pvc('c', '2Gi', { cls: 'gold', modes: ['ReadWriteMany'] });
  assert.equal(volumeUnsatisfying(pv('v', '1Gi', { cls: 'gold', modes: ['ReadWriteMany'] }), claim), 'requested PV is too small');
  assert.equal(volumeUnsatisfying(pv('v', '2Gi', { cls: 'silver', modes: ['ReadWriteMany'] }), claim), 'storageClassName does not match');
  assert.equal(volumeUnsatisfying(pv('v', '2Gi', { cls: 'gold', modes: ['ReadWriteMany'], mode: 'Block' }), claim), 'incompatible volumeMode');
  assert.equal(volumeUnsatisfying(pv('v', '2Gi', { cls: 'gold' }), claim), 'incompatible accessMode');
  assert.equal(volumeUnsatisfying(pv('v', '2Gi', { cls: 'gold', modes: ['ReadWriteMany'], deleting: true }), claim), 'the volume is marked for deletion "v"');
  assert.equal(volumeUnsatisfying(pv('v', '2Gi', { cls: 'gold', modes: ['ReadWriteMany'] }), claim), undefined);
});
