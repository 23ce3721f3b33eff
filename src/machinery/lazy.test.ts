import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lazyClass, lazyFunction, lazyModule } from './lazy.ts';
import YAML from './yaml.ts';
import { BinaryReader, BinaryWriter, WireType } from '../server/codecs/wire.ts';

test('a lazy module is required on the first call only', () => {
  const load = lazyModule<typeof import('node:path')>('node:path', import.meta.url);
  assert.equal(load(), load());
  assert.equal(load().join('a', 'b'), 'a/b');
});

test('a lazy class constructs the real class; instanceof and static members work', () => {
  let loads = 0;
  class Real { static kind = 'real'; n: number; constructor(n: number) { this.n = n; } }
  const Lazy = lazyClass(() => { loads++; return Real; });
  assert.equal(loads, 0);
  const made = new Lazy(3);
  assert.ok(made instanceof Real);
  assert.ok(made instanceof Lazy);
  assert.equal(made.n, 3);
  assert.equal(Lazy.kind, 'real');
});

test('a lazy function passes its arguments and result through', () => {
  const add = lazyFunction(() => (a: number, b: number) => a + b);
  assert.equal(add(2, 3), 5);
});

test('YAML and the protobuf wire format work through their lazy stand-ins', () => {
  assert.deepEqual(YAML.parse('a: [1, "2"]'), { a: [1, '2'] });
  assert.equal(YAML.stringify({ a: 1 }), 'a: 1\n');
  assert.equal(YAML.parseDocument('x: y').toJS().x, 'y');
  const bytes = new BinaryWriter().tag(1, WireType.LengthDelimited).string('hi').finish();
  const reader = new BinaryReader(bytes);
  const [field, wireType] = reader.tag();
  assert.deepEqual([field, wireType, reader.string()], [1, WireType.LengthDelimited, 'hi']);
  assert.deepEqual([WireType.Varint, WireType.Bit64, WireType.LengthDelimited, WireType.StartGroup, WireType.EndGroup, WireType.Bit32], [0, 1, 2, 3, 4, 5]);
});
