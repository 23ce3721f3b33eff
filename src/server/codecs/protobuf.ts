// Objects as protobuf messages, with the field numbers and wire shapes of Kubernetes' generated.proto,
// driven by the kind's schema. Kubernetes' messages are proto2 written by gogo-protobuf: a field is on the
// wire when set, zero values included; map entries are written in sorted key order; repeated scalars are
// not packed. The special types keep their Kubernetes shapes:
//   Time, MicroTime  message { int64 seconds = 1; int32 nanos = 2 }   (both always written)
//   IntOrString      message { int64 type = 1; int32 intVal = 2; string strVal = 3 }   (all written)
//   Quantity         message { string string = 1 }
//   RawExtension, FieldsV1, JSON   message { bytes raw = 1 }   (the JSON text)
//   []byte           bytes;  map<K,V>   repeated entry message { key = 1; value = 2 }
//   a list or map value that is itself a list   message { repeated items = 1 }   (ExtraValue)
// Reading is the inverse; a string field holding "" reads as unset, because that is what Go's zero value
// means for the non-pointer strings every Go client writes.
import { BinaryReader, BinaryWriter, WireType } from './wire.ts';
import type { TSchema } from '@sinclair/typebox';
import { compileSchema, type Field, type SchemaNode } from './schema-nodes.ts';
import { zeroIsUnsetFields } from '../../machinery/go-zero-values.ts';

export class ProtobufError extends Error {}

/** Encodes `value` (an object of `schema`) as the bytes of its message. apiVersion and kind are left out. */
export function encodeMessage(value: Record<string, unknown>, schema: TSchema): Uint8Array {
  const w = new BinaryWriter();
  writeMessage(w, compileSchema(schema), value);
  return w.finish();
}

/** Decodes the bytes of a message of `schema` into a JSON-shaped object. */
export function decodeMessage(bytes: Uint8Array, schema: TSchema): Record<string, unknown> {
  try {
    return readMessage(bytes, compileSchema(schema));
  } catch (err) {
    throw readError(err);
  }
}

/** A failure of the wire reader in Go's words (gogo's generated code answers io.ErrUnexpectedEOF). */
export function readError(err: unknown): ProtobufError {
  if (err instanceof ProtobufError) return err;
  const message = (err as Error)?.message ?? String(err);
  return new ProtobufError(/premature EOF|out of range|cannot read/i.test(message) ? 'unexpected EOF' : `proto: ${message}`);
}

// ---- writing ----

function writeMessage(w: BinaryWriter, node: SchemaNode, value: Record<string, unknown>): void {
  for (const f of node.fields) {
    if (f.number === undefined) break; // numbered fields sort first
    if (f.embedded) {
      // Properties Go inlines travel in their own message, written when any of them is set.
      if (!hasAny(f.node, value)) continue;
      w.tag(f.number, WireType.LengthDelimited).fork();
      writeMessage(w, f.node, value);
      w.join();
      continue;
    }
    const v = value[f.name];
    if (v === undefined || v === null) continue;
    writeField(w, f.number, f.node, v, f.name);
  }
}

function hasAny(node: SchemaNode, value: Record<string, unknown>): boolean {
  return node.fields.some((f) => (f.embedded ? hasAny(f.node, value) : value[f.name] !== undefined && value[f.name] !== null));
}

function writeField(w: BinaryWriter, no: number, node: SchemaNode, v: unknown, name: string): void {
  if (node.kind === 'array') {
    if (!Array.isArray(v)) throw new ProtobufError(`field ${name}: expected a list`);
    for (const item of v) writeSingle(w, no, node.item!, item ?? zeroOf(node.item!), name);
    return;
  }
  if (node.kind === 'map') {
    if (typeof v !== 'object' || Array.isArray(v)) throw new ProtobufError(`field ${name}: expected a map`);
    const map = v as Record<string, unknown>;
    for (const key of Object.keys(map).sort(compareUtf8)) {
      w.tag(no, WireType.LengthDelimited).fork();
      w.tag(1, WireType.LengthDelimited).string(key);
      const val = map[key];
      writeSingle(w, 2, node.item!, val ?? zeroOf(node.item!), name);
      w.join();
    }
    return;
  }
  writeSingle(w, no, node, v, name);
}

