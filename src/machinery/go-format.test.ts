import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote, goQuoteList, goStringSlice, goStruct, goPointer, errorWithGoValue, isGoPrintable, goParseBool } from './go-format.ts';
import { fieldErrorText } from './field-errors.ts';

test('goQuote escapes as strconv.Quote', () => {
  assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(goQuote('\n\t\x01\x7f'), '"\\n\\t\\x01\\x7f"');
  assert.equal(goQuote('é✓'), '"é✓"');
  assert.equal(goQuote('\u0085\u00a0'), '"\\u0085\\u00a0"');
});

test('slices, structs and pointers in %#v form', () => {
  assert.equal(goStringSlice(['10.0.0.0/24', 'fd00::/64']), '[]string{"10.0.0.0/24", "fd00::/64"}');
  assert.equal(goStringSlice([]), '[]string{}');
  assert.equal(goStringSlice(undefined), '[]string(nil)');
  assert.equal(goStruct('core.NodeAddress', [['Type', '"InternalIP"'], ['Address', '"10.0.0.1"']]), 'core.NodeAddress{Type:"InternalIP", Address:"10.0.0.1"}');
  assert.equal(goPointer('v1.Time', false), '(*v1.Time)(nil)');
});

test('errorWithGoValue renders like Kubernetes', () => {
  const e = errorWithGoValue('FieldValueInvalid', 'spec.podCIDRs', ['a', 'b'], goStringSlice(['a', 'b']), 'may specify no more than one CIDR for each IP family');
  assert.equal(fieldErrorText(e), 'spec.podCIDRs: Invalid value: []string{"a", "b"}: may specify no more than one CIDR for each IP family');
  const d = errorWithGoValue('FieldValueDuplicate', 'x[1]', 'v', '"v"');
  assert.equal(fieldErrorText(d), 'x[1]: Duplicate value: "v"');
});

test('goQuoteList is %q of a []string', () => {
  assert.equal(goQuoteList(['a', 'b\x07']), '["a" "b\\a"]');
  assert.equal(goQuoteList([]), '[]');
});

test('goQuote escapes non-printable runes beyond the BMP with \\U', () => {
  assert.equal(goQuote('\u{e0001}\u{1f600}'), '"\\U000e0001\u{1f600}"');
  assert.equal(goQuote('\u2028\u00ad'), '"\\u2028\\u00ad"');
});

test('isGoPrintable is unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space', () => {
  // Every code point, against the Unicode categories Go's IsPrint is made of.
  const categories = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
  for (let c = 0; c <= 0x10ffff; c++) {
    if (isGoPrintable(c) !== categories.test(String.fromCodePoint(c))) assert.fail(`U+${c.toString(16)}`);
  }
  assert.equal(isGoPrintable(0x20), true);
  assert.equal(isGoPrintable(0x7e), true);
  assert.equal(isGoPrintable(0x7f), false);
  assert.equal(isGoPrintable(0x09), false);
  assert.equal(isGoPrintable(0xa0), false); // no-break space: a separator, not the ASCII space
  assert.equal(isGoPrintable(0xe9), true);
});

test('goParseBool: strconv.ParseBool\'s spellings, undefined for anything else', () => {
  for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(goParseBool(t), true, t);
  for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.equal(goParseBool(f), false, f);
  for (const x of ['yes', 'tRUE', '', ' true', undefined]) assert.equal(goParseBool(x), undefined, String(x));
});
