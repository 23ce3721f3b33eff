// ResourceQuota end to end: the controller fills status.hard and status.used; admission refuses what would
// exceed a limit, with Kubernetes' 403, and charges what it admits.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { until } from './support/until.ts';
import { call } from './support/write-helpers.ts';

const NS = 'quota';
const sorted = (m: Record<string, string> | undefined) => JSON.stringify(Object.entries(m ?? {}).sort());
const api = (resource: string, ns = NS) => `/api/v1/namespaces/${ns}/${resource}`;
const QUOTAS = api('resourcequotas');

const pod = (name: string, resources?: object, extra: object = {}) => ({
  metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox', ...(resources ? { resources } : {}) }], ...extra },
});
const pvc = (name: string, storage: string, storageClassName?: string) => ({
  metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...(storageClassName ? { storageClassName } : {}) },
});
const deployment = (name: string) => ({
  metadata: { name },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
});

describe('resource quota controller and admission', () => {
  let s: TestServer;
  before(async () => {
    // The default resync (5 minutes): a periodic recount could race a charge, as in Kubernetes, so the
    // quotas are all made here and only charges, deletes and releases happen in the tests.
    s = await startTestServer({ controllers: ['*'] });
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    // The namespace's own ConfigMap and ServiceAccount count too.
    await until(async () => (await call(s, 'GET', api('configmaps/kube-root-ca.crt'))).status === 200, 'the root CA ConfigMap');
    await until(async () => (await call(s, 'GET', api('serviceaccounts/default'))).status === 200, 'the default ServiceAccount');
    assert.equal((await call(s, 'POST', api('secrets'), { metadata: { name: 's1' } })).status, 201);
    const quotas: [string, object][] = [
      ['objects', { hard: { configmaps: '3', secrets: '2', 'count/secrets': '10', 'count/serviceaccounts': '5', services: '4', 'count/deployments.apps': '1', resourcequotas: '5' } }],
      ['compute', { hard: { 'requests.cpu': '1', 'requests.memory': '1Gi', 'limits.cpu': '2', pods: '5' } }],
      ['best-effort', { hard: { pods: '1' }, scopes: ['BestEffort'] }],
      ['storage', { hard: { persistentvolumeclaims: '3', 'requests.storage': '3Gi', 'gold.storageclass.storage.svc.io/requests.storage': '1Gi' } }],
      ['services', { hard: { 'services.nodeports': '1', 'services.loadbalancers': '0' } }],
    ];
    for (const [name, spec] of quotas) {
      const r = await call(s, 'POST', QUOTAS, { metadata: { name }, spec });
      assert.equal(r.status, 201, r.body);
    }
    for (const [name] of quotas) await counted(name);
    await until(async () => (await quota('objects')).status.used.resourcequotas === '5', 'every quota to be counted');
  });
  after(async () => { await s.stop(); });

  const create = (resource: string, body: object, ns = NS) => call(s, 'POST', resource.startsWith('/') ? resource : api(resource, ns), body);
  const quota = async (name: string) => (await call(s, 'GET', `${QUOTAS}/${name}`)).json();
  const counted = async (name: string) => {
    await until(async () => { const q = await quota(name); return !!q.status?.used && sorted(q.status.hard) === sorted(q.spec.hard); }, `${name} to be counted`);
    return (await quota(name)).status;
  };
  const forbidden = (r: { status: number; json(): any }, message: string) => {
    assert.equal(r.status, 403, JSON.stringify(r.json()));
    assert.equal(r.json().reason, 'Forbidden');
    assert.equal(r.json().message, message);
  };

  it('counts objects: status.hard is spec.hard, status.used what exists', async () => {
    const status = (await quota('objects')).status;
    assert.deepEqual(status.hard, (await quota('objects')).spec.hard);
    assert.deepEqual(status.used, {
      configmaps: '1', 'count/deployments.apps': '0', 'count/secrets': '1', 'count/serviceaccounts': '1', resourcequotas: '5', secrets: '1', services: '0',
    });
    assert.deepEqual((await quota('best-effort')).status.used, { pods: '0' });
    assert.deepEqual((await quota('storage')).status.used, { 'gold.storageclass.storage.svc.io/requests.storage': '0', persistentvolumeclaims: '0', 'requests.storage': '0' });
    const table = await s.kubectl(['get', 'quota', 'objects', '-n', NS, '--no-headers']);
    assert.match(table.stdout, /configmaps: 1\/3/);
  });

  it('a create is charged at once, and one past the limit is refused with Kubernetes\' message', async () => {
    assert.equal((await create('configmaps', { metadata: { name: 'c1' } })).status, 201);
    assert.equal((await quota('objects')).status.used.configmaps, '2');
    assert.equal((await create('configmaps', { metadata: { name: 'c2' } })).status, 201);
    forbidden(await create('configmaps', { metadata: { name: 'c3' } }),
      'configmaps "c3" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=3, limited: configmaps=3');
    // Quota runs once the registry has generated the name (after the validating webhooks), so it is named.
    const generated = await create('configmaps', { metadata: { generateName: 'gen-' } });
    assert.equal(generated.status, 403);
    assert.match(generated.json().message, /^configmaps "gen-[a-z0-9]{5}" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=3, limited: configmaps=3$/);
    // Both the bare and the count/ names limit secrets; only the exceeded one is named.
    assert.equal((await create('secrets', { metadata: { name: 's2' } })).status, 201);
    forbidden(await create('secrets', { metadata: { name: 's3' } }),
      'secrets "s3" is forbidden: exceeded quota: objects, requested: secrets=1, used: secrets=2, limited: secrets=2');
    const apps = await call(s, 'POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('d1'));
    assert.equal(apps.status, 201, apps.body);
    forbidden(await call(s, 'POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment('d2')),
      'deployments.apps "d2" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
    const kubectl = await s.kubectl(['create', 'configmap', 'c4', '-n', NS]);
    assert.equal(kubectl.code, 1);
    assert.equal(kubectl.stderr.trim(), 'error: failed to create configmap: configmaps "c4" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=3, limited: configmaps=3');
  });

  it('a dry run is checked but not charged; a delete gives the room back', async () => {
    forbidden(await create('configmaps?dryRun=All', { metadata: { name: 'c5' } }),
      'configmaps "c5" is forbidden: exceeded quota: objects, requested: configmaps=1, used: configmaps=3, limited: configmaps=3');
    assert.equal((await call(s, 'DELETE', api('configmaps/c1'))).status, 200);
    await until(async () => (await quota('objects')).status.used.configmaps === '2', 'the delete to be counted');
    assert.equal((await create('configmaps?dryRun=All', { metadata: { name: 'c5' } })).status, 201);
    assert.equal((await quota('objects')).status.used.configmaps, '2');
    assert.equal((await create('configmaps', { metadata: { name: 'c5' } })).status, 201);
    assert.equal((await quota('objects')).status.used.configmaps, '3');
  });

  it('raised limits are counted again; a quota in another namespace does not apply', async () => {
    const q = await quota('objects');
    q.spec.hard.configmaps = '4';
    assert.equal((await call(s, 'PUT', `${QUOTAS}/objects`, q)).status, 200);
    await until(async () => (await quota('objects')).status.hard.configmaps === '4', 'the new limit');
    assert.equal((await create('configmaps', { metadata: { name: 'c6' } })).status, 201);
    assert.equal((await create('configmaps', { metadata: { name: 'elsewhere' } }, 'default')).status, 201);
  });

  it('pods: compute requests and limits, the containers that must state them, scopes', async () => {
    forbidden(await create('pods', pod('bare')),
      'pods "bare" is forbidden: failed quota: compute: must specify limits.cpu for: c; requests.cpu for: c; requests.memory for: c');
    const sized = { requests: { cpu: '600m', memory: '512Mi' }, limits: { cpu: '1' } };
    const p1 = await create('pods', pod('p1', sized));
    assert.equal(p1.status, 201, p1.body);
    assert.deepEqual((await quota('compute')).status.used, { 'limits.cpu': '1', pods: '1', 'requests.cpu': '600m', 'requests.memory': '512Mi' });
    forbidden(await create('pods', pod('p2', sized)),
      'pods "p2" is forbidden: exceeded quota: compute, requested: requests.cpu=600m, used: requests.cpu=600m, limited: requests.cpu=1');
    // Limits alone stand for the requests, as pod defaulting fills them.
    forbidden(await create('pods', pod('p3', { limits: { cpu: '500m', memory: '600Mi' } })),
      'pods "p3" is forbidden: exceeded quota: compute, requested: requests.cpu=500m,requests.memory=600Mi, used: requests.cpu=600m,requests.memory=512Mi, limited: requests.cpu=1,requests.memory=1Gi');
    // A finished pod uses nothing any more.
    const done = await call(s, 'GET', api('pods/p1'));
    const finished = { ...done.json(), status: { phase: 'Succeeded' } };
    assert.equal((await call(s, 'PUT', api('pods/p1/status'), finished)).status, 200);
    await until(async () => (await quota('compute')).status.used.pods === '0', 'the finished pod to be released');
    assert.deepEqual((await quota('compute')).status.used, { 'limits.cpu': '0', pods: '0', 'requests.cpu': '0', 'requests.memory': '0' });
    assert.equal((await create('pods', pod('p2', sized))).status, 201);
    assert.equal((await quota('best-effort')).status.used.pods, '0');
  });

  it('storage: claims, requested storage, and per storage class', async () => {
    const c1 = await create('persistentvolumeclaims', pvc('claim-1', '2Gi'));
    assert.equal(c1.status, 201, c1.body);
    forbidden(await create('persistentvolumeclaims', pvc('claim-2', '2Gi')),
      'persistentvolumeclaims "claim-2" is forbidden: exceeded quota: storage, requested: requests.storage=2Gi, used: requests.storage=2Gi, limited: requests.storage=3Gi');
    forbidden(await create('persistentvolumeclaims', pvc('gold-1', '1500Mi', 'gold')),
      'persistentvolumeclaims "gold-1" is forbidden: exceeded quota: storage, requested: gold.storageclass.storage.svc.io/requests.storage=1500Mi,requests.storage=1500Mi, used: gold.storageclass.storage.svc.io/requests.storage=0,requests.storage=2Gi, limited: gold.storageclass.storage.svc.io/requests.storage=1Gi,requests.storage=3Gi');
    assert.equal((await create('persistentvolumeclaims', pvc('gold-2', '1Gi', 'gold'))).status, 201);
    assert.deepEqual((await quota('storage')).status.used, { 'gold.storageclass.storage.svc.io/requests.storage': '1Gi', persistentvolumeclaims: '2', 'requests.storage': '3Gi' });
  });

  it('services: node ports and load balancers', async () => {
    const port = (n: number) => ({ name: `p${n}`, port: 80 + n });
    assert.equal((await create('services', { metadata: { name: 'plain' }, spec: { ports: [port(0)] } })).status, 201);
    forbidden(await create('services', { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [port(1), port(2)] } }),
      'services "np" is forbidden: exceeded quota: services, requested: services.nodeports=2, used: services.nodeports=0, limited: services.nodeports=1');
    forbidden(await create('services', { metadata: { name: 'lb' }, spec: { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [port(3)] } }),
      'services "lb" is forbidden: exceeded quota: services, requested: services.loadbalancers=1, used: services.loadbalancers=0, limited: services.loadbalancers=0');
  });
});

describe('resource quota admission without the controller', () => {
  it('a quota whose status is unknown refuses; one the controller never filled is not enforced', async () => {
    const s = await startTestServer({ controllers: ['*', '-resourcequota-controller'] });
    try {
      assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
      assert.equal((await call(s, 'POST', QUOTAS, { metadata: { name: 'unfilled' }, spec: { hard: { configmaps: '0' } } })).status, 201);
      assert.equal((await call(s, 'POST', api('configmaps'), { metadata: { name: 'free' } })).status, 201);
      // Limits without usage: the status is unknown.
      const q = (await call(s, 'GET', `${QUOTAS}/unfilled`)).json();
      q.status = { hard: { configmaps: '1', secrets: '1' } };
      assert.equal((await call(s, 'PUT', `${QUOTAS}/unfilled/status`, q)).status, 200);
      forbidden(s, await call(s, 'POST', api('configmaps'), { metadata: { name: 'unknown' } }),
        'configmaps "unknown" is forbidden: status unknown for quota: unfilled, resources: configmaps');
      // With usage, admission alone charges and refuses.
      const q2 = (await call(s, 'GET', `${QUOTAS}/unfilled`)).json();
      q2.status = { hard: { configmaps: '1' }, used: { configmaps: '0' } };
      assert.equal((await call(s, 'PUT', `${QUOTAS}/unfilled/status`, q2)).status, 200);
      assert.equal((await call(s, 'POST', api('configmaps'), { metadata: { name: 'one' } })).status, 201);
      assert.deepEqual((await call(s, 'GET', `${QUOTAS}/unfilled`)).json().status.used, { configmaps: '1' });
      forbidden(s, await call(s, 'POST', api('configmaps'), { metadata: { name: 'two' } }),
        'configmaps "two" is forbidden: exceeded quota: unfilled, requested: configmaps=1, used: configmaps=1, limited: configmaps=1');
      // Writes to other kinds, and status writes, are not charged.
      assert.equal((await call(s, 'POST', api('secrets'), { metadata: { name: 'sec' } })).status, 201);
    } finally {
      await s.stop();
    }
  });
});

function forbidden(_s: TestServer, r: { status: number; json(): any }, message: string): void {
  assert.equal(r.status, 403, JSON.stringify(r.json()));
  assert.equal(r.json().message, message);
}
