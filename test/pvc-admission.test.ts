// DefaultStorageClass and PersistentVolumeClaimResize, the two storage admission plugins Kubernetes v1.32
// has on by default, seen through the API.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from './support/capstan.ts';

const CLAIMS = '/api/v1/namespaces/default/persistentvolumeclaims';
const CLASSES = '/apis/storage.svc.io/v1/storageclasses';
const MERGE = { 'content-type': 'application/merge-patch+json' };
const DEFAULT = 'storageclass.platform.io/is-default-class';
const json = (v: unknown) => JSON.stringify(v);
const claim = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const storageClass = (name: string, extra: Record<string, unknown> = {}, annotations: Record<string, string> = {}) => ({
  apiVersion: 'storage.svc.io/v1', kind: 'StorageClass', metadata: { name, annotations }, provisioner: 'csi.example.com', ...extra,
});

describe('PersistentVolumeClaim admission: DefaultStorageClass and PersistentVolumeClaimResize', () => {
  let s: TestServer;
  const create = async (path: string, body: unknown) => {
    const r = await s.request('POST', path, { body: json(body) });
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const classOf = async (name: string) => (await s.kubectl(['get', 'pvc', name, '-o', 'jsonpath={.spec.storageClassName}'])).stdout;
  before(async () => { s = await startTestServer(); });
  after(async () => { await s?.stop(); });

  it('with no default class a claim naming none keeps none', async () => {
    await create(CLASSES, storageClass('plain'));
    const made = await create(CLAIMS, claim('before-default'));
    assert.equal(made.spec.storageClassName, undefined);
  });

  it('a claim naming no class gets the default one (kubectl create); "" and a named class stay', async () => {
    await create(CLASSES, storageClass('a-first-default', {}, { [DEFAULT]: 'true' }));
    const created = await s.kubectl(['create', '-f', '-'], json(claim('defaulted')));
    assert.equal(created.code, 0, created.stderr);
    assert.equal(await classOf('defaulted'), 'a-first-default');
    assert.equal((await create(CLAIMS, claim('no-class', { storageClassName: '' }))).spec.storageClassName, '');
    assert.equal((await create(CLAIMS, claim('named', { storageClassName: 'plain' }))).spec.storageClassName, 'plain');
    const annotated = await create(CLAIMS, { ...claim('annotated'), metadata: { name: 'annotated', annotations: { 'volume.beta.platform.io/storage-class': 'plain' } } });
    assert.equal(annotated.spec.storageClassName, undefined);
  });

  it('with two default classes the newer one is chosen, even when its name sorts last', async () => {
    const first = (await s.request('GET', `${CLASSES}/a-first-default`)).json();
    // Creation times have whole seconds: let one pass so the second default is strictly newer.
    while (new Date().toISOString().slice(0, 19) + 'Z' <= first.metadata.creationTimestamp) await sleep(50);
    await create(CLASSES, storageClass('z-newer-default', {}, { 'storageclass.beta.platform.io/is-default-class': 'true' }));
    assert.equal((await create(CLAIMS, claim('newest'))).spec.storageClassName, 'z-newer-default');
  });

  describe('resizing', () => {
    before(async () => {
      await create(CLASSES, storageClass('expandable', { allowVolumeExpansion: true }));
      await create(CLASSES, storageClass('fixed'));
    });
    const boundClaim = async (name: string, storageClassName: string) => {
      await create(CLAIMS, claim(name, { storageClassName, volumeName: `pv-${name}` }));
      const bound = await s.request('PATCH', `${CLAIMS}/${name}/status`, { body: json({ status: { phase: 'Bound', capacity: { storage: '1Gi' } } }), headers: MERGE });
      assert.equal(bound.status, 200, bound.body);
    };
    const grow = (name: string, storage = '2Gi') => s.kubectl(['patch', 'pvc', name, '-p', json({ spec: { resources: { requests: { storage } } } })]);
    const requested = async (name: string) => (await s.request('GET', `${CLAIMS}/${name}`)).json().spec.resources.requests.storage;

    it('growing an unbound claim is refused: its update validation answers before the plugin, as in Kubernetes', async () => {
      await create(CLAIMS, claim('unbound', { storageClassName: 'expandable' }));
      const r = await s.request('PATCH', `${CLAIMS}/unbound`, { body: json({ spec: { resources: { requests: { storage: '2Gi' } } } }), headers: MERGE });
      assert.equal(r.status, 422, r.body);
      assert.match(r.json().message, /spec: Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims/);
      assert.equal(await requested('unbound'), '1Gi');
    });

    it('growing a bound claim whose class does not allow expansion is forbidden (kubectl patch)', async () => {
      await boundClaim('fixed-size', 'fixed');
      const r = await grow('fixed-size');
      assert.notEqual(r.code, 0);
      assert.equal(r.stderr, 'Error from server (Forbidden): persistentvolumeclaims "fixed-size" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize\n');
      assert.equal(await requested('fixed-size'), '1Gi');
    });

    it('growing a bound claim of no class (raw PUT) or of a class that does not exist is forbidden', async () => {
      await boundClaim('no-class-size', '');
      const current = (await s.request('GET', `${CLAIMS}/no-class-size`)).json();
      current.spec.resources.requests.storage = '3Gi';
      const r = await s.request('PUT', `${CLAIMS}/no-class-size`, { body: json(current) });
      assert.equal(r.status, 403, r.body);
      assert.deepEqual([r.json().reason, r.json().details], ['Forbidden', { name: 'no-class-size', kind: 'persistentvolumeclaims' }]);
      assert.equal(r.json().message, 'persistentvolumeclaims "no-class-size" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
      await boundClaim('missing-class-size', 'never-created');
      const missing = await grow('missing-class-size');
      assert.match(missing.stderr, /persistentvolumeclaims "missing-class-size" is forbidden: only dynamically provisioned pvc/);
    });

    it('a bound claim of a class allowing expansion grows (kubectl patch)', async () => {
      await boundClaim('growing', 'expandable');
      const r = await grow('growing', '5Gi');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(await requested('growing'), '5Gi');
    });
  });
});
