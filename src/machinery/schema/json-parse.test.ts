import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonSyntaxError, MAX_NESTING_DEPTH, parseJsonStrict } from './json-parse.ts';

test('bodies without duplicate keys parse like JSON.parse and report nothing', () => {
  const bodies = [
    '{}',
    '[]',
    '"text"',
    '42',
    'null',
    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"x":"1"}},"data":{"k":"v: w","url":"http://h:1/p"}}',
    '{"a:b":{"c::":"::"},"list":[{"a":1},{"a":1}],"nested":[[{"k":"v"}]]}',
    '{"same":{"a":1},"other":{"a":1}}',
    ' \n\t{ "spaced" : [ 1 , 2 ] } \r\n',
    '{"__proto__":{"x":1},"y":2}',
    '{"esc\\"aped":"\\u00e9\\n"}',
  ];
  for (const body of bodies) {
    const r = parseJsonStrict(body);
    assert.deepEqual(r.value, JSON.parse(body), body);
    assert.deepEqual(r.duplicates, [], body);
    assert.equal(r.positions, undefined, body);
  }
});

test('duplicate keys are reported with Kubernetes strict-decoding paths', () => {
  const cases: [string, string[]][] = [
    ['{"a":1,"a":2}', ['a']],
    ['{"metadata":{"labels":{"a":"1","a":"2"}}}', ['metadata.labels.a']],
    ['{"spec":{"containers":[{"name":"a"},{"name":"b","name":"c"}]}}', ['spec.containers[1].name']],
    ['[{"op":"add","op":"remove"}]', ['[0].op']],
    ['{"a":1,"a":2,"a":3}', ['a']],
    ['{"spec":{"unknownField":"foo","replicas":2,"replicas":3}}', ['spec.replicas']],
    ['{"x":{"b":1,"b":2},"x":{"c":1}}', ['x.b', 'x']],
    ['{"a":1,"\\u0061":2}', ['a']],
    ['{"a.b":1,"a.b":{"c":1,"c":2}}', ['a.b', 'a.b.c']],
    ['{"m":[[{"k":1,"k":2}]]}', ['m[0][0].k']],
  ];
  for (const [body, dups] of cases) {
    const r = parseJsonStrict(body);
    assert.deepEqual(r.duplicates, dups, body);
    assert.deepEqual(r.value, JSON.parse(body), body);
    assert.ok(r.positions, body);
  }
});

test('duplicate positions follow the text: first occurrence of each key, the repeat of each duplicate', () => {
  const body = '{"spec":{"unknownField":"foo","replicas":2,"replicas":3}}';
  const r = parseJsonStrict(body);
  assert.equal(r.positions?.first.get('spec.unknownField'), body.indexOf('"unknownField"'));
  assert.equal(r.positions?.duplicate.get('spec.replicas'), body.lastIndexOf('"replicas"'));
});

test('an escaped colon cannot hide a duplicate', () => {
  // `\u003a` is a ':' in the value but not in the text; with a duplicate the counts would balance.
  const body = '{"a":"\\u003a","a":"x"}';
  assert.deepEqual(parseJsonStrict(body).duplicates, ['a']);
  assert.deepEqual(parseJsonStrict('{"a":"\\u003a\\u003A"}').duplicates, []);
});

test('malformed JSON gives Go encoding/json error texts', () => {
  const cases: [string, string][] = [
    ['x', "invalid character 'x' looking for beginning of value"],
    ['', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['{"a":1', 'unexpected end of JSON input'],
    ['{"a', 'unexpected end of JSON input'],
    ['[', 'unexpected end of JSON input'],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{,}', "invalid character ',' looking for beginning of object key string"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['[1 2]', "invalid character '2' after array element"],
    ['{} x', "invalid character 'x' after top-level value"],
    ['{}{}', "invalid character '{' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['1.', "invalid character ' ' after decimal point in numeric literal"],
    ['1.x', "invalid character 'x' after decimal point in numeric literal"],
    ['[1.]', "invalid character ']' after decimal point in numeric literal"],
    ['-', "invalid character ' ' in numeric literal"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1e', "invalid character ' ' in exponent of numeric literal"],
    ['1e+}', "invalid character '}' in exponent of numeric literal"],
    ['tru', "invalid character ' ' in literal true (expecting 'e')"],
    ['trUe', "invalid character 'U' in literal true (expecting 'u')"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['fals!', "invalid character '!' in literal false (expecting 'e')"],
    ['"a\\q"', "invalid character 'q' in string escape code"],
    ['"a\\', "invalid character ' ' in string escape code"],
    ['"\\u12x4"', "invalid character 'x' in \\u hexadecimal character escape"],
    ['{"a":"\n"}', "invalid character '\\n' in string literal"],
    ['"\t"', "invalid character '\\t' in string literal"],
    ['"\u0001"', "invalid character '\\x01' in string literal"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ['\ufeff{}', "invalid character 'ï' looking for beginning of value"],
    ['é', "invalid character 'Ã' looking for beginning of value"],
    ['[1,\u00a0]', "invalid character 'Â' looking for beginning of value"],
  ];
  for (const [body, message] of cases) {
    assert.throws(() => parseJsonStrict(body), (e: unknown) => {
      assert.ok(e instanceof JsonSyntaxError, body);
      assert.equal(e.message, message, JSON.stringify(body));
      return true;
    });
  }
});

test('the syntax error carries the offset of the offending character', () => {
  assert.throws(() => parseJsonStrict('{"a":1,}'), (e: unknown) => e instanceof JsonSyntaxError && e.offset === 7);
});

test('nesting deeper than MAX_NESTING_DEPTH is refused with Go\'s max-depth error', () => {
  const ok = '['.repeat(MAX_NESTING_DEPTH) + ']'.repeat(MAX_NESTING_DEPTH);
  assert.deepEqual(parseJsonStrict(ok).duplicates, []);
  const deep = '['.repeat(MAX_NESTING_DEPTH + 1) + ']'.repeat(MAX_NESTING_DEPTH + 1);
  assert.throws(() => parseJsonStrict(deep), { message: "invalid character '[' exceeded max depth" });
  const deepObject = '{"a":'.repeat(MAX_NESTING_DEPTH + 1) + '1' + '}'.repeat(MAX_NESTING_DEPTH + 1);
  assert.throws(() => parseJsonStrict(deepObject), { message: "invalid character '{' exceeded max depth" });
});
