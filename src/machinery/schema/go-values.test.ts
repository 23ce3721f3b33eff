import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64ErrorOffset, canonicalBase64 } from './go-base64.ts';
import { QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR, quantitySyntaxError } from './quantity-syntax.ts';

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

test('quantity syntax follows resource.ParseQuantity', () => {
  const ok = ['0', '1', '100m', '1.5', '.5', '1Gi', '500Mi', '2k', '1e3', '1E-2', '-1', '+1', '  1Gi ', '1.', '0.000001', '12E'];
  for (const q of ok) assert.equal(quantitySyntaxError(q), null, q);
  const bad: [string, string][] = [
    ['', QUANTITY_FORMAT_ERROR],
    ['abc', QUANTITY_FORMAT_ERROR],
    ['1Gb', QUANTITY_FORMAT_ERROR],
    ['1.5.5', QUANTITY_FORMAT_ERROR],
    ['1 Gi', QUANTITY_FORMAT_ERROR],
    ['1iG', QUANTITY_SUFFIX_ERROR],
    ['1e', QUANTITY_SUFFIX_ERROR],
    ['1Ki3', QUANTITY_SUFFIX_ERROR],
  ];
  for (const [q, err] of bad) assert.equal(quantitySyntaxError(q), err, q);
});
