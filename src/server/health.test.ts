import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Response } from './respond.ts';
import { isHealthPath, serveHealth, type HealthChecks } from './health.ts';

/** The answer serveHealth writes, read from a stand-in response. */
async function answer(checks: HealthChecks, path: string, query = ''): Promise<{ code: number; body: string }> {
  let code = 0, body = '';
  const res = { headersSent: false, writeHead(c: number) { code = c; }, end(b: string) { body = String(b); } } as unknown as Response;
  await serveHealth(checks, res, path, new URLSearchParams(query));
  return { code, body };
}

const ok = async () => {};
const failing = async () => { throw new Error('secret detail'); };

test('a failing check makes the answer a 500 that lists every check, its reason withheld', async () => {
  const checks: HealthChecks = { live: { etcd: failing }, ready: { shutdown: ok } };
  assert.deepEqual(await answer(checks, '/readyz'), {
    code: 500, body: '[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[+]shutdown ok\nreadyz check failed\n',
  });
  assert.deepEqual(await answer(checks, '/livez/etcd'), { code: 500, body: '[-]etcd failed: reason withheld\nlivez check failed\n' });
  // Excluded, it no longer counts.
  assert.deepEqual(await answer(checks, '/livez', 'exclude=etcd'), { code: 200, body: 'ok' });
});

test('readiness-only checks are not part of /livez or /healthz', async () => {
  const checks: HealthChecks = { live: { etcd: ok }, ready: { shutdown: failing } };
  assert.equal((await answer(checks, '/livez')).code, 200);
  assert.equal((await answer(checks, '/healthz')).code, 200);
  assert.equal((await answer(checks, '/readyz')).code, 500);
  await assert.rejects(answer(checks, '/livez/shutdown'), { code: 404 });
});

test('health paths', () => {
  for (const p of ['/healthz', '/livez', '/readyz', '/readyz/etcd-readiness']) assert.equal(isHealthPath(p), true, p);
  for (const p of ['/healthz/', '/livez/a/b', '/metrics', '/readyz/ETCD']) assert.equal(isHealthPath(p), false, p);
});
