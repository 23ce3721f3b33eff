// What the ServiceAccount admission plugin does to and checks on a pod spec, as plain functions over the
// JSON: the automounted API token volume and its mounts, the service account's image pull secrets, the
// mountable-secrets restriction and the limits on mirror pods. The plugin (service-account.ts) looks the
// service account up and calls these.
import { generateName } from '../registry/names.ts';
import { podReferences } from '../auth/authz/node.ts';
import { ROOT_CA_CONFIGMAP, ROOT_CA_KEY } from '../controllers/root-ca-publisher.ts';
import { ENFORCE_MOUNTABLE_SECRETS_ANNOTATION } from '../apis/core/serviceaccount.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { goParseBool } from '../machinery/go-format.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** Where the token, the CA bundle and the namespace are mounted in every container. */
export const TOKEN_MOUNT_PATH = '/var/run/secrets/platform.io/serviceaccount';
/** The automounted volume's name is this prefix plus five random characters; a volume with the prefix is one. */
export const TOKEN_VOLUME_PREFIX = 'kube-api-access-';
/** Kubernetes' WarnOnlyBoundTokenExpirationSeconds: an hour and seven seconds, so that the token's
 *  issuer can recognise an automounted token. */
export const TOKEN_EXPIRATION_SECONDS = 3607;
/** Set by the node agent on the pods it mirrors from static manifests. */
export const MIRROR_POD_ANNOTATION = 'platform.io/config.mirror';

