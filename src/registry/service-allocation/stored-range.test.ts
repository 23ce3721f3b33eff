import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStorage } from '../../storage/sqlite.ts';
import { Bitmap, StoredRange, findFree, ipRangeOffset, portRangeOffset } from './stored-range.ts';

test('bitmap: set, clear, and the stored data as big-endian bytes of the integer (bit i is offset i)', () => {
  const b = new Bitmap(20);
  b.set(0); b.set(9); b.set(9); b.set(25);
  assert.deepEqual([b.has(0), b.has(9), b.has(1), b.count(), b.changed], [true, true, false, 2, true]);
  assert.deepEqual([...Buffer.from(b.toData(), 'base64')], [0x02, 0x01]);
  const back = Bitmap.fromData(20, b.toData());
  assert.deepEqual([back.has(0), back.has(9), back.count(), back.changed], [true, true, 2, false]);
  back.clear(0); back.clear(1);
  assert.deepEqual([back.count(), back.changed], [1, true]);
});

test('free values are looked for above the reserved lower band first, then below it', () => {
  const b = new Bitmap(40);
  assert.equal(findFree(b, 16, () => 0), 16);
  for (let i = 16; i < 40; i++) b.set(i);
  assert.equal(findFree(b, 16, () => 0.5), 8);
  for (let i = 0; i < 16; i++) b.set(i);
  assert.equal(findFree(b, 16), undefined);
  assert.deepEqual([ipRangeOffset(254), ipRangeOffset(14), ipRangeOffset(65535), portRangeOffset(2768), portRangeOffset(100)], [16, 0, 256, 86, 16]);
});

test('stored range: changes survive a new reader; concurrent writers (two servers on one store) never take the same value', async () => {
  const storage = SqliteStorage.open(':memory:');
  try {
    const a = new StoredRange(storage, '/registry/ranges/test', '0-99', 100);
    const b = new StoredRange(storage, '/registry/ranges/test', '0-99', 100);
    assert.equal(await a.matchesRange(), false);
    const take = (r: StoredRange) => r.update((bits) => { const o = findFree(bits, 0)!; bits.set(o); return o; });
    const got = await Promise.all(Array.from({ length: 60 }, (_, i) => take(i % 2 ? a : b)));
    assert.equal(new Set(got).size, 60);
    assert.equal((await new StoredRange(storage, '/registry/ranges/test', '0-99', 100).read()).count(), 60);
    assert.equal(await b.matchesRange(), true);
    // A change that throws writes nothing.
    await assert.rejects(a.update((bits) => { bits.clear(got[0]); throw new Error('refused'); }), /refused/);
    assert.equal((await a.read()).has(got[0]), true);
    // Another range's bitmap reads as empty, and a rebuild replaces it.
    const other = new StoredRange(storage, '/registry/ranges/test', '0-49', 50);
    assert.equal((await other.read()).count(), 0);
    await other.update((bits) => bits.set(3), true);
    assert.equal((await other.read()).count(), 1);
    assert.equal(await a.matchesRange(), false);
  } finally {
    await storage.close();
  }
});
