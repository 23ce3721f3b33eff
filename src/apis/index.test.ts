import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allKinds } from './index.ts';

const NO_AGE = new Set(['ClusterTrustBundle', 'CSIStorageCapacity', 'ComponentStatus']);

test('allKinds lists the foundation kinds once each', () => {
  const names = allKinds().map((k) => `${k.group || 'core'}/${k.kind}`);
  for (const want of ['core/Namespace', 'core/Node', 'core/ConfigMap', 'core/Secret', 'core/ServiceAccount', 'coordination.svc.io/Lease']) {
    assert.ok(names.includes(want), want);
  }
  assert.equal(new Set(names).size, names.length);
});

test('every kind serves its storage version and has Name and Age (or Created At) columns', () => {
  for (const k of allKinds()) {
    assert.ok(k.versions.some((v) => v.name === k.storageVersion), k.kind);
    // Reviews are answered on create and never listed: they have no table.
    if (k.createOnly) continue;
    const cols = (k.tableColumns ?? []).map((c) => c.name);
    // Events lead with LAST SEEN and show their name only in the wide output.
    if (k.kind === 'Event') { assert.deepEqual([cols[0], cols.at(-1)], ['Last Seen', 'Name'], k.kind); continue; }
    assert.equal(cols[0], 'Name', k.kind);
    // Kubernetes prints no age for a few kinds (ClusterTrustBundle) and a creation time for roles.
    if (!NO_AGE.has(k.kind)) assert.ok(cols.includes('Age') || cols.includes('Created At'), k.kind);
  }
});

test('resource names are unique within a group', () => {
  const seen = new Set<string>();
  for (const k of allKinds()) {
    // A kind's singular may be its plural (Endpoints: `endpoints`, as Kubernetes names it).
    for (const name of new Set([k.plural, k.singular, ...(k.shortNames ?? [])])) {
      const id = `${k.group}/${name}`;
      assert.ok(!seen.has(id), id);
      seen.add(id);
    }
  }
});
