// For the registry's tests: a store of one kind on a fresh in-memory SQLite store.
import type { KindDefinition } from '../apis/kind.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { ResourceStore } from './store.ts';

/** A store of `def` over a new in-memory SQLite store, its watch cache started; `close` ends both. */
export async function openTestStore(def: KindDefinition): Promise<{ storage: SqliteStorage; store: ResourceStore; close(): Promise<void> }> {
  const storage = SqliteStorage.open(':memory:');
  const store = new ResourceStore(def, storage);
  await store.cache.start();
  return { storage, store, close: async () => { store.cache.stop(); await storage.close(); } };
}
