import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCborValue, encodeCborValue } from './cbor-json.ts';
import { builtInTypes } from './protobuf-objects.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('strings and field names are byte strings, keys sorted shorter first then bytewise, after the self-described tag', () => {
  // {"kind":"X","apiVersion":"v1"} as Kubernetes writes it: d9d9f7, map(2), b"kind" b"X", b"apiVersion" b"v1".
  const bytes = encodeCborValue({ apiVersion: 'v1', kind: 'X' });
  assert.equal(hex(bytes), 'd9d9f7' + 'a2' + '446b696e64' + '4158' + '4a61706956657273696f6e' + '427631');
  assert.deepEqual(decodeCborValue(bytes), { kind: 'X', apiVersion: 'v1' });
});

test('map keys of equal length sort bytewise; nested maps too; []byte fields stay tagged 22', () => {
  const schema = builtInTypes().schemaFor('v1', 'Secret');
  const bytes = encodeCborValue({ data: { bb: 'AAE=', ab: 'Ag==' }, type: 'é' }, schema);
  // map(2): b"data" map(2): b"ab" 22(h'02'), b"bb" 22(h'0001'); b"type" b"\xc3\xa9"
  assert.equal(hex(bytes).slice(6), 'a2' + '4464617461' + 'a2' + '426162' + 'd64102' + '426262' + 'd6420001' + '4474797065' + '42c3a9');
  assert.deepEqual(decodeCborValue(bytes, schema), { data: { ab: 'Ag==', bb: 'AAE=' }, type: 'é' });
});
