import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuSeconds, rssMb } from './proc.ts';

test('the CPU time and RSS of a live process are read from /proc; a gone process gives null', () => {
  const before = cpuSeconds(process.pid);
  assert.ok(before !== null && before >= 0);
  JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i));
  const after = cpuSeconds(process.pid)!;
  assert.ok(after >= before, `${after} >= ${before}`);
  assert.ok((rssMb(process.pid) ?? 0) > 1);
  assert.equal(cpuSeconds(2 ** 30), null);
  assert.equal(rssMb(2 ** 30), null);
});
