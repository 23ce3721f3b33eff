import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateName, generateNameSuffix, nowMicroTime, nowRfc3339 } from './names.ts';

test('generated suffixes use Kubernetes\' alphabet', () => {
  for (let i = 0; i < 200; i++) assert.match(generateNameSuffix(), /^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});

test('generateName keeps at most 58 characters of the prefix', () => {
  assert.match(generateName('web-'), /^web-[a-z0-9]{5}$/);
  const long = generateName('p'.repeat(100));
  assert.equal(long.length, 63);
  assert.ok(long.startsWith('p'.repeat(58)));
});

test('timestamps: seconds for Time, microseconds for MicroTime', () => {
  assert.match(nowRfc3339(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.match(nowMicroTime(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
});
