// CBOR (RFC 8949): a small encoder and decoder for the data the API serves (maps, arrays, text and byte
// strings, integers, floats, booleans, null) plus tags, simple values, bignums and indefinite lengths on
// input. Floats are written in the shortest of half, single and double precision that keeps the value,
// as Kubernetes' encoder does.

/** A tagged data item (`tag(value)`). */
export class CborTag {
  readonly tag: number | bigint;
  readonly value: CborValue;
  constructor(tag: number | bigint, value: CborValue) {
    this.tag = tag;
    this.value = value;
  }
}

/** A simple value other than false, true, null and undefined. */
export class CborSimple {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

/** A number to be written as a float even when it is integral (a `float64` field holding 1). */
export class CborFloat {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

export type CborValue =
  | null | undefined | boolean | number | bigint | string | Uint8Array
  | CborTag | CborSimple | CborFloat
  | CborValue[]
  | Map<CborValue, CborValue>
  | { [key: string]: CborValue };

/** The self-described CBOR tag Kubernetes puts in front of every encoded object: bytes `d9 d9 f7`. */
export const SELF_DESCRIBED_TAG = 55799;
export const SELF_DESCRIBED_PREFIX = Uint8Array.of(0xd9, 0xd9, 0xf7);

export class CborError extends Error {}

// ---- encoding ----

class Output {
  buf = new Uint8Array(256);
  view = new DataView(this.buf.buffer);
  len = 0;

  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.reserve(1);
    this.buf[this.len++] = b;
  }

  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.len);
    this.len += b.length;
  }

  /** A major type with its argument in the shortest form. */
  head(major: number, arg: number | bigint): void {
    const m = major << 5;
    if (typeof arg === 'bigint') {
      if (arg <= 0xffffffffn) return this.head(major, Number(arg));
      this.reserve(9);
      this.buf[this.len] = m | 27;
      this.view.setBigUint64(this.len + 1, arg);
      this.len += 9;
      return;
    }
    if (arg < 24) return this.byte(m | arg);
    if (arg < 0x100) { this.reserve(2); this.buf[this.len] = m | 24; this.buf[this.len + 1] = arg; this.len += 2; return; }
    if (arg < 0x10000) { this.reserve(3); this.buf[this.len] = m | 25; this.view.setUint16(this.len + 1, arg); this.len += 3; return; }
    if (arg < 0x100000000) { this.reserve(5); this.buf[this.len] = m | 26; this.view.setUint32(this.len + 1, arg); this.len += 5; return; }
    this.head(major, BigInt(arg));
  }

  result(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

const utf8 = new TextEncoder();
const MAX_U64 = (1n << 64n) - 1n;

/** Encodes one data item. Plain objects are maps with text keys (properties holding undefined are left out). */
export function encodeCbor(value: CborValue, opts: { selfDescribed?: boolean } = {}): Uint8Array {
  const out = new Output();
  if (opts.selfDescribed) out.bytes(SELF_DESCRIBED_PREFIX);
  write(out, value);
  return out.result();
}

function write(out: Output, v: CborValue): void {
  switch (typeof v) {
    case 'string': {
      const b = utf8.encode(v);
      out.head(3, b.length);
      out.bytes(b);
      return;
    }
    case 'number':
      // Integers beyond 2^53 are not exact in a number: they stay floats (bigint carries exact ones).
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) return v >= 0 ? out.head(0, v) : out.head(1, -1 - v);
      return writeFloat(out, v);
    case 'bigint':
      return writeBigInt(out, v);
    case 'boolean':
      return out.byte(v ? 0xf5 : 0xf4);
    case 'undefined':
      return out.byte(0xf7);
  }
  if (v === null) return out.byte(0xf6);
  if (v instanceof Uint8Array) {
    out.head(2, v.length);
    out.bytes(v);
    return;
  }
  if (Array.isArray(v)) {
    out.head(4, v.length);
    for (const item of v) write(out, item);
    return;
  }
  if (v instanceof CborFloat) return writeFloat(out, v.value);
  if (v instanceof CborTag) {
    out.head(6, v.tag);
    write(out, v.value);
    return;
  }
  if (v instanceof CborSimple) {
    if (v.value < 24) out.byte(0xe0 | v.value);
    else { out.byte(0xf8); out.byte(v.value); }
    return;
  }
  if (v instanceof Map) {
    out.head(5, v.size);
    for (const [k, val] of v) { write(out, k); write(out, val); }
    return;
  }
  const entries = Object.entries(v as Record<string, CborValue>).filter(([, val]) => val !== undefined);
  out.head(5, entries.length);
  for (const [k, val] of entries) { write(out, k); write(out, val); }
}

function writeBigInt(out: Output, v: bigint): void {
  if (v >= 0n) {
    if (v <= MAX_U64) return out.head(0, v);
    out.head(6, 2);
    return write(out, bigToBytes(v));
  }
  const n = -1n - v;
  if (n <= MAX_U64) return out.head(1, n);
  out.head(6, 3);
  write(out, bigToBytes(n));
}

