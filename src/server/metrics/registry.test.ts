import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry, formatValue } from './registry.ts';

const V132 = { major: 1, minor: 32 };

test('a vector without samples is left out; samples are written with sorted labels and escaped values', () => {
  const r = new MetricsRegistry({ version: V132 });
  const g = r.gauge({ name: 'x_requested', help: 'Gauge of things.\nSecond line', stability: 'STABLE', labels: ['version', 'group'] });
  assert.equal(r.write(), '');
  g.set(['v1', ''], 1);
  g.set(['v1beta1', 'a"b\\c\nd'], 1);
  assert.equal(r.write(), [
    '# HELP x_requested [STABLE] Gauge of things.\\nSecond line',
    '# TYPE x_requested gauge',
    'x_requested{group="",version="v1"} 1',
    'x_requested{group="a\\"b\\\\c\\nd",version="v1beta1"} 1',
    '',
  ].join('\n'));
});

test('counters add up; families come out in name order; the default stability is ALPHA', () => {
  const r = new MetricsRegistry({ version: V132 });
  const b = r.counter({ name: 'b_total', help: 'B.', labels: ['code'] });
  const a = r.counter({ name: 'a_total', help: 'A.' });
  b.inc(['200']); b.inc(['200']); b.inc(['404'], 3); a.inc();
  assert.equal(r.write(), '# HELP a_total [ALPHA] A.\n# TYPE a_total counter\na_total 1\n# HELP b_total [ALPHA] B.\n# TYPE b_total counter\nb_total{code="200"} 2\nb_total{code="404"} 3\n');
  assert.throws(() => b.inc([]), /expected 1 label values, got 0/);
  assert.throws(() => r.counter({ name: 'a_total', help: 'again' }), /registered twice/);
});

test('a metric deprecated in this release is marked; one deprecated earlier is hidden unless shown', () => {
  for (const showHidden of [false, true]) {
    const r = new MetricsRegistry({ version: V132, showHidden });
    r.counter({ name: 'now_total', help: 'Now.', stability: 'STABLE', deprecatedVersion: '1.32.0' }).inc();
    r.counter({ name: 'old_total', help: 'Old.', deprecatedVersion: '1.31.0' }).inc();
    r.counter({ name: 'later_total', help: 'Later.', deprecatedVersion: '1.33.0' }).inc();
    const text = r.write();
    assert.match(text, /# HELP now_total \[STABLE\] \(Deprecated since 1\.32\.0\) Now\.\n/);
    assert.match(text, /# HELP later_total \[ALPHA\] Later\.\n/);
    if (showHidden) assert.match(text, /# HELP old_total \[ALPHA\] \(Deprecated since 1\.31\.0\) Old\.\n# TYPE old_total counter\nold_total 1\n/);
    else assert.doesNotMatch(text, /old_total/);
  }
});

test('collected metrics are read at write time, and beforeWrite hooks run first', () => {
  const r = new MetricsRegistry({ version: V132 });
  let n = 5;
  r.collect({ name: 'process_thing', type: 'gauge', raw: true, help: 'Thing.', read: () => n });
  const g = r.gauge({ name: 'objects', help: 'Objects.', labels: ['resource'] });
  r.beforeWrite(() => g.set(['pods'], n * 2));
  n = 7;
  assert.equal(r.write(), '# HELP objects [ALPHA] Objects.\n# TYPE objects gauge\nobjects{resource="pods"} 14\n# HELP process_thing Thing.\n# TYPE process_thing gauge\nprocess_thing 7\n');
});

test('values are written as Go writes a float64 in the shortest form', () => {
  assert.equal(formatValue(1), '1');
  assert.equal(formatValue(0), '0');
  assert.equal(formatValue(123456), '123456');
  assert.equal(formatValue(1234567), '1.234567e+06');
  assert.equal(formatValue(1e6), '1e+06');
  assert.equal(formatValue(1.7e9), '1.7e+09');
  assert.equal(formatValue(0.25), '0.25');
  assert.equal(formatValue(0.0001), '0.0001');
  assert.equal(formatValue(0.00001), '1e-05');
  assert.equal(formatValue(-2.5), '-2.5');
  assert.equal(formatValue(Infinity), '+Inf');
  assert.equal(formatValue(-Infinity), '-Inf');
  assert.equal(formatValue(NaN), 'NaN');
});
