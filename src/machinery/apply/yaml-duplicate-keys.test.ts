import { it } from 'node:test';
import assert from 'node:assert/strict';
import YAML from '../yaml.ts';
import { duplicateKeys } from './yaml-duplicate-keys.ts';

const repeats = (text: string) => duplicateKeys(YAML.parseDocument(text, { uniqueKeys: false }), text);

it('names each repeat by the line its value starts on, a value\'s own repeats first', () => {
  assert.deepEqual(repeats('a: 1\nb: 2\na: 3\n'), ['line 3: key "a" already set in map']);
  assert.deepEqual(repeats('data:\n  k: 1\n\n  k:\n    2\ndata:\n  x: 1\n  x: 2\n'), [
    'line 5: key "k" already set in map',
    'line 8: key "x" already set in map',
    'line 7: key "data" already set in map',
  ]);
  assert.deepEqual(repeats('a: 1\na:\nb: 2\na: [1,\n  2]\n'), ['line 2: key "a" already set in map', 'line 4: key "a" already set in map']);
  assert.deepEqual(repeats('l:\n- k: 1\n  k: 2\n- {k: 1, k: 2}\n'), ['line 3: key "k" already set in map', 'line 4: key "k" already set in map']);
});

it('reads JSON as YAML, counts CR LF line ends, and prints keys as Go prints them', () => {
  assert.deepEqual(repeats('{"a":{"k":1,"k":2},"a":\r\n {}}'), ['line 1: key "k" already set in map', 'line 2: key "a" already set in map']);
  assert.deepEqual(repeats('1: a\n1: b\n1.5: a\n1.5: b\ntrue: a\ntrue: b\n~: a\nnull: b\n"é\\t": a\n"é\\t": b\n1.0: c\n'), [
    'line 2: key 1 already set in map',
    'line 4: key 1.5 already set in map',
    'line 6: key true already set in map',
    'line 8: key <nil> already set in map',
    'line 10: key "é\\t" already set in map',
  ]);
});

it('lets merge keys merge, and follows aliases as yaml.v2 decodes them again', () => {
  assert.deepEqual(repeats('base: &b {x: 1}\nm:\n  <<: *b\n  <<: *b\n'), []);
  assert.deepEqual(repeats('a: &x\n  k: 1\n  k: 2\nb: *x\n'), ['line 3: key "k" already set in map', 'line 3: key "k" already set in map']);
});
