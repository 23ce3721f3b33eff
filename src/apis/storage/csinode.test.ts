import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { csiNodeKind as kind } from './csinode.ts';
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
const node = (drivers: unknown[], name = `node-${++n}`): ApiObject => ({ apiVersion: 'storage.svc.io/v1', kind: 'CSINode', metadata: { name }, spec: { drivers } });
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;

test('declaration: drivers merged by name, Drivers column', () => {
  const spec = (kind.versions[0].schema as unknown as { properties: Record<string, any> }).properties.spec;
  assert.equal(spec.properties.drivers['x-platform-patch-merge-key'], 'name');
  assert.equal(spec.properties.drivers['x-platform-list-type'], 'map');
  assert.deepEqual(kind.tableColumns!.map((c) => c.name), ['Name', 'Drivers', 'Age']);
});

test('spec is required; drivers are valid', async () => {
  assert.deepEqual(await causes({ apiVersion: 'storage.svc.io/v1', kind: 'CSINode', metadata: { name: 'x' } }), ['spec: Required value']);
  const ok = await h.create(node([{ name: 'ebs.csi.example.com', nodeID: 'i-123', topologyKeys: ['topology.ebs.csi.example.com/zone'], allocatable: { count: 25 } }]));
  assert.equal(kind.tableColumns![1].cell(ok), 1);
});

test('driver rules: name, node ID, allocatable count, unique names, topology keys', async () => {
  assert.deepEqual(await causes(node([{ name: 'd.example.com' }])), ['spec.drivers[0].nodeID: Required value']);
  assert.deepEqual(await causes(node([{ name: 'd.example.com', nodeID: 'x'.repeat(257) }])), [`spec.drivers[0].nodeID: Invalid value: "${'x'.repeat(257)}": must be 256 characters or less`]);
  assert.deepEqual(await causes(node([{ name: 'd.example.com', nodeID: 'a', allocatable: { count: -1 } }])), ['spec.drivers[0].allocatable.count: Invalid value: -1: must be greater than or equal to 0']);
  assert.deepEqual(await causes(node([{ name: 'd.example.com', nodeID: 'a' }, { name: 'd.example.com', nodeID: 'b' }])), ['spec.drivers[1].name: Duplicate value: "d.example.com"']);
  assert.deepEqual(await causes(node([{ name: 'd.example.com', nodeID: 'a', topologyKeys: ['zone', 'zone'] }])), ['spec.drivers[0]: Duplicate value: "zone"']);
  assert.deepEqual(await causes(node([{ name: 'x'.repeat(64), nodeID: 'a' }])), ['spec.drivers[0].name: Too long: may not be more than 63 bytes']);
});

test('a registered driver cannot change; drivers may be added and removed', async () => {
  const made = await h.create(node([{ name: 'a.example.com', nodeID: '1' }], 'n-fixed'));
  const added = await h.update({ ...made, spec: { drivers: [{ name: 'a.example.com', nodeID: '1' }, { name: 'b.example.com', nodeID: '2' }] } });
  assert.equal(kind.tableColumns![1].cell(added), 2);
  const r = await rejection(h.update({ ...added, spec: { drivers: [{ name: 'a.example.com', nodeID: 'changed' }] } }));
  assert.deepEqual(r.causes, ['spec.drivers: Invalid value: storage.CSINodeDriver{Name:"a.example.com", NodeID:"changed", TopologyKeys:[]string(nil), Allocatable:(*storage.VolumeNodeResources)(nil)}: field is immutable']);
  const keyed = await rejection(h.update({ ...added, spec: { drivers: [{ name: 'b.example.com', nodeID: '2', topologyKeys: ['zone'], allocatable: { count: 1 } }] } }));
  assert.deepEqual(keyed.causes, ['spec.drivers: Invalid value: storage.CSINodeDriver{Name:"b.example.com", NodeID:"2", TopologyKeys:[]string{"zone"}, Allocatable:(*storage.VolumeNodeResources)(0xc000000000)}: field is immutable']);
});