function bigToBytes(v: bigint): Uint8Array {
  let hex = v.toString(16);
  if (hex.length % 2) hex = '0' + hex;
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

const f32 = new Float32Array(1);

function writeFloat(out: Output, v: number): void {
  const half = toHalf(v);
  if (half !== undefined) {
    out.byte(0xf9);
    out.byte(half >> 8);
    out.byte(half & 0xff);
    return;
  }
  f32[0] = v;
  if (f32[0] === v) {
    out.reserve(5);
    out.buf[out.len] = 0xfa;
    out.view.setFloat32(out.len + 1, v);
    out.len += 5;
    return;
  }
  out.reserve(9);
  out.buf[out.len] = 0xfb;
  out.view.setFloat64(out.len + 1, v);
  out.len += 9;
}

/** The IEEE 754 half-precision bits of `v` when it converts exactly, else undefined. */
function toHalf(v: number): number | undefined {
  if (Number.isNaN(v)) return 0x7e00;
  const sign = v < 0 || Object.is(v, -0) ? 0x8000 : 0;
  const a = Math.abs(v);
  if (a === Infinity) return sign | 0x7c00;
  if (a === 0) return sign;
  const exp = Math.floor(Math.log2(a));
  if (exp > 15) return undefined;
  if (exp >= -14) {
    const mant = a / 2 ** exp - 1;
    const bits = mant * 1024;
    if (!Number.isInteger(bits) || a !== (1 + bits / 1024) * 2 ** exp) return undefined;
    return sign | ((exp + 15) << 10) | bits;
  }
  // Subnormal: multiples of 2^-24.
  const bits = a / 2 ** -24;
  if (!Number.isInteger(bits) || bits >= 1024) return undefined;
  return sign | bits;
}

function fromHalf(h: number): number {
  const exp = (h >> 10) & 0x1f;
  const mant = h & 0x3ff;
  let val: number;
  if (exp === 0) val = mant * 2 ** -24;
  else if (exp !== 31) val = (mant + 1024) * 2 ** (exp - 25);
  else val = mant === 0 ? Infinity : NaN;
  return h & 0x8000 ? -val : val;
}

// ---- decoding ----

export interface DecodeOptions {
  /** Refuse a map that repeats a key (Kubernetes does); default true. */
  rejectDuplicateKeys?: boolean;
}

const BREAK = Symbol('break');
const MAX_DEPTH = 10_000;
const textDecoder = new TextDecoder('utf-8', { fatal: true });

class Input {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  pos = 0;
  readonly opts: Required<DecodeOptions>;
  depth = 0;

  constructor(bytes: Uint8Array, opts: DecodeOptions) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.opts = { rejectDuplicateKeys: opts.rejectDuplicateKeys ?? true };
  }

  need(n: number): void {
    if (this.pos + n > this.bytes.length) throw new CborError('unexpected EOF');
  }
}

/** Decodes exactly one data item; trailing bytes are an error. */
export function decodeCbor(bytes: Uint8Array, opts: DecodeOptions = {}): CborValue {
  const input = new Input(bytes, opts);
  if (bytes.length === 0) throw new CborError('EOF');
  const v = read(input);
  if (v === BREAK) throw new CborError('cbor: unexpected "break" code');
  if (input.pos !== bytes.length) throw new CborError(`cbor: ${bytes.length - input.pos} bytes of extraneous data starting at index ${input.pos}`);
  return v;
}

/** Decodes a CBOR sequence (RFC 8742): data items one after another. */
export function decodeCborSequence(bytes: Uint8Array, opts: DecodeOptions = {}): CborValue[] {
  const input = new Input(bytes, opts);
  const out: CborValue[] = [];
  while (input.pos < bytes.length) {
    const v = read(input);
    if (v === BREAK) throw new CborError('cbor: unexpected "break" code');
    out.push(v);
  }
  return out;
}

