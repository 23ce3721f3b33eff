import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goTimeQuote, parseGoTime } from './go-time.ts';

test('Time accepts RFC 3339 and stores it in UTC without fractional seconds', () => {
  const cases: [string, string | null][] = [
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05+02:00', '2024-01-02T01:04:05Z'],
    ['2024-01-01T01:00:00+02:00', '2023-12-31T23:00:00Z'],
    ['2024-12-31T23:30:00-01:00', '2025-01-01T00:30:00Z'],
    ['2024-01-02T03:04:05.123456789Z', '2024-01-02T03:04:05Z'],
    ['2024-01-02T03:04:05,5Z', '2024-01-02T03:04:05Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00Z'],
    ['2024-01-02T3:04:05Z', '2024-01-02T03:04:05Z'], // Go's hour element takes one digit too
    ['0001-01-01T00:00:00Z', null], // Go's zero time encodes as null
    ['0001-01-01T01:00:00+01:00', null],
    ['0000-06-01T00:00:00Z', '0000-06-01T00:00:00Z'],
  ];
  for (const [input, stored] of cases) assert.deepEqual(parseGoTime(input, false), { ok: true, text: stored }, input);
});

test('MicroTime needs exactly six fractional digits and keeps microseconds', () => {
  assert.deepEqual(parseGoTime('2024-01-02T03:04:05.123456Z', true), { ok: true, text: '2024-01-02T03:04:05.123456Z' });
  assert.deepEqual(parseGoTime('2024-01-02T03:04:05.000001+01:00', true), { ok: true, text: '2024-01-02T02:04:05.000001Z' });
  assert.deepEqual(parseGoTime('0001-01-01T00:00:00.000000Z', true), { ok: true, text: null });
  assert.deepEqual(parseGoTime('2024-01-02T03:04:05Z', true), {
    ok: false,
    error: 'parsing time "2024-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
  });
});

test('bad times give Go time.Parse error texts', () => {
  const layout = '"2006-01-02T15:04:05Z07:00"';
  const cases: [string, string][] = [
    ['x', `parsing time "x" as ${layout}: cannot parse "x" as "2006"`],
    ['', `parsing time "" as ${layout}: cannot parse "" as "2006"`],
    ['2024', `parsing time "2024" as ${layout}: cannot parse "" as "-"`],
    ['2024/01/02', `parsing time "2024/01/02" as ${layout}: cannot parse "/01/02" as "-"`],
    ['2024-1-02T00:00:00Z', `parsing time "2024-1-02T00:00:00Z" as ${layout}: cannot parse "1-02T00:00:00Z" as "01"`],
    ['2024-01-02', `parsing time "2024-01-02" as ${layout}: cannot parse "" as "T"`],
    ['2024-01-02 03:04:05Z', `parsing time "2024-01-02 03:04:05Z" as ${layout}: cannot parse " 03:04:05Z" as "T"`],
    ['2024-01-02T03:04:05', `parsing time "2024-01-02T03:04:05" as ${layout}: cannot parse "" as "Z07:00"`],
    ['2024-01-02T03:04:05+0100', `parsing time "2024-01-02T03:04:05+0100" as ${layout}: cannot parse "+0100" as "Z07:00"`],
    ['2024-13-02T03:04:05Z', 'parsing time "2024-13-02T03:04:05Z": month out of range'],
    ['2024-02-30T03:04:05Z', 'parsing time "2024-02-30T03:04:05Z": day out of range'],
    ['2023-02-29T03:04:05Z', 'parsing time "2023-02-29T03:04:05Z": day out of range'],
    ['2024-01-02T24:04:05Z', 'parsing time "2024-01-02T24:04:05Z": hour out of range'],
    ['2024-01-02T03:60:05Z', 'parsing time "2024-01-02T03:60:05Z": minute out of range'],
    ['2024-01-02T03:04:60Z', 'parsing time "2024-01-02T03:04:60Z": second out of range'],
    ['2024-01-02T03:04:05Zjunk', 'parsing time "2024-01-02T03:04:05Zjunk": extra text: "junk"'],
    ['2024-01-02T03:04:05+25:00', 'parsing time "2024-01-02T03:04:05+25:00": time zone offset hour out of range'],
    ['2024-01-02T03:04:05*01:00', `parsing time "2024-01-02T03:04:05*01:00" as ${layout}: cannot parse "*01:00" as "Z07:00"`],
    ['2024-01-02T03:04:05Zé', 'parsing time "2024-01-02T03:04:05Z\\xc3\\xa9": extra text: "\\xc3\\xa9"'],
  ];
  for (const [input, error] of cases) assert.deepEqual(parseGoTime(input, false), { ok: false, error }, input);
});

test('a time parsed again answers the same, as Time and as MicroTime apart', () => {
  const t = '2024-03-04T05:06:07Z';
  const first = parseGoTime(t, false);
  assert.deepEqual(parseGoTime(t, false), first);
  assert.deepEqual(first, { ok: true, text: t });
  assert.equal(parseGoTime(t, true).ok, false);
  assert.deepEqual(parseGoTime(t, false), { ok: true, text: t });
});

test("goTimeQuote is the time package's quote: ASCII kept, everything else as \\x bytes of its UTF-8", () => {
  assert.equal(goTimeQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goTimeQuote('5\u00b5s\n'), '"5\\xc2\\xb5s\\x0a"');
});
