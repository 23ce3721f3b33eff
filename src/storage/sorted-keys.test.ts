import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SortedKeys } from './sorted-keys.ts';

/** A deterministic shuffle, so that a failure can be replayed. */
function shuffled(keys: string[], seed: number): string[] {
  const out = [...keys];
  let x = seed;
  for (let i = out.length - 1; i > 0; i--) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const names = (n: number) => Array.from({ length: n }, (_, i) => `/r/ns${i % 7}/obj-${String(i).padStart(5, '0')}`);

describe('SortedKeys', () => {
  it('keeps keys inserted in any order sorted, across many chunks, without duplicates', () => {
    const keys = names(5000);
    const s = new SortedKeys();
    for (const k of shuffled(keys, 7)) s.insert(k);
    s.insert(keys[10]);
    assert.equal(s.size, 5000);
    assert.deepEqual([...s.from(0)], [...keys].sort());
  });

  it('removes keys, ignoring ones it does not hold', () => {
    const keys = names(3000);
    const s = SortedKeys.from(shuffled(keys, 3));
    const gone = new Set(shuffled(keys, 5).slice(0, 2000));
    for (const k of gone) s.remove(k);
    s.remove('/r/absent');
    assert.equal(s.size, 1000);
    assert.deepEqual([...s.from(0)], keys.filter((k) => !gone.has(k)).sort());
    for (const k of keys) s.remove(k);
    assert.equal(s.size, 0);
    assert.deepEqual([...s.from(0)], []);
    s.insert('/r/again');
    assert.deepEqual([...s.from(0)], ['/r/again']);
  });

  it('keeps inserts and removals made between reads in order, whatever their sequence', () => {
    const keys = names(3000);
    const s = SortedKeys.from(keys.slice(0, 1000));
    const model = new Set(keys.slice(0, 1000));
    let x = 17;
    for (let step = 0; step < 20_000; step++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      const key = keys[x % keys.length];
      if ((x >> 8) % 3 === 0) { s.remove(key); model.delete(key); } else { s.insert(key); model.add(key); }
      // Read now and then, as a list would.
      if (step % 997 === 0) assert.equal(s.size, model.size);
    }
    assert.equal(s.size, model.size);
    assert.deepEqual([...s.from(0)], [...model].sort());
  });

  it('finds positions as a sorted array would, and iterates from them', () => {
    const keys = names(4000);
    const s = new SortedKeys();
    for (const k of shuffled(keys, 11)) s.insert(k);
    const sorted = [...keys].sort();
    for (const probe of ['', '/r/ns3/', '/r/ns3/obj-00010', '/r/ns3/obj-00011', '/r/ns6/obj-03999', '/r/ns7', '/s']) {
      const expected = sorted.findIndex((k) => k >= probe);
      const at = s.lowerBound(probe);
      assert.equal(at, expected < 0 ? sorted.length : expected, probe);
      assert.deepEqual([...s.from(at)].slice(0, 3), sorted.slice(at, at + 3), probe);
    }
  });
});
