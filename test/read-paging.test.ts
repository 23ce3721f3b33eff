// End-to-end: paging with limit and continue: one snapshot across pages, remainingItemCount, opaque tokens,
// malformed and expired tokens with Kubernetes' texts, and the page sizes kubectl and informers use.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { SqliteStorage } from '../src/storage/sqlite.ts';

const INCONSISTENT_CONTINUE = 'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

describe('paging', () => {
  let s: TestServer;
  let storage: SqliteStorage;
  const base = '/api/v1/namespaces/pg/configmaps';
  const names = (list: any): string[] => list.items.map((i: any) => i.metadata.name);
  const get = async (path: string) => {
    const r = await s.request('GET', path);
    return { status: r.status, body: r.json() };
  };
  const page = (path: string, limit: number, token?: string) => get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
  const token = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const original = Array.from({ length: 25 }, (_, i) => `p${String(i).padStart(2, '0')}`);

  before(async () => {
    storage = SqliteStorage.open(':memory:');
    s = await startTestServer({ storage });
    for (const n of ['pg', 'big']) assert.equal((await s.request('POST', '/api/v1/namespaces', { body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } }) })).status, 201);
    for (const [i, name] of original.entries()) {
      const r = await s.request('POST', base, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { parity: i % 2 ? 'odd' : 'even' } }, data: { v: '1' } }) });
      assert.equal(r.status, 201, r.body);
    }
    // 1,200 objects written to the store directly (as the registry stores them): the cache follows.
    for (let i = 0; i < 1200; i++) {
      const name = `b${String(i).padStart(4, '0')}`;
      await storage.create(`/registry/core/configmaps/big/${name}`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'big', uid: randomUUID(), creationTimestamp: '2024-01-01T00:00:00Z' } }));
    }
  });
  after(async () => { await s.stop(); });

  it('pages through one snapshot: writes between pages do not show, every page has the first page\'s resourceVersion', async () => {
    const first = await page(base, 10);
    assert.equal(first.status, 200);
    const rv = first.body.metadata.resourceVersion;
    assert.deepEqual(names(first.body), original.slice(0, 10));
    assert.equal(first.body.metadata.remainingItemCount, 15);
    assert.match(first.body.metadata.continue, /^[A-Za-z0-9_-]+$/);

    // Between pages: one updated, one deleted, one created inside the remaining range.
    const p15 = (await s.request('GET', `${base}/p15`)).json();
    assert.equal((await s.request('PUT', `${base}/p15`, { body: JSON.stringify({ ...p15, data: { v: '2' } }) })).status, 200);
    assert.equal((await s.request('DELETE', `${base}/p20`)).status, 200);
    assert.equal((await s.request('POST', base, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p12a' } }) })).status, 201);

    const second = await page(base, 10, first.body.metadata.continue);
    assert.equal(second.status, 200);
    assert.equal(second.body.metadata.resourceVersion, rv);
    assert.deepEqual(names(second.body), original.slice(10, 20));
    assert.equal(second.body.metadata.remainingItemCount, 5);
    const old15 = second.body.items.find((i: any) => i.metadata.name === 'p15');
    assert.deepEqual(old15.data, { v: '1' });
    assert.equal(old15.metadata.resourceVersion, p15.metadata.resourceVersion);

    const third = await page(base, 10, second.body.metadata.continue);
    assert.equal(third.body.metadata.resourceVersion, rv);
    assert.deepEqual(names(third.body), original.slice(20));
    assert.equal(third.body.metadata.continue, undefined);
    assert.equal(third.body.metadata.remainingItemCount, undefined);

    // A new list sees the writes.
    const now = await get(base);
    assert.ok(names(now.body).includes('p12a'));
    assert.ok(!names(now.body).includes('p20'));
    // Restore the fixture for the other tests.
    assert.equal((await s.request('DELETE', `${base}/p12a`)).status, 200);
    assert.equal((await s.request('POST', base, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p20', labels: { parity: 'even' } }, data: { v: '1' } }) })).status, 201);
  });

  it('a page that holds the rest has no continue and no remainingItemCount', async () => {
    for (const limit of [25, 500]) {
      const r = await page(base, limit);
      assert.deepEqual(names(r.body), original);
      assert.deepEqual(Object.keys(r.body.metadata), ['resourceVersion']);
    }
    const exact = await page(base, 24);
    assert.equal(exact.body.metadata.remainingItemCount, 1);
  });

  it('pages of 500 (kubectl --chunk-size, informers) through 1,200 objects', async () => {
    const path = '/api/v1/namespaces/big/configmaps';
    const seen: string[] = [];
    const remaining: (number | undefined)[] = [];
    let next: string | undefined;
    let rv: string | undefined;
    do {
      const r = await page(path, 500, next);
      assert.equal(r.status, 200);
      rv ??= r.body.metadata.resourceVersion;
      assert.equal(r.body.metadata.resourceVersion, rv);
      seen.push(...names(r.body));
      remaining.push(r.body.metadata.remainingItemCount);
      next = r.body.metadata.continue;
    } while (next);
    assert.equal(seen.length, 1200);
    assert.deepEqual(seen, [...seen].sort());
    assert.equal(new Set(seen).size, 1200);
    assert.deepEqual(remaining, [700, 200, undefined]);
    // Across all namespaces too.
    const wide = await page('/api/v1/configmaps', 1000);
    assert.equal(wide.body.items.length, 1000);
    assert.ok(wide.body.metadata.remainingItemCount > 200);
  });

  it('with a selector, pages hold only matches and never a remainingItemCount', async () => {
    const evens = original.filter((_, i) => i % 2 === 0);
    const seen: string[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const r = await page(`${base}?labelSelector=parity%3Deven`, 4, next);
      assert.equal(r.status, 200);
      assert.equal(r.body.metadata.remainingItemCount, undefined);
      assert.ok(r.body.items.length <= 4);
      seen.push(...names(r.body));
      next = r.body.metadata.continue;
      pages++;
    } while (next);
    assert.deepEqual(seen, evens);
    assert.ok(pages >= 4);
    const fields = await page(`${base}?fieldSelector=metadata.name!%3Dp00`, 5);
    assert.deepEqual(names(fields.body), original.slice(1, 6));
    assert.equal(fields.body.metadata.remainingItemCount, undefined);
    assert.ok(fields.body.metadata.continue);
  });

  it('continue without a limit reads the rest; with resourceVersion=0 the version is ignored', async () => {
    const first = await page(base, 20);
    const rest = await get(`${base}?continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.deepEqual(names(rest.body), original.slice(20));
    const zero = await get(`${base}?limit=3&resourceVersion=0&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.equal(zero.status, 200);
    assert.deepEqual(names(zero.body), original.slice(20, 23));
  });

  it('continue with a resourceVersion is 400', async () => {
    const first = await page(base, 5);
    const r = await get(`${base}?limit=5&resourceVersion=${first.body.metadata.resourceVersion}&continue=${encodeURIComponent(first.body.metadata.continue)}`);
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'specifying resource version is not allowed when using continue', reason: 'BadRequest', code: 400 });
  });

  it('a malformed continue token is 400 with Kubernetes\' text', async () => {
    const cases: [string, string][] = [
      ['%%%', 'illegal base64 data at input byte 0'],
      ['a', 'illegal base64 data at input byte 0'],
      ['abc', "invalid character 'i' looking for beginning of value"],
      [token({ v: 'meta.svc.io/v2', rv: 5, start: 'p01\u0000' }), 'server does not recognize this encoded version meta.svc.io/v2'],
      [token({ rv: 5, start: 'p01\u0000' }), 'server does not recognize this encoded version '],
      [token({ v: 'meta.svc.io/v1', rv: 0, start: 'p01\u0000' }), 'incorrect encoded start resourceVersion (version meta.svc.io/v1)'],
      [token({ v: 'meta.svc.io/v1', rv: 5, start: '' }), 'encoded start key empty (version meta.svc.io/v1)'],
      [token({ v: 'meta.svc.io/v1', rv: 5, start: '../../secrets/pg/x' }), '../../secrets/pg/x'],
      [token({ v: 'meta.svc.io/v1', rv: '5', start: 'p01' }), 'json: cannot unmarshal string into Go struct field continueToken.rv of type int64'],
      [token([1]), 'json: cannot unmarshal array into Go value of type storage.continueToken'],
    ];
    for (const [t, reason] of cases) {
      const r = await get(`${base}?limit=5&continue=${encodeURIComponent(t)}`);
      assert.equal(r.status, 400, t);
      assert.equal(r.body.reason, 'BadRequest', t);
      assert.equal(r.body.message, `invalid continue token: continue key is not valid: ${reason}`, t);
    }
  });

  it('an expired continue token (its snapshot compacted) is 410 Expired, with a token that continues at the latest state', async () => {
    const first = await page(base, 5);
    const rv = Number(first.body.metadata.resourceVersion);
    const later = await s.request('POST', base, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p07a' } }) });
    assert.equal(later.status, 201);
    const current = Number(later.json().metadata.resourceVersion);
    await storage.compact(current);
    assert.ok(current > rv);

    const expired = await page(base, 5, first.body.metadata.continue);
    assert.equal(expired.status, 410);
    assert.equal(expired.body.reason, 'Expired');
    assert.equal(expired.body.code, 410);
    assert.equal(expired.body.message, INCONSISTENT_CONTINUE);
    const fresh = expired.body.metadata.continue;
    assert.match(fresh, /^[A-Za-z0-9_-]+$/);

    // The fresh token continues after the same key, at the latest revision: the new object shows.
    const resumed = await page(base, 5, fresh);
    assert.equal(resumed.status, 200);
    assert.ok(Number(resumed.body.metadata.resourceVersion) >= current);
    assert.deepEqual(names(resumed.body), ['p05', 'p06', 'p07', 'p07a', 'p08']);
    const next = await page(base, 5, resumed.body.metadata.continue);
    assert.equal(next.body.metadata.resourceVersion, resumed.body.metadata.resourceVersion);
    assert.deepEqual(names(next.body), original.slice(9, 14));
    assert.equal((await s.request('DELETE', `${base}/p07a`)).status, 200);
  });
});
