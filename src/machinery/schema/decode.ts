// Turns a parsed request body into a typed object, the way Kubernetes' JSON decoder fills a Go struct:
// fields the schema does not declare are dropped and reported (strict decoding), `null` means absent,
// and a value of the wrong type fails with Go's `json: cannot unmarshal ...` text.
//
// The walk works in place on the value it is given (a freshly parsed body): the common body changes
// nothing and allocates nothing. Callers must not pass objects they share with others.
import type { TSchema } from '@sinclair/typebox';
import { canonicalQuantity, QuantityError } from '../quantity.ts';
import { base64ErrorOffset, base64ErrorText, canonicalBase64 } from './go-base64.ts';
import { parseGoTime } from './go-time.ts';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, preservesUnknown, type RefScope, scopeOf, type SchemaKind } from './schema-kind.ts';
import { goJsonKind } from '../go-json.ts';

export interface DecodeOptions {
  /** The Kind being decoded (`ConfigMap`): the Go struct name of the root in error texts. */
  kind: string;
  /** `v1`, `apps/v1`. */
  apiVersion: string;
}

export interface DecodeResult<T = Record<string, unknown>> {
  /** The decoded object (the input, modified in place). */
  object: T;
  /** Paths of undeclared fields that were dropped (`spec.foo`, `spec.containers[0].bar`), in body order. */
  unknownFields: string[];
  /**
   * Go's decode error (`json: cannot unmarshal number into Go struct field ConfigMap.data of type string`,
   * `parsing time "x" as ...`, `illegal base64 data at input byte 3`, a quantity syntax error), or
   * undefined. Like Go, only the first is reported. The request is then a 400: see cannotHandleMessage.
   */
  typeError: string | undefined;
}

interface Node {
  kind: SchemaKind;
  /** Object: declared properties. */
  props: Map<string, Node> | null;
  /** Object: keep undeclared fields. */
  preserve: boolean;
  /** Array items or map values. */
  item: Node | null;
  /** Integer width. */
  bits: 32 | 64;
  /** Go struct name of an object (`ObjectMeta`), for `Go struct field ObjectMeta.metadata.x`. */
  structName: string;
  /** Go package of an object (`v1`). */
  pkg: string;
}

const cache = new WeakMap<TSchema, Node>();

function compile(schema: TSchema, scope: RefScope, nameHint: string): Node {
  const resolved = deref(schema, scope);
  const cached = cache.get(resolved);
  if (cached) return cached;
  const s = asSchema(resolved);
  const kind = kindOf(resolved);
  const ref = s['x-ref'];
  const refParts = ref ? ref.split('.') : [];
  const node: Node = {
    kind,
    props: null,
    preserve: preservesUnknown(resolved),
    item: null,
    bits: s.format === 'int32' ? 32 : 64,
    structName: refParts.length ? refParts[refParts.length - 1] : nameHint,
    pkg: refParts.length > 1 ? refParts[refParts.length - 2] : 'v1',
  };
  cache.set(resolved, node);
  const inner = scopeOf(resolved, scope);
  if (kind === 'object') {
    node.props = new Map();
    for (const [name, child] of Object.entries(s.properties ?? {})) node.props.set(name, compile(child, inner, node.structName + capitalize(name)));
  } else if (kind === 'array') {
    const items = itemSchema(resolved);
    node.item = items ? compile(items, inner, nameHint) : ANY_NODE;
  } else if (kind === 'map') {
    node.item = compile(mapValueSchema(resolved) as TSchema, inner, nameHint);
  }
  return node;
}

const ANY_NODE: Node = { kind: 'any', props: null, preserve: true, item: null, bits: 64, structName: '', pkg: '' };

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}

/** Go's spelling of the type a node decodes into, as `json: cannot unmarshal` names it. */
function goType(node: Node, depth = 0): string {
  if (depth > 8) return 'interface {}';
  switch (node.kind) {
    case 'object': return `${node.pkg}.${node.structName}`;
    case 'map': return `map[string]${goType(node.item as Node, depth + 1)}`;
    case 'array': return `[]${goType(node.item as Node, depth + 1)}`;
    case 'string': return 'string';
    case 'bytes': return '[]uint8';
    case 'integer': return node.bits === 32 ? 'int32' : 'int64';
    case 'number': return 'float64';
    case 'boolean': return 'bool';
    case 'time': return 'v1.Time';
    case 'microtime': return 'v1.MicroTime';
    case 'quantity': return 'resource.Quantity';
    case 'intOrString': return 'intstr.IntOrString';
    case 'any': return 'runtime.RawExtension';
  }
}

