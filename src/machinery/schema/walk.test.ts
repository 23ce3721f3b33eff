import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { S } from '../../apis/meta/schema.ts';
import { ObjectMeta } from '../../apis/meta/v1.ts';
import { deepClone, deepEqual, deepEqualMetadataLast, parseFieldPath, schemaAt } from './walk.ts';

const Pod = S.object({
  metadata: ObjectMeta,
  spec: S.object({ containers: S.list(S.object({ name: S.string(), env: S.list(S.object({ name: S.string() })) })), extra: S.any() }),
});

test('field paths split into keys and indexes', () => {
  assert.deepEqual(parseFieldPath('spec.containers[0].name'), ['spec', 'containers', 0, 'name']);
  assert.deepEqual(parseFieldPath('metadata.labels[app.svc.io/name]'), ['metadata', 'labels', 'app.svc.io/name']);
  assert.deepEqual(parseFieldPath('[1].a'), [1, 'a']);
  assert.deepEqual(parseFieldPath(''), []);
});

test('schemaAt finds declared fields through objects, lists, maps and free-form data', () => {
  assert.equal(schemaAt(Pod, ''), Pod);
  assert.equal(schemaAt(Pod, 'metadata'), ObjectMeta);
  assert.equal(schemaAt(Pod, 'metadata.labels.app')?.type, 'string');
  assert.equal(schemaAt(Pod, 'metadata.labels[app.svc.io/x]')?.type, 'string');
  assert.equal(schemaAt(Pod, 'spec.containers[3].env[0].name')?.type, 'string');
  assert.equal(schemaAt(Pod, ['spec', 'containers', 0, 'name'])?.type, 'string');
  assert.equal(schemaAt(Pod, 'spec.containers')?.['x-platform-list-type'], 'atomic');
  assert.equal(schemaAt(Pod, 'spec.nope'), undefined);
  assert.equal(schemaAt(Pod, 'spec.containers[0].name.deeper'), undefined);
  assert.equal(schemaAt(Pod, 'spec.extra.a.b[2]'), schemaAt(Pod, 'spec.extra'));
  const Tree = Type.Recursive((Self) => S.object({ name: S.string(), children: S.list(Self) }), { $id: 'Tree' });
  assert.equal(schemaAt(Tree, 'children[0].children[1].name')?.type, 'string');
});

test('deepEqual compares JSON values structurally, ignoring key order and undefined members', () => {
  const equal: [unknown, unknown][] = [
    [1, 1], ['a', 'a'], [null, null], [{}, {}], [[], []],
    [{ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 }],
    [{ a: 1, u: undefined }, { a: 1 }],
  ];
  const different: [unknown, unknown][] = [
    [1, '1'], [null, {}], [{}, []], [[1, 2], [2, 1]], [{ a: 1 }, { a: 1, b: 2 }], [{ a: null }, {}], [{ a: { b: 1 } }, { a: { b: 2 } }], [[1], [1, 1]],
  ];
  for (const [a, b] of equal) {
    assert.equal(deepEqual(a, b), true, JSON.stringify([a, b]));
    assert.equal(deepEqual(b, a), true, JSON.stringify([b, a]));
  }
  for (const [a, b] of different) {
    assert.equal(deepEqual(a, b), false, JSON.stringify([a, b]));
    assert.equal(deepEqual(b, a), false, JSON.stringify([b, a]));
  }
});

test('deepEqualMetadataLast answers as deepEqual for objects', () => {
  const equal: [Record<string, unknown>, Record<string, unknown>][] = [
    [{}, {}], [{ metadata: { a: 1 }, data: { k: 'v' } }, { data: { k: 'v' }, metadata: { a: 1 } }], [{ a: 1, u: undefined }, { a: 1 }],
  ];
  const different: [Record<string, unknown>, Record<string, unknown>][] = [
    [{ metadata: { a: 1 } }, { metadata: { a: 2 } }], [{ metadata: {} }, {}], [{ data: {} }, {}], [{ a: null }, {}], [{ a: 1 }, { a: 1, b: 2 }],
  ];
  for (const [a, b] of equal) {
    assert.equal(deepEqualMetadataLast(a, b), true, JSON.stringify([a, b]));
    assert.equal(deepEqualMetadataLast(b, a), true, JSON.stringify([b, a]));
  }
  for (const [a, b] of different) {
    assert.equal(deepEqualMetadataLast(a, b), false, JSON.stringify([a, b]));
    assert.equal(deepEqualMetadataLast(b, a), false, JSON.stringify([b, a]));
  }
});

test('deepClone copies JSON values without sharing', () => {
  const v = { a: [1, { b: 'c' }], d: null, e: { f: true } };
  const c = deepClone(v);
  assert.deepEqual(c, v);
  assert.notEqual(c.a, v.a);
  assert.notEqual(c.a[1], v.a[1]);
  assert.notEqual(c.e, v.e);
  const p = JSON.parse('{"__proto__":{"x":1}}');
  const pc = deepClone(p);
  assert.deepEqual(Object.keys(pc), ['__proto__']);
  assert.equal(Object.getPrototypeOf(pc), Object.prototype);
});
