import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startEtcd } from '../../test/support/etcd-process.ts';
import { createTestPki } from '../../test/support/etcd-tls.ts';
import { EtcdStorage } from './etcd.ts';
import { StoreUnavailableError } from './interface.ts';

describe('EtcdStorage over TLS', () => {
  it('talks to an etcd that requires client certificates', async () => {
    const pki = await createTestPki();
    const node = await startEtcd({
      tls: { certFile: pki.serverCertFile, keyFile: pki.serverKeyFile, caFile: pki.caFile, clientCertAuth: true },
    });
    const tls = { ca: pki.caPem, cert: pki.clientCertPem, key: pki.clientKeyPem };
    const storage = await EtcdStorage.connect({ endpoints: node.endpoints, tls });
    const withoutCert = await EtcdStorage.connect({ endpoints: node.endpoints, tls: { ca: pki.caPem }, readyTimeoutMs: 500 });
    try {
      assert.match(node.endpoints[0]!, /^https:/);
      await storage.ready();
      const created = await storage.create('/registry/a', 'secret');
      assert.deepEqual((await storage.get('/registry/a')).kv, created);
      await assert.rejects(withoutCert.ready(), StoreUnavailableError);
    } finally {
      await storage.close();
      await withoutCert.close();
      await node.stop();
      await pki.remove();
    }
  });
});
