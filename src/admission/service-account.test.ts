import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { serviceAccountAdmission } from './service-account.ts';
import { TOKEN_MOUNT_PATH, tokenVolumeSource } from './service-account-pod.ts';
import type { AdmissionAttributes } from './chain.ts';
import { serviceAccountKind } from '../apis/core/serviceaccount.ts';
import { podKind } from '../apis/core/pod.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { requestContext } from '../apis/kind-harness.ts';
import { StatusError } from '../machinery/status.ts';
import type { ServedResource } from '../server/apis.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

type Obj = Record<string, any>;
const storage = SqliteStorage.open(':memory:');
const accounts = new ResourceStore(serviceAccountKind, storage);
const served = (def: typeof podKind) => ({ def, store: new ResourceStore(def, storage) }) as unknown as ServedResource;
const pods = served(podKind);
before(async () => { await accounts.cache.start(); });
after(async () => { accounts.cache.stop(); await storage.close(); });

const write = { ctx: requestContext(), dryRun: false };
const createAccount = (namespace: string, name: string, fields: Obj = {}, annotations?: Record<string, string>) =>
  accounts.create(namespace, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, ...(annotations ? { annotations } : {}) }, ...fields } as ApiObject, write);

const plugin = serviceAccountAdmission(() => accounts);
const pod = (spec: Obj = {}, metadata: Obj = { name: 'p' }): ApiObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec },
});
const attrs = (object: ApiObject, namespace = 'ns', over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', served: pods, namespace, name: object.metadata.name ?? '', object, ctx: requestContext(), ...over,
});
/** Both phases, as the chain runs them; the pod as admitted. */
const admit = async (object: ApiObject, namespace = 'ns') => {
  const a = attrs(object, namespace);
  await plugin.admit!(a);
  await plugin.validate!(a);
  return a.object!.spec as Obj;
};
const refusal = async (object: ApiObject, namespace = 'ns') => {
  const err = await admit(object, namespace).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof StatusError, `expected a refusal, got ${String(err)}`);
  assert.equal(err.code, 403);
  assert.equal(err.reason, 'Forbidden');
  return err.message;
};

before(async () => {
  await createAccount('ns', 'default');
  await createAccount('ns', 'robot', { imagePullSecrets: [{ name: 'registry' }] });
  await createAccount('ns', 'quiet', { automountServiceAccountToken: false });
  await createAccount('ns', 'strict', { secrets: [{ name: 'allowed' }], imagePullSecrets: [{ name: 'pull' }] }, { 'platform.io/enforce-mountable-secrets': 'true' });
});

