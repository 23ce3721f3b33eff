// Go's text forms that Kubernetes' messages carry, so they match byte for byte: strconv.Quote (`%q`),
// unicode.IsPrint, and the `%#v` of a struct or a slice that a field error prints as its offending value
// (`[]string{"a", "b"}`, `core.Taint{Key:"k", ...}`), with field errors that carry the rendered text.
import type { FieldError, FieldErrorType } from './field-errors.ts';

/** Go's strconv.Quote, which `%q` prints for a string. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else if (!isGoPrintable(c)) out += c < 0x10000 ? '\\u' + c.toString(16).padStart(4, '0') : '\\U' + c.toString(16).padStart(8, '0');
    else out += ch;
  }
  return out + '"';
}

/** Go's `%q` of a []string: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(' ')}]`;
}

// unicode.IsPrint beyond ASCII: letters, marks, numbers, punctuation and symbols. Made on first use, as
// most text (User-Agents, names) is ASCII and never needs it.
let printableBeyondAscii: RegExp | undefined;

/** Go's unicode.IsPrint of a code point: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isGoPrintable(codePoint: number): boolean {
  if (codePoint < 0x80) return codePoint >= 0x20 && codePoint < 0x7f;
  printableBeyondAscii ??= /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
  return printableBeyondAscii.test(String.fromCodePoint(codePoint));
}

/** `[]string{"a", "b"}`; a nil slice prints as `[]string(nil)`. */
export function goStringSlice(values: readonly string[] | undefined): string {
  if (values === undefined) return '[]string(nil)';
  return '[]string{' + values.map(goQuote).join(', ') + '}';
}

/** `pkg.Type{Field:value, ...}` from already rendered field values. */
export function goStruct(typeName: string, fields: [name: string, rendered: string][]): string {
  return typeName + '{' + fields.map(([n, v]) => `${n}:${v}`).join(', ') + '}';
}

/** A pointer field as `%#v` shows it inside a struct: `(*T)(nil)` when unset. */
export function goPointer(typeName: string, isSet: boolean): string {
  return isSet ? `(*${typeName})(0xc000000000)` : `(*${typeName})(nil)`;
}

/**
 * A field error whose value is shown in Go syntax. The rendered text travels in the detail (with the value
 * flagged as not shown) so that `Type: <value>: <detail>` comes out exactly as Kubernetes writes it.
 */
export function errorWithGoValue(type: FieldErrorType, field: string, value: unknown, rendered: string, detail = ''): FieldError {
  return { type, field, value, hasValue: false, detail: detail ? `${rendered}: ${detail}` : rendered };
}

/** Go's strconv.ParseBool: true or false for the spellings it accepts, undefined for anything else. */
export function goParseBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (GO_TRUE.has(value)) return true;
  if (GO_FALSE.has(value)) return false;
  return undefined;
}

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** utilerrors.NewAggregate's text: each distinct message once; one as is, several as `[a, b]`. */
export function aggregate(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
