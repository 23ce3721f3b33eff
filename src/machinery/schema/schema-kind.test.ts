import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { S } from '../../apis/meta/schema.ts';
import { deref, EMPTY_SCOPE, kindOf, mapValueSchema, scopeOf } from './schema-kind.ts';

test('every schema builder is read as the value kind it describes', () => {
  const cases: [unknown, string][] = [
    [S.object({ a: S.string() }), 'object'],
    [S.object({}), 'object'],
    [S.object({ a: S.string() }, { preserveUnknownFields: true }), 'object'],
    [S.map(S.string()), 'map'],
    [S.list(S.string()), 'array'],
    [S.string(), 'string'],
    [S.bytes(), 'bytes'],
    [S.int32(), 'integer'],
    [S.int64(), 'integer'],
    [S.number(), 'number'],
    [S.bool(), 'boolean'],
    [S.time(), 'time'],
    [S.microTime(), 'microtime'],
    [S.quantity(), 'quantity'],
    [S.intOrString(), 'intOrString'],
    [S.any(), 'any'],
    [Type.Union([Type.String(), Type.Number()]), 'any'],
    [{ type: 'object', additionalProperties: { type: 'integer' } }, 'map'],
    [{ type: 'object', 'x-platform-preserve-unknown-fields': true }, 'any'],
  ];
  for (const [schema, kind] of cases) assert.equal(kindOf(schema as never), kind, JSON.stringify(schema));
  assert.equal(mapValueSchema(S.map(S.int32()))?.format, 'int32');
});

test('$ref resolves to the enclosing $id; an unknown ref reads as free-form', () => {
  const Tree = Type.Recursive((Self) => S.object({ children: S.list(Self) }), { $id: 'Node' });
  const scope = scopeOf(Tree, EMPTY_SCOPE);
  const ref = (Tree.properties.children as unknown as { items: never }).items;
  assert.equal(deref(ref, scope), Tree);
  assert.equal(kindOf(deref({ $ref: 'Elsewhere' } as never, scope)), 'any');
});
