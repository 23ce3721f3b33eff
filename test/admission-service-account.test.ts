// ServiceAccount admission end to end: pods created with raw HTTP and with `kubectl run` get their account
// and the automounted API token; automount off on the account or the pod; a missing account and the
// enforce-mountable-secrets restriction refuse the pod with Kubernetes' 403; mirror pods; the race between
// a new namespace and its default account.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './support/capstan.ts';
import { call } from './support/write-helpers.ts';

const NS = 'sa-admission';
const MOUNT_PATH = '/var/run/secrets/platform.io/serviceaccount';
const TOKEN_PROJECTION = {
  defaultMode: 420,
  sources: [
    { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
    { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
    { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
  ],
};
const pods = (ns = NS) => `/api/v1/namespaces/${ns}/pods`;
const pod = (name: string, spec: object = {}, metadata: object = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});

/** The token volume a pod got, and that every container mounts it read-only at the token path. */
function assertTokenMounted(p: any): void {
  const volume = p.spec.volumes.find((v: any) => v.name.startsWith('kube-api-access-'));
  assert.ok(volume, JSON.stringify(p.spec.volumes));
  assert.match(volume.name, /^kube-api-access-[a-z0-9]{5}$/);
  assert.deepEqual(volume.projected, TOKEN_PROJECTION);
  for (const c of [...(p.spec.initContainers ?? []), ...p.spec.containers]) {
    assert.deepEqual(c.volumeMounts.filter((m: any) => m.mountPath === MOUNT_PATH), [{ name: volume.name, readOnly: true, mountPath: MOUNT_PATH }], c.name);
  }
}

function assertNothingMounted(p: any): void {
  assert.equal(p.spec.volumes, undefined, JSON.stringify(p.spec.volumes));
  for (const c of p.spec.containers) assert.equal(c.volumeMounts, undefined);
}

describe('ServiceAccount admission', () => {
  let s: TestServer;
  const create = async (body: object, ns = NS) => {
    const r = await call(s, 'POST', pods(ns), body);
    assert.equal(r.status, 201, r.body);
    return r.json();
  };
  const forbidden = async (body: object, message: string, ns = NS) => {
    const r = await call(s, 'POST', pods(ns), body);
    assert.equal(r.status, 403, r.body);
    assert.deepEqual([r.json().reason, r.json().message], ['Forbidden', message]);
  };
  const kubectl = async (args: string[], input?: string) => {
    const r = await s.kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    // The API tests' controllers: no service account controller, so the test makes the accounts.
    s = await startTestServer();
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    const account = async (name: string, fields: object = {}, annotations?: object) => {
      const r = await call(s, 'POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name, ...(annotations ? { annotations } : {}) }, ...fields });
      assert.equal(r.status, 201, r.body);
    };
    await account('default');
    await account('quiet', { automountServiceAccountToken: false });
    await account('strict', { secrets: [{ name: 'allowed' }], imagePullSecrets: [{ name: 'pull' }] }, { 'platform.io/enforce-mountable-secrets': 'true' });
  });
  after(async () => { await s.stop(); });

  it('a pod created over HTTP runs as default, with the API token mounted in every container', async () => {
    const p = await create(pod('raw', { initContainers: [{ name: 'init', image: 'busybox' }] }));
    assert.deepEqual([p.spec.serviceAccountName, p.spec.serviceAccount], ['default', 'default']);
    assertTokenMounted(p);
    // What is stored is what was answered.
    assert.deepEqual((await call(s, 'GET', `${pods()}/raw`)).json().spec, p.spec);
  });

  it('kubectl run: the same volume and mount', async () => {
    assert.match(await kubectl(['run', 'web', '--image=nginx:1.27', '-n', NS]), /pod\/web created/);
    const p = JSON.parse(await kubectl(['get', 'pod', 'web', '-n', NS, '-o', 'json']));
    assert.equal(p.spec.serviceAccountName, 'default');
    assertTokenMounted(p);
    // The account of an override, whose token is off.
    await kubectl(['run', 'quiet-web', '--image=nginx:1.27', '-n', NS, '--overrides', JSON.stringify({ spec: { serviceAccountName: 'quiet' } })]);
    assertNothingMounted(JSON.parse(await kubectl(['get', 'pod', 'quiet-web', '-n', NS, '-o', 'json'])));
  });

  it('automount off on the account or on the pod: no token; the pod\'s word wins over the account\'s', async () => {
    assertNothingMounted(await create(pod('sa-off', { serviceAccountName: 'quiet' })));
    assertNothingMounted(await create(pod('pod-off', { automountServiceAccountToken: false })));
    assertTokenMounted(await create(pod('pod-on', { serviceAccountName: 'quiet', automountServiceAccountToken: true })));
  });

  it('a container that mounts its own volume at the token path keeps it', async () => {
    const own = { name: 'mine', mountPath: MOUNT_PATH };
    const p = await create(pod('own-mount', {
      containers: [{ name: 'a', image: 'nginx', volumeMounts: [own] }, { name: 'b', image: 'nginx' }],
      volumes: [{ name: 'mine', emptyDir: {} }],
    }));
    assert.deepEqual(p.spec.containers[0].volumeMounts, [own]);
    assert.equal(p.spec.containers[1].volumeMounts[0].name, p.spec.volumes[1].name);
  });

  it('a missing account is refused with 403, over HTTP and through kubectl', async () => {
    await forbidden(pod('ghostly', { serviceAccountName: 'ghost' }),
      `pods "ghostly" is forbidden: error looking up service account ${NS}/ghost: serviceaccount "ghost" not found`);
    // A namespace without its default account (looked for again for a moment, then refused).
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'no-accounts' } })).status, 201);
    const r = await s.kubectl(['run', 'lonely', '--image=nginx', '-n', 'no-accounts']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Error from server \(Forbidden\): pods "lonely" is forbidden: error looking up service account no-accounts\/default: serviceaccount "default" not found/);
    assert.equal((await call(s, 'GET', `${pods('no-accounts')}/lonely`)).status, 404);
  });

  it('enforce-mountable-secrets: listed secrets pass; volumes, env, envFrom and pull secrets it does not list are refused', async () => {
    const strict = (name: string, spec: object) => pod(name, { serviceAccountName: 'strict', ...spec });
    const ok = await create(strict('listed', {
      volumes: [{ name: 'v', secret: { secretName: 'allowed' } }],
      containers: [{ name: 'app', image: 'nginx', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'allowed', key: 'p' } } }] }],
    }));
    assert.deepEqual(ok.spec.imagePullSecrets, [{ name: 'pull' }]);
    const notListed = 'is not allowed because service account strict does not reference that secret';
    await forbidden(strict('vol', { volumes: [{ name: 'v', secret: { secretName: 'other' } }] }),
      `pods "vol" is forbidden: volume with secret.secretName="other" ${notListed}`);
    await forbidden(strict('env', { containers: [{ name: 'app', image: 'nginx', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 'other', key: 'p' } } }] }] }),
      `pods "env" is forbidden: container app with envVar P referencing secret.secretName="other" ${notListed}`);
    await forbidden(strict('init-env-from', { initContainers: [{ name: 'init', image: 'busybox', envFrom: [{ secretRef: { name: 'other' } }] }] }),
      `pods "init-env-from" is forbidden: init container init with envFrom referencing secret.secretName="other" ${notListed}`);
    await forbidden(strict('pull', { imagePullSecrets: [{ name: 'other' }] }),
      'pods "pull" is forbidden: imagePullSecrets[0].name="other" is not allowed because service account strict does not reference that imagePullSecret');
    const r = await s.kubectl(['create', '-n', NS, '-f', '-'], JSON.stringify(strict('by-kubectl', { volumes: [{ name: 'v', secret: { secretName: 'other' } }] })));
    assert.match(r.stderr, /Error from server \(Forbidden\): error when creating "STDIN": pods "by-kubectl" is forbidden: volume with secret\.secretName="other" is not allowed/);
  });

  it('an update may not change the account or drop the token volume (pod update validation)', async () => {
    const p = (await call(s, 'GET', `${pods()}/raw`)).json();
    const other = structuredClone(p);
    other.spec.serviceAccountName = other.spec.serviceAccount = 'quiet';
    const changed = await call(s, 'PUT', `${pods()}/raw`, other);
    assert.equal(changed.status, 422, changed.body);
    assert.match(changed.json().message, /pod updates may not change fields other than/);
    const dropped = structuredClone(p);
    dropped.spec.volumes = [];
    assert.equal((await call(s, 'PUT', `${pods()}/raw`, dropped)).status, 422);
  });

  it('mirror pods keep no account and get no token, and may not name an account or a secret', async () => {
    const mirror = { annotations: { 'platform.io/config.mirror': 'abc' } };
    const p = await create(pod('static-web', { nodeName: 'node-1' }, mirror));
    assert.equal(p.spec.serviceAccountName, undefined);
    assertNothingMounted(p);
    await forbidden(pod('static-sa', { serviceAccountName: 'default' }, mirror), 'pods "static-sa" is forbidden: a mirror pod may not reference service accounts');
    await forbidden(pod('static-secret', { volumes: [{ name: 'v', secret: { secretName: 'allowed' } }] }, mirror), 'pods "static-secret" is forbidden: a mirror pod may not reference secrets');
  });

  it('other kinds are not looked at: a ConfigMap in a namespace without accounts is created', async () => {
    assert.equal((await call(s, 'POST', '/api/v1/namespaces/no-accounts/configmaps', { metadata: { name: 'c' } })).status, 201);
  });
});

describe('ServiceAccount admission with the service account controller', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer({ controllers: ['*'] }); });
  after(async () => { await s.stop(); });

  it('a pod created right after its namespace waits for the default account instead of failing', async () => {
    assert.equal((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'brand-new' } })).status, 201);
    const r = await call(s, 'POST', pods('brand-new'), pod('first'));
    assert.equal(r.status, 201, r.body);
    assertTokenMounted(r.json());
  });
});
