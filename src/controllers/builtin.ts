// The controllers of Kubernetes' controller manager this API depends on, ready for the controller manager
// and switched on and off by --controllers like Kubernetes' (each by its short name or its v1.26+ name):
// garbagecollector, serviceaccount, root-ca-cert-publisher, csrapproving, csrsigning, resourcequota,
// serviceaccount-token, pvc-protection, pv-protection, persistentvolume-binder, ephemeral-volume, deployment,
// replicaset, horizontalpodautoscaling. All are on by default.
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import type { Attributes, Decision } from '../auth/authz/types.ts';
import type { PemPair } from '../pki/authority.ts';
import type { ControllerFactory } from './manager.ts';
import { startGarbageCollector } from './garbage-collector.ts';
import { startServiceAccountsController } from './serviceaccounts.ts';
import { startRootCaPublisher } from './root-ca-publisher.ts';
import { startCsrApproving } from './csr-approving.ts';
import { startCsrSigning } from './csr-signing.ts';
import { startResourceQuotaController } from './resourcequota.ts';
import { startServiceAccountTokensController } from './serviceaccount-tokens.ts';
import { startPvcProtectionController } from './pvc-protection.ts';
import { startPvProtectionController } from './pv-protection.ts';
import { startPersistentVolumeBinder } from './persistentvolume-binder.ts';
import { startEphemeralVolumeController } from './ephemeral-volume.ts';
import { startDeploymentController } from './deployment.ts';
import { startReplicaSetController } from './replicaset.ts';
import { eventRecorder } from './events.ts';
import { startHorizontalPodAutoscalerController } from './horizontal-pod-autoscaler.ts';
import type { SigningKey } from '../auth/authn/service-account-keys.ts';
import type { AdmittedCreate } from './client.ts';

/** Short names and the names Kubernetes gives them since v1.26; either works in --controllers. */
export const BUILTIN_CONTROLLERS: Record<string, string> = {
  'garbagecollector': 'garbage-collector-controller',
  'serviceaccount': 'serviceaccount-controller',
  'root-ca-cert-publisher': 'root-ca-certificate-publisher-controller',
  'csrapproving': 'certificatesigningrequest-approving-controller',
  'csrsigning': 'certificatesigningrequest-signing-controller',
  'resourcequota': 'resourcequota-controller',
  'serviceaccount-token': 'serviceaccount-token-controller',
  'pvc-protection': 'persistentvolumeclaim-protection-controller',
  'pv-protection': 'persistentvolume-protection-controller',
  'persistentvolume-binder': 'persistentvolume-binder-controller',
  'ephemeral-volume': 'ephemeral-volume-controller',
  'deployment': 'deployment-controller',
  'replicaset': 'replicaset-controller',
  'horizontalpodautoscaling': 'horizontal-pod-autoscaler-controller',
};

/** --controllers for an on-by-default controller: named (or `*`) and not excluded, by either name. */
export function builtinEnabled(name: string, list: readonly string[] = ['*']): boolean {
  const names = [name, BUILTIN_CONTROLLERS[name] ?? name];
  if (names.some((n) => list.includes(`-${n}`))) return false;
  return list.includes('*') || names.some((n) => list.includes(n));
}

export interface BuiltinControllerDeps {
  stores: ResourceStore[];
  storage: Storage;
  storeFor(group: string, plural: string): ResourceStore;
  /** The server's CA: published in every namespace, and the signer of approved requests. */
  ca: PemPair;
  /** The key secret-based service account tokens are signed with (the token controller runs only with one). */
  serviceAccountSigningKey?: SigningKey;
  authorize(attrs: Attributes): Promise<Decision>;
  /** --cluster-signing-duration. */
  clusterSigningDurationMs?: number;
  /** Creates an object through admission, as Kubernetes' controllers create through the API (server/admitted-create.ts). */
  createAdmitted: AdmittedCreate;
  /** Resync period of every controller (tests shorten it); each has Kubernetes' default otherwise. */
  resyncMs?: number;
  enabled?: readonly string[];
  log(line: string): void;
}

