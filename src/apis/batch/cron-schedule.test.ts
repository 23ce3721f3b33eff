import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStandardSchedule, parseGoDuration, isKnownTimeZone, loadLocationError } from './cron-schedule.ts';

const error = (spec: string): string => {
  try {
    parseStandardSchedule(spec);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(spec)} parsed`);
};

test('five fields: lists, ranges, steps, names, ? and *', () => {
  const s = parseStandardSchedule('*/15 9-17 1,15 jan-MAR MON-fri');
  assert.deepEqual(s.minutes, [0, 15, 30, 45]);
  assert.deepEqual(s.hours, [9, 10, 11, 12, 13, 14, 15, 16, 17]);
  assert.deepEqual(s.daysOfMonth, [1, 15]);
  assert.deepEqual(s.months, [1, 2, 3]);
  assert.deepEqual(s.daysOfWeek, [1, 2, 3, 4, 5]);
  // `n/step` runs to the maximum; `?` is `*`; empty list items are skipped.
  assert.deepEqual(parseStandardSchedule('50/5 ? * * 0').minutes, [50, 55]);
  assert.deepEqual(parseStandardSchedule('1,,2 * * * *').minutes, [1, 2]);
  assert.deepEqual(parseStandardSchedule('\t0  3 * *\u00a0*').hours, [3]);
  assert.deepEqual(parseStandardSchedule('+5 * * * *').minutes, [5]);
});

test('descriptors and @every', () => {
  assert.deepEqual(parseStandardSchedule('@hourly').minutes, [0]);
  assert.equal(parseStandardSchedule('@hourly').hours.length, 24);
  assert.deepEqual(parseStandardSchedule('@weekly').daysOfWeek, [0]);
  assert.deepEqual([parseStandardSchedule('@annually').months, parseStandardSchedule('@yearly').daysOfMonth], [[1], [1]]);
  for (const d of ['@monthly', '@daily', '@midnight']) assert.deepEqual(parseStandardSchedule(d).minutes, [0]);
  assert.equal(parseStandardSchedule('@every 1h30m').everyMs, 5_400_000);
  assert.equal(parseStandardSchedule('@every 1.5s').everyMs, 1500);
});

test('robfig/cron error texts', () => {
  assert.equal(error('61 * * * *'), 'end of range (61) above maximum (59): 61');
  assert.equal(error('* * 0 * *'), 'beginning of range (0) below minimum (1): 0');
  assert.equal(error('5-1 * * * *'), 'beginning of range (5) beyond end of range (1): 5-1');
  assert.equal(error('*/0 * * * *'), 'step of range should be a positive number: */0');
  assert.equal(error('1-2-3 * * * *'), 'too many hyphens: 1-2-3');
  assert.equal(error('1/2/3 * * * *'), 'too many slashes: 1/2/3');
  assert.equal(error('x * * * *'), 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax');
  assert.equal(error('5- * * * *'), 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax');
  assert.equal(error('*/-1 * * * *'), 'negative number (-1) not allowed: -1');
  assert.equal(error('99999999999999999999 * * * *'), 'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range');
  assert.equal(error('* * * * * *'), 'expected exactly 5 fields, found 6: [* * * * * *]');
  assert.equal(error('* *'), 'expected exactly 5 fields, found 2: [* *]');
  assert.equal(error('   '), 'expected exactly 5 fields, found 0: []');
  assert.equal(error('* * * * 7'), 'end of range (7) above maximum (6): 7');
  assert.equal(error('* * * foo *'), 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax');
  assert.equal(error('@fortnightly'), 'unrecognized descriptor: @fortnightly');
  assert.equal(error('@hourly '), 'unrecognized descriptor: @hourly ');
  assert.equal(error('@every 1x'), 'failed to parse duration @every 1x: time: unknown unit "x" in duration "1x"');
  assert.equal(error('@every 5'), 'failed to parse duration @every 5: time: missing unit in duration "5"');
  assert.equal(error('@every '), 'failed to parse duration @every : time: invalid duration ""');
  assert.equal(error(''), 'empty spec string');
});

test('TZ= and CRON_TZ= prefixes', () => {
  assert.equal(parseStandardSchedule('CRON_TZ=Europe/Paris 0 1 * * *').timeZone, 'Europe/Paris');
  assert.equal(parseStandardSchedule('TZ=UTC @daily').timeZone, 'UTC');
  assert.equal(error('TZ=Mars/Olympus 0 1 * * *'), 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus');
  assert.equal(error('TZ=../etc 0 1 * * *'), 'provided bad location ../etc: time: invalid location name');
  // robfig/cron v3.0.1 panics here (Kubernetes answers 500): a syntax error instead.
  assert.equal(error('TZ=UTC'), 'invalid timezone specification: TZ=UTC');
  assert.equal(error('TZ=UTC '), 'expected exactly 5 fields, found 0: []');
});

test('time.ParseDuration', () => {
  assert.equal(parseGoDuration('0'), 0n);
  assert.equal(parseGoDuration('-1m'), -60_000_000_000n);
  assert.equal(parseGoDuration('300ms'), 300_000_000n);
  assert.equal(parseGoDuration('2h45m'), 9_900_000_000_000n);
  assert.equal(parseGoDuration('1µs'), 1000n);
  assert.throws(() => parseGoDuration('.s'), { message: 'time: invalid duration ".s"' });
  assert.throws(() => parseGoDuration('1é'), { message: 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"' });
  assert.throws(() => parseGoDuration('9999999999h'), { message: 'time: invalid duration "9999999999h"' });
});

test('time zones: IANA names (links too), exact case, no offsets', () => {
  for (const z of ['Europe/Paris', 'America/Argentina/Buenos_Aires', 'Etc/GMT+5', 'Asia/Kolkata']) assert.ok(isKnownTimeZone(z), z);
  for (const z of ['europe/paris', 'Mars/Olympus', '+05:00', 'Europe', '']) assert.equal(isKnownTimeZone(z), false, z);
  assert.equal(loadLocationError('UTC'), undefined);
  assert.equal(loadLocationError('Local'), undefined);
  assert.equal(loadLocationError('Europe/Pariss'), 'unknown time zone Europe/Pariss');
  assert.equal(loadLocationError('/etc/passwd'), 'time: invalid location name');
});
