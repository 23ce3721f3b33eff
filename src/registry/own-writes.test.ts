import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteStorage } from '../storage/sqlite.ts';
import { withHeldWatches } from '../storage/held-watches.ts';
import { encodeObject, WatchCache } from '../storage/cache.ts';
import { OwnWrites } from './own-writes.ts';

test('a write the cache has not seen is the latest until the cache reaches it; then it is forgotten, also when another key is written', async () => {
  const storage = SqliteStorage.open(':memory:');
  const { store, release } = withHeldWatches(storage);
  const cache = new WatchCache(store, '/r/');
  await cache.start();
  try {
    const own = new OwnWrites(cache);
    const write = async (key: string, value: object) => {
      const encoded = encodeObject(value);
      const kv = await storage.create(key, encoded.value);
      own.record(encoded.at(key, kv.modRevision));
      return kv.modRevision;
    };
    const a = await write('/r/a', { n: 1 });
    assert.equal(cache.get('/r/a'), undefined);
    assert.equal(own.latest('/r/a')?.modRevision, a);
    assert.equal((own.latest('/r/a')?.object as { n: number }).n, 1);

    release();
    assert.ok(await cache.waitFor(a, 1000));
    // Not read again, but dropped once another write is recorded.
    const b = await write('/r/b', { n: 2 });
    assert.equal(own.size, 1, 'only the write to b is kept');
    assert.equal(own.latest('/r/b')?.modRevision, b);
    assert.equal(own.latest('/r/a'), cache.get('/r/a'));

    release();
    assert.ok(await cache.waitFor(b, 1000));
    assert.equal(own.latest('/r/b'), cache.get('/r/b'));
    assert.equal(own.size, 0);
  } finally {
    cache.stop();
    await storage.close();
  }
});
