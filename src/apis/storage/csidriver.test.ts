import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { csiDriverKind as kind } from './csidriver.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

let n = 0;
const driver = (spec: Record<string, unknown> | undefined, name = `d${++n}.csi.example.com`): ApiObject => ({ apiVersion: 'storage.svc.io/v1', kind: 'CSIDriver', metadata: { name }, ...(spec ? { spec } : {}) });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
type Spec = Record<string, any>;

test('declaration: cluster-scoped, protobuf numbers, lifecycle modes a set, columns', () => {
  assert.equal(kind.plural, 'csidrivers');
  assert.equal(kind.namespaced, false);
  const spec = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties.spec.properties;
  assert.deepEqual(['attachRequired', 'podInfoOnMount', 'volumeLifecycleModes', 'storageCapacity', 'fsGroupPolicy', 'tokenRequests', 'requiresRepublish', 'seLinuxMount'].map((k) => spec[k]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.equal(spec.volumeLifecycleModes['x-platform-list-type'], 'set');
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age']);
});

test('spec is required', async () => {
  assert.deepEqual(await causes(driver(undefined)), ['spec: Required value']);
});

test('defaults: attachRequired true, podInfoOnMount false, fsGroupPolicy ReadWriteOnceWithFSType, requiresRepublish, storageCapacity and seLinuxMount false, modes [Persistent]', async () => {
  const obj = await h.create(driver({}));
  assert.deepEqual(obj.spec, {
    attachRequired: true, podInfoOnMount: false, storageCapacity: false, fsGroupPolicy: 'ReadWriteOnceWithFSType',
    volumeLifecycleModes: ['Persistent'], requiresRepublish: false, seLinuxMount: false,
  });
  assert.deepEqual(kind.tableColumns!.slice(1, 7).map((c) => c.cell(obj)), [true, false, false, '<unset>', false, 'Persistent']);
});

test('the name: a DNS subdomain of at most 63 characters', async () => {
  const long = 'a'.repeat(60) + '.example.com';
  assert.deepEqual(await causes(driver({}, long)), [`metadata.name: Invalid value: "${long}": must be no more than 63 characters`]);
  const upper = await causes(driver({}, 'Driver.Example.com'));
  assert.equal(upper.length, 1);
  assert.match(upper[0], /^metadata\.name: Invalid value: "Driver\.Example\.com": a lowercase RFC 1123 subdomain/);
});

test('fsGroupPolicy and volumeLifecycleModes values', async () => {
  assert.deepEqual(await causes(driver({ fsGroupPolicy: 'Always' })), ['spec.fsGroupPolicy: Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"']);
  assert.deepEqual(await causes(driver({ volumeLifecycleModes: ['Persistent', 'Transient'] })), ['spec.volumeLifecycleModes: Unsupported value: "Transient": supported values: "Persistent", "Ephemeral"']);
});

test('tokenRequests: distinct audiences (empty at most once), lifetime 10 minutes to 2^32 seconds', async () => {
  assert.deepEqual(await causes(driver({ tokenRequests: [{ audience: '' }, { audience: '' }] })), ['spec.tokenRequests[1].audience: Duplicate value: ""']);
  assert.deepEqual(await causes(driver({ tokenRequests: [{ audience: 'a', expirationSeconds: 599 }, { audience: 'b', expirationSeconds: 2 ** 32 + 1 }] })), [
    'spec.tokenRequests[0].expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    'spec.tokenRequests[1].expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
  ]);
  const ok = await h.create(driver({ tokenRequests: [{ audience: 'vault' }, { audience: '', expirationSeconds: 3600 }], requiresRepublish: true }));
  assert.equal(kind.tableColumns![4].cell(ok), 'vault,');
});

test('attachRequired and volumeLifecycleModes are immutable; the rest may change', async () => {
  const made = await h.create(driver({}, 'fixed.csi.example.com'));
  // No generation on create; each spec change bumps it from there.
  assert.equal(made.metadata.generation, undefined);
  const changed = await h.update({ ...made, spec: { ...(made.spec as Spec), podInfoOnMount: true, fsGroupPolicy: 'File', storageCapacity: true, requiresRepublish: true, seLinuxMount: true } });
  assert.equal((changed.spec as Spec).fsGroupPolicy, 'File');
  assert.equal(changed.metadata.generation, 1);
  const relabelled = await h.update({ ...changed, metadata: { ...changed.metadata, labels: { a: 'b' } } });
  assert.equal(relabelled.metadata.generation, 1);
  assert.deepEqual((await rejection(h.update({ ...changed, spec: { ...(changed.spec as Spec), attachRequired: false, volumeLifecycleModes: ['Ephemeral'] } }))).causes, [
    'spec.attachedRequired: Invalid value: false: field is immutable',
    'spec.volumeLifecycleModes: Invalid value: []storage.VolumeLifecycleMode{"Ephemeral"}: field is immutable',
  ]);
});
