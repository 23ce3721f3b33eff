// JSON body parsing with Kubernetes' strict-decoding view of duplicate keys and Go's syntax error texts.
//
// The common body has no duplicate key, so the fast path is the native JSON.parse plus a cheap proof that
// nothing was lost: every key in the text is followed by one structural ':', so the ':' characters of the
// text must equal the keys of the parsed value plus the ':' characters inside its strings. A duplicate key
// loses at least one key (and its ':') from the parsed value, so any difference sends us to the slow
// scanner, which finds the duplicates with their paths. Only a `\u003a` escape (a ':' that is not a ':' in
// the text) can hide a difference, and its presence also sends us to the scanner.
import { quoteChar } from '../go-json.ts';

/** Deepest nesting accepted. Go's decoder allows 10000, but Node's own JSON.stringify and structuredClone
 * overflow their stack long before that (about 4400 and 1600 levels), so deeper bodies are refused here
 * with Go's "exceeded max depth" error instead of failing later with a 500. */
export const MAX_NESTING_DEPTH = 1000;

/** A malformed body. The message is Go's encoding/json text (`invalid character 'x' looking for beginning
 * of value`, `unexpected end of JSON input`), which Kubernetes embeds in its 400 messages. */
export class JsonSyntaxError extends Error {
  /** Offset (in UTF-16 units) of the offending character. */
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
  }
}

/** Where key paths occur in the text, used to put unknown- and duplicate-field errors in Go's order. */
export interface KeyPositions {
  /** Offset of the first occurrence of every key path. */
  first: Map<string, number>;
  /** Offset of the repeated occurrence of every duplicated key path. */
  duplicate: Map<string, number>;
}

export interface ParsedJson {
  /** The value as JSON.parse gives it (a duplicated key keeps its last value). */
  value: unknown;
  /** Paths of keys repeated in one object (`metadata.labels.a`, `spec.containers[0].name`), in text order. */
  duplicates: string[];
  /** Set only when duplicates were found. */
  positions?: KeyPositions;
}

export function parseJsonStrict(text: string): ParsedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw syntaxErrorOf(text);
  }
  if (value === null || typeof value !== 'object') return { value, duplicates: [] };
  const parsedColons = countParsedColons(value);
  if (parsedColons >= 0 && parsedColons === countColons(text) && !hasEscapedColon(text)) return { value, duplicates: [] };
  const scan = scanJson(text, true);
  if (scan.error) throw scan.error;
  return { value, duplicates: scan.duplicates, positions: scan.duplicates.length ? scan.positions : undefined };
}

/** Go's syntax error for a text JSON.parse refused. */
function syntaxErrorOf(text: string): JsonSyntaxError {
  const scan = scanJson(text, false);
  if (scan.error) return scan.error;
  // The scanner accepts what JSON.parse refused: should not happen, but answer with something sensible.
  return new JsonSyntaxError('invalid JSON input', 0);
}

function countColons(text: string): number {
  let n = 0;
  let i = text.indexOf(':');
  while (i !== -1) {
    n++;
    i = text.indexOf(':', i + 1);
  }
  return n;
}

function colonsIn(s: string): number {
  let i = s.indexOf(':');
  if (i === -1) return 0;
  let n = 0;
  while (i !== -1) {
    n++;
    i = s.indexOf(':', i + 1);
  }
  return n;
}

function hasEscapedColon(text: string): boolean {
  return text.includes('\\u003a') || text.includes('\\u003A');
}

/** Keys plus ':' inside strings of a parsed value; -1 when it nests deeper than MAX_NESTING_DEPTH. */
function countParsedColons(root: object): number {
  let n = 0;
  const stack: unknown[] = [root];
  const depths: number[] = [1];
  while (stack.length) {
    const v = stack.pop() as object;
    const depth = depths.pop() as number;
    if (depth > MAX_NESTING_DEPTH) return -1;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        if (typeof x === 'string') n += colonsIn(x);
        else if (x !== null && typeof x === 'object') { stack.push(x); depths.push(depth + 1); }
      }
    } else {
      const o = v as Record<string, unknown>;
      for (const k in o) {
        n += 1 + colonsIn(k);
        const x = o[k];
        if (typeof x === 'string') n += colonsIn(x);
        else if (x !== null && typeof x === 'object') { stack.push(x); depths.push(depth + 1); }
      }
    }
  }
  return n;
}

