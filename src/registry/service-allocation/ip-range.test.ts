import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseServiceIPRange, apiServerServiceIP, formatIP } from './ip-range.ts';

const problem = (text: string) => { try { parseServiceIPRange(text); } catch (err) { return (err as Error).message; } return undefined; };

test('the default range: 254 addresses from x.x.x.1, the network and broadcast addresses left out', () => {
  const r = parseServiceIPRange('10.0.0.0/24');
  assert.deepEqual([r.cidr, r.family, r.size, r.networkAddress], ['10.0.0.0/24', 'IPv4', 254, '10.0.0.0']);
  assert.equal(apiServerServiceIP(r), '10.0.0.1');
  assert.equal(r.ipAt(253), '10.0.0.254');
  assert.deepEqual(['10.0.0.1', '10.0.0.254', '10.0.0.0', '10.0.0.255', '10.0.1.1', 'fd00::1', 'nonsense'].map((ip) => r.offsetOf(ip)), [0, 253, undefined, undefined, undefined, undefined, undefined]);
  // IPv4-mapped IPv6 and leading zeros are the same address, as ParseIPSloppy reads them.
  assert.equal(r.offsetOf('::ffff:10.0.0.3'), 2);
  assert.equal(r.offsetOf('010.000.000.004'), 3);
});

test('a sloppy CIDR names its network; a /12 spans past one octet', () => {
  const r = parseServiceIPRange('10.96.5.7/12');
  assert.equal(r.cidr, '10.96.0.0/12');
  assert.equal(r.size, 2 ** 20 - 2);
  assert.equal(r.ipAt(255), '10.96.1.0');
  assert.equal(r.offsetOf('10.111.255.254'), 2 ** 20 - 3);
});

test('IPv6: printed compressed, capped at 65536 addresses', () => {
  const r = parseServiceIPRange('fd00:0:0:0::/108');
  assert.deepEqual([r.cidr, r.family, r.size], ['fd00::/108', 'IPv6', 65535]);
  assert.equal(r.ipAt(0), 'fd00::1');
  assert.equal(r.ipAt(65534), 'fd00::ffff');
  assert.equal(r.offsetOf('fd00::1:0'), undefined);
  assert.equal(r.offsetOf('10.0.0.1'), undefined);
  assert.equal(formatIP(Uint8Array.from([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1])), '2001:db8:0:1::1');
});

test('flag errors as kube-apiserver words them', () => {
  assert.equal(problem('10.0.0.0'), 'service-cluster-ip-range[0] is not a valid cidr');
  assert.equal(problem('10.0.0.0/8'), 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12');
  assert.equal(problem('fd00::/64'), 'specified --service-cluster-ip-range is too large; for 128-bit addresses, the mask must be >= 108');
  assert.equal(problem('10.0.0.0/30'), 'error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses');
  assert.match(problem('10.0.0.0/24,fd00::/108')!, /dual-stack/);
  assert.equal(problem('10.0.0.0/29'), undefined);
});
