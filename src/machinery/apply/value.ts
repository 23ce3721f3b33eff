// JSON values as structured merge sees them: a total order over values (numbers, then strings, booleans,
// lists, maps, null), Go's JSON encoding (used inside FieldsV1 keys), and Go's printing of values in field
// paths (`[name="nginx"]`).
import { goQuote } from '../go-format.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go compares strings bytewise in UTF-8, which is code point order (UTF-16 order differs above U+D7FF). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 || y >= 0xd800) {
      const cx = a.codePointAt(i)!, cy = b.codePointAt(i)!;
      if (cx !== cy) return cx < cy ? -1 : 1;
      continue;
    }
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function rank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (isObject(v)) return 4;
  return 5; // null
}

/** A total order over JSON values, the one structured merge uses to sort set items and keys. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a), rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0: return (a as number) === (b as number) ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 1: return compareStrings(a as string, b as string);
    case 2: return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[], lb = b as unknown[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return la.length === lb.length ? 0 : la.length < lb.length ? -1 : 1;
    }
    case 4: {
      const ma = a as Record<string, unknown>, mb = b as Record<string, unknown>;
      const ka = Object.keys(ma).sort(compareStrings), kb = Object.keys(mb).sort(compareStrings);
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const c = compareStrings(ka[i], kb[i]) || compareValues(ma[ka[i]], mb[kb[i]]);
        if (c !== 0) return c;
      }
      return ka.length === kb.length ? 0 : ka.length < kb.length ? -1 : 1;
    }
    default: return 0;
  }
}

/** A JSON string literal as Go's encoder writes it (HTML-sensitive characters escaped). */
/** Characters Go's encoder writes as they are (no quote, backslash, control character, <, >, &, U+2028/9). */
const PLAIN_JSON_STRING = /^[^"\\\u0000-\u001f<>&\u2028\u2029]*$/;

export function goJsonString(s: string): string {
  if (PLAIN_JSON_STRING.test(s)) return '"' + s + '"';
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16).padStart(4, '0');
    else out += s[i];
  }
  return out + '"';
}

/** Go's JSON encoding of a value; map keys sorted as Go sorts them. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goJsonString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return '[' + v.map(goJson).join(',') + ']';
  const o = v as Record<string, unknown>;
  return '{' + Object.keys(o).sort(compareStrings).map((k) => goJsonString(k) + ':' + goJson(o[k])).join(',') + '}';
}

/** A value as field paths print it: strings quoted, numbers and booleans bare. */
export function valueToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(valueToString).join(',') + ']';
  const o = v as Record<string, unknown>;
  return Object.keys(o).map((k) => `${k}=${valueToString(o[k])}`).join('');
}
