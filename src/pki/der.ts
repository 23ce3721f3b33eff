// The few DER (ASN.1 Distinguished Encoding Rules) constructions an X.509 certificate needs, to write and to
// read back the parts of a CA certificate that a certificate it signs refers to.

/** One element: tag, length, contents. */
export function tlv(tag: number, contents: Uint8Array): Buffer {
  const n = contents.length;
  let header: number[];
  if (n < 0x80) header = [tag, n];
  else if (n < 0x100) header = [tag, 0x81, n];
  else if (n < 0x10000) header = [tag, 0x82, n >> 8, n & 0xff];
  else header = [tag, 0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from(header), contents]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (bytes: Uint8Array): Buffer => tlv(0x04, bytes);
export const utf8String = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
export const boolean = (value: boolean): Buffer => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
/** [n] EXPLICIT: the element wrapped in a constructed context tag. */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);
/** [n] IMPLICIT on a primitive type: the bytes under a context tag. */
export const implicit = (n: number, bytes: Uint8Array): Buffer => tlv(0x80 | n, bytes);

/** A non-negative INTEGER from its big-endian bytes, minimal as DER wants it. */
export function unsignedInteger(bytes: Uint8Array): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const body = bytes.subarray(start);
  return tlv(0x02, body[0] & 0x80 ? Buffer.concat([Buffer.from([0]), body]) : body);
}

export const smallInteger = (n: number): Buffer => unsignedInteger(Buffer.from([n]));

/** A BIT STRING of whole bytes. */
export const bitString = (bytes: Uint8Array): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));

/** A named-bit BIT STRING (KeyUsage): bit 0 is the most significant bit of the first byte; trailing zero bits are dropped. */
export function namedBits(bits: number[]): Buffer {
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const b of bits) bytes[b >> 3] |= 0x80 >> (b & 7);
  return tlv(0x03, Buffer.concat([Buffer.from([7 - (highest & 7)]), bytes]));
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out = [40 * parts[0] + parts[1]];
  for (const part of parts.slice(2)) {
    const base128 = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) base128.unshift((v & 0x7f) | 0x80);
    out.push(...base128);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime after, in seconds, as RFC 5280 requires. */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '') + 'Z';
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'latin1')) : tlv(0x18, Buffer.from(digits, 'latin1'));
}

/** One element read from `der` at `offset`: its tag, contents and where the next element starts. */
export interface Element {
  tag: number;
  /** The whole element, header included. */
  raw: Buffer;
  contents: Buffer;
  end: number;
}

export function readElement(der: Buffer, offset = 0): Element {
  if (offset + 2 > der.length) throw new Error('DER: truncated element');
  const tag = der[offset];
  let length = der[offset + 1];
  let start = offset + 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4 || start + count > der.length) throw new Error('DER: unsupported length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + der[start + i];
    start += count;
  }
  const end = start + length;
  if (end > der.length) throw new Error('DER: truncated element');
  return { tag, raw: der.subarray(offset, end), contents: der.subarray(start, end), end };
}

/** The elements inside a constructed element's contents. */
export function children(contents: Buffer): Element[] {
  const out: Element[] = [];
  for (let offset = 0; offset < contents.length; offset = out[out.length - 1].end) out.push(readElement(contents, offset));
  return out;
}
