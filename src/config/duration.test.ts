import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, formatDurationNanoseconds, parseDuration, parseDurationNanoseconds } from './duration.ts';

test('parseDuration reads Go durations into milliseconds', () => {
  const cases: [string, number][] = [
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['300ms', 300],
    ['2s', 2_000],
    ['1.5h', 5_400_000],
    ['0', 0],
    ['-0', 0],
    ['+5s', 5_000],
    ['-1m30s', -90_000],
    ['.5s', 500],
    ['5.s', 5_000],
    ['1h2m3s4ms', 3_723_004],
    ['1500us', 1.5],
    ['1500µs', 1.5],
    ['1500μs', 1.5],
    ['250ns', 0.00025],
    ['0s', 0],
    ['0.000000001s', 0.000001],
  ];
  for (const [text, ms] of cases) assert.equal(parseDuration(text), ms, text);
});

test('parseDuration keeps Go limits: int64 nanoseconds, nanosecond precision', () => {
  assert.equal(parseDurationNanoseconds('2562047h47m16.854775807s'), (1n << 63n) - 1n);
  assert.equal(parseDurationNanoseconds('-2562047h47m16.854775808s'), -(1n << 63n));
  assert.equal(parseDurationNanoseconds('1.0000000019s'), 1_000_000_001n);
});

test('parseDuration rejects bad input with the Go error text', () => {
  const cases: [string, string][] = [
    ['', 'time: invalid duration ""'],
    ['5', 'time: missing unit in duration "5"'],
    ['00', 'time: missing unit in duration "00"'],
    ['1..5s', 'time: missing unit in duration "1..5s"'],
    ['5x', 'time: unknown unit "x" in duration "5x"'],
    ['1e3s', 'time: unknown unit "e" in duration "1e3s"'],
    ['5 m', 'time: unknown unit " m" in duration "5 m"'],
    ['.s', 'time: invalid duration ".s"'],
    ['s', 'time: invalid duration "s"'],
    ['-', 'time: invalid duration "-"'],
    ['- 5s', 'time: invalid duration "- 5s"'],
    ['1h-5m', 'time: unknown unit "h-" in duration "1h-5m"'],
    ['2562047h47m16.854775808s', 'time: invalid duration "2562047h47m16.854775808s"'],
    ['99999999999999999999h', 'time: invalid duration "99999999999999999999h"'],
    // The time package's quote: non-ASCII and control bytes as \x escapes of their UTF-8 (not \u or \n).
    ['1\u00b5', 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"'],
    ['5\n', 'time: unknown unit "\\x0a" in duration "5\\x0a"'],
    ['\u00e9', 'time: invalid duration "\\xc3\\xa9"'],
  ];
  for (const [text, message] of cases) assert.throws(() => parseDuration(text), { message }, text);
});

test('formatDuration prints what Go prints', () => {
  const cases: [number, string][] = [
    [0, '0s'],
    [300_000, '5m0s'],
    [30_000, '30s'],
    [3_600_000, '1h0m0s'],
    [5_400_000, '1h30m0s'],
    [90_500, '1m30.5s'],
    [60_000, '1m0s'],
    [259_200_000, '72h0m0s'],
    [300, '300ms'],
    [1.5, '1.5ms'],
    [0.0015, '1.5µs'],
    [0.000001, '1ns'],
    [-1_500, '-1.5s'],
    [1_000.000001, '1.000000001s'],
  ];
  for (const [ms, text] of cases) assert.equal(formatDuration(ms), text, String(ms));
  assert.equal(formatDurationNanoseconds((1n << 63n) - 1n), '2562047h47m16.854775807s');
  assert.equal(formatDurationNanoseconds(-(1n << 63n)), '-2562047h47m16.854775808s');
  assert.throws(() => formatDuration(Number.NaN), { message: 'cannot format NaN as a duration' });
});

test('formatting then parsing gives the same duration', () => {
  for (const text of ['5m', '1h30m', '300ms', '2s', '1.5h', '1m30.5s', '36h', '1.5µs']) {
    const ms = parseDuration(text);
    assert.equal(parseDuration(formatDuration(ms)), ms, text);
  }
});