/** The projected volume source of the automounted token (Kubernetes' TokenVolumeSource). */
export function tokenVolumeSource(): Obj {
  return {
    defaultMode: 0o644,
    sources: [
      { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
      { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: ROOT_CA_KEY, path: ROOT_CA_KEY }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

export function isMirrorPod(pod: ApiObject): boolean {
  const annotations = pod.metadata?.annotations;
  return isObj(annotations) && Object.hasOwn(annotations, MIRROR_POD_ANNOTATION);
}

/** The account a pod names: `serviceAccountName`, else the deprecated `serviceAccount` alias; '' for none. */
export function podServiceAccountName(spec: Obj): string {
  const name = spec.serviceAccountName || spec.serviceAccount;
  return typeof name === 'string' ? name : '';
}

/** The pod's own setting wins, then the account's; a token is mounted unless one of them says false. */
export function shouldAutomount(serviceAccount: ApiObject, spec: Obj): boolean {
  if (typeof spec.automountServiceAccountToken === 'boolean') return spec.automountServiceAccountToken;
  if (typeof serviceAccount.automountServiceAccountToken === 'boolean') return serviceAccount.automountServiceAccountToken;
  return true;
}

/**
 * Mounts the API token read-only in every init container and container that mounts nothing at the token
 * path, and adds the projected volume they mount unless the pod already has one (a volume named with the
 * prefix, whose name the mounts then use). Ephemeral containers cannot be set on create and get nothing.
 */
export function mountServiceAccountToken(spec: Obj, generate: (prefix: string) => string = generateName): void {
  const volumes = spec.volumes;
  if (volumes !== undefined && volumes !== null && !Array.isArray(volumes)) return;
  const existing = objects(volumes).find((v) => typeof v.name === 'string' && v.name.startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName: string = existing ? existing.name : generate(TOKEN_VOLUME_PREFIX);
  let needsVolume = false;
  for (const field of ['initContainers', 'containers']) {
    for (const container of objects(spec[field])) {
      const mounts = container.volumeMounts;
      if (mounts !== undefined && mounts !== null && !Array.isArray(mounts)) continue;
      // Something already mounted at the path keeps the token out of this container.
      if (objects(mounts).some((m) => m.mountPath === TOKEN_MOUNT_PATH)) continue;
      container.volumeMounts = [...(mounts ?? []), { name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH }];
      needsVolume = true;
    }
  }
  if (!existing && needsVolume) spec.volumes = [...(volumes ?? []), { name: volumeName, projected: tokenVolumeSource() }];
}

/** A pod that names no image pull secrets gets its account's. */
export function addImagePullSecrets(serviceAccount: ApiObject, spec: Obj): void {
  if (Array.isArray(spec.imagePullSecrets) && spec.imagePullSecrets.length > 0) return;
  const names = objects(serviceAccount.imagePullSecrets).map((ref) => ({ name: ref.name }));
  if (names.length > 0) spec.imagePullSecrets = names;
}

/** Whether the account restricts its pods to the secrets it lists. */
export function enforcesMountableSecrets(serviceAccount: ApiObject): boolean {
  const annotations = serviceAccount.metadata?.annotations;
  if (!isObj(annotations) || !Object.hasOwn(annotations, ENFORCE_MOUNTABLE_SECRETS_ANNOTATION)) return false;
  // The value must parse as true by Go's strconv.ParseBool.
  return goParseBool(String(annotations[ENFORCE_MOUNTABLE_SECRETS_ANNOTATION])) === true;
}

const names = (refs: unknown): Set<unknown> => new Set(objects(refs).map((ref) => ref.name ?? ''));

/** The first reference to a secret the account does not list, worded as Kubernetes words it; none when all are listed. */
export function secretReferenceProblem(serviceAccount: ApiObject, spec: Obj): string | undefined {
  const account = serviceAccount.metadata?.name ?? '';
  const mountable = names(serviceAccount.secrets);
  const notListed = ` is not allowed because service account ${account} does not reference that secret`;
  for (const volume of objects(spec.volumes)) {
    if (!isObj(volume.secret)) continue;
    const secret = volume.secret.secretName ?? '';
    if (!mountable.has(secret)) return `volume with secret.secretName="${secret}"${notListed}`;
  }
  for (const [field, what] of [['initContainers', 'init container'], ['containers', 'container']] as const) {
    for (const container of objects(spec[field])) {
      for (const env of objects(container.env)) {
        const ref = env.valueFrom?.secretKeyRef;
        if (isObj(ref) && !mountable.has(ref.name ?? '')) {
          return `${what} ${container.name ?? ''} with envVar ${env.name ?? ''} referencing secret.secretName="${ref.name ?? ''}"${notListed}`;
        }
      }
      for (const envFrom of objects(container.envFrom)) {
        const ref = envFrom.secretRef;
        if (isObj(ref) && !mountable.has(ref.name ?? '')) {
          return `${what} ${container.name ?? ''} with envFrom referencing secret.secretName="${ref.name ?? ''}"${notListed}`;
        }
      }
    }
  }
  const pullable = names(serviceAccount.imagePullSecrets);
  const pullSecrets = Array.isArray(spec.imagePullSecrets) ? spec.imagePullSecrets : [];
  for (let i = 0; i < pullSecrets.length; i++) {
    const secret = isObj(pullSecrets[i]) ? pullSecrets[i].name ?? '' : '';
    if (!pullable.has(secret)) {
      return `imagePullSecrets[${i}].name="${secret}" is not allowed because service account ${account} does not reference that imagePullSecret`;
    }
  }
  return undefined;
}

/** Mirror pods run without the API: no service account, no secret of any kind, no projected token. */
export function mirrorPodProblem(pod: ApiObject): string | undefined {
  const spec = (isObj(pod.spec) ? pod.spec : {}) as Obj;
  if (podServiceAccountName(spec)) return 'a mirror pod may not reference service accounts';
  if (podReferences({ metadata: pod.metadata, spec }).secrets.size > 0) return 'a mirror pod may not reference secrets';
  for (const volume of objects(spec.volumes)) {
    if (objects(volume.projected?.sources).some((source) => isObj(source.serviceAccountToken))) {
      return 'a mirror pod may not use ServiceAccountToken volume projections';
    }
  }
  return undefined;
}
