import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goJsonKind, goJsonObjectError, notAnObjectVersionKindError, versionKindError } from './go-json.ts';

const err = (s: string) => goJsonObjectError(new TextEncoder().encode(s));

test('objects and null unmarshal into a map', () => {
  assert.equal(err('{}'), undefined);
  assert.equal(err(' {"auths": {"r": {"auth": "x", "n": [1, -2.5e+3, true, false, null, "\\u00e9\\n"]}}} '), undefined);
  assert.equal(err('null'), undefined);
});

test('other JSON values are the wrong type', () => {
  assert.equal(err('[1]'), 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  assert.equal(err('"s"'), 'json: cannot unmarshal string into Go value of type map[string]interface {}');
  assert.equal(err('3'), 'json: cannot unmarshal number into Go value of type map[string]interface {}');
  assert.equal(err('true'), 'json: cannot unmarshal bool into Go value of type map[string]interface {}');
});

test('syntax errors carry the Go scanner wording', () => {
  const cases: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a":', 'unexpected end of JSON input'],
    ['x', "invalid character 'x' looking for beginning of value"],
    ['{a}', "invalid character 'a' looking for beginning of object key string"],
    ['{"a",}', "invalid character ',' after object key"],
    ['{"a":1 x}', "invalid character 'x' after object key:value pair"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1 2]', "invalid character '2' after array element"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{} {}', "invalid character '{' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['1ex', "invalid character 'x' in exponent of numeric literal"],
    ['tru', 'unexpected end of JSON input'],
    ['trux', "invalid character 'x' in literal true (expecting 'e')"],
    ['nul!', "invalid character '!' in literal null (expecting 'l')"],
    ['fx', "invalid character 'x' in literal false (expecting 'a')"],
    ['"a\\q"', "invalid character 'q' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['}', "invalid character '}' looking for beginning of value"],
  ];
  for (const [input, want] of cases) assert.equal(err(input), want, JSON.stringify(input));
});

test('non-ASCII bytes are quoted as Go quotes a rune', () => {
  assert.equal(goJsonObjectError(Uint8Array.of(0x80)), "invalid character '\\u0080' looking for beginning of value");
  assert.equal(goJsonObjectError(Uint8Array.of(0xe9)), "invalid character 'é' looking for beginning of value");
});

test('goJsonKind names a parsed value as Go\'s UnmarshalTypeError does', () => {
  assert.equal(goJsonKind({ a: 1 }), 'object');
  assert.equal(goJsonKind([]), 'array');
  assert.equal(goJsonKind('s'), 'string');
  assert.equal(goJsonKind(1.5), 'number');
  assert.equal(goJsonKind(false), 'bool');
  assert.equal(goJsonKind(null), 'null');
});

test('the serializer\'s version/kind error names the cause, or the struct a non-object could not fill', () => {
  assert.equal(versionKindError('unexpected end of JSON input'), "couldn't get version/kind; json parse error: unexpected end of JSON input");
  assert.equal(notAnObjectVersionKindError([1]), 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }');
  assert.match(notAnObjectVersionKindError(true), /cannot unmarshal bool into Go value of type struct/);
});
