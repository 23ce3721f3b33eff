import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepSystemObjects } from './system-objects.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise and the function that settles it, to wait for an event rather than for a time. */
function signal(): { done: Promise<void>; fire(): void } {
  let fire!: () => void;
  const done = new Promise<void>((r) => { fire = r; });
  return { done, fire };
}

test('each loop runs on its period, one pass at a time, and a failed pass is logged', async () => {
  let passes = 0;
  let overlapping = 0;
  let inPass = false;
  const lines: string[] = [];
  const third = signal(), logged = signal();
  const kept = keepSystemObjects([
    {
      what: 'slow things', everyMs: 5, ensure: async () => {
        if (inPass) overlapping++;
        inPass = true;
        // Each pass outlasts several periods: the ticks in between must not start another.
        await sleep(20);
        inPass = false;
        if (++passes === 3) third.fire();
      },
    },
    { what: 'broken things', everyMs: 5, ensure: async () => { throw new Error('store unavailable'); } },
  ], (line) => { lines.push(line); logged.fire(); });
  await Promise.all([third.done, logged.done]);
  await kept.stop();
  assert.equal(overlapping, 0);
  assert.ok(lines.includes('keeping broken things: store unavailable'), lines.join('\n'));
});

test('stop waits for a pass under way and no pass starts after it', async () => {
  let finished = false;
  let started = 0;
  const first = signal();
  const kept = keepSystemObjects([{ what: 'x', everyMs: 5, ensure: async () => { started++; first.fire(); await sleep(30); finished = true; } }], () => {});
  await first.done;
  await kept.stop();
  assert.equal(finished, true);
  assert.equal(started, 1);
  await sleep(20);
  assert.equal(started, 1);
});
