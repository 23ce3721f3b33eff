import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  addImagePullSecrets, enforcesMountableSecrets, isMirrorPod, mirrorPodProblem, mountServiceAccountToken, podServiceAccountName,
  secretReferenceProblem, shouldAutomount, tokenVolumeSource, TOKEN_MOUNT_PATH,
} from './service-account-pod.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

type Obj = Record<string, any>;
const MOUNT = { name: 'kube-api-access-abcde', readOnly: true, mountPath: TOKEN_MOUNT_PATH };
const fixedName = (prefix: string) => `${prefix}abcde`;
const account = (fields: Obj = {}, annotations?: Record<string, string>): ApiObject => ({
  apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot', namespace: 'ns', ...(annotations ? { annotations } : {}) }, ...fields,
});
const ENFORCED = { 'platform.io/enforce-mountable-secrets': 'true' };

test('the token volume: a bound token for 3607 s, the root CA and the namespace, mode 0644', () => {
  assert.deepEqual(tokenVolumeSource(), {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  });
  assert.equal(TOKEN_MOUNT_PATH, '/var/run/secrets/platform.io/serviceaccount');
});

test('mounting: every init container and container, read-only, and one projected volume appended', () => {
  const spec: Obj = {
    initContainers: [{ name: 'init', image: 'busybox' }],
    containers: [{ name: 'a', image: 'nginx', volumeMounts: [{ name: 'data', mountPath: '/data' }] }, { name: 'b', image: 'nginx' }],
    volumes: [{ name: 'data', emptyDir: {} }],
  };
  mountServiceAccountToken(spec, fixedName);
  assert.deepEqual(spec.initContainers[0].volumeMounts, [MOUNT]);
  assert.deepEqual(spec.containers[0].volumeMounts, [{ name: 'data', mountPath: '/data' }, MOUNT]);
  assert.deepEqual(spec.containers[1].volumeMounts, [MOUNT]);
  assert.deepEqual(spec.volumes, [{ name: 'data', emptyDir: {} }, { name: 'kube-api-access-abcde', projected: tokenVolumeSource() }]);
});

test('mounting: a container that mounts something at the path keeps it; none left to mount adds no volume', () => {
  const own = { name: 'mine', mountPath: TOKEN_MOUNT_PATH };
  const spec: Obj = { containers: [{ name: 'a', volumeMounts: [own] }, { name: 'b' }] };
  mountServiceAccountToken(spec, fixedName);
  assert.deepEqual(spec.containers[0].volumeMounts, [own]);
  assert.deepEqual(spec.containers[1].volumeMounts, [MOUNT]);
  assert.equal(spec.volumes.length, 1);

  const allMounted: Obj = { containers: [{ name: 'a', volumeMounts: [own] }] };
  mountServiceAccountToken(allMounted, fixedName);
  assert.equal(allMounted.volumes, undefined);
});

test('mounting: a volume already named kube-api-access-* is the one mounted, and none is added', () => {
  const spec: Obj = { containers: [{ name: 'a' }], volumes: [{ name: 'kube-api-access-zzzzz', projected: { sources: [] } }] };
  mountServiceAccountToken(spec, fixedName);
  assert.deepEqual(spec.containers[0].volumeMounts, [{ ...MOUNT, name: 'kube-api-access-zzzzz' }]);
  assert.equal(spec.volumes.length, 1);
});

test('mounting: ephemeral containers and lists of the wrong type are left for validation', () => {
  const spec: Obj = { containers: [{ name: 'a', volumeMounts: 'x' }], ephemeralContainers: [{ name: 'e' }] };
  mountServiceAccountToken(spec, fixedName);
  assert.equal(spec.containers[0].volumeMounts, 'x');
  assert.equal(spec.ephemeralContainers[0].volumeMounts, undefined);
  assert.equal(spec.volumes, undefined);
  const badVolumes: Obj = { containers: [{ name: 'a' }], volumes: 'x' };
  mountServiceAccountToken(badVolumes, fixedName);
  assert.deepEqual([badVolumes.volumes, badVolumes.containers[0].volumeMounts], ['x', undefined]);
});

test('automount: the pod says, else the account, else yes', () => {
  assert.equal(shouldAutomount(account(), {}), true);
  assert.equal(shouldAutomount(account({ automountServiceAccountToken: false }), {}), false);
  assert.equal(shouldAutomount(account({ automountServiceAccountToken: false }), { automountServiceAccountToken: true }), true);
  assert.equal(shouldAutomount(account({ automountServiceAccountToken: true }), { automountServiceAccountToken: false }), false);
});

test('the account named: serviceAccountName, else the deprecated serviceAccount', () => {
  assert.equal(podServiceAccountName({}), '');
  assert.equal(podServiceAccountName({ serviceAccount: 'old' }), 'old');
  assert.equal(podServiceAccountName({ serviceAccountName: 'new', serviceAccount: 'old' }), 'new');
});

