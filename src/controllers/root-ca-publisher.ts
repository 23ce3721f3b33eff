// The root CA publisher (Kubernetes' root-ca-cert-publisher): every namespace has the ConfigMap
// `kube-root-ca.crt` whose `ca.crt` is the server's CA, so that workloads can verify the API server.
// It is recreated when deleted and put back when edited.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import { deepEqual } from '../machinery/schema/walk.ts';
import { controllerContext } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import { isConflict } from '../machinery/status.ts';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const ROOT_CA_KEY = 'ca.crt';
export const DESCRIPTION_ANNOTATION = 'platform.io/description';
export const ROOT_CA_DESCRIPTION = 'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface RootCaPublisherDeps {
  namespaces: ResourceStore;
  configMaps: ResourceStore;
  caPem: string;
  log(line: string): void;
  resyncMs?: number;
}

export function startRootCaPublisher(deps: RootCaPublisherDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('root-ca-cert-publisher');
  const data = { [ROOT_CA_KEY]: deps.caPem };

  const queue = new WorkQueue(async (namespace) => {
    const ns = deps.namespaces.current('', namespace)?.object as ApiObject | undefined;
    // A terminating namespace is being emptied: publishing again would keep it from going.
    if (!ns || ns.metadata.deletionTimestamp) return;
    const cm = deps.configMaps.current(namespace, ROOT_CA_CONFIGMAP)?.object as ApiObject | undefined;
    if (!cm) {
      try {
        await deps.configMaps.create(namespace, {
          apiVersion: 'v1', kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, annotations: { [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION } },
          data: { ...data },
        } as ApiObject, { ctx, dryRun: false });
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
      return;
    }
    if (deepEqual(cm.data, data) && cm.metadata.annotations?.[DESCRIPTION_ANNOTATION]) return;
    await updateObject(deps.configMaps, ctx, namespace, ROOT_CA_CONFIGMAP, (obj) => {
      obj.data = { ...data };
      obj.metadata.annotations = { ...(obj.metadata.annotations ?? {}), [DESCRIPTION_ANNOTATION]: ROOT_CA_DESCRIPTION };
    });
  }, { name: 'root-ca-cert-publisher', log: deps.log });

  const informer = startInformer({
    stores: [deps.namespaces, deps.configMaps],
    onEvent(store, e) {
      if (store === deps.namespaces) { if (!e.deleted) queue.add(e.current.name); return; }
      if (e.current.name === ROOT_CA_CONFIGMAP) queue.add(e.current.namespace);
    },
    resync() { for (const ns of deps.namespaces.cache.list()) queue.add(ns.name); },
    resyncMs: deps.resyncMs ?? 30_000,
    log: deps.log,
    name: 'root-ca-cert-publisher',
  });
  return { queue, stop() { informer.stop(); queue.stop(); } };
}
