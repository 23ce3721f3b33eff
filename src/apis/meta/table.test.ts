import { test } from 'node:test';
import assert from 'node:assert/strict';
import { humanDuration, translateTimestampSince, nameColumn, ageColumn } from './table.ts';

const s = 1000, m = 60 * s, h = 60 * m, d = 24 * h, y = 365 * d;

test('humanDuration matches Kubernetes for every range', () => {
  const cases: [number, string][] = [
    [-3 * s, '<invalid>'],
    [-2 * s, '<invalid>'],
    [-1999, '0s'],
    [-1 * s, '0s'],
    [0, '0s'],
    [999, '0s'],
    [5 * s, '5s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [2 * m + 1 * s, '2m1s'],
    [9 * m + 59 * s, '9m59s'],
    [10 * m, '10m'],
    [10 * m + 30 * s, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [3 * h + 20 * m, '3h20m'],
    [7 * h + 59 * m, '7h59m'],
    [8 * h, '8h'],
    [47 * h + 59 * m, '47h'],
    [48 * h, '2d'],
    [2 * d + 3 * h, '2d3h'],
    [7 * d + 23 * h, '7d23h'],
    [8 * d, '8d'],
    [729 * d, '729d'],
    [2 * y, '2y'],
    [2 * y + 12 * d, '2y12d'],
    [7 * y + 364 * d, '7y364d'],
    [8 * y, '8y'],
    [123 * y + 40 * d, '123y'],
  ];
  for (const [ms, want] of cases) assert.equal(humanDuration(ms), want, `${ms}ms`);
});

test('translateTimestampSince: unknown without a timestamp, the age otherwise', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');
  assert.equal(translateTimestampSince(undefined, now), '<unknown>');
  assert.equal(translateTimestampSince('', now), '<unknown>');
  assert.equal(translateTimestampSince('not a time', now), '<unknown>');
  assert.equal(translateTimestampSince('2024-05-01T11:59:55Z', now), '5s');
  assert.equal(translateTimestampSince('2024-04-29T09:00:00Z', now), '2d3h');
  assert.equal(translateTimestampSince('2024-05-01T12:00:10Z', now), '<invalid>');
});

test('name and age columns have Kubernetes definitions and cells', () => {
  assert.equal(nameColumn.name, 'Name');
  assert.equal(nameColumn.format, 'name');
  assert.equal(ageColumn.name, 'Age');
  assert.equal(ageColumn.type, 'string');
  const obj = { metadata: { name: 'x', creationTimestamp: new Date(Date.now() - 65_000).toISOString() } };
  assert.equal(nameColumn.cell(obj), 'x');
  assert.match(String(ageColumn.cell(obj)), /^6[5-9]s$/);
  assert.equal(ageColumn.cell({ metadata: {} }), '<unknown>');
});
