// End-to-end: many writers and many watchers at once (every watcher sees every change, in resourceVersion
// order, with no gap), and a watcher that stops reading is cut off without holding up the others.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientHttp2Session } from 'node:http2';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { watchHttp1, watchHttp2, until, fastHttp2Session, type WatchStream } from './support/watch-client.ts';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

describe('watch fan-out', { timeout: 60_000 }, () => {
  let s: TestServer;
  let h2: ClientHttp2Session;
  const open: WatchStream[] = [];
  const namespace = async (name: string) => assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }) })).status, 201);
  const listRv = async (ns: string) => (await s.request('GET', `/api/v1/namespaces/${ns}/configmaps`)).json().metadata.resourceVersion as string;

  before(async () => {
    s = await startTestServer();
    h2 = fastHttp2Session(s);
  });
  after(async () => {
    for (const w of open) w.close();
    h2.close();
    await s.stop();
  });

  it('concurrent writers: every watcher sees every write once, in resourceVersion order', async () => {
    await namespace('fan');
    const rv = await listRv('fan');
    const path = `/api/v1/namespaces/fan/configmaps?watch=1&resourceVersion=${rv}`;
    const watchers = [
      await watchHttp1(s, path), await watchHttp1(s, path), await watchHttp1(s, `/api/v1/configmaps?watch=1&resourceVersion=${rv}&fieldSelector=metadata.namespace%3Dfan`),
      await watchHttp2(h2, path), await watchHttp2(h2, path), await watchHttp2(h2, `${path}&allowWatchBookmarks=true`),
    ];
    open.push(...watchers);
    const writers = 8;
    const perWriter = 15;
    const written: { rv: number; name: string; type: string }[] = [];
    await Promise.all(Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < perWriter; i++) {
        const name = `w${w}-${i}`;
        const created = await s.request('POST', '/api/v1/namespaces/fan/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } }) });
        assert.equal(created.status, 201, created.body);
        const obj = created.json();
        written.push({ rv: Number(obj.metadata.resourceVersion), name, type: 'ADDED' });
        if (i % 3 === 0) {
          const updated = await s.request('PUT', `/api/v1/namespaces/fan/configmaps/${name}`, { body: JSON.stringify({ ...obj, data: { i: 'x' } }) });
          assert.equal(updated.status, 200, updated.body);
          written.push({ rv: Number(updated.json().metadata.resourceVersion), name, type: 'MODIFIED' });
        }
        if (i % 5 === 4) {
          assert.equal((await s.request('DELETE', `/api/v1/namespaces/fan/configmaps/${name}`)).status, 200);
          written.push({ rv: -1, name, type: 'DELETED' });
        }
      }
    }));
    const expected = written.length;
    for (const [i, w] of watchers.entries()) {
      await until(() => w.events.filter((e) => e.type !== 'BOOKMARK').length >= expected, `watcher ${i} to see ${expected} events`, 10_000);
      const events = w.events.filter((e) => e.type !== 'BOOKMARK');
      assert.equal(events.length, expected, `watcher ${i}`);
      const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
      for (let j = 1; j < rvs.length; j++) assert.ok(rvs[j] > rvs[j - 1], `watcher ${i}: ${rvs[j - 1]} then ${rvs[j]}`);
      // The same changes as the writers made: creates and updates at the versions they were answered with.
      const seen = new Set(events.filter((e) => e.type !== 'DELETED').map((e) => `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`));
      for (const wr of written.filter((x) => x.type !== 'DELETED')) assert.ok(seen.has(`${wr.type} ${wr.name} ${wr.rv}`), `watcher ${i} missed ${wr.type} ${wr.name} ${wr.rv}`);
      assert.deepEqual(events.filter((e) => e.type === 'DELETED').map((e) => e.object.metadata.name).sort(), written.filter((x) => x.type === 'DELETED').map((x) => x.name).sort());
    }
    // Every watcher saw the same sequence.
    const first = watchers[0].events.map((e) => `${e.type} ${e.object.metadata.resourceVersion}`);
    for (const w of watchers.slice(1)) assert.deepEqual(w.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata.resourceVersion}`), first);
  });

  it('a watcher that stops reading is cut off; the others see everything and the server carries on', async () => {
    await namespace('slow');
    const rv = await listRv('slow');
    const path = `/api/v1/namespaces/slow/configmaps?watch=1&resourceVersion=${rv}`;
    // The stalled client is another process: an HTTP/2 connection with a stalled and a reading watch, and a
    // stalled HTTP/1.1 watch.
    const child = spawn(process.execPath, [fileURLToPath(new URL('./support/stalled-watch-client.ts', import.meta.url))], {
      env: { ...process.env, STALLED_WATCH: JSON.stringify({ url: s.url, ...s.credentials, path }) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const facts: any[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => facts.push(JSON.parse(line)));
    const fact = (key: string) => facts.findLast((f) => key in f)?.[key];
    try {
      await until(() => fact('ready') === true, 'the stalled client to connect');
      const reader1 = await watchHttp1(s, path);
      const reader2 = await watchHttp2(h2, path);
      open.push(reader1, reader2);
      // Big objects fill the stalled watchers' buffers quickly.
      const data = { blob: 'x'.repeat(900 * 1024) };
      const writes = 40;
      for (let i = 0; i < writes; i++) {
        const r = await s.request('POST', '/api/v1/namespaces/slow/configmaps', { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}` }, data }) });
        assert.equal(r.status, 201, r.body.slice(0, 300));
      }
      // The stalled HTTP/2 stream is reset while its client still has it paused.
      await until(() => fact('stalled2') !== undefined, 'the stalled HTTP/2 watch to be cut off', 10_000);
      assert.equal(fact('stalled2'), 'aborted');
      // The readers, one on the same connection as the stalled stream, got everything, in order.
      await until(() => fact('reading') >= writes, 'the reader beside the stalled stream to see every write', 10_000);
      for (const w of [reader1, reader2]) {
        await until(() => w.events.length >= writes, 'a reader to see every write', 10_000);
        assert.deepEqual(w.events.map((e) => e.object.metadata.name), Array.from({ length: writes }, (_, i) => `big-${i}`));
      }
      // The stalled HTTP/1.1 client finds its stream cut short once it reads again.
      child.stdin!.write('read\n');
      await until(() => fact('stalled1') !== undefined, 'the stalled HTTP/1.1 watch to end', 10_000);
      assert.equal(fact('stalled1').ended, 'aborted');
      assert.ok(fact('stalled1').events < writes, `${fact('stalled1').events} of ${writes}`);
      // The server still serves new watches.
      const fresh = await watchHttp1(s, `${path}&timeoutSeconds=1`);
      open.push(fresh);
      assert.equal((await fresh.next()).object.metadata.name, 'big-0');
    } finally {
      child.kill();
    }
  });
});
