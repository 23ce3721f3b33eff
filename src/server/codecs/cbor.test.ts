import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeCbor, decodeCbor, decodeCborSequence, CborTag, CborSimple, CborFloat, CborError, type CborValue } from './cbor.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

/** RFC 8949 Appendix A: [value, encoding]. Values encode to exactly these bytes and decode back. */
const VECTORS: [CborValue, string][] = [
  [0, '00'], [1, '01'], [10, '0a'], [23, '17'], [24, '1818'], [25, '1819'], [100, '1864'], [1000, '1903e8'],
  [1000000, '1a000f4240'], [1000000000000, '1b000000e8d4a51000'],
  [18446744073709551615n, '1bffffffffffffffff'], [18446744073709551616n, 'c249010000000000000000'],
  [-18446744073709551616n, '3bffffffffffffffff'], [-18446744073709551617n, 'c349010000000000000000'],
  [-1, '20'], [-10, '29'], [-100, '3863'], [-1000, '3903e7'],
  [-0, 'f98000'], [1.1, 'fb3ff199999999999a'], [1.5, 'f93e00'],
  [3.4028234663852886e+38, 'fa7f7fffff'], [1.0e+300, 'fb7e37e43c8800759c'], [5.960464477539063e-8, 'f90001'],
  [0.00006103515625, 'f90400'], [-4.1, 'fbc010666666666666'],
  [Infinity, 'f97c00'], [NaN, 'f97e00'], [-Infinity, 'f9fc00'],
  [false, 'f4'], [true, 'f5'], [null, 'f6'], [undefined, 'f7'], [new CborSimple(16), 'f0'], [new CborSimple(255), 'f8ff'],
  [new CborTag(0, '2013-03-21T20:04:00Z'), 'c074323031332d30332d32315432303a30343a30305a'],
  [new CborTag(1, 1363896240), 'c11a514b67b0'], [new CborTag(1, 1363896240.5), 'c1fb41d452d9ec200000'],
  [new CborTag(23, bytes('01020304')), 'd74401020304'], [new CborTag(24, bytes('6449455446')), 'd818456449455446'],
  [new CborTag(32, 'http://www.example.com'), 'd82076687474703a2f2f7777772e6578616d706c652e636f6d'],
  [new Uint8Array(), '40'], [bytes('01020304'), '4401020304'],
  ['', '60'], ['a', '6161'], ['IETF', '6449455446'], ['"\\', '62225c'], ['\u00fc', '62c3bc'], ['\u6c34', '63e6b0b4'], ['\ud800\udd51', '64f0908591'],
  [[], '80'], [[1, 2, 3], '83010203'], [[1, [2, 3], [4, 5]], '8301820203820405'],
  [Array.from({ length: 25 }, (_, i) => i + 1), '98190102030405060708090a0b0c0d0e0f101112131415161718181819'],
  [{}, 'a0'], [new Map([[1, 2], [3, 4]]), 'a201020304'], [{ a: 1, b: [2, 3] }, 'a26161016162820203'],
  [['a', { b: 'c' }], '826161a161626163'],
  [{ a: 'A', b: 'B', c: 'C', d: 'D', e: 'E' }, 'a56161614161626142616361436164614461656145'],
];

test('RFC 8949 Appendix A: encoding', () => {
  for (const [value, encoded] of VECTORS) {
    assert.equal(hex(encodeCbor(value)), encoded, `encode ${String(value)}`);
  }
});

test('RFC 8949 Appendix A: decoding', () => {
  for (const [value, encoded] of VECTORS) {
    assert.deepEqual(decodeCbor(bytes(encoded)), value, `decode ${encoded}`);
  }
});

