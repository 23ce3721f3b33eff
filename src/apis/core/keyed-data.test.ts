import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase64, sameMap } from './keyed-data.ts';

const text = (s: string) => {
  const r = decodeBase64(s);
  return 'bytes' in r ? Buffer.from(r.bytes).toString('latin1') : r.error;
};

test('decodeBase64 decodes padded base64, skipping line breaks', () => {
  assert.equal(text(''), '');
  assert.equal(text('aGVsbG8='), 'hello');
  assert.equal(text('aGVs\r\nbG8='), 'hello');
  assert.equal(text('aGk='), 'hi');
  assert.equal(text('aA=='), 'h');
  assert.equal(text('aA=\n='), 'h');
});

test('decodeBase64 fails where Go fails', () => {
  assert.equal(text('aGVsbG8'), 'illegal base64 data at input byte 4');
  assert.equal(text('a'), 'illegal base64 data at input byte 0');
  assert.equal(text('!!!!'), 'illegal base64 data at input byte 0');
  assert.equal(text('aA='), 'illegal base64 data at input byte 3');
  assert.equal(text('a==='), 'illegal base64 data at input byte 1');
  assert.equal(text('aA==x'), 'illegal base64 data at input byte 4');
  assert.equal(text('aGVsbG8=aGk='), 'illegal base64 data at input byte 8');
});

test('sameMap treats absent and empty alike and compares bytes for binary maps', () => {
  assert.equal(sameMap(undefined, {}, false), true);
  assert.equal(sameMap({ a: '1' }, { a: '1' }, false), true);
  assert.equal(sameMap({ a: '1' }, { a: '2' }, false), false);
  assert.equal(sameMap({ a: '1' }, { b: '1' }, false), false);
  assert.equal(sameMap({ a: 'aGk=' }, { a: 'aG\nk=' }, true), true);
  assert.equal(sameMap({ a: 'aGk=' }, { a: 'aGk=' }, true), true);
  assert.equal(sameMap({ a: 'aGk=' }, { a: 'aA==' }, true), false);
});
