import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameQueue, flushSoon, cancelFlush, atTurnEnd } from './watch-flush.ts';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a queue gives back its frames in order as one buffer, and is empty after', () => {
  const q = new FrameQueue();
  q.push('{"type":"ADDED"}\n');
  q.push(Buffer.from('{"type":"MODIFIED"}\n'));
  assert.equal(q.length, 2);
  assert.equal(Buffer.from(q.take()!).toString(), '{"type":"ADDED"}\n{"type":"MODIFIED"}\n');
  assert.equal(q.length, 0);
  assert.equal(q.take(), undefined);
});

test('a single frame is written as it is, without a copy', () => {
  const q = new FrameQueue();
  const frame = Buffer.from('{"type":"DELETED"}\n');
  q.push(frame);
  assert.equal(q.take(), frame);
});

test('clear drops what is queued', () => {
  const q = new FrameQueue();
  q.push('a');
  q.clear();
  assert.equal(q.take(), undefined);
});

test('a flush asked for many times in a turn runs once, after the turn', async () => {
  let runs = 0;
  const flush = () => { runs++; };
  flushSoon(flush);
  flushSoon(flush);
  assert.equal(runs, 0);
  await nextTurn();
  assert.equal(runs, 1);
  flushSoon(flush);
  await nextTurn();
  assert.equal(runs, 2);
});

test('a cancelled flush does not run', async () => {
  let runs = 0;
  const flush = () => { runs++; };
  flushSoon(flush);
  cancelFlush(flush);
  await nextTurn();
  assert.equal(runs, 0);
});

test('watchers with the same frames in a turn share one joined buffer; other frames get their own', async () => {
  const a = Buffer.from('1\n');
  const b = Buffer.from('2\n');
  const queues = [new FrameQueue(), new FrameQueue(), new FrameQueue()];
  for (const q of queues.slice(0, 2)) { q.push(a); q.push(b); }
  queues[2].push(b);
  queues[2].push(a);
  const written: Uint8Array[] = [];
  for (const q of queues) flushSoon(() => written.push(q.take()!));
  await nextTurn();
  assert.equal(written.length, 3);
  assert.equal(written[0], written[1]);
  assert.equal(Buffer.from(written[0]).toString(), '1\n2\n');
  assert.equal(Buffer.from(written[2]).toString(), '2\n1\n');
});

test('one failing flush does not stop the others', async () => {
  let ran = false;
  flushSoon(() => { throw new Error('stream gone'); });
  flushSoon(() => { ran = true; });
  await nextTurn();
  assert.equal(ran, true);
});

test('what only this turn shares is forgotten after its flushes', async () => {
  const order: string[] = [];
  atTurnEnd(() => order.push('forget'));
  flushSoon(() => order.push('flush'));
  assert.deepEqual(order, []);
  await nextTurn();
  assert.deepEqual(order, ['flush', 'forget']);
});
