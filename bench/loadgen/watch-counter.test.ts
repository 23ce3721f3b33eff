import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WatchCounter } from './watch-counter.ts';

const event = (stamp?: number) => JSON.stringify({
  type: 'MODIFIED',
  object: { metadata: { name: 'w', annotations: stamp === undefined ? {} : { 'bench/stamp': String(stamp) } }, data: { k: 'x'.repeat(50) } },
}) + '\n';

test('counts events of the run and their latency, across chunk boundaries', () => {
  const c = new WatchCounter();
  c.mark(1000);
  const read = c.reader(() => 1010);
  const bytes = Buffer.from(event(1000) + event(1005) + event(990) + event());
  // Feed it in small pieces so that lines and the stamp itself are cut.
  for (let i = 0; i < bytes.length; i += 7) read(bytes.subarray(i, i + 7));
  assert.equal(c.events, 2);
  assert.equal(c.otherEvents, 2);
  assert.equal(c.latency.count, 2);
  assert.equal(c.latency.percentile(0.5), 5);
  assert.equal(c.latency.percentile(1), 10);
});

test('a new mark starts the count again; an unfinished line is not counted', () => {
  const c = new WatchCounter();
  c.mark(0);
  const read = c.reader(() => 50);
  read(Buffer.from(event(10)));
  assert.equal(c.events, 1);
  c.mark(20);
  read(Buffer.from(event(30) + event(15) + event(40).slice(0, 20)));
  assert.equal(c.events, 1);
  assert.equal(c.otherEvents, 1);
  assert.equal(c.latency.percentile(0.5), 20);
});
