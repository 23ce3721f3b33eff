import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Requeue, WorkQueue } from './work-queue.ts';

const tick = () => new Promise((r) => setImmediate(r));

test('a key added many times is handled once; one added while handled is handled again after', async () => {
  const seen: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  const q = new WorkQueue(async (key) => { seen.push(key); if (key === 'a' && seen.length === 1) await gate; }, { name: 't', log: () => {} });
  q.add('a'); q.add('a'); q.add('a');
  await tick();
  assert.deepEqual(seen, ['a']);
  q.add('a');
  q.add('b');
  await tick();
  // One worker: b waits for a.
  assert.deepEqual(seen, ['a']);
  release();
  await q.idle();
  assert.deepEqual(seen, ['a', 'b', 'a']);
  q.stop();
});

test('workers handle different keys at once, never the same key twice at once', async () => {
  let active = 0, most = 0;
  const q = new WorkQueue(async () => { active++; most = Math.max(most, active); await tick(); active--; }, { name: 't', log: () => {}, workers: 3 });
  for (const k of ['a', 'b', 'c', 'd', 'e']) q.add(k);
  await q.idle();
  assert.equal(most, 3);
  q.stop();
});

test('a failure is logged and retried later; a Requeue is retried without a log line', async () => {
  const lines: string[] = [];
  const calls = new Map<string, number>();
  const q = new WorkQueue(async (key) => {
    const n = (calls.get(key) ?? 0) + 1;
    calls.set(key, n);
    if (n < 3) throw key === 'quiet' ? new Requeue('not yet') : new Error('boom');
  }, { name: 'q', log: (l) => lines.push(l), retryMs: 1 });
  q.add('loud');
  q.add('quiet');
  while ((calls.get('loud') ?? 0) < 3 || (calls.get('quiet') ?? 0) < 3) await new Promise((r) => setTimeout(r, 2));
  assert.deepEqual(lines, ['q: loud: boom', 'q: loud: boom']);
  q.stop();
});

test('a stopped queue takes nothing more', async () => {
  const seen: string[] = [];
  const q = new WorkQueue(async (k) => { seen.push(k); }, { name: 't', log: () => {} });
  q.stop();
  q.add('a');
  await q.idle();
  assert.deepEqual(seen, []);
});
