// The error Go's encoding/json reports when unmarshalling bytes into map[string]interface{}, as Secret
// validation does for docker config data. Syntax errors carry the scanner's wording
// (`invalid character 'x' looking for beginning of value`); a valid document that is not an object says
// `json: cannot unmarshal array into Go value of type map[string]interface {}`. And the JSON kind of an
// already parsed value, as every such `cannot unmarshal <kind> into ...` names it.
import { goQuote } from './go-format.ts';

type Ctx = 'object-key' | 'object-value' | 'array';

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** encoding/json's quoteChar, which its syntax errors print: the byte as a rune in single quotes. */
export function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  const q = goQuote(String.fromCharCode(c));
  return "'" + q.slice(1, -1) + "'";
}

class SyntaxError extends Error {}

function fail(c: number, context: string): never {
  throw new SyntaxError(`invalid character ${quoteChar(c)} ${context}`);
}

const END = 'unexpected end of JSON input';

/** Checks syntax like Go's scanner; returns the first byte's kind of the top-level value. */
function scan(b: Uint8Array): number {
  let i = 0;
  const stack: Ctx[] = [];
  const skipSpace = () => { while (i < b.length && isSpace(b[i])) i++; };
  const need = (): number => {
    if (i >= b.length) throw new SyntaxError(END);
    return b[i];
  };
  const literal = (word: string) => {
    for (let k = 1; k < word.length; k++) {
      const c = need();
      if (c !== word.charCodeAt(k)) fail(c, `in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`);
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      const c = need();
      i++;
      if (c === 0x22) return;
      if (c === 0x5c) {
        const e = need();
        i++;
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            const h = need();
            if (!isHex(h)) fail(h, 'in \\u hexadecimal character escape');
            i++;
          }
        } else if (!'bfnrt\\/"'.includes(String.fromCharCode(e))) {
          fail(e, 'in string escape code');
        }
      } else if (c < 0x20) {
        fail(c, 'in string literal');
      }
    }
  };
  const digits = () => { while (i < b.length && isDigit(b[i])) i++; };
  const number = () => {
    if (b[i] === 0x2d) {
      i++;
      const c = need();
      if (!isDigit(c)) fail(c, 'in numeric literal');
    }
    if (b[i] === 0x30) i++; else digits();
    if (i < b.length && b[i] === 0x2e) {
      i++;
      const c = need();
      if (!isDigit(c)) fail(c, 'after decimal point in numeric literal');
      digits();
    }
    if (i < b.length && (b[i] === 0x65 || b[i] === 0x45)) {
      i++;
      if (i < b.length && (b[i] === 0x2b || b[i] === 0x2d)) i++;
      const c = need();
      if (!isDigit(c)) fail(c, 'in exponent of numeric literal');
      digits();
    }
  };

  // Reads a scalar or opens a container (pushing its context) at b[i]; the main loop handles what follows.
  const beginValue = (): void => {
    const c = need();
    switch (c) {
      case 0x7b: { // {
        i++;
        skipSpace();
        const k = need();
        if (k === 0x7d) { i++; return; }
        if (k !== 0x22) fail(k, 'looking for beginning of object key string');
        stack.push('object-key');
        string();
        return;
      }
      case 0x5b: { // [
        i++;
        skipSpace();
        if (need() === 0x5d) { i++; return; }
        stack.push('array');
        skipSpace();
        beginValue();
        return;
      }
      case 0x22: string(); return;
      case 0x74: i++; literal('true'); return;
      case 0x66: i++; literal('false'); return;
      case 0x6e: i++; literal('null'); return;
      default:
        if (c === 0x2d || isDigit(c)) { number(); return; }
        fail(c, 'looking for beginning of value');
    }
  };

  skipSpace();
  const first = need();
  beginValue();
  for (;;) {
    skipSpace();
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (i < b.length) fail(b[i], 'after top-level value');
      return first;
    }
    const c = need();
    if (top === 'object-key') {
      if (c !== 0x3a) fail(c, 'after object key');
      i++;
      stack[stack.length - 1] = 'object-value';
      skipSpace();
      beginValue();
    } else if (top === 'object-value') {
      if (c === 0x2c) {
        i++;
        skipSpace();
        const k = need();
        if (k !== 0x22) fail(k, 'looking for beginning of object key string');
        stack[stack.length - 1] = 'object-key';
        string();
      } else if (c === 0x7d) {
        i++;
        stack.pop();
      } else {
        fail(c, 'after object key:value pair');
      }
    } else {
      if (c === 0x2c) {
        i++;
        skipSpace();
        beginValue();
      } else if (c === 0x5d) {
        i++;
        stack.pop();
      } else {
        fail(c, 'after array element');
      }
    }
  }
}

/** The JSON kind Go names in "cannot unmarshal <kind> into ..." for a value starting with this byte. */
function kindOf(first: number): string | undefined {
  switch (first) {
    case 0x7b: case 0x6e: return undefined; // object or null: both unmarshal into a map or struct
    case 0x5b: return 'array';
    case 0x22: return 'string';
    case 0x74: case 0x66: return 'bool';
    default: return 'number';
  }
}

/**
 * The error text of `json.Unmarshal(data, &v)` where v is a map or struct (Go type name `goType`), or
 * undefined when the document is an object or null.
 */
export function goJsonObjectError(data: Uint8Array, goType = 'map[string]interface {}'): string | undefined {
  let first: number;
  try {
    first = scan(data);
  } catch (err) {
    if (err instanceof SyntaxError) return err.message;
    throw err;
  }
  const kind = kindOf(first);
  return kind ? `json: cannot unmarshal ${kind} into Go value of type ${goType}` : undefined;
}

/**
 * The JSON kind of a parsed value, as Go's type errors name it: object, array, string, number, bool. Go
 * never names null (it unmarshals into any type without error), so `null` here means the caller let one
 * through.
 */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

/** The struct Kubernetes' JSON serializer reads an object's apiVersion and kind into, first. */
const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** Kubernetes' JSON serializer's error when it cannot read an object's apiVersion and kind: `cause` is why. */
export function versionKindError(cause: string): string {
  return `couldn't get version/kind; json parse error: ${cause}`;
}

/** That error for a document that is not a JSON object. */
export function notAnObjectVersionKindError(value: unknown): string {
  return versionKindError(`json: cannot unmarshal ${goJsonKind(value)} into Go value of type ${FIND_KIND_TYPE}`);
}