interface ScanResult {
  error?: JsonSyntaxError;
  duplicates: string[];
  positions: KeyPositions;
}

interface Frame {
  isObject: boolean;
  path: string;
  keys: Set<string> | null;
  index: number;
}

const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c, SPACE = 0x20;
const LBRACE = 0x7b, RBRACE = 0x7d, LBRACKET = 0x5b, RBRACKET = 0x5d, MINUS = 0x2d, PLUS = 0x2b, DOT = 0x2e;
const STATE_VALUE = 0, STATE_KEY = 1, STATE_AFTER_VALUE = 2;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isSpace(c: number): boolean {
  return c === SPACE || c === 0x0a || c === 0x0d || c === 0x09;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** Go's quoteChar for the byte at the error: a non-ASCII character shows as its first UTF-8 byte. */
export function goQuoteChar(code: number): string {
  let b = code;
  if (code >= 0x80) {
    if (code < 0x800) b = 0xc0 | (code >> 6);
    else if (code < 0x10000) b = 0xe0 | (code >> 12);
    else b = 0xf0 | (code >> 18);
  }
  return quoteChar(b);
}

/**
 * Walks the text as Go's scanner does. With `collect`, records duplicate keys and key positions; always
 * reports the first syntax error with Go's wording. At the end of input Go feeds the current state one
 * virtual space, so an unfinished number or literal reports `invalid character ' ' ...`.
 */
function scanJson(text: string, collect: boolean): ScanResult {
  const n = text.length;
  const positions: KeyPositions = { first: new Map(), duplicate: new Map() };
  const duplicates: string[] = [];
  const stack: Frame[] = [];
  let i = 0;
  let state = STATE_VALUE;
  let valuePath = '';

  const result = (error?: JsonSyntaxError): ScanResult => ({ error, duplicates, positions });
  const fail = (at: number, context: string): ScanResult => {
    const c = at < n ? (text.codePointAt(at) as number) : SPACE;
    return result(new JsonSyntaxError(`invalid character ${goQuoteChar(c)} ${context}`, at));
  };
  const unexpectedEnd = (): ScanResult => result(new JsonSyntaxError('unexpected end of JSON input', n));
  const at = (k: number): number => (k < n ? text.charCodeAt(k) : SPACE);
  const skipSpace = (k: number): number => {
    while (k < n && isSpace(text.charCodeAt(k))) k++;
    return k;
  };

  for (;;) {
    if (state === STATE_VALUE) {
      i = skipSpace(i);
      if (i >= n) return unexpectedEnd();
      const c = text.charCodeAt(i);
      if (c === LBRACE || c === LBRACKET) {
        if (stack.length >= MAX_NESTING_DEPTH) return fail(i, 'exceeded max depth');
        const isObject = c === LBRACE;
        const frame: Frame = { isObject, path: valuePath, keys: collect && isObject ? new Set() : null, index: 0 };
        stack.push(frame);
        i = skipSpace(i + 1);
        if (i >= n) return unexpectedEnd();
        const d = text.charCodeAt(i);
        if (d === (isObject ? RBRACE : RBRACKET)) {
          i++;
          stack.pop();
          state = STATE_AFTER_VALUE;
        } else if (isObject) {
          if (d !== QUOTE) return fail(i, 'looking for beginning of object key string');
          state = STATE_KEY;
        } else if (collect) {
          valuePath = frame.path + '[0]';
        }
        continue;
      }
      if (c === QUOTE) {
        const end = scanString(text, i, fail);
        if (typeof end !== 'number') return end;
        i = end;
      } else if (c === MINUS || isDigit(c)) {
        let k = i;
        if (c === MINUS) {
          k++;
          if (!isDigit(at(k))) return fail(k, 'in numeric literal');
        }
        if (at(k) === 0x30) k++;
        else while (isDigit(at(k))) k++;
        if (at(k) === DOT) {
          k++;
          if (!isDigit(at(k))) return fail(k, 'after decimal point in numeric literal');
          while (isDigit(at(k))) k++;
        }
        if (at(k) === 0x65 || at(k) === 0x45) {
          k++;
          if (at(k) === PLUS || at(k) === MINUS) k++;
          if (!isDigit(at(k))) return fail(k, 'in exponent of numeric literal');
          while (isDigit(at(k))) k++;
        }
        i = k;
      } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
        const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
        for (let j = 1; j < word.length; j++) {
          if (at(i + j) !== word.charCodeAt(j)) return fail(i + j, `in literal ${word} (expecting '${word[j]}')`);
        }
        i += word.length;
      } else {
        return fail(i, 'looking for beginning of value');
      }
      state = STATE_AFTER_VALUE;
      continue;
    }

    if (state === STATE_KEY) {
      const start = i;
      const end = scanString(text, i, fail);
      if (typeof end !== 'number') return end;
      i = end;
      if (collect) {
        const raw = text.slice(start + 1, end - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
        const frame = stack[stack.length - 1];
        const path = frame.path ? `${frame.path}.${key}` : key;
        if (frame.keys!.has(key)) {
          if (!positions.duplicate.has(path)) {
            positions.duplicate.set(path, start);
            duplicates.push(path);
          }
        } else {
          frame.keys!.add(key);
          if (!positions.first.has(path)) positions.first.set(path, start);
        }
        valuePath = path;
      }
      i = skipSpace(i);
      if (i >= n) return unexpectedEnd();
      if (text.charCodeAt(i) !== COLON) return fail(i, 'after object key');
      i++;
      state = STATE_VALUE;
      continue;
    }

    // STATE_AFTER_VALUE
    i = skipSpace(i);
    if (stack.length === 0) {
      if (i < n) return fail(i, 'after top-level value');
      return result();
    }
    if (i >= n) return unexpectedEnd();
    const c = text.charCodeAt(i);
    const frame = stack[stack.length - 1];
    if (frame.isObject) {
      if (c === COMMA) {
        i = skipSpace(i + 1);
        if (i >= n) return unexpectedEnd();
        if (text.charCodeAt(i) !== QUOTE) return fail(i, 'looking for beginning of object key string');
        state = STATE_KEY;
      } else if (c === RBRACE) {
        i++;
        stack.pop();
      } else {
        return fail(i, 'after object key:value pair');
      }
    } else if (c === COMMA) {
      i++;
      frame.index++;
      if (collect) valuePath = `${frame.path}[${frame.index}]`;
      state = STATE_VALUE;
    } else if (c === RBRACKET) {
      i++;
      stack.pop();
    } else {
      return fail(i, 'after array element');
    }
  }
}

/** The next character inside a string that needs a look: a quote, a backslash or a control character. */
const STRING_SPECIAL = /["\\\x00-\x1f]/g;

/** Scans a string starting at its opening quote; returns the offset after the closing quote. */
function scanString(text: string, start: number, fail: (at: number, context: string) => ScanResult): number | ScanResult {
  const n = text.length;
  let i = start + 1;
  for (;;) {
    STRING_SPECIAL.lastIndex = i;
    const m = STRING_SPECIAL.exec(text);
    if (m === null) return { error: new JsonSyntaxError('unexpected end of JSON input', n), duplicates: [], positions: { first: new Map(), duplicate: new Map() } };
    i = m.index;
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH) {
      const e = i + 1 < n ? text.charCodeAt(i + 1) : SPACE;
      if (e === 0x75) {
        for (let j = 2; j < 6; j++) {
          const h = i + j < n ? text.charCodeAt(i + j) : SPACE;
          if (!isHex(h)) return fail(i + j, 'in \\u hexadecimal character escape');
        }
        i += 6;
        continue;
      }
      // b f n r t \ / "
      if (e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74 || e === BACKSLASH || e === 0x2f || e === QUOTE) {
        i += 2;
        continue;
      }
      return fail(i + 1, 'in string escape code');
    }
    return fail(i, 'in string literal');
  }
}