/** Thrown inside the walk for errors Go returns at once (those of custom unmarshalers). */
class FatalDecodeError {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

class DecodeState {
  unknown: string[] = [];
  /** The first ordinary type error: Go keeps decoding after one and reports the first at the end. */
  saved: string | undefined;
  /** Body path segments: keys and indexes (`spec`, `containers`, 0). */
  segs: (string | number)[] = [];
  /** Go's error-context field stack: struct field names only. */
  fields: string[] = [];

  pathWith(key: string): string {
    let p = '';
    for (const s of this.segs) p = typeof s === 'number' ? `${p}[${s}]` : p ? `${p}.${s}` : s;
    return p ? `${p}.${key}` : key;
  }

  /** `json: cannot unmarshal <what> into Go struct field <Struct>.<field.path> of type <type>`. */
  typeText(what: string, type: string, structName: string): string {
    if (structName || this.fields.length) return `json: cannot unmarshal ${what} into Go struct field ${structName}.${this.fields.join('.')} of type ${type}`;
    return `json: cannot unmarshal ${what} into Go value of type ${type}`;
  }

  save(text: string): void {
    if (this.saved === undefined) this.saved = text;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const INT32_MIN = -2147483648, INT32_MAX = 2147483647;
const INT64_LIMIT = 9223372036854775808; // 2^63, the first double outside int64

function fitsInteger(v: number, bits: 32 | 64): boolean {
  if (!Number.isInteger(v)) return false;
  return bits === 32 ? v >= INT32_MIN && v <= INT32_MAX : v >= -INT64_LIMIT && v < INT64_LIMIT;
}

/** Marks a value that decodes to "absent" (Go's zero Time encodes as null). */
const ABSENT = Symbol('absent');

function setProp(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/** The value Go leaves for a `null` inside a list or map of this type, as it encodes back. */
function zeroValue(node: Node): unknown {
  switch (node.kind) {
    case 'string': return '';
    case 'integer': case 'number': case 'intOrString': return 0;
    case 'boolean': return false;
    case 'quantity': return '0';
    case 'object': return {};
    default: return null;
  }
}

function decodeValue(v: unknown, node: Node, st: DecodeState, structName: string): unknown {
  switch (node.kind) {
    case 'string':
      if (typeof v !== 'string') st.save(st.typeText(goJsonKind(v), 'string', structName));
      return v;
    case 'integer':
      if (typeof v === 'number') {
        if (!fitsInteger(v, node.bits)) st.save(st.typeText(`number ${String(v)}`, goType(node), structName));
      } else {
        st.save(st.typeText(goJsonKind(v), goType(node), structName));
      }
      return v;
    case 'number':
      if (typeof v !== 'number') st.save(st.typeText(goJsonKind(v), 'float64', structName));
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') st.save(st.typeText(goJsonKind(v), 'bool', structName));
      return v;
    case 'bytes': {
      if (typeof v !== 'string') {
        st.save(st.typeText(goJsonKind(v), '[]uint8', structName));
        return v;
      }
      const canonical = canonicalBase64(v);
      if (canonical === null) {
        st.save(base64ErrorText(base64ErrorOffset(v)));
        return v;
      }
      return canonical;
    }
    case 'time':
    case 'microtime': {
      // metav1.Time's UnmarshalJSON: a string, then time.Parse; both failures end decoding at once.
      if (typeof v !== 'string') throw new FatalDecodeError(st.typeText(goJsonKind(v), 'string', structName));
      const parsed = parseGoTime(v, node.kind === 'microtime');
      if (!parsed.ok) throw new FatalDecodeError(parsed.error);
      return parsed.text === null ? ABSENT : parsed.text;
    }
    case 'quantity':
      // resource.Quantity's UnmarshalJSON parses the text of any JSON value (a number as its digits); the
      // value is stored in canonical form, as a Go round trip writes it (`0.5` -> `500m`).
      try {
        const canonical = canonicalQuantity(v);
        return canonical === v ? v : canonical;
      } catch (e) {
        if (e instanceof QuantityError) throw new FatalDecodeError(e.message);
        throw e;
      }
    case 'intOrString':
      // IntOrString's UnmarshalJSON: a string, else json.Unmarshal into an int32.
      if (typeof v === 'string') return v;
      if (typeof v === 'number') {
        if (!fitsInteger(v, 32)) throw new FatalDecodeError(st.typeText(`number ${String(v)}`, 'int32', structName));
        return v;
      }
      throw new FatalDecodeError(st.typeText(goJsonKind(v), 'int32', structName));
    case 'any':
      return v;
    case 'array': {
      if (!Array.isArray(v)) {
        st.save(st.typeText(goJsonKind(v), goType(node), structName));
        return v;
      }
      const item = node.item as Node;
      if (item.kind === 'any') return v;
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (x === null) {
          v[i] = zeroValue(item);
          continue;
        }
        st.segs.push(i);
        const r = decodeValue(x, item, st, structName);
        st.segs.pop();
        if (r !== x) v[i] = r === ABSENT ? null : r;
      }
      return v;
    }
    case 'map': {
      if (!isPlainObject(v)) {
        st.save(st.typeText(goJsonKind(v), goType(node), structName));
        return v;
      }
      const item = node.item as Node;
      if (item.kind === 'any') return v;
      for (const key in v) {
        const x = v[key];
        if (x === null) {
          setProp(v, key, zeroValue(item));
          continue;
        }
        st.segs.push(key);
        const r = decodeValue(x, item, st, structName);
        st.segs.pop();
        if (r !== x) setProp(v, key, r === ABSENT ? null : r);
      }
      return v;
    }
    case 'object':
      if (!isPlainObject(v)) {
        st.save(st.typeText(goJsonKind(v), goType(node), structName));
        return v;
      }
      decodeStruct(v, node, st, false);
      return v;
  }
}

function decodeStruct(v: Record<string, unknown>, node: Node, st: DecodeState, root: boolean): void {
  const props = node.props as Map<string, Node>;
  for (const key in v) {
    const child = props.get(key);
    const x = v[key];
    if (child === undefined) {
      if (root && (key === 'apiVersion' || key === 'kind')) {
        // TypeMeta is embedded in every kind, whether or not the schema spells it out.
        if (x === null) delete v[key];
        else if (typeof x !== 'string') {
          st.fields.push(key);
          st.save(st.typeText(goJsonKind(x), 'string', node.structName));
          st.fields.pop();
        }
        continue;
      }
      if (node.preserve) continue;
      st.unknown.push(st.pathWith(key));
      delete v[key];
      continue;
    }
    if (x === null) {
      delete v[key];
      continue;
    }
    st.segs.push(key);
    st.fields.push(key);
    const r = decodeValue(x, child, st, node.structName);
    st.fields.pop();
    st.segs.pop();
    if (r !== x) {
      if (r === ABSENT) delete v[key];
      else setProp(v, key, r);
    }
  }
}

/**
 * Decodes `value` (a parsed body, which is modified in place) against the kind's schema.
 * Never throws for bad input: type problems come back in `typeError`.
 */
export function decodeObject<T = Record<string, unknown>>(value: unknown, schema: TSchema, opts: DecodeOptions): DecodeResult<T> {
  const node = compile(schema, EMPTY_SCOPE, opts.kind);
  const st = new DecodeState();
  let object = value;
  let typeError: string | undefined;
  try {
    if (node.kind !== 'object') {
      const r = decodeValue(value, node, st, '');
      object = r === ABSENT ? null : r;
    } else if (isPlainObject(value)) {
      decodeStruct(value, node, st, true);
    } else if (value !== null) {
      st.save(st.typeText(goJsonKind(value), `${versionOf(opts.apiVersion)}.${node.structName}`, ''));
    }
    typeError = st.saved;
  } catch (e) {
    if (!(e instanceof FatalDecodeError)) throw e;
    typeError = e.text;
  }
  return { object: object as T, unknownFields: st.unknown, typeError };
}

function versionOf(apiVersion: string): string {
  const i = apiVersion.lastIndexOf('/');
  return i === -1 ? apiVersion : apiVersion.slice(i + 1);
}