test('RFC 8949 Appendix A: integral floats are written as floats when asked, in the shortest exact width', () => {
  assert.equal(hex(encodeCbor(new CborFloat(0))), 'f90000');
  assert.equal(hex(encodeCbor(new CborFloat(1))), 'f93c00');
  assert.equal(hex(encodeCbor(new CborFloat(65504))), 'f97bff');
  assert.equal(hex(encodeCbor(new CborFloat(100000))), 'fa47c35000');
  assert.equal(hex(encodeCbor(new CborFloat(-4))), 'f9c400');
  for (const [encoded, value] of [['f90000', 0], ['f93c00', 1], ['f97bff', 65504], ['fa47c35000', 100000], ['f9c400', -4]] as const) {
    assert.equal(decodeCbor(bytes(encoded)), value);
  }
});

test('RFC 8949 Appendix A: the other float widths of infinities and NaN decode', () => {
  assert.equal(decodeCbor(bytes('fa7f800000')), Infinity);
  assert.ok(Number.isNaN(decodeCbor(bytes('fa7fc00000'))));
  assert.equal(decodeCbor(bytes('faff800000')), -Infinity);
  assert.equal(decodeCbor(bytes('fb7ff0000000000000')), Infinity);
  assert.ok(Number.isNaN(decodeCbor(bytes('fb7ff8000000000000'))));
  assert.equal(decodeCbor(bytes('fbfff0000000000000')), -Infinity);
});

test('RFC 8949 Appendix A: indefinite-length items decode', () => {
  const cases: [string, CborValue][] = [
    ['5f42010243030405ff', bytes('0102030405')],
    ['7f657374726561646d696e67ff', 'streaming'],
    ['9fff', []],
    ['9f018202039f0405ffff', [1, [2, 3], [4, 5]]],
    ['9f01820203820405ff', [1, [2, 3], [4, 5]]],
    ['83018202039f0405ff', [1, [2, 3], [4, 5]]],
    ['83019f0203ff820405', [1, [2, 3], [4, 5]]],
    ['9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff', Array.from({ length: 25 }, (_, i) => i + 1)],
    ['bf61610161629f0203ffff', { a: 1, b: [2, 3] }],
    ['826161bf61626163ff', ['a', { b: 'c' }]],
    ['bf6346756ef563416d7421ff', { Fun: true, Amt: -2 }],
  ];
  for (const [encoded, value] of cases) assert.deepEqual(decodeCbor(bytes(encoded)), value, encoded);
});

test('the self-described tag prefix, and sequences', () => {
  assert.equal(hex(encodeCbor({ a: 1 }, { selfDescribed: true })), 'd9d9f7a1616101');
  assert.deepEqual(decodeCbor(bytes('d9d9f7a1616101')), new CborTag(55799, { a: 1 }));
  assert.deepEqual(decodeCborSequence(bytes('0161616163')), [1, 'a', 'c']);
  assert.deepEqual(decodeCborSequence(new Uint8Array()), []);
});

test('plain objects skip undefined properties; a __proto__ key stays data', () => {
  assert.equal(hex(encodeCbor({ a: undefined, b: 1 })), 'a1616201');
  const decoded = decodeCbor(encodeCbor(JSON.parse('{"__proto__":1}'))) as Record<string, unknown>;
  assert.deepEqual(Object.keys(decoded), ['__proto__']);
  assert.equal(Object.getPrototypeOf(decoded), Object.prototype);
});

test('malformed input is refused', () => {
  const bad: [string, RegExp][] = [
    ['', /EOF/],
    ['18', /unexpected EOF/],
    ['62c3', /unexpected EOF/],
    ['0101', /1 bytes of extraneous data starting at index 1/],
    ['ff', /unexpected "break"/],
    ['1c', /invalid additional information 28/],
    ['62c328', /invalid UTF-8/],
    ['a2616101616102', /duplicate map key "a" at map element index 1/],
    ['5f6161ff', /wrong element type/],
    ['9b0000000100000000', /unexpected EOF/],
  ];
  for (const [encoded, message] of bad) assert.throws(() => decodeCbor(bytes(encoded)), (e: Error) => e instanceof CborError && message.test(e.message), encoded);
  assert.deepEqual(decodeCbor(bytes('a2616101616102'), { rejectDuplicateKeys: false }), { a: 2 });
});
