import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepSystemObjects } from './system-objects.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('each loop runs on its period, one pass at a time, and a failed pass is logged', async () => {
  let passes = 0;
  let overlapping = 0;
  let inPass = false;
  const lines: string[] = [];
  const kept = keepSystemObjects([
    { what: 'slow things', everyMs: 5, ensure: async () => { if (inPass) overlapping++; inPass = true; passes++; await sleep(20); inPass = false; } },
    { what: 'broken things', everyMs: 5, ensure: async () => { throw new Error('store unavailable'); } },
  ], (line) => lines.push(line));
  await sleep(100);
  await kept.stop();
  assert.ok(passes >= 2, `passes: ${passes}`);
  assert.equal(overlapping, 0);
  assert.ok(lines.includes('keeping broken things: store unavailable'), lines.join('\n'));
});

test('stop waits for a pass under way and no pass starts after it', async () => {
  let finished = false;
  let started = 0;
  const kept = keepSystemObjects([{ what: 'x', everyMs: 5, ensure: async () => { started++; await sleep(30); finished = true; } }], () => {});
  await sleep(10);
  assert.equal(started, 1);
  await kept.stop();
  assert.equal(finished, true);
  await sleep(20);
  assert.equal(started, 1);
});
