// Kubernetes v1.32 prints the offending value of a field error with Go's `%#v` when it is a struct or a
// slice (`[]string{"a", "b"}`, `core.Taint{Key:"k", ...}`). These helpers render those forms and build
// field errors that carry the rendered text, so messages match byte for byte.
import type { FieldError, FieldErrorType } from '../../machinery/field-errors.ts';

/** Go's strconv.Quote. */
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

// Go's unicode.IsPrint is letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function isGoPrintable(c: number): boolean {
  if (c >= 0x20 && c < 0x7f) return true;
  return printable.test(String.fromCodePoint(c));
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