test('image pull secrets: the account\'s, by name, only when the pod has none', () => {
  const sa = account({ imagePullSecrets: [{ name: 'registry' }] });
  const bare: Obj = {};
  addImagePullSecrets(sa, bare);
  assert.deepEqual(bare.imagePullSecrets, [{ name: 'registry' }]);
  const own: Obj = { imagePullSecrets: [{ name: 'mine' }] };
  addImagePullSecrets(sa, own);
  assert.deepEqual(own.imagePullSecrets, [{ name: 'mine' }]);
  const none: Obj = {};
  addImagePullSecrets(account(), none);
  assert.equal(none.imagePullSecrets, undefined);
});

test('enforcement: the annotation must parse as true (Go ParseBool)', () => {
  for (const v of ['true', 'True', 'TRUE', 't', '1']) assert.equal(enforcesMountableSecrets(account({}, { 'platform.io/enforce-mountable-secrets': v })), true, v);
  for (const v of ['false', 'yes', '']) assert.equal(enforcesMountableSecrets(account({}, { 'platform.io/enforce-mountable-secrets': v })), false, v);
  assert.equal(enforcesMountableSecrets(account()), false);
});

test('mountable secrets: volumes, env and envFrom of init containers and containers, pull secrets, in Kubernetes\' words', () => {
  const sa = account({ secrets: [{ name: 'allowed' }], imagePullSecrets: [{ name: 'pull' }] }, ENFORCED);
  const problem = (spec: Obj) => secretReferenceProblem(sa, spec);
  const suffix = 'is not allowed because service account robot does not reference that secret';
  assert.equal(problem({ volumes: [{ name: 'v', secret: { secretName: 'allowed' } }], imagePullSecrets: [{ name: 'pull' }] }), undefined);
  assert.equal(problem({ volumes: [{ name: 'v', secret: { secretName: 'other' } }] }), `volume with secret.secretName="other" ${suffix}`);
  // Only secret volumes are limited: a projected secret is not.
  assert.equal(problem({ volumes: [{ name: 'v', projected: { sources: [{ secret: { name: 'other' } }] } }] }), undefined);
  const envRef = { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'other', key: 'p' } } };
  assert.equal(problem({ initContainers: [{ name: 'init', env: [envRef] }] }), `init container init with envVar PASSWORD referencing secret.secretName="other" ${suffix}`);
  assert.equal(problem({ initContainers: [{ name: 'init', envFrom: [{ secretRef: { name: 'other' } }] }] }), `init container init with envFrom referencing secret.secretName="other" ${suffix}`);
  assert.equal(problem({ containers: [{ name: 'app', env: [envRef] }] }), `container app with envVar PASSWORD referencing secret.secretName="other" ${suffix}`);
  assert.equal(problem({ containers: [{ name: 'app', envFrom: [{ configMapRef: { name: 'cm' } }, { secretRef: { name: 'other' } }] }] }), `container app with envFrom referencing secret.secretName="other" ${suffix}`);
  assert.equal(problem({ containers: [{ name: 'app', env: [{ name: 'A', value: 'x' }, { ...envRef, valueFrom: { secretKeyRef: { name: 'allowed', key: 'p' } } }] }] }), undefined);
  assert.equal(problem({ imagePullSecrets: [{ name: 'pull' }, { name: 'other' }] }),
    'imagePullSecrets[1].name="other" is not allowed because service account robot does not reference that imagePullSecret');
  // A pull secret is not a mountable secret, nor the reverse.
  assert.equal(problem({ imagePullSecrets: [{ name: 'allowed' }] }), 'imagePullSecrets[0].name="allowed" is not allowed because service account robot does not reference that imagePullSecret');
});

test('mirror pods: no account, no secret anywhere, no token projection', () => {
  const mirror = (spec: Obj): ApiObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'm', annotations: { 'platform.io/config.mirror': 'hash' } }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });
  assert.equal(isMirrorPod(mirror({})), true);
  assert.equal(isMirrorPod({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } }), false);
  assert.equal(mirrorPodProblem(mirror({})), undefined);
  assert.equal(mirrorPodProblem(mirror({ serviceAccountName: 'default' })), 'a mirror pod may not reference service accounts');
  assert.equal(mirrorPodProblem(mirror({ serviceAccount: 'default' })), 'a mirror pod may not reference service accounts');
  assert.equal(mirrorPodProblem(mirror({ imagePullSecrets: [{ name: 's' }] })), 'a mirror pod may not reference secrets');
  assert.equal(mirrorPodProblem(mirror({ volumes: [{ name: 'v', csi: { driver: 'd', nodePublishSecretRef: { name: 's' } } }] })), 'a mirror pod may not reference secrets');
  assert.equal(mirrorPodProblem(mirror({ containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 's' } }] }] })), 'a mirror pod may not reference secrets');
  assert.equal(mirrorPodProblem(mirror({ volumes: [{ name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] })),
    'a mirror pod may not use ServiceAccountToken volume projections');
});