export function builtinControllers(deps: BuiltinControllerDeps): ControllerFactory[] {
  const { log, resyncMs } = deps;
  const namespaces = () => deps.storeFor('', 'namespaces');
  const csrs = () => deps.storeFor('certificates.svc.io', 'certificatesigningrequests');
  const events = () => deps.storeFor('', 'events');
  const all: Record<string, ControllerFactory> = {
    'garbagecollector': () => startGarbageCollector({ stores: deps.stores, storage: deps.storage, log, resyncMs }),
    'serviceaccount': () => startServiceAccountsController({ namespaces: namespaces(), serviceAccounts: deps.storeFor('', 'serviceaccounts'), log, resyncMs }),
    'root-ca-cert-publisher': () => startRootCaPublisher({ namespaces: namespaces(), configMaps: deps.storeFor('', 'configmaps'), caPem: deps.ca.certPem, log, resyncMs }),
    'csrapproving': () => startCsrApproving({ csrs: csrs(), authorize: deps.authorize, log, resyncMs }),
    'csrsigning': () => startCsrSigning({ csrs: csrs(), ca: deps.ca, maxDurationMs: deps.clusterSigningDurationMs, log, resyncMs }),
    'resourcequota': () => startResourceQuotaController({ quotas: deps.storeFor('', 'resourcequotas'), stores: deps.stores, log, resyncMs }),
    'pvc-protection': () => startPvcProtectionController({ claims: deps.storeFor('', 'persistentvolumeclaims'), pods: deps.storeFor('', 'pods'), storage: deps.storage, log, resyncMs }),
    'pv-protection': () => startPvProtectionController({ volumes: deps.storeFor('', 'persistentvolumes'), log, resyncMs }),
    'persistentvolume-binder': () => startPersistentVolumeBinder({
      volumes: deps.storeFor('', 'persistentvolumes'), claims: deps.storeFor('', 'persistentvolumeclaims'),
      classes: deps.storeFor('storage.svc.io', 'storageclasses'), pods: deps.storeFor('', 'pods'), log, resyncMs,
      events: eventRecorder(events(), 'persistentvolume-controller', log),
    }),
    'ephemeral-volume': () => startEphemeralVolumeController({
      pods: deps.storeFor('', 'pods'), claims: deps.storeFor('', 'persistentvolumeclaims'), createAdmitted: deps.createAdmitted, log, resyncMs,
      events: eventRecorder(events(), 'ephemeral_volume', log),
    }),
    'replicaset': () => startReplicaSetController({
      replicaSets: deps.storeFor('apps', 'replicasets'), pods: deps.storeFor('', 'pods'), createAdmitted: deps.createAdmitted, log, resyncMs,
      events: eventRecorder(events(), 'replicaset-controller', log),
    }),
    'horizontalpodautoscaling': () => startHorizontalPodAutoscalerController({
      autoscalers: deps.storeFor('autoscaling', 'horizontalpodautoscalers'),
      storeForKind: (group, kind) => deps.stores.find((s) => s.def.group === group && s.def.kind === kind),
      pods: deps.storeFor('', 'pods'), log, resyncMs, events: eventRecorder(events(), 'horizontal-pod-autoscaler', log),
    }),
    'deployment': () => startDeploymentController({
      deployments: deps.storeFor('apps', 'deployments'), replicaSets: deps.storeFor('apps', 'replicasets'), pods: deps.storeFor('', 'pods'),
      createAdmitted: deps.createAdmitted, log, resyncMs, events: eventRecorder(events(), 'deployment-controller', log),
    }),
  };
  const key = deps.serviceAccountSigningKey;
  if (key) {
    all['serviceaccount-token'] = () => startServiceAccountTokensController({
      secrets: deps.storeFor('', 'secrets'), serviceAccounts: deps.storeFor('', 'serviceaccounts'), signingKey: key, caPem: deps.ca.certPem, log, resyncMs,
    });
  }
  return Object.entries(all).filter(([name]) => builtinEnabled(name, deps.enabled)).map(([, start]) => start);
}
