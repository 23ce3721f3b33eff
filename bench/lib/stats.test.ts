import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarize, MsHistogram } from './stats.ts';

test('summarize gives median, min and max of odd and even counts', () => {
  assert.deepEqual(summarize([3, 1, 2]), { median: 2, min: 1, max: 3, n: 3 });
  assert.deepEqual(summarize([4, 1, 3, 2]), { median: 2.5, min: 1, max: 4, n: 4 });
  assert.throws(() => summarize([]), /no values/);
});

test('histogram percentiles and sparse round trip', () => {
  const h = new MsHistogram(100);
  for (let i = 1; i <= 100; i++) h.record(i);
  h.record(-5);
  h.record(1e9);
  assert.equal(h.count, 102);
  assert.equal(h.percentile(0.5), 50);
  assert.equal(h.percentile(0.99), 100);
  const g = new MsHistogram(100);
  g.addSparse(h.toSparse());
  assert.equal(g.count, 102);
  assert.equal(g.percentile(0.5), 50);
  assert.equal(new MsHistogram().percentile(0.5), null);
});
