import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { advertisedAddress, ensureKubernetesEndpoints, SKIP_MIRROR_LABEL } from './kubernetes-endpoints.ts';
import { kindHarness } from '../apis/kind-harness.ts';
import { endpointsKind } from '../apis/core/endpoints.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal }) as NetworkInterfaceInfo;
const interfaces = { lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)], eth0: [nic('fe80::1', 'IPv6'), nic('fd00::2', 'IPv6'), nic('192.0.2.2', 'IPv4')] };

test('advertisedAddress: a specific bind address as is; loopback or unspecified gives a host interface, IPv4 first', () => {
  assert.equal(advertisedAddress('10.0.0.5', interfaces), '10.0.0.5');
  assert.equal(advertisedAddress('127.0.0.1', interfaces), '192.0.2.2');
  assert.equal(advertisedAddress('0.0.0.0', interfaces), '192.0.2.2');
  assert.equal(advertisedAddress('::', { eth0: [nic('fe80::1', 'IPv6'), nic('fd00::2', 'IPv6')] }), 'fd00::2');
  assert.equal(advertisedAddress('127.0.0.1', { lo: interfaces.lo }), undefined);
});

test('ensureKubernetesEndpoints: created, left alone when in order, reset when changed', async () => {
  const h = await kindHarness(endpointsKind);
  try {
    await ensureKubernetesEndpoints(h.store, '192.0.2.2', 6443, true);
    const first = h.get('kubernetes', 'default')!;
    assert.deepEqual(first.subsets, [{ addresses: [{ ip: '192.0.2.2' }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }]);
    assert.equal(first.metadata.labels![SKIP_MIRROR_LABEL], 'true');
    await ensureKubernetesEndpoints(h.store, '192.0.2.2', 6443, true);
    assert.equal(h.get('kubernetes', 'default')!.metadata.resourceVersion, first.metadata.resourceVersion);
    // A sole writer takes the address and port it serves on.
    await ensureKubernetesEndpoints(h.store, '192.0.2.3', 7443, true);
    assert.deepEqual(h.get('kubernetes', 'default')!.subsets, [{ addresses: [{ ip: '192.0.2.3' }], ports: [{ name: 'https', port: 7443, protocol: 'TCP' }] }]);
    // Servers sharing a store add their address and keep a well-formed https port.
    await ensureKubernetesEndpoints(h.store, '192.0.2.1', 8443, false);
    assert.deepEqual(h.get('kubernetes', 'default')!.subsets, [{ addresses: [{ ip: '192.0.2.1' }, { ip: '192.0.2.3' }], ports: [{ name: 'https', port: 7443, protocol: 'TCP' }] }]);
    const broken: ApiObject = { ...h.get('kubernetes', 'default')!, subsets: [{ addresses: [{ ip: '10.9.9.9' }], ports: [{ name: 'x', port: 1, protocol: 'UDP' }] }] };
    await h.update(broken);
    await ensureKubernetesEndpoints(h.store, '192.0.2.1', 8443, false);
    assert.deepEqual(h.get('kubernetes', 'default')!.subsets, [{ addresses: [{ ip: '10.9.9.9' }, { ip: '192.0.2.1' }], ports: [{ name: 'https', port: 8443, protocol: 'TCP' }] }]);
  } finally {
    await h.close();
  }
});
