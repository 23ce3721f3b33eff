// End-to-end: aggregated discovery's ETag, as kubectl's disk cache and client-go's discovery client use it:
// a client that sends back the ETag it holds gets 304 without a body; the v2 and v2beta1 documents are
// different documents with their own tags.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';

const V2 = 'application/json;g=apidiscovery.svc.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.svc.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('aggregated discovery caching', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s.stop(); });

  for (const path of ['/api', '/apis']) {
    it(`${path}: 304 for the ETag the client holds, 200 with the document otherwise`, async () => {
      const first = await s.request('GET', path, { headers: { accept: V2 } });
      assert.equal(first.status, 200);
      assert.equal(first.headers['content-type'], V2);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[0-9a-f]+"$/);
      assert.equal(first.json().kind, 'APIGroupDiscoveryList');

      const again = await s.request('GET', path, { headers: { accept: V2, 'if-none-match': etag } });
      assert.equal(again.status, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, etag);

      const stale = await s.request('GET', path, { headers: { accept: V2, 'if-none-match': '"0"' } });
      assert.equal(stale.status, 200);
      assert.equal(stale.body, first.body);

      const beta = await s.request('GET', path, { headers: { accept: V2BETA1, 'if-none-match': etag } });
      assert.equal(beta.status, 200);
      assert.equal(beta.json().apiVersion, 'apidiscovery.svc.io/v2beta1');
      assert.notEqual(beta.headers.etag, etag);
    });
  }

  it('the legacy (unaggregated) documents are not cached by ETag', async () => {
    const first = await s.request('GET', '/apis', { headers: { accept: 'application/json' } });
    assert.equal(first.status, 200);
    assert.equal(first.json().kind, 'APIGroupList');
    assert.equal(first.headers.etag, undefined);
  });
});
