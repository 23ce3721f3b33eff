import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aesGcmMBps, loopbackRoundTripUs } from './machine.ts';

test('the loopback round trip to another process is measured in µs', async () => {
  const us = await loopbackRoundTripUs(2, 200);
  assert.equal(typeof us, 'number');
  assert.ok(us! > 0 && us! < 100_000, String(us));
});

test('one thread\'s AES-256-GCM throughput is measured in MB/s', () => {
  const mbps = aesGcmMBps(1, 50);
  assert.ok(Number.isInteger(mbps) && mbps > 0 && mbps < 1_000_000, String(mbps));
});
