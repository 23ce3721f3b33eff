import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FigureSet, computeRatios, RATIO_KEYS, SYSTEMS, TARGETS, W, verdict } from './figures.ts';

test('ratios come from the medians of the matching figures; missing inputs give null', () => {
  const f = new FigureSet();
  f.add(SYSTEMS.etcd, W.put, 50, 'ops/s', [1000, 900, 1100]);
  f.add(SYSTEMS.capstan, W.create, 50, 'req/s', [2000, 1000, 3000]);
  f.add(SYSTEMS.capstan, W.create, 10, 'req/s', [9]);
  f.add(SYSTEMS.capstan, W.list10k, null, 'ms', [50, 60, 70]);
  f.add(SYSTEMS.etcd, W.range10k, null, 'ms', [30, 30, 30]);
  const r = computeRatios(f);
  assert.deepEqual(Object.keys(r), [...RATIO_KEYS]);
  assert.equal(r.create_vs_etcd_put, 2);
  assert.equal(r.list10k_time_vs_etcd_range, 2);
  assert.equal(r.get_vs_etcd_get, null);
  assert.equal(r.update_vs_etcd_put, null);
});

test('verdicts follow the direction of each target', () => {
  const byKey = Object.fromEntries(TARGETS.map((t) => [t.key, t]));
  assert.equal(verdict(byKey.create_vs_etcd_put, 1.5), 'pass');
  assert.equal(verdict(byKey.create_vs_etcd_put, 1.49), 'FAIL');
  assert.equal(verdict(byKey.fanout_p99_ms, 100), 'FAIL');
  assert.equal(verdict(byKey.fanout_p99_ms, 99), 'pass');
  assert.equal(verdict(byKey.idle_rss_mb, null), 'n/a');
  assert.deepEqual(TARGETS.map((t) => t.key).sort(), [...RATIO_KEYS].sort());
});
