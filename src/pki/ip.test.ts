import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIP } from 'node:net';
import { ipFamily } from './ip.ts';

test('ipFamily answers as net.isIP does for addresses and names', () => {
  const samples = [
    '127.0.0.1', '0.0.0.0', '255.255.255.255', '10.9.8.7', '256.1.1.1', '1.2.3', '01.2.3.4', '1.2.3.4.5', ' 1.2.3.4',
    '::', '::1', 'fd00::2', 'FD00::0:2', '2001:db8::1:0:0:1', '::ffff:10.0.0.1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9',
    '1::2::3', ':::', 'g::1', '[::1]', 'localhost', 'kubernetes.default.svc', 'my-host', '', ':', 'a:b',
  ];
  for (const s of samples) assert.equal(ipFamily(s), isIP(s), s);
});
