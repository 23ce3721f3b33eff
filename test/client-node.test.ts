// End-to-end: the official JavaScript client's Watch and informer against a real Capstan.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';


describe('@kubernetes/client-node against Capstan', () => {
  let s: TestServer;
  let kc: k8s.KubeConfig;
  let core: k8s.CoreV1Api;
  before(async () => {
    s = await startTestServer();
    kc = new k8s.KubeConfig();
    kc.loadFromString(s.kubeconfig);
    core = kc.makeApiClient(k8s.CoreV1Api);
  });
  after(async () => { await s.stop(); });

  it('Watch sees ADDED, MODIFIED and DELETED in order', async () => {
    const seen: string[] = [];
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const watch = new k8s.Watch(kc);
    const req = await watch.watch('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata!.resourceVersion }, (type, obj) => {
      if (obj.metadata?.name === 'w1') seen.push(`${type}:${obj.data?.v ?? ''}`);
    }, () => {});
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'w1' }, data: { v: '1' } } });
    await core.replaceNamespacedConfigMap({ name: 'w1', namespace: 'default', body: { metadata: { name: 'w1' }, data: { v: '2' } } });
    await core.deleteNamespacedConfigMap({ name: 'w1', namespace: 'default' });
    await until(() => seen.length >= 3, 'three events');
    req.abort();
    assert.deepEqual(seen, ['ADDED:1', 'MODIFIED:2', 'DELETED:2']);
  });

  it('an informer sees every change', async () => {
    const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const events: string[] = [];
    informer.on('add', (o) => { if (o.metadata?.name?.startsWith('inf-')) events.push(`add:${o.metadata.name}`); });
    informer.on('update', (o) => { if (o.metadata?.name?.startsWith('inf-')) events.push(`update:${o.metadata.name}`); });
    informer.on('delete', (o) => { if (o.metadata?.name?.startsWith('inf-')) events.push(`delete:${o.metadata.name}`); });
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'inf-before' } } });
    await informer.start();
    await until(() => events.includes('add:inf-before'), 'the listed object');
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'inf-a' } } });
    await core.patchNamespacedConfigMap({ name: 'inf-a', namespace: 'default', body: { data: { x: 'y' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await core.deleteNamespacedConfigMap({ name: 'inf-a', namespace: 'default' });
    await until(() => events.includes('delete:inf-a'), 'the delete');
    await informer.stop();
    assert.deepEqual(events, ['add:inf-before', 'add:inf-a', 'update:inf-a', 'delete:inf-a']);
    assert.equal(informer.get('inf-before', 'default')?.metadata?.name, 'inf-before');
  });
});
