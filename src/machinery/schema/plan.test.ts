import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type, type TSchema } from '@sinclair/typebox';
import { EMPTY_SCOPE } from './schema-kind.ts';
import { planCompiler, type PlanNode } from './plan.ts';

interface Marks extends PlanNode<Marks> { marked: string[] }

const compile = planCompiler<Marks>({
  blank: () => ({ kind: 'none', marked: [], children: [], item: null, empty: false }),
  property(plan, key, prop) { if ((prop as { marked?: boolean }).marked) plan.marked.push(key); },
  doesNothing: (plan) => plan.marked.length === 0,
});

test('a plan keeps only the properties, items and values under which the walk does something', () => {
  const marked = (schema: TSchema) => ({ ...schema, marked: true });
  const schema = Type.Object({
    plain: Type.String(),
    here: marked(Type.String()),
    deep: Type.Object({ below: marked(Type.Number()), not: Type.Boolean() }),
    list: Type.Array(Type.Object({ x: marked(Type.String()) })),
    map: Type.Record(Type.String(), Type.Object({ y: Type.String() })),
  });
  const plan = compile(schema, EMPTY_SCOPE);
  assert.equal(plan.kind, 'object');
  assert.deepEqual(plan.marked, ['here']);
  assert.deepEqual(plan.children.map((c) => c.key), ['deep', 'list']);
  assert.deepEqual(plan.children[0].plan.marked, ['below']);
  assert.equal(plan.children[1].plan.kind, 'array');
  assert.deepEqual(plan.children[1].plan.item?.marked, ['x']);
  assert.equal(compile(schema, EMPTY_SCOPE), plan, 'cached by schema');
  assert.equal(compile(Type.Object({ a: Type.String() }), EMPTY_SCOPE).empty, true);
});

test('a recursive schema compiles: its plan is reached again through itself', () => {
  const node = Type.Recursive((self) => Type.Object({ name: { ...Type.String(), marked: true }, kids: Type.Array(self) }));
  const plan = compile(node, EMPTY_SCOPE);
  assert.deepEqual(plan.marked, ['name']);
  const kids = plan.children.find((c) => c.key === 'kids')!.plan;
  assert.equal(kids.item, plan);
});
