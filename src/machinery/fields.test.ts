import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FieldSelectorError, checkFieldSelectorFields, escapeFieldValue, fieldSelectorMatches, fieldSelectorRequiresExactMatch,
  fieldSelectorToString, parseFieldSelector, unescapeFieldValue,
} from './fields.ts';

test('parse: operators, AND, sorting and escapes', () => {
  const table: [string, [string, string, string][]][] = [
    ['', []],
    ['metadata.name=a', [['metadata.name', '=', 'a']]],
    ['metadata.name==a', [['metadata.name', '=', 'a']]],
    ['metadata.name!=a', [['metadata.name', '!=', 'a']]],
    ['x=a,y=b', [['x', '=', 'a'], ['y', '=', 'b']]],
    ['y=b,x=a', [['x', '=', 'a'], ['y', '=', 'b']]],
    ['x=a,,y=b,', [['x', '=', 'a'], ['y', '=', 'b']]],
    ['x=', [['x', '=', '']]],
    ['=x', [['', '=', 'x']]],
    ['x=a\\,b', [['x', '=', 'a,b']]],
    ['x=a\\=b', [['x', '=', 'a=b']]],
    ['x=a\\\\b', [['x', '=', 'a\\b']]],
    ['x=a b', [['x', '=', 'a b']]],
    ['spec.nodeName!=,status.phase=Running', [['spec.nodeName', '!=', ''], ['status.phase', '=', 'Running']]],
  ];
  for (const [input, want] of table) {
    assert.deepEqual(parseFieldSelector(input).map((r) => [r.field, r.operator, r.value]), want, input);
  }
});

test('parse errors carry Kubernetes messages', () => {
  const table: [string, string][] = [
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['x=a=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a\\b', 'invalid field selector: invalid escape sequence: \\b'],
    ['x=a\\', 'invalid field selector: invalid escape sequence: \\'],
  ];
  for (const [input, message] of table) {
    assert.throws(() => parseFieldSelector(input), (e: unknown) => e instanceof FieldSelectorError && e.message === message, input);
  }
});

test('escape and unescape round trip', () => {
  for (const v of ['plain', 'a,b', 'a=b', 'a\\b', ',=\\', '']) {
    assert.equal(unescapeFieldValue(escapeFieldValue(v)), v);
    assert.deepEqual(parseFieldSelector(`f=${escapeFieldValue(v)}`), [{ field: 'f', operator: '=', value: v }]);
  }
  assert.equal(escapeFieldValue('a,b=c\\d'), 'a\\,b\\=c\\\\d');
});

test('matching: a missing field reads as empty', () => {
  const obj: Record<string, string> = { 'metadata.name': 'web', 'status.phase': 'Running' };
  const get = (f: string) => obj[f];
  const table: [string, boolean][] = [
    ['', true],
    ['metadata.name=web', true],
    ['metadata.name==web', true],
    ['metadata.name=db', false],
    ['metadata.name!=db', true],
    ['metadata.name!=web', false],
    ['metadata.name=web,status.phase=Running', true],
    ['metadata.name=web,status.phase=Pending', false],
    ['spec.nodeName=', true],
    ['spec.nodeName!=', false],
    ['spec.nodeName=n1', false],
  ];
  for (const [sel, want] of table) assert.equal(fieldSelectorMatches(parseFieldSelector(sel), get), want, sel);
});

test('field labels: default conversion vs a kind that registers its own', () => {
  const reqs = parseFieldSelector('metadata.name=a,metadata.namespace=b');
  assert.deepEqual(checkFieldSelectorFields(reqs, []), reqs);
  assert.deepEqual(checkFieldSelectorFields(reqs, ['metadata.name']), reqs);
  assert.throws(() => checkFieldSelectorFields(parseFieldSelector('spec.x=1'), ['metadata.name', 'metadata.namespace']), {
    name: 'FieldSelectorError',
    message: '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
  });
  assert.throws(() => checkFieldSelectorFields(parseFieldSelector('=1'), []), {
    message: '"" is not a known field selector: only "metadata.name", "metadata.namespace"',
  });

  const pod = ['metadata.name', 'metadata.namespace', 'spec.nodeName', 'status.phase'];
  const podOpts = { style: 'custom' as const, aliases: { 'spec.host': 'spec.nodeName' } };
  assert.deepEqual(checkFieldSelectorFields(parseFieldSelector('spec.nodeName=n1,status.phase!=Failed'), pod, podOpts).length, 2);
  assert.deepEqual(checkFieldSelectorFields(parseFieldSelector('spec.host=n1'), pod, podOpts), [{ field: 'spec.nodeName', operator: '=', value: 'n1' }]);
  assert.throws(() => checkFieldSelectorFields(parseFieldSelector('spec.x=1'), pod, podOpts), { message: 'field label not supported: spec.x' });
  // A custom conversion only accepts what it lists: Node has no metadata.namespace.
  assert.throws(() => checkFieldSelectorFields(parseFieldSelector('metadata.namespace=x'), ['metadata.name', 'spec.unschedulable'], { style: 'custom' }), {
    message: 'field label not supported: metadata.namespace',
  });
  // The first unsupported term (in sorted order) is reported.
  assert.throws(() => checkFieldSelectorFields(parseFieldSelector('z=1,b=2'), [], { style: 'custom' }), { message: 'field label not supported: b' });
});

test('string form and exact match', () => {
  const reqs = parseFieldSelector('metadata.name==a\\,b,status.phase!=Failed');
  assert.equal(fieldSelectorToString(reqs), 'metadata.name=a\\,b,status.phase!=Failed');
  assert.equal(fieldSelectorRequiresExactMatch(reqs, 'metadata.name'), 'a,b');
  assert.equal(fieldSelectorRequiresExactMatch(reqs, 'status.phase'), undefined);
  assert.equal(fieldSelectorRequiresExactMatch(reqs, 'x'), undefined);
});
