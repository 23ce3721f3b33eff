// NamespaceLifecycle: no new objects in a namespace that does not exist or is being terminated,
// and default, kube-system and kube-public cannot be deleted (kube-node-lease can: the server makes it again).
import type { AdmissionAttributes, AdmissionPlugin } from './chain.ts';
import type { ResourceStore } from '../registry/store.ts';
import * as status from '../machinery/status.ts';

/** The namespaces the server makes and keeps. */
export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
/** Kubernetes' immortal namespaces: NamespaceLifecycle refuses to delete them. */
const IMMORTAL_NAMESPACES = ['default', 'kube-system', 'kube-public'];

export function namespaceLifecycle(namespaces: () => ResourceStore): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    // In the mutating phase, first, as in Kubernetes: a missing namespace is the answer before any other plugin looks.
    // A namespace in the cache is decided at once; only one missing from it is looked up in storage.
    admit(attrs) {
      const { served, operation } = attrs;
      if (served.def.group === '' && served.def.plural === 'namespaces') {
        if (operation === 'DELETE' && IMMORTAL_NAMESPACES.includes(attrs.name)) {
          throw status.forbidden(served.store.gr, attrs.name, `this namespace may not be deleted`);
        }
        return;
      }
      if (!served.def.namespaced || operation !== 'CREATE') return;
      const cached = namespaces().current('', attrs.namespace);
      if (cached) return admitIn(cached.object, attrs);
      // Not in the cache may mean not seen yet (a namespace just created): ask storage, as Kubernetes does a live lookup.
      return namespaces().readNow('', attrs.namespace).then((ns) => admitIn(ns?.object, attrs));
    },
  };
}

/** A create in namespace `ns` (undefined: there is none). */
function admitIn(ns: Record<string, any> | undefined, attrs: AdmissionAttributes): void {
  if (!ns) throw status.notFound({ group: '', resource: 'namespaces' }, attrs.namespace);
  if (ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating') {
    // admission.NewForbidden names the object by its generateName before a name is generated.
    const meta = attrs.object?.metadata;
    const name = attrs.name || meta?.name || meta?.generateName || 'Unknown';
    const err = status.forbidden(attrs.served.store.gr, name, `unable to create new content in namespace ${attrs.namespace} because it is being terminated`);
    err.details!.causes = [{ reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace' }];
    throw err;
  }
}
