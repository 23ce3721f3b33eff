// The persistentvolume-binder and ephemeral-volume controllers, seen through the API with kubectl: volumes
// become Available, claims bind to the smallest matching volume (or the one pre-bound either way), a claim's
// deletion releases its volume, and a pod's ephemeral volume gets its claim, which goes with the pod.
import { describe, it, before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { builtinEnabled } from '../src/controllers/builtin.ts';

type Obj = Record<string, any>;
const NS = 'default';
const json = (v: unknown) => JSON.stringify(v);

test('--controllers: persistentvolume-binder and ephemeral-volume are on by default and answer to both their names', () => {
  for (const [name, long] of [['persistentvolume-binder', 'persistentvolume-binder-controller'], ['ephemeral-volume', 'ephemeral-volume-controller']]) {
    assert.equal(builtinEnabled(name), true);
    assert.equal(builtinEnabled(name, ['*', `-${long}`]), false);
    assert.equal(builtinEnabled(name, ['*', `-${name}`]), false);
    assert.equal(builtinEnabled(name, [long]), true);
  }
});

describe('volume controllers', () => {
  let s: TestServer;
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const apply = (...objects: Obj[]) => kubectl(['apply', '-f', '-'], json({ apiVersion: 'v1', kind: 'List', items: objects }));
  const pv = async (name: string): Promise<Obj | undefined> => {
    const r = await s.request('GET', `/api/v1/persistentvolumes/${name}`);
    return r.status === 200 ? r.json() : undefined;
  };
  const pvc = async (name: string, ns = NS): Promise<Obj | undefined> => {
    const r = await s.request('GET', `/api/v1/namespaces/${ns}/persistentvolumeclaims/${name}`);
    return r.status === 200 ? r.json() : undefined;
  };
  const volume = (name: string, size: string, o: { cls?: string; modes?: string[]; labels?: Obj; claimRef?: Obj; mode?: string } = {}) => ({
    apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name, ...(o.labels ? { labels: o.labels } : {}) },
    spec: {
      capacity: { storage: size }, accessModes: o.modes ?? ['ReadWriteOnce'], hostPath: { path: `/data/${name}` },
      storageClassName: o.cls ?? 'manual', ...(o.claimRef ? { claimRef: o.claimRef } : {}), ...(o.mode ? { volumeMode: o.mode } : {}),
    },
  });
  const claim = (name: string, size: string, o: { cls?: string; selector?: Obj; volumeName?: string; mode?: string } = {}) => ({
    apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace: NS },
    spec: {
      accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, storageClassName: o.cls ?? 'manual',
      ...(o.selector ? { selector: o.selector } : {}), ...(o.volumeName ? { volumeName: o.volumeName } : {}), ...(o.mode ? { volumeMode: o.mode } : {}),
    },
  });
  const phaseIs = (get: () => Promise<Obj | undefined>, phase: string, what: string) => until(async () => (await get())?.status?.phase === phase, what);

  before(async () => { s = await startTestServer({ controllers: ['*'], controllerResyncMs: 300 }); });
  after(async () => { await s?.stop(); });

  it('a new volume becomes Available, with the time of its phase change', async () => {
    await apply(volume('pv-avail', '1Gi', { cls: 'spare' }));
    await phaseIs(() => pv('pv-avail'), 'Available', 'pv-avail Available');
    const v = await pv('pv-avail');
    assert.ok(Date.parse(v!.status.lastPhaseTransitionTime) >= Date.parse(v!.metadata.creationTimestamp));
    assert.equal(await kubectl(['get', 'pv', 'pv-avail', '-o', 'jsonpath={.status.phase}']), 'Available');
  });

  it('a claim binds to the smallest matching volume; both sides carry the binding', async () => {
    await apply(volume('pv-10', '10Gi'), volume('pv-3', '3Gi'), volume('pv-1', '1Gi'), volume('pv-other-class', '2Gi', { cls: 'other' }));
    for (const name of ['pv-10', 'pv-3', 'pv-1']) await phaseIs(() => pv(name), 'Available', name);
    await apply(claim('data', '2Gi'));
    await phaseIs(() => pvc('data'), 'Bound', 'data Bound');
    const c = (await pvc('data'))!;
    assert.equal(c.spec.volumeName, 'pv-3');
    assert.deepEqual(c.status.capacity, { storage: '3Gi' });
    assert.deepEqual(c.status.accessModes, ['ReadWriteOnce']);
    assert.equal(c.metadata.annotations['pv.platform.io/bind-completed'], 'yes');
    assert.equal(c.metadata.annotations['pv.platform.io/bound-by-controller'], 'yes');
    await phaseIs(() => pv('pv-3'), 'Bound', 'pv-3 Bound');
    const v = (await pv('pv-3'))!;
    assert.equal(v.metadata.annotations['pv.platform.io/bound-by-controller'], 'yes');
    const { resourceVersion, ...ref } = v.spec.claimRef;
    assert.deepEqual(ref, { kind: 'PersistentVolumeClaim', namespace: NS, name: 'data', uid: c.metadata.uid, apiVersion: 'v1' });
    assert.ok(resourceVersion);
    // kubectl's columns show it.
    assert.match(await kubectl(['get', 'pvc', 'data']), /data\s+Bound\s+pv-3\s+3Gi\s+RWO\s+manual/);
    assert.match(await kubectl(['get', 'pv', 'pv-3']), /pv-3\s+3Gi\s+RWO\s+Retain\s+Bound\s+default\/data\s+manual/);
  });

  it('a selector, class or volume mode mismatch does not bind', async () => {
    await apply(volume('pv-labelled', '5Gi', { cls: 'sel', labels: { tier: 'slow' } }));
    await phaseIs(() => pv('pv-labelled'), 'Available', 'pv-labelled Available');
    await apply(
      claim('wants-fast', '1Gi', { cls: 'sel', selector: { matchLabels: { tier: 'fast' } } }),
      claim('wants-block', '1Gi', { cls: 'sel', mode: 'Block' }),
      claim('wants-class', '1Gi', { cls: 'nonexistent' }),
    );
    // A pass of the controller over these claims shows in their events.
    await until(async () => (await kubectl(['get', 'events', '--field-selector', 'involvedObject.name=wants-class', '-o', 'name'])).trim() !== '', 'an event for wants-class');
    await until(async () => (await kubectl(['get', 'events', '--field-selector', 'involvedObject.name=wants-block', '-o', 'name'])).trim() !== '', 'an event for wants-block');
    for (const name of ['wants-fast', 'wants-block', 'wants-class']) {
      const c = (await pvc(name))!;
      assert.equal(c.status.phase, 'Pending', name);
      assert.equal(c.spec.volumeName, undefined, name);
    }
    assert.equal((await pv('pv-labelled'))!.status.phase, 'Available');
    assert.match(await kubectl(['describe', 'pvc', 'wants-class']), /ProvisioningFailed\s+.*persistentvolume-controller\s+storageclass\.storage\.svc\.io "nonexistent" not found/);
  });

  it('pre-bound both ways: a volume reserved by claimRef, a claim naming its volume', async () => {
    await apply(
      volume('pv-reserved', '50Gi', { cls: 'pre', claimRef: { namespace: NS, name: 'gets-reserved' } }),
      volume('pv-small-pre', '1Gi', { cls: 'pre' }),
      volume('pv-named', '1Gi', { cls: 'pre2' }),
    );
    await phaseIs(() => pv('pv-reserved'), 'Available', 'pv-reserved Available');
    await phaseIs(() => pv('pv-named'), 'Available', 'pv-named Available');
    await apply(claim('gets-reserved', '1Gi', { cls: 'pre' }), claim('names-volume', '1Gi', { cls: 'pre2', volumeName: 'pv-named' }));
    await phaseIs(() => pvc('gets-reserved'), 'Bound', 'gets-reserved Bound');
    await phaseIs(() => pvc('names-volume'), 'Bound', 'names-volume Bound');

    const reserved = (await pv('pv-reserved'))!;
    const a = (await pvc('gets-reserved'))!;
    assert.equal(a.spec.volumeName, 'pv-reserved');
    assert.equal(reserved.spec.claimRef.uid, a.metadata.uid);
    // The user bound the volume: the controller marks only the claim's side as its own.
    assert.equal(reserved.metadata.annotations?.['pv.platform.io/bound-by-controller'], undefined);
    assert.equal(a.metadata.annotations['pv.platform.io/bound-by-controller'], 'yes');
    assert.equal((await pv('pv-small-pre'))!.spec.claimRef, undefined);

    const b = (await pvc('names-volume'))!;
    const named = (await pv('pv-named'))!;
    assert.equal(named.spec.claimRef.name, 'names-volume');
    assert.equal(named.metadata.annotations['pv.platform.io/bound-by-controller'], 'yes');
    assert.equal(b.metadata.annotations['pv.platform.io/bound-by-controller'], undefined);
    assert.equal(b.metadata.annotations['pv.platform.io/bind-completed'], 'yes');
  });

  it('deleting a bound claim releases its volume, which Retain keeps with its claimRef', async () => {
    await apply(volume('pv-release', '1Gi', { cls: 'rel' }));
    await phaseIs(() => pv('pv-release'), 'Available', 'pv-release Available');
    await apply(claim('short-lived', '1Gi', { cls: 'rel' }));
    await phaseIs(() => pv('pv-release'), 'Bound', 'pv-release Bound');
    await kubectl(['delete', 'pvc', 'short-lived', '--wait=true', '--timeout=20s']);
    await phaseIs(() => pv('pv-release'), 'Released', 'pv-release Released');
    const v = (await pv('pv-release'))!;
    assert.equal(v.spec.claimRef.name, 'short-lived');
    assert.equal(v.spec.persistentVolumeReclaimPolicy, 'Retain');
  });

  it('a pod\'s ephemeral volume gets its claim, owned by the pod, with the default class; it goes with the pod', async () => {
    await apply({
      apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name: 'standard', annotations: { 'storageclass.platform.io/is-default-class': 'true' } },
      provisioner: 'csi.example.com', volumeBindingMode: 'WaitForFirstConsumer',
    });
    await until(async () => (await s.request('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200, 'the default service account');
    await apply({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'scratchy', namespace: NS },
      spec: {
        containers: [{ name: 'c', image: 'busybox', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
        volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { metadata: { labels: { type: 'scratch' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } }],
      },
    });
    await until(async () => !!(await pvc('scratchy-scratch')), 'the ephemeral claim');
    const pod = JSON.parse(await kubectl(['get', 'pod', 'scratchy', '-o', 'json']));
    const c = (await pvc('scratchy-scratch'))!;
    assert.deepEqual(c.metadata.ownerReferences, [{ apiVersion: 'v1', kind: 'Pod', name: 'scratchy', uid: pod.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    assert.deepEqual(c.metadata.labels, { type: 'scratch' });
    // Admitted as a request: the default class and the protection finalizer.
    assert.equal(c.spec.storageClassName, 'standard');
    assert.deepEqual(c.metadata.finalizers, ['platform.io/pvc-protection']);
    // WaitForFirstConsumer: the binder waits for the pod to be scheduled.
    await until(async () => /WaitForPodScheduled\s+.*waiting for pod scratchy to be scheduled/.test(await kubectl(['describe', 'pvc', 'scratchy-scratch'])), 'WaitForPodScheduled');

    await kubectl(['delete', 'pod', 'scratchy', '--wait=true', '--timeout=20s']);
    await until(async () => !(await pvc('scratchy-scratch')), 'the ephemeral claim to be collected with its pod');
  });
});
