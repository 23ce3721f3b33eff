import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64ErrorOffset, canonicalBase64 } from './go-base64.ts';

test('base64 is checked as Go StdEncoding.Decode checks it', () => {
  const cases: [string, number][] = [
    ['', -1],
    ['YQ==', -1],
    ['YWI=', -1],
    ['YWJj', -1],
    ['YW\nJj', -1],
    ['YWJj\r\n', -1],
    ['YQ', 0],
    ['YWJjZ', 4],
    ['YW=j', 2],
    ['Y===', 1],
    ['YQ=', 3],
    ['YQ=x', 2],
    ['YQ==YQ==', 4],
    ['YW!j', 2],
    ['é', 0],
  ];
  for (const [input, offset] of cases) assert.equal(base64ErrorOffset(input), offset, JSON.stringify(input));
});

test('valid base64 is re-encoded canonically, invalid gives null', () => {
  assert.equal(canonicalBase64('YWJj'), 'YWJj');
  assert.equal(canonicalBase64('YW\nJj'), 'YWJj');
  assert.equal(canonicalBase64('YR=='), 'YQ==');
  assert.equal(canonicalBase64('YQ'), null);
});
