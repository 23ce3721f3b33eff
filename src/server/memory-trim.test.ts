import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startMemoryTrim, type CollectGarbage } from './memory-trim.ts';

const until = async (done: () => boolean) => { while (!done()) await new Promise((r) => setTimeout(r, 5)); };

test('without a collector (a process started without --expose-gc) nothing is started', { skip: typeof globalThis.gc === 'function' }, () => {
  assert.equal(startMemoryTrim(), undefined);
});

test('an idle loop gets a memory-reducing full collection, reported with the heap sizes', async () => {
  const calls: Parameters<CollectGarbage>[0][] = [];
  const trims: [number, number][] = [];
  const trim = startMemoryTrim({ gc: (o) => { calls.push(o); }, intervalMs: 10, minSlackBytes: 0, onTrim: (before, after) => trims.push([before, after]) });
  assert.ok(trim);
  await until(() => calls.length > 0);
  trim.stop();
  assert.deepEqual(calls[0], { type: 'major', execution: 'sync', flavor: 'last-resort' });
  assert.ok(trims[0][0] > 0 && trims[0][1] > 0);
});

test('a heap with less unused space than the threshold is left alone; stop ends the checks', async () => {
  let calls = 0;
  const trim = startMemoryTrim({ gc: () => { calls++; }, intervalMs: 5, minSlackBytes: Number.MAX_SAFE_INTEGER });
  await new Promise((r) => setTimeout(r, 60));
  trim!.stop();
  assert.equal(calls, 0);
});

test('what a collection leaves unused is not collected again: the next trim waits for the heap to grow', async () => {
  const MiB = 1024 * 1024;
  let heap = { total: 40 * MiB, used: 30 * MiB };
  let calls = 0;
  // The collection frees the young generation's slack but leaves 4 MiB of fragmented pages.
  const gc = () => { calls++; heap = { total: 34 * MiB, used: 30 * MiB }; };
  const trim = startMemoryTrim({ gc, intervalMs: 5, heapSizes: () => heap })!;
  await until(() => calls === 1);
  await new Promise((r) => setTimeout(r, 60));
  assert.equal(calls, 1, 'an idle heap with slack left by the last collection is not collected again');
  heap = { total: 35 * MiB, used: 30 * MiB };
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(calls, 1, 'growth under the threshold is not worth a collection');
  heap = { total: 45 * MiB, used: 32 * MiB };
  await until(() => calls === 2);
  trim.stop();
});
