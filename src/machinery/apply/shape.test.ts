import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasShape, shapeNodeOf, shapeOf } from './shape.ts';
import { createdFields } from './created-fields.ts';
import { FieldSet } from './fieldset.ts';
import { fieldElement as f } from './path.ts';
import { WIDGET } from './widget.fixture.ts';

describe('shapeOf', () => {
  it('is the same for objects that differ only in scalar values outside lists', () => {
    const a = { metadata: { name: 'a', uid: '1', labels: { app: 'x' } }, data: { k: 'v', n: 1 } };
    const b = { metadata: { name: 'bb', uid: '2', labels: { app: 'y' } }, data: { k: '', n: 7.5 } };
    assert.equal(shapeOf(a), shapeOf(b));
  });

  it('differs when keys, the kind of a value, or anything in a list differ', () => {
    const base = { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: 'x', m: {} } };
    const variants = [
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: 'x', m: {}, extra: 'y' } },
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: '1', s: 'x', m: {} } },
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: null, m: {} } },
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: 'x', m: null } },
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: 'x', m: [] } },
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: 'x', m: {}, u: undefined } },
      { spec: { tags: ['b'], ports: [{ port: 80 }], n: 1, s: 'x', m: {} } },
      { spec: { tags: ['a', 'a'], ports: [{ port: 80 }], n: 1, s: 'x', m: {} } },
      { spec: { tags: ['a'], ports: [{ port: 81 }], n: 1, s: 'x', m: {} } },
      { spec: { tags: ['a'], ports: [{ port: '80' }], n: 1, s: 'x', m: {} } },
      { spec: { tags: [], ports: [{ port: 80 }], n: 1, s: 'x', m: {} } },
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: 'x', m: {} }, status: {} },
      { spec: { tags: ['a'], ports: [{ port: 80 }], n: 1, s: 'x', m: {}, b: true } },
    ];
    const shapes = new Set([shapeOf(base), ...variants.map(shapeOf)]);
    assert.equal(shapes.size, variants.length + 1);
  });

  it('cannot be fooled by keys or list strings that look like structure', () => {
    assert.notEqual(shapeOf({ 'a1:b': 's' }), shapeOf({ a: { b: 's' } }));
    assert.notEqual(shapeOf({ x: ['a,s1:b'] }), shapeOf({ x: ['a', 'b'] }));
    assert.notEqual(shapeOf({ x: [1, 2] }), shapeOf({ x: [12] }));
    assert.notEqual(shapeOf({ x: true }), shapeOf({ x: false }));
  });
});

describe('hasShape', () => {
  it('agrees with comparing shape texts', () => {
    const objects: unknown[] = [
      { a: '1', b: { c: [1, 'x'], d: null } }, { a: '2', b: { c: [1, 'x'], d: null } }, { a: '2', b: { c: [1, 'y'], d: null } },
      { b: { c: [1, 'x'], d: null }, a: '1' }, { a: 1, b: { c: [1, 'x'], d: null } }, { a: '1', b: { c: [1, 'x'] } },
      { a: '1', b: { c: [1, 'x'], d: null, e: undefined } }, { a: '1', b: [] }, { a: '1', b: {} }, { a: '1' }, {}, [], null, 'x', 3, true,
      { list: 'x' }, { keys: [], kids: [] },
    ];
    for (const x of objects) {
      const node = shapeNodeOf(x);
      for (const y of objects) assert.equal(hasShape(y, node), shapeOf(x) === shapeOf(y), `${JSON.stringify(x)} ~ ${JSON.stringify(y)}`);
    }
  });
});

describe('createdFields', () => {
  it('works out the set once per shape, type and endpoint', () => {
    let computed = 0;
    const compute = () => { computed++; return FieldSet.of([f('data')]); };
    const first = createdFields(WIDGET, undefined, { data: { a: '1' } }, compute);
    assert.equal(createdFields(WIDGET, undefined, { data: { a: '2' } }, compute), first);
    assert.equal(computed, 1);
    createdFields(WIDGET, undefined, { data: { b: '1' } }, compute);
    assert.equal(computed, 2);
    createdFields(WIDGET, FieldSet.of([f('status')]), { data: { a: '1' } }, compute);
    assert.equal(computed, 3);
    // The FieldsV1 every object of a shape shares cannot be changed through one of them.
    assert.throws(() => { (first.toFieldsV1()['f:data'] as Record<string, unknown>)['f:x'] = {}; }, TypeError);
  });
});