function writeSingle(w: BinaryWriter, no: number, node: SchemaNode, v: unknown, name: string): void {
  switch (node.kind) {
    case 'string':
      w.tag(no, WireType.LengthDelimited).string(typeof v === 'string' ? v : String(v));
      return;
    case 'bytes':
      w.tag(no, WireType.LengthDelimited).bytes(Buffer.from(String(v), 'base64'));
      return;
    case 'int32':
      w.tag(no, WireType.Varint).int32(toInteger(v, name));
      return;
    case 'int64':
      w.tag(no, WireType.Varint).int64(toInteger(v, name));
      return;
    case 'double':
      if (typeof v !== 'number') throw new ProtobufError(`field ${name}: expected a number`);
      w.tag(no, WireType.Bit64).double(v);
      return;
    case 'bool':
      w.tag(no, WireType.Varint).bool(v === true);
      return;
    case 'time':
    case 'microtime': {
      const t = parseTimestamp(String(v), name);
      w.tag(no, WireType.LengthDelimited).fork();
      w.tag(1, WireType.Varint).int64(t.seconds);
      w.tag(2, WireType.Varint).int32(t.nanos);
      w.join();
      return;
    }
    case 'quantity':
      w.tag(no, WireType.LengthDelimited).fork();
      w.tag(1, WireType.LengthDelimited).string(String(v));
      w.join();
      return;
    case 'intOrString': {
      const isInt = typeof v === 'number';
      w.tag(no, WireType.LengthDelimited).fork();
      w.tag(1, WireType.Varint).int64(isInt ? 0 : 1);
      w.tag(2, WireType.Varint).int32(isInt ? v : 0);
      w.tag(3, WireType.LengthDelimited).string(isInt ? '' : String(v));
      w.join();
      return;
    }
    case 'raw':
      w.tag(no, WireType.LengthDelimited).fork();
      w.tag(1, WireType.LengthDelimited).bytes(Buffer.from(JSON.stringify(v), 'utf8'));
      w.join();
      return;
    case 'message':
      if (typeof v !== 'object' || Array.isArray(v)) throw new ProtobufError(`field ${name}: expected an object`);
      w.tag(no, WireType.LengthDelimited).fork();
      writeMessage(w, node, v as Record<string, unknown>);
      w.join();
      return;
    case 'array':
    case 'map':
      // A list or map nested directly in a list or map travels wrapped: message { repeated items = 1 }.
      w.tag(no, WireType.LengthDelimited).fork();
      writeField(w, 1, node, v, name);
      w.join();
      return;
  }
}

function toInteger(v: unknown, name: string): number {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new ProtobufError(`field ${name}: expected an integer`);
  return n;
}

/** The zero value written for a null inside a list or map (Go has no null there). */
function zeroOf(node: SchemaNode): unknown {
  switch (node.kind) {
    case 'int32': case 'int64': case 'double': return 0;
    case 'bool': return false;
    case 'quantity': return '0';
    case 'message': case 'map': return {};
    case 'array': return [];
    case 'raw': return null;
    default: return '';
  }
}

/** Go's sort.Strings order: bytewise UTF-8, which is code point order (not JavaScript's UTF-16 order). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i), cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (astral code points) sort after every other BMP unit in code point order.
    const sa = ca >= 0xd800 && ca <= 0xdfff, sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
}

const TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d\d):(\d\d))$/;

/** Seconds since the epoch and nanoseconds of an RFC 3339 time. */
export function parseTimestamp(text: string, name = 'time'): { seconds: number; nanos: number } {
  const m = TIMESTAMP.exec(text);
  if (!m) throw new ProtobufError(`field ${name}: not an RFC 3339 time: ${JSON.stringify(text)}`);
  const d = new Date(0);
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]);
  d.setUTCHours(+m[4], +m[5], +m[6], 0);
  let seconds = d.getTime() / 1000;
  if (m[8]) seconds -= (m[8] === '-' ? -1 : 1) * (+m[9] * 3600 + +m[10] * 60);
  const nanos = m[7] ? +m[7].padEnd(9, '0') : 0;
  return { seconds, nanos };
}

