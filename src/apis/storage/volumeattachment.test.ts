import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { volumeAttachmentKind as kind } from './volumeattachment.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
// The harness writes without a resourceVersion, which the kind refuses (test/sweep6-storage-kinds.test.ts
// covers that); these tests are about validation, so they write unconditionally.
before(async () => { h = await kindHarness({ ...kind, allowUnconditionalUpdate: true }); });

test('an update must name the resourceVersion it read', () => {
  assert.equal(kind.allowUnconditionalUpdate, false);
});
after(async () => { await h.close(); });

let n = 0;
const va = (spec: Record<string, unknown>, name = `va-${++n}`): ApiObject => ({ apiVersion: 'storage.svc.io/v1', kind: 'VolumeAttachment', metadata: { name }, spec: { attacher: 'ebs.csi.example.com', nodeName: 'node-1', ...spec } });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;

test('declaration: cluster-scoped, status sub-resource, columns', () => {
  assert.deepEqual(kind.status, {});
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']);
});

test('create starts detached whatever the client wrote', async () => {
  const obj = await h.create({ ...va({ source: { persistentVolumeName: 'pv-1' } }), status: { attached: true } });
  assert.deepEqual(obj.status, { attached: false });
  assert.deepEqual(kind.tableColumns!.slice(1, 5).map((c) => c.cell(obj)), ['ebs.csi.example.com', 'pv-1', 'node-1', false]);
});

test('source: exactly one of a volume name and an inline spec', async () => {
  assert.deepEqual(await causes(va({ source: {} })), ['spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
  assert.deepEqual(await causes(va({ source: { persistentVolumeName: 'pv', inlineVolumeSpec: { csi: { driver: 'd', volumeHandle: 'h' } } } })), ['spec.source: Forbidden: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
  assert.deepEqual(await causes(va({ source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], nfs: { server: 's', path: '/p' } } } })), [
    'spec.source.inlineVolumeSpec.csi: Required value: has to be specified in the context of inline volumes',
  ]);
  const inline = await h.create(va({ source: { inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], csi: { driver: 'ebs.csi.example.com', volumeHandle: 'vol-1' } } } }));
  assert.ok(inline.metadata.uid);
});

test('attacher and node name', async () => {
  assert.deepEqual(await causes(va({ attacher: '', source: { persistentVolumeName: 'pv' } })), [
    'spec.attacher: Required value',
    'spec.attacher: Invalid value: "": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')',
  ]);
  assert.equal((await causes(va({ nodeName: 'Node_1', source: { persistentVolumeName: 'pv' } }))).length, 1);
});

test('the spec is read-only; status goes through /status', async () => {
  const made = await h.create(va({ source: { persistentVolumeName: 'pv-2' } }, 'attach-me'));
  assert.deepEqual((await rejection(h.update({ ...made, spec: { ...(made.spec as object), nodeName: 'node-2' } }))).causes.map((c) => c.replace(/Invalid value: .*: field/, 'Invalid value: …: field')), ['spec: Invalid value: …: field is immutable']);
  const attached = await h.update({ ...made, status: { attached: true, attachmentMetadata: { devicePath: '/dev/xvdb' } } }, { subresource: 'status' });
  assert.equal(kind.tableColumns![4].cell(attached), true);
  const main = await h.update({ ...attached, status: { attached: false } });
  assert.equal((main.status as { attached: boolean }).attached, true);
});
