import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as der from './der.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

test('object identifiers encode their arcs in base 128', () => {
  assert.equal(hex(der.oid('2.5.29.14')), '0603551d0e');
  assert.equal(hex(der.oid('1.2.840.10045.4.3.2')), '06082a8648ce3d040302');
  assert.equal(hex(der.oid('1.3.6.1.5.5.7.3.1')), '06082b06010505070301');
});

test('integers are minimal and positive', () => {
  assert.equal(hex(der.smallInteger(2)), '020102');
  assert.equal(hex(der.unsignedInteger(Buffer.from([0, 0, 0x7f]))), '02017f');
  assert.equal(hex(der.unsignedInteger(Buffer.from([0x80]))), '02020080');
  assert.equal(hex(der.unsignedInteger(Buffer.from([0]))), '020100');
});

test('named bits drop trailing zero bits', () => {
  assert.equal(hex(der.namedBits([0])), '03020780'); // digitalSignature
  assert.equal(hex(der.namedBits([5, 6, 0])), '03020186'); // keyCertSign, cRLSign, digitalSignature
  assert.equal(hex(der.namedBits([8])), '0303070080');
});

test('times are UTCTime through 2049 and GeneralizedTime after, in whole seconds', () => {
  assert.equal(Buffer.from(der.time(new Date('2036-02-03T04:05:06.789Z'))).toString('latin1').slice(2), '360203040506Z');
  assert.equal(der.time(new Date('2036-02-03T04:05:06Z'))[0], 0x17);
  const late = der.time(new Date('2050-01-01T00:00:00Z'));
  assert.equal(late[0], 0x18);
  assert.equal(Buffer.from(late).toString('latin1').slice(2), '20500101000000Z');
});

test('long contents get a long-form length, and read back', () => {
  for (const size of [0, 127, 128, 255, 256, 70_000]) {
    const element = der.octetString(Buffer.alloc(size, 7));
    const read = der.readElement(element);
    assert.equal(read.tag, 0x04);
    assert.equal(read.contents.length, size);
    assert.equal(read.end, element.length);
  }
});

test('constructed elements read back as their children; truncated input is refused', () => {
  const seq = der.sequence(der.boolean(true), der.explicit(3, der.utf8String('é')), der.implicit(7, Buffer.from([127, 0, 0, 1])));
  const parts = der.children(der.readElement(seq).contents);
  assert.deepEqual(parts.map((p) => p.tag), [0x01, 0xa3, 0x87]);
  assert.equal(der.readElement(parts[1].contents).contents.toString('utf8'), 'é');
  assert.throws(() => der.readElement(seq.subarray(0, seq.length - 1)), /truncated/);
});
