// ServiceAccount admission (Kubernetes' ServiceAccount plugin, on by default). On pod create: a pod that
// names no account runs as `default`; the account must exist in the pod's namespace; unless the pod or
// else the account turns automount off, the API token is mounted in every container; a pod without image
// pull secrets gets the account's; and an account annotated `platform.io/enforce-mountable-secrets: "true"`
// limits the pod to the secrets it lists. Mirror pods are only checked, never changed. Later changes to a
// pod's spec are refused by pod update validation, so updates are not looked at here.
import { setTimeout as sleep } from 'node:timers/promises';
import type { AdmissionAttributes, AdmissionPlugin } from './chain.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { admissionForbidden } from './forbidden.ts';
import { DEFAULT_SERVICE_ACCOUNT } from '../controllers/serviceaccounts.ts';
import {
  addImagePullSecrets, enforcesMountableSecrets, isMirrorPod, mirrorPodProblem, mountServiceAccountToken,
  podServiceAccountName, secretReferenceProblem, shouldAutomount,
} from './service-account-pod.ts';

type Obj = Record<string, any>;

/** The service account controller creates `default` moments after a namespace appears: a create that
 *  comes first looks again, as Kubernetes does (10 reads, 100 to 200 ms apart). */
const DEFAULT_ACCOUNT_READS = 10;
const retryIntervalMs = () => 100 + Math.floor(Math.random() * 100);

/** The pod creates this plugin looks at (the whole pod; its sub-resources are not created). */
function podCreate(attrs: AdmissionAttributes): boolean {
  const { def } = attrs.served;
  return def.plural === 'pods' && def.group === '' && attrs.operation === 'CREATE' && !attrs.ctx.subresource && !!attrs.object;
}

export function serviceAccountAdmission(serviceAccounts: () => ResourceStore | undefined): AdmissionPlugin {
  /** The account from the cache, else from storage (the cache may trail a just-created account). */
  const lookUp = async (attrs: AdmissionAttributes, name: string): Promise<ApiObject> => {
    const store = serviceAccounts();
    const cached = store?.current(attrs.namespace, name);
    if (cached) return cached.object as ApiObject;
    const reads = name === DEFAULT_SERVICE_ACCOUNT ? DEFAULT_ACCOUNT_READS : 1;
    const interval = retryIntervalMs();
    for (let i = 0; store && i < reads; i++) {
      if (i > 0) await sleep(interval);
      const found = await store.readNow(attrs.namespace, name);
      if (found) return found.object as ApiObject;
    }
    throw admissionForbidden(attrs, `error looking up service account ${attrs.namespace}/${name}: serviceaccount "${name}" not found`);
  };

  const checkSecrets = (attrs: AdmissionAttributes, serviceAccount: ApiObject, spec: Obj): void => {
    if (!enforcesMountableSecrets(serviceAccount)) return;
    const problem = secretReferenceProblem(serviceAccount, spec);
    if (problem) throw admissionForbidden(attrs, problem);
  };

  const checkMirrorPod = (attrs: AdmissionAttributes): void => {
    const problem = mirrorPodProblem(attrs.object!);
    if (problem) throw admissionForbidden(attrs, problem);
  };

  const admitPod = async (attrs: AdmissionAttributes, spec: Obj): Promise<void> => {
    const name = podServiceAccountName(spec) || DEFAULT_SERVICE_ACCOUNT;
    // Both fields, as the deprecated alias always reads back.
    spec.serviceAccountName = spec.serviceAccount = name;
    const serviceAccount = await lookUp(attrs, name);
    if (shouldAutomount(serviceAccount, spec)) mountServiceAccountToken(spec);
    addImagePullSecrets(serviceAccount, spec);
    checkSecrets(attrs, serviceAccount, spec);
  };

  /** The checks again on the final object (a later mutating plugin may have changed the pod). */
  const validatePod = async (attrs: AdmissionAttributes, spec: Obj): Promise<void> => {
    const name = podServiceAccountName(spec);
    if (!name) {
      throw admissionForbidden(attrs, `no service account specified for pod ${attrs.namespace}/${attrs.object!.metadata?.name ?? ''}`);
    }
    checkSecrets(attrs, await lookUp(attrs, name), spec);
  };

  /** Runs `then` on a non-mirror pod create; anything else returns at once (no promise for other kinds). */
  const onPodCreate = (attrs: AdmissionAttributes, then: (attrs: AdmissionAttributes, spec: Obj) => Promise<void>): void | Promise<void> => {
    if (!podCreate(attrs)) return;
    if (isMirrorPod(attrs.object!)) return checkMirrorPod(attrs);
    const object = attrs.object!;
    object.spec ??= {};
    // A spec of the wrong type is for validation to refuse.
    if (typeof object.spec !== 'object' || Array.isArray(object.spec)) return;
    return then(attrs, object.spec as Obj);
  };

  return {
    name: 'ServiceAccount',
    admit: (attrs) => onPodCreate(attrs, admitPod),
    validate: (attrs) => onPodCreate(attrs, validatePod),
  };
}
