import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goQuote, goStringSlice, goStruct, goPointer, errorWithGoValue } from './go-format.ts';
import { fieldErrorText } from '../../machinery/field-errors.ts';

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
