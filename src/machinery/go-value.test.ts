import { it } from 'node:test';
import assert from 'node:assert/strict';
import { goFloat, goSprintSharpV, goSprintV, goTypeName } from './go-value.ts';

it('prints numbers as Go prints a float64: shortest digits, an exponent below 1e-04 and from 1e+06', () => {
  assert.deepEqual([1, 0.25, -3, 123456, 1e6, 1234567, 0.0001, 0.00001, 1.5e-7, 1e21, -0].map(goFloat),
    ['1', '0.25', '-3', '123456', '1e+06', '1.234567e+06', '0.0001', '1e-05', '1.5e-07', '1e+21', '-0']);
});

it('prints %v, %#v and %T of decoded JSON as Go does', () => {
  const v = { b: [1, 'x y', null], a: { c: true } };
  assert.equal(goSprintV(v), 'map[a:map[c:true] b:[1 x y <nil>]]');
  assert.equal(goSprintSharpV(v), 'map[string]interface {}{"a":map[string]interface {}{"c":true}, "b":[]interface {}{1, "x y", interface {}(nil)}}');
  assert.equal(goSprintSharpV('tab\t"q"'), '"tab\\t\\"q\\""');
  assert.equal(goSprintV([]), '[]');
  assert.equal(goSprintSharpV({}), 'map[string]interface {}{}');
  assert.deepEqual([1, 'x', false, [], {}, null].map(goTypeName), ['float64', 'string', 'bool', '[]interface {}', 'map[string]interface {}', '<nil>']);
});