test('a pod that names no account runs as default, with the token mounted in every container', async () => {
  assert.equal(plugin.name, 'ServiceAccount');
  const spec = await admit(pod({ initContainers: [{ name: 'init', image: 'busybox' }] }));
  assert.deepEqual([spec.serviceAccountName, spec.serviceAccount], ['default', 'default']);
  const volume = spec.volumes.at(-1);
  assert.match(volume.name, /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.deepEqual(volume.projected, tokenVolumeSource());
  const mount = { name: volume.name, readOnly: true, mountPath: TOKEN_MOUNT_PATH };
  assert.deepEqual([spec.initContainers[0].volumeMounts, spec.containers[0].volumeMounts], [[mount], [mount]]);
});

test('the named account: its pull secrets when the pod has none; the deprecated field names it too', async () => {
  const spec = await admit(pod({ serviceAccountName: 'robot' }));
  assert.deepEqual(spec.imagePullSecrets, [{ name: 'registry' }]);
  const old = await admit(pod({ serviceAccount: 'robot', imagePullSecrets: [{ name: 'mine' }] }));
  assert.deepEqual([old.serviceAccountName, old.imagePullSecrets], ['robot', [{ name: 'mine' }]]);
});

test('automount off on the account, or on the pod, mounts nothing; the pod can turn it back on', async () => {
  const quiet = await admit(pod({ serviceAccountName: 'quiet' }));
  assert.deepEqual([quiet.volumes, quiet.containers[0].volumeMounts], [undefined, undefined]);
  const podSaysNo = await admit(pod({ automountServiceAccountToken: false }));
  assert.deepEqual([podSaysNo.volumes, podSaysNo.containers[0].volumeMounts], [undefined, undefined]);
  const podSaysYes = await admit(pod({ serviceAccountName: 'quiet', automountServiceAccountToken: true }));
  assert.equal(podSaysYes.volumes.length, 1);
});

test('an account that does not exist: 403 naming it, the pod by name or generateName', async () => {
  assert.equal(await refusal(pod({ serviceAccountName: 'ghost' })),
    'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found');
  assert.equal(await refusal(pod({ serviceAccountName: 'ghost' }, { generateName: 'web-' })),
    'pods "web-" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found');
});

test('the default account created while the pod waits for it (the controller trails the namespace) is found', async () => {
  const waiting = admit(pod(), 'fresh');
  await sleep(250);
  await createAccount('fresh', 'default');
  assert.equal((await waiting).serviceAccountName, 'default');
});

test('an enforcing account refuses what it does not list, after adding its own pull secrets', async () => {
  const suffix = 'is not allowed because service account strict does not reference that secret';
  const strict = (spec: Obj) => pod({ serviceAccountName: 'strict', ...spec });
  const ok = await admit(strict({ volumes: [{ name: 'v', secret: { secretName: 'allowed' } }] }));
  assert.deepEqual(ok.imagePullSecrets, [{ name: 'pull' }]);
  assert.equal(await refusal(strict({ volumes: [{ name: 'v', secret: { secretName: 'other' } }] })), `pods "p" is forbidden: volume with secret.secretName="other" ${suffix}`);
  assert.equal(await refusal(strict({ containers: [{ name: 'app', image: 'nginx', envFrom: [{ secretRef: { name: 'other' } }] }] })),
    `pods "p" is forbidden: container app with envFrom referencing secret.secretName="other" ${suffix}`);
  assert.equal(await refusal(strict({ imagePullSecrets: [{ name: 'other' }] })),
    'pods "p" is forbidden: imagePullSecrets[0].name="other" is not allowed because service account strict does not reference that imagePullSecret');
  // Without the annotation, nothing is limited.
  await admit(pod({ serviceAccountName: 'robot', volumes: [{ name: 'v', secret: { secretName: 'other' } }] }));
});

test('the validating phase checks the final pod again (a later plugin may have changed it)', async () => {
  const a = attrs(pod({ serviceAccountName: 'strict' }));
  await plugin.admit!(a);
  (a.object!.spec as Obj).volumes.push({ name: 'sneaky', secret: { secretName: 'other' } });
  await assert.rejects(Promise.resolve(plugin.validate!(a)), /volume with secret\.secretName="other"/);
  (a.object!.spec as Obj).serviceAccountName = (a.object!.spec as Obj).serviceAccount = '';
  await assert.rejects(Promise.resolve(plugin.validate!(a)), { message: 'pods "p" is forbidden: no service account specified for pod ns/p' });
});

test('mirror pods are not given an account or a token, and may not name one or any secret', async () => {
  const mirror = (spec: Obj = {}) => pod(spec, { name: 'm', annotations: { 'platform.io/config.mirror': 'x' } });
  const spec = await admit(mirror(), 'nowhere');
  assert.deepEqual([spec.serviceAccountName, spec.volumes], [undefined, undefined]);
  assert.equal(await refusal(mirror({ serviceAccountName: 'default' })), 'pods "m" is forbidden: a mirror pod may not reference service accounts');
  assert.equal(await refusal(mirror({ volumes: [{ name: 'v', secret: { secretName: 's' } }] })), 'pods "m" is forbidden: a mirror pod may not reference secrets');
});

test('other kinds, pod updates and pod sub-resources return at once, untouched', () => {
  const cm: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } };
  assert.equal(plugin.admit!(attrs(cm, 'ns', { served: served(configMapKind) })), undefined);
  assert.equal(plugin.validate!(attrs(cm, 'ns', { served: served(configMapKind) })), undefined);
  const p = pod({ serviceAccountName: 'ghost' });
  assert.equal(plugin.admit!(attrs(p, 'ns', { operation: 'UPDATE', oldObject: pod() })), undefined);
  assert.equal(plugin.admit!(attrs(p, 'ns', { ctx: requestContext('status') })), undefined);
  assert.equal(plugin.admit!(attrs(p, 'ns', { operation: 'DELETE', object: undefined })), undefined);
  assert.deepEqual(p.spec, pod({ serviceAccountName: 'ghost' }).spec);
});
