// /healthz, /livez and /readyz as Kubernetes answers them: the checks by name (the store's is `etcd`
// whatever backs it), one check by path, `exclude`, and the verdict.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

describe('health endpoints', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  it('each endpoint answers ok, and with verbose its checks in Kubernetes\' order', async () => {
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const r = await s.request('GET', path);
      assert.equal(r.status, 200, path);
      assert.equal(r.body, 'ok', path);
    }
    assert.equal((await s.request('GET', '/livez?verbose')).body, '[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n');
    assert.equal((await s.request('GET', '/readyz?verbose')).body,
      '[+]ping ok\n[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n[+]shutdown ok\nreadyz check passed\n');
  });

  it('one check by path; an unknown one is 404', async () => {
    for (const path of ['/livez/etcd', '/readyz/etcd', '/readyz/shutdown', '/healthz/ping']) {
      const r = await s.request('GET', path);
      assert.equal(r.status, 200, path);
      assert.equal(r.body, 'ok', path);
    }
    assert.equal((await s.request('GET', '/livez/shutdown')).status, 404);
    assert.equal((await s.request('GET', '/readyz/nope')).status, 404);
  });

  it('exclude skips checks and names those it matched none of', async () => {
    const r = await s.request('GET', '/readyz?verbose&exclude=etcd&exclude=zz&exclude=aa');
    assert.equal(r.status, 200);
    assert.equal(r.body, '[+]ping ok\n[+]log ok\n[+]etcd excluded: ok\n[+]etcd-readiness ok\n[+]shutdown ok\n'
      + 'warn: some health checks cannot be excluded: no matches for "aa","zz"\nreadyz check passed\n');
    assert.equal((await s.request('GET', '/livez?exclude=etcd')).body, 'ok');
  });

  it('kubectl reads them as Kubernetes\' are read', async () => {
    const r = await s.kubectl(['get', '--raw', '/livez/etcd']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ok');
  });
});
