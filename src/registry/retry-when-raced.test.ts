// retryWhenRaced over a real store: which failures it decides again, and how often at most.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { KindDefinition } from '../apis/kind.ts';
import { S } from '../apis/meta/schema.ts';
import { ObjectMeta } from '../apis/meta/v1.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { StatusError } from '../machinery/status.ts';
import { openTestStore } from './test-store.ts';
import { ResourceStore } from './store.ts';
import { retryWhenRaced } from './retry-when-raced.ts';

const gadgets: KindDefinition = {
  group: 'example.svc.io',
  kind: 'Gadget',
  plural: 'gadgets',
  singular: 'gadget',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: S.object({ apiVersion: S.string(), kind: S.string(), metadata: ObjectMeta }) }],
  storageVersion: 'v1',
};

let storage: SqliteStorage;
let store: ResourceStore;
let close: () => Promise<void>;
before(async () => { ({ storage, store, close } = await openTestStore(gadgets)); });
after(() => close());

/** An attempt that fails with each of `failures` in turn, then succeeds; `calls` counts its runs. */
function attempt(failures: Error[]) {
  const counter = { calls: 0 };
  const run = async () => {
    const failure = failures[counter.calls++];
    if (failure) throw failure;
  };
  return { counter, run };
}

test('decides again after a conflict, an already-exists or a not-found, until the attempt succeeds', async () => {
  const a = attempt([new StatusError(409, 'Conflict', 'c'), new StatusError(409, 'AlreadyExists', 'e'), new StatusError(404, 'NotFound', 'n')]);
  await retryWhenRaced(store, a.run);
  assert.equal(a.counter.calls, 4);
});

test('gives up after five attempts with the last failure', async () => {
  const failures = [1, 2, 3, 4, 5, 6].map((n) => new StatusError(409, 'Conflict', `conflict ${n}`));
  const a = attempt(failures);
  await assert.rejects(retryWhenRaced(store, a.run), failures[4]);
  assert.equal(a.counter.calls, 5);
});

test('passes any other failure on at once', async () => {
  const invalid = new StatusError(422, 'Invalid', 'invalid');
  const a = attempt([invalid]);
  await assert.rejects(retryWhenRaced(store, a.run), invalid);
  assert.equal(a.counter.calls, 1);
  const plain = new Error('disk gone');
  const b = attempt([plain]);
  await assert.rejects(retryWhenRaced(store, b.run), plain);
  assert.equal(b.counter.calls, 1);
});

const createGadget = (username: string) => store.create('', { apiVersion: 'example.svc.io/v1', kind: 'Gadget', metadata: { name: 'g' } }, {
  ctx: { user: { username, groups: [] }, version: 'v1', subresource: '', dryRun: false, warnings: [] },
  dryRun: false,
});

test('a create that lost to another writer is decided again on the object that writer made', async () => {
  let decisions = 0;
  await retryWhenRaced(store, async () => {
    decisions++;
    if (store.current('', 'g')) return;
    // Another writer's create lands between this attempt's look at the cache and its own create.
    if (decisions === 1) await createGadget('other');
    await createGadget('me');
  });
  assert.equal(decisions, 2);
  assert.ok(store.current('', 'g'));
});
