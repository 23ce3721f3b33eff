// API objects as CBOR, the way Kubernetes' CBOR serializer writes them: the JSON data model, with `[]byte`
// fields as byte strings tagged 22 ("expected later encoding: base64", so a transcoder to JSON gives the
// same base64 text), float fields as floats, and the whole item behind the self-described tag 55799.
// Its encoder writes every string and every field name as a byte string (major type 2, not text) and sorts
// map keys bytewise by their encoding (RFC 8949 4.2.1, so shorter keys first), for deterministic output.
import type { TSchema } from '@sinclair/typebox';
import { CborError, CborFloat, CborSimple, CborTag, decodeCbor, encodeCbor, type CborValue } from './cbor.ts';
import { compileSchema, type SchemaNode } from './schema-nodes.ts';

const BASE64URL_LATER = 21;
const BASE64_LATER = 22;
const BASE16_LATER = 23;

/** One self-described CBOR data item for a JSON value (`schema` marks bytes and float fields). */
export function encodeCborValue(value: unknown, schema?: TSchema): Uint8Array {
  return encodeCbor(toCbor(value, schema ? compileSchema(schema) : undefined), { selfDescribed: true });
}

/** A CBOR data item (one, nothing after it) as JSON data; `schema` says where byte strings are `[]byte`. */
export function decodeCborValue(bytes: Uint8Array, schema?: TSchema): unknown {
  return fromCbor(decodeCbor(bytes), schema ? compileSchema(schema) : undefined);
}

export function toCbor(v: unknown, node: SchemaNode | undefined): CborValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') {
    if (node?.kind === 'bytes') return new CborTag(BASE64_LATER, Uint8Array.from(Buffer.from(v, 'base64')));
    return utf8Bytes(v);
  }
  if (typeof v === 'number') return node?.kind === 'double' ? new CborFloat(v) : v;
  if (typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map((item) => toCbor(item, node?.kind === 'array' ? node.item : undefined));
  if (typeof v === 'object') {
    const entries: [string, CborValue][] = [];
    for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
      if (val === undefined) continue;
      const child = node?.kind === 'message' ? node.byName.get(k)?.node : node?.kind === 'map' ? node.item : undefined;
      entries.push([k, toCbor(val, child)]);
    }
    return cborMap(entries);
  }
  throw new CborError(`cbor: cannot encode a ${typeof v}`);
}

/** A map as Kubernetes encodes one: byte-string keys in bytewise order of their encoding. */
export function cborMap(entries: Iterable<[string, CborValue]>): Map<CborValue, CborValue> {
  const keyed = [...entries].map(([k, val]) => [utf8Bytes(k), val] as const);
  // A byte string's head grows with its length, so encoded order is shorter first, then bytewise.
  keyed.sort(([a], [b]) => a.length - b.length || Buffer.compare(a, b));
  return new Map<CborValue, CborValue>(keyed);
}

function utf8Bytes(s: string): Uint8Array {
  const b = Buffer.from(s, 'utf8');
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function fromCbor(v: CborValue, node: SchemaNode | undefined): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      if (!Number.isFinite(v)) throw new CborError(`cbor: ${v} cannot be represented in JSON`);
      return v;
    case 'bigint':
      return Number(v);
  }
  if (v instanceof Uint8Array) {
    // A byte string into a []byte field is its base64 text in JSON; into a string field, its bytes as text.
    if (node?.kind === 'bytes') return Buffer.from(v).toString('base64');
    return textOf(v);
  }
  if (v instanceof CborTag) {
    if (v.value instanceof Uint8Array) {
      if (v.tag === BASE64_LATER) return Buffer.from(v.value).toString('base64');
      if (v.tag === BASE64URL_LATER) return Buffer.from(v.value).toString('base64url');
      if (v.tag === BASE16_LATER) return Buffer.from(v.value).toString('hex');
    }
    // The self-described tag (55799) and tags JSON has no form for (dates, URIs) read as their content.
    return fromCbor(v.value, node);
  }
  if (v instanceof CborFloat) return v.value;
  if (v instanceof CborSimple) throw new CborError(`cbor: simple value ${v.value} cannot be represented in JSON`);
  if (Array.isArray(v)) return v.map((item) => fromCbor(item, node?.kind === 'array' ? node.item : undefined));
  const entries: [string, CborValue][] = v instanceof Map
    ? [...v].map(([k, val]) => [keyText(k), val])
    : Object.entries(v as Record<string, CborValue>);
  const out: Record<string, unknown> = {};
  for (const [k, val] of entries) {
    const child = node?.kind === 'message' ? node.byName.get(k)?.node : node?.kind === 'map' ? node.item : undefined;
    Object.defineProperty(out, k, { value: fromCbor(val, child), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function textOf(b: Uint8Array): string {
  try {
    return utf8.decode(b);
  } catch {
    throw new CborError('cbor: invalid UTF-8 in a byte string decoded as text');
  }
}

/** Map keys are text; a byte-string key is read as its text (Kubernetes accepts both). */
function keyText(k: CborValue): string {
  if (typeof k === 'string') return k;
  if (k instanceof Uint8Array) return textOf(k);
  throw new CborError(`cbor: map key of type ${k === null ? 'null' : typeof k} cannot be represented in JSON`);
}
