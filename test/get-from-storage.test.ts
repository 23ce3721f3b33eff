// End-to-end: a get without resourceVersion is a consistent read from storage, as Kubernetes reads etcd
// for it: a watch cache that does not catch up (its watch is held back here) neither delays nor ages the
// answer. `resourceVersion=0` is still answered from the cache.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import type { Storage, WatchListener } from '../src/storage/interface.ts';

const CONFIGMAPS = '/registry/core/configmaps/';

/** A storage whose watches of `prefix` hold their events back while `paused`. */
function withHeldWatch(inner: Storage, prefix: string): { storage: Storage; pause(): void; resume(): void } {
  let paused = false;
  let held: (() => void)[] = [];
  const storage = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'watch') {
        return (p: string, after: number, listener: WatchListener) => target.watch(p, after, !p.startsWith(prefix) ? listener : {
          onEvents: (events) => { if (paused) held.push(() => listener.onEvents(events)); else listener.onEvents(events); },
          onProgress: (rev) => { if (paused) held.push(() => listener.onProgress(rev)); else listener.onProgress(rev); },
          onError: (err) => listener.onError(err),
        });
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    storage,
    pause: () => { paused = true; },
    resume: () => { paused = false; const h = held; held = []; for (const f of h) f(); },
  };
}

describe('get without resourceVersion', () => {
  let s: TestServer;
  let held: ReturnType<typeof withHeldWatch>;
  before(async () => {
    held = withHeldWatch(SqliteStorage.open(':memory:'), CONFIGMAPS);
    s = await startTestServer({ storage: held.storage });
  });
  after(async () => { held.resume(); await s.stop(); });

  it('reads storage when the watch cache lags behind it', async () => {
    const created = await s.request('POST', '/api/v1/namespaces/default/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lagging' }, data: { v: '1' } }) });
    assert.equal(created.status, 201);
    const key = `${CONFIGMAPS}default/lagging`;
    const { kv } = await held.storage.get(key);
    held.pause();
    const stored = JSON.parse(kv!.value);
    stored.data.v = '2';
    const written = await held.storage.update(key, JSON.stringify(stored), kv!.modRevision);

    const got = await s.request('GET', '/api/v1/namespaces/default/configmaps/lagging');
    assert.equal(got.status, 200, got.body);
    assert.equal(got.json().data.v, '2');
    assert.equal(got.json().metadata.resourceVersion, String(written.modRevision));
    // "Any" version: the cache's.
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps/lagging?resourceVersion=0')).json().data.v, '1');
    // Absent in storage: 404, in Kubernetes' words.
    const missing = await s.request('GET', '/api/v1/namespaces/default/configmaps/absent');
    assert.equal(missing.status, 404);
    assert.equal(missing.json().message, 'configmaps "absent" not found');

    held.resume();
    assert.equal((await s.request('GET', '/api/v1/namespaces/default/configmaps/lagging')).json().data.v, '2');
  });
});
