import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { isVolumeBound, startPvProtectionController } from './pv-protection.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { persistentVolumeKind } from '../apis/core/persistentvolume.ts';
import { requestContext } from '../apis/kind-harness.ts';
import { updateObject } from '../registry/update-object.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const storage = SqliteStorage.open(':memory:');
const volumes = new ResourceStore(persistentVolumeKind, storage);
const opts = { ctx: requestContext(), dryRun: false };
let controller: ReturnType<typeof startPvProtectionController>;
before(async () => {
  await volumes.cache.start();
  controller = startPvProtectionController({ volumes, log: () => {}, resyncMs: 60_000 });
});
after(async () => { controller.stop(); volumes.cache.stop(); await storage.close(); });

const volume = (name: string): ApiObject => ({
  apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, finalizers: ['platform.io/pv-protection'] },
  spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: `/tmp/${name}` } },
});
const settled = async () => { await volumes.readNow('', 'x'); await controller.queue.idle(); };
const stored = async (name: string) => (await volumes.readNow('', name))?.object as ApiObject | undefined;
const setPhase = (name: string, phase: string) => updateObject(volumes, requestContext('status'), '', name, (pv) => { pv.status = { phase }; }, { subresource: 'status' });

test('a volume is in use while Bound', () => {
  assert.equal(isVolumeBound({ status: { phase: 'Bound' } }), true);
  assert.equal(isVolumeBound({ status: { phase: 'Available' } }), false);
  assert.equal(isVolumeBound({}), false);
});

test('an unbound volume being deleted loses its finalizer and goes', async () => {
  await volumes.create('', volume('free'), opts);
  await volumes.delete('', 'free', opts);
  await settled();
  assert.equal(await stored('free'), undefined);
});

test('a bound volume stays until it is no longer bound', async () => {
  await volumes.create('', volume('bound'), opts);
  await setPhase('bound', 'Bound');
  await volumes.delete('', 'bound', opts);
  await settled();
  const terminating = await stored('bound');
  assert.ok(terminating?.metadata.deletionTimestamp);
  assert.deepEqual(terminating.metadata.finalizers, ['platform.io/pv-protection']);
  await setPhase('bound', 'Released');
  await settled();
  assert.equal(await stored('bound'), undefined);
});
