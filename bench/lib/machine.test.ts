import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loopbackRoundTripUs } from './machine.ts';

test('the loopback round trip to another process is measured in µs', async () => {
  const us = await loopbackRoundTripUs(2, 200);
  assert.equal(typeof us, 'number');
  assert.ok(us! > 0 && us! < 100_000, String(us));
});
