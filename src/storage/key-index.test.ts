import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KeyIndex } from './key-index.ts';

describe('KeyIndex', () => {
  it('finds the row a read at a revision sees, and none before a create or after a delete', () => {
    const index = new KeyIndex();
    index.append('/a', 2, false); // created
    index.append('/a', 5, false); // updated
    index.append('/a', 7, true); //  deleted
    index.append('/a', 9, false); // created again
    assert.deepEqual([1, 2, 4, 5, 6, 7, 8, 9, 10].map((r) => index.at('/a', r)), [0, 2, 2, 5, 5, 0, 0, 9, 9]);
    assert.equal(index.newest('/a'), 9);
    assert.equal(index.at('/missing', 10), 0);
    assert.equal(index.newest('/missing'), 0);
    index.append('/a', 11, true);
    assert.equal(index.newest('/a'), -11, 'a tombstone is negated');
  });

  it('lists the keys live at a revision in key order within [start, end)', () => {
    const index = new KeyIndex();
    index.append('/p/b', 1, false);
    index.append('/p/a', 2, false);
    index.append('/q/a', 3, false);
    index.append('/p/c', 4, false);
    index.append('/p/b', 5, true);
    const live = (revision: number, start = '/p/', end = '/p0') => [...index.liveIn(start, end, revision)];
    assert.deepEqual(live(5), [['/p/a', 2], ['/p/c', 4]]);
    assert.deepEqual(live(4), [['/p/a', 2], ['/p/b', 1], ['/p/c', 4]]);
    assert.deepEqual(live(1), [['/p/b', 1]]);
    assert.deepEqual(live(4, '/p/b'), [['/p/b', 1], ['/p/c', 4]]);
    assert.deepEqual(live(5, '/', '/z'), [['/p/a', 2], ['/p/c', 4], ['/q/a', 3]]);
  });

  it('forgets compacted rows, and a key with none left', () => {
    const index = new KeyIndex();
    index.append('/a', 1, false);
    index.append('/a', 3, true);
    index.append('/b', 2, false);
    index.remove('/a', 1);
    assert.equal(index.at('/a', 2), 0);
    assert.equal(index.newest('/a'), -3);
    index.remove('/a', 3);
    assert.equal(index.newest('/a'), 0);
    assert.deepEqual([...index.liveIn('/', '/z', 3)], [['/b', 2]]);
    index.remove('/b', 7); // not a row of the key: nothing happens
    assert.equal(index.newest('/b'), 2);
  });

  it('keeps its answers as a key goes from one row to several and back', () => {
    const index = new KeyIndex();
    index.append('/a', 1, false);
    index.append('/a', 4, false);
    index.append('/a', 6, false);
    index.remove('/a', 4);
    assert.deepEqual([1, 4, 5, 6].map((r) => index.at('/a', r)), [1, 1, 1, 6]);
    index.remove('/a', 1);
    assert.deepEqual([1, 5, 6].map((r) => index.at('/a', r)), [0, 0, 6]);
    index.append('/a', 8, true);
    assert.deepEqual([6, 8].map((r) => index.at('/a', r)), [6, 0]);
    index.dropNewest('/a');
    assert.equal(index.newest('/a'), 6);
    index.dropNewest('/a');
    assert.equal(index.newest('/a'), 0);
    assert.deepEqual([...index.liveIn('/', '/z', 9)], []);
  });

  it('takes back the newest row of a rolled-back transaction', () => {
    const index = new KeyIndex();
    index.append('/a', 1, false);
    index.append('/a', 2, false);
    index.append('/b', 3, false);
    index.dropNewest('/b');
    index.dropNewest('/a');
    assert.equal(index.newest('/a'), 1);
    assert.equal(index.newest('/b'), 0);
    assert.deepEqual([...index.liveIn('/', '/z', 3)], [['/a', 1]]);
  });
});