/** Reads the argument of a head; undefined for the indefinite-length marker. */
function readArg(input: Input, info: number): number | bigint | undefined {
  if (info < 24) return info;
  switch (info) {
    case 24: input.need(1); return input.bytes[input.pos++];
    case 25: { input.need(2); const v = input.view.getUint16(input.pos); input.pos += 2; return v; }
    case 26: { input.need(4); const v = input.view.getUint32(input.pos); input.pos += 4; return v; }
    case 27: {
      input.need(8);
      const v = input.view.getBigUint64(input.pos);
      input.pos += 8;
      return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    case 31: return undefined;
    default: throw new CborError(`cbor: invalid additional information ${info} for type ${(input.bytes[input.pos - 1] >> 5)}`);
  }
}

function length(input: Input, arg: number | bigint): number {
  if (typeof arg === 'bigint' || arg > input.bytes.length - input.pos) throw new CborError('unexpected EOF');
  return arg;
}

function read(input: Input): CborValue | typeof BREAK {
  input.need(1);
  const initial = input.bytes[input.pos++];
  const major = initial >> 5;
  const info = initial & 0x1f;
  if (initial === 0xff) return BREAK;
  if (major === 7) return readSimple(input, info);
  const arg = readArg(input, info);
  if (arg === undefined && (major === 0 || major === 1 || major === 6)) throw new CborError(`cbor: invalid additional information 31 for type ${major}`);
  switch (major) {
    case 0:
      return arg!;
    case 1:
      return typeof arg === 'bigint' || arg! >= Number.MAX_SAFE_INTEGER ? -1n - BigInt(arg!) : -1 - (arg as number);
    case 2:
    case 3: {
      let raw: Uint8Array;
      if (arg === undefined) {
        const chunks: Uint8Array[] = [];
        for (;;) {
          input.need(1);
          if (input.bytes[input.pos] === 0xff) { input.pos++; break; }
          const h = input.bytes[input.pos++];
          if (h >> 5 !== major || (h & 0x1f) === 31) throw new CborError(`cbor: wrong element type in indefinite-length ${major === 2 ? 'byte' : 'text'} string`);
          const n = length(input, readArg(input, h & 0x1f)!);
          chunks.push(input.bytes.subarray(input.pos, input.pos + n));
          input.pos += n;
        }
        raw = Uint8Array.from(Buffer.concat(chunks));
      } else {
        const n = length(input, arg);
        // A copy, as a plain Uint8Array even when the input is a Buffer.
        raw = new Uint8Array(input.bytes.subarray(input.pos, input.pos + n));
        input.pos += n;
      }
      if (major === 2) return raw;
      try {
        return textDecoder.decode(raw);
      } catch {
        throw new CborError('cbor: invalid UTF-8 string');
      }
    }
    case 4: {
      if (++input.depth > MAX_DEPTH) throw new CborError('cbor: exceeded max nested level');
      const out: CborValue[] = [];
      if (arg === undefined) {
        for (;;) {
          const v = read(input);
          if (v === BREAK) break;
          out.push(v);
        }
      } else {
        const n = length(input, arg);
        for (let i = 0; i < n; i++) out.push(item(input));
      }
      input.depth--;
      return out;
    }
    case 5: {
      if (++input.depth > MAX_DEPTH) throw new CborError('cbor: exceeded max nested level');
      const keys: CborValue[] = [];
      const values: CborValue[] = [];
      if (arg === undefined) {
        for (;;) {
          const k = read(input);
          if (k === BREAK) break;
          keys.push(k);
          values.push(item(input));
        }
      } else {
        const n = length(input, arg);
        for (let i = 0; i < n; i++) { keys.push(item(input)); values.push(item(input)); }
      }
      input.depth--;
      return buildMap(input, keys, values);
    }
    case 6: {
      const tagged = item(input);
      // Bignums (tags 2 and 3) read as bigint.
      if ((arg === 2 || arg === 3) && tagged instanceof Uint8Array) {
        const n = tagged.length ? BigInt('0x' + Buffer.from(tagged).toString('hex')) : 0n;
        return arg === 2 ? n : -1n - n;
      }
      return new CborTag(arg!, tagged);
    }
  }
  throw new CborError(`cbor: unknown major type ${major}`);
}

function item(input: Input): CborValue {
  const v = read(input);
  if (v === BREAK) throw new CborError('cbor: unexpected "break" code');
  return v;
}

function readSimple(input: Input, info: number): CborValue {
  if (info < 20) return new CborSimple(info);
  switch (info) {
    case 20: return false;
    case 21: return true;
    case 22: return null;
    case 23: return undefined;
    case 24: {
      input.need(1);
      const v = input.bytes[input.pos++];
      if (v < 32) throw new CborError(`cbor: invalid simple value ${v} for type primitives`);
      return new CborSimple(v);
    }
    case 25: { input.need(2); const v = fromHalf(input.view.getUint16(input.pos)); input.pos += 2; return v; }
    case 26: { input.need(4); const v = input.view.getFloat32(input.pos); input.pos += 4; return v; }
    case 27: { input.need(8); const v = input.view.getFloat64(input.pos); input.pos += 8; return v; }
  }
  throw new CborError(`cbor: invalid additional information ${info} for type primitives`);
}

/** Text keys make a plain object; any other key makes a Map. */
function buildMap(input: Input, keys: CborValue[], values: CborValue[]): CborValue {
  if (keys.every((k) => typeof k === 'string')) {
    const obj: Record<string, CborValue> = {};
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i] as string;
      if (Object.hasOwn(obj, k) && input.opts.rejectDuplicateKeys) throw new CborError(`cbor: found duplicate map key ${JSON.stringify(k)} at map element index ${i}`);
      // defineProperty: a `__proto__` key is data, not the prototype.
      Object.defineProperty(obj, k, { value: values[i], enumerable: true, writable: true, configurable: true });
    }
    return obj;
  }
  const map = new Map<CborValue, CborValue>();
  for (let i = 0; i < keys.length; i++) {
    if (map.has(keys[i]) && input.opts.rejectDuplicateKeys) throw new CborError(`cbor: found duplicate map key ${String(keys[i])} at map element index ${i}`);
    map.set(keys[i], values[i]);
  }
  return map;
}