/** Time as Kubernetes writes it in JSON: UTC, whole seconds (`micro`: six fraction digits). */
export function formatTimestamp(seconds: number, nanos: number, micro: boolean): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  if (!micro) return base + 'Z';
  return `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

// ---- reading ----

const utf8 = new TextDecoder('utf-8', { fatal: false });

function readMessage(bytes: Uint8Array, node: SchemaNode): Record<string, unknown> {
  const r = new BinaryReader(bytes);
  const out: Record<string, unknown> = {};
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    const f = node.byNumber.get(no);
    if (!f) {
      r.skip(wt, no);
      continue;
    }
    readField(r, wt, f, out);
  }
  // Go's zero values of non-pointer fields mean "unset": an empty string or a zero Time reads as absent.
  for (const f of node.fields) {
    const v = out[f.name];
    if (v === '' && f.node.kind === 'string') delete out[f.name];
    else if (v === null) delete out[f.name];
  }
  // Non-pointer omitempty numbers and booleans: their zero is Go's "unset" too (the write path drops the
  // same zeros from bodies in every other format, from the same table).
  for (const name of zeroIsUnsetFields(node.ref)) if (out[name] === 0 || out[name] === false) delete out[name];
  return out;
}

function readField(r: BinaryReader, wt: WireType, f: Field, out: Record<string, unknown>): void {
  const node = f.node;
  if (f.embedded) {
    expectWire(wt, WireType.LengthDelimited, f.name);
    Object.assign(out, readMessage(r.bytes(), node));
    return;
  }
  if (node.kind === 'array') {
    const list = (out[f.name] ??= []) as unknown[];
    const item = node.item!;
    if (wt === WireType.LengthDelimited && isPackable(item)) {
      const end = r.uint32() + r.pos;
      while (r.pos < end) list.push(readScalar(r, item));
    } else {
      list.push(readSingle(r, wt, item, f.name));
    }
    return;
  }
  if (node.kind === 'map') {
    expectWire(wt, WireType.LengthDelimited, f.name);
    const map = (out[f.name] ??= {}) as Record<string, unknown>;
    const entry = new BinaryReader(r.bytes());
    let key = '';
    let value: unknown = undefined;
    while (entry.pos < entry.len) {
      const [no, ewt] = entry.tag();
      if (no === 1) { expectWire(ewt, WireType.LengthDelimited, f.name); key = entry.string(); }
      else if (no === 2) value = readSingle(entry, ewt, node.item!, f.name);
      else entry.skip(ewt, no);
    }
    Object.defineProperty(map, key, { value: value ?? readZero(node.item!), enumerable: true, writable: true, configurable: true });
    return;
  }
  out[f.name] = readSingle(r, wt, node, f.name);
}

function isPackable(node: SchemaNode): boolean {
  return node.kind === 'int32' || node.kind === 'int64' || node.kind === 'bool' || node.kind === 'double';
}

function readScalar(r: BinaryReader, node: SchemaNode): unknown {
  switch (node.kind) {
    case 'int32': return r.int32();
    case 'int64': return Number(r.int64());
    case 'bool': return r.bool();
    default: return r.double();
  }
}

function expectWire(actual: WireType, expected: WireType, name: string): void {
  if (actual !== expected) throw new ProtobufError(`proto: wrong wireType = ${actual} for field ${name}`);
}

function readSingle(r: BinaryReader, wt: WireType, node: SchemaNode, name: string): unknown {
  switch (node.kind) {
    case 'int32': case 'int64': case 'bool':
      expectWire(wt, WireType.Varint, name);
      return readScalar(r, node);
    case 'double':
      expectWire(wt, WireType.Bit64, name);
      return r.double();
  }
  expectWire(wt, WireType.LengthDelimited, name);
  switch (node.kind) {
    case 'string':
      return r.string();
    case 'bytes':
      return Buffer.from(r.bytes()).toString('base64');
    case 'time':
    case 'microtime': {
      const bytes = r.bytes();
      // An empty message is Go's zero time, which JSON writes as null.
      if (bytes.length === 0) return null;
      const t = new BinaryReader(bytes);
      let seconds = 0, nanos = 0;
      while (t.pos < t.len) {
        const [no, twt] = t.tag();
        if (no === 1) seconds = Number(t.int64());
        else if (no === 2) nanos = t.int32();
        else t.skip(twt, no);
      }
      return formatTimestamp(seconds, nanos, node.kind === 'microtime');
    }
    case 'quantity': {
      const q = new BinaryReader(r.bytes());
      let s = '0';
      while (q.pos < q.len) {
        const [no, qwt] = q.tag();
        if (no === 1) s = q.string(); else q.skip(qwt, no);
      }
      return s;
    }
    case 'intOrString': {
      const x = new BinaryReader(r.bytes());
      let type = 0, intVal = 0, strVal = '';
      while (x.pos < x.len) {
        const [no, xwt] = x.tag();
        if (no === 1) type = Number(x.int64());
        else if (no === 2) intVal = x.int32();
        else if (no === 3) strVal = x.string();
        else x.skip(xwt, no);
      }
      return type === 1 ? strVal : intVal;
    }
    case 'raw': {
      const x = new BinaryReader(r.bytes());
      let raw: Uint8Array | undefined;
      while (x.pos < x.len) {
        const [no, xwt] = x.tag();
        if (no === 1) raw = x.bytes(); else x.skip(xwt, no);
      }
      if (!raw || raw.length === 0) return null;
      try {
        return JSON.parse(utf8.decode(raw));
      } catch {
        throw new ProtobufError(`field ${name}: the embedded data is not JSON`);
      }
    }
    case 'message':
      return readMessage(r.bytes(), node);
    case 'array':
    case 'map': {
      // The wrapped form: message { repeated items = 1 }.
      const holder: Record<string, unknown> = {};
      const wrapped: Field = { name: 'items', number: 1, node };
      const x = new BinaryReader(r.bytes());
      while (x.pos < x.len) {
        const [no, xwt] = x.tag();
        if (no === 1) readField(x, xwt, wrapped, holder); else x.skip(xwt, no);
      }
      return holder.items ?? (node.kind === 'array' ? [] : {});
    }
  }
  throw new ProtobufError(`field ${name}: cannot read a ${node.kind}`);
}

/** The value of a map entry that has no value field. */
function readZero(node: SchemaNode): unknown {
  return node.kind === 'time' || node.kind === 'microtime' ? null : zeroOf(node);
}
