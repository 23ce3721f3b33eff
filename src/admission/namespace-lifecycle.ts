// NamespaceLifecycle: no new objects in a namespace that does not exist or is being terminated,
// and the four system namespaces cannot be deleted.
import type { AdmissionPlugin } from './chain.ts';
import type { ResourceStore } from '../registry/store.ts';
import * as status from '../machinery/status.ts';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export function namespaceLifecycle(namespaces: () => ResourceStore): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    // In the mutating phase, first, as in Kubernetes: a missing namespace is the answer before any other plugin looks.
    async admit(attrs) {
      const { served, operation } = attrs;
      if (served.def.group === '' && served.def.plural === 'namespaces') {
        if (operation === 'DELETE' && SYSTEM_NAMESPACES.includes(attrs.name)) {
          throw status.forbidden(served.store.gr, attrs.name, `this namespace may not be deleted`);
        }
        return;
      }
      if (!served.def.namespaced || operation !== 'CREATE') return;
      // Not in the cache may mean not seen yet (a namespace just created): ask storage, as Kubernetes does a live lookup.
      const ns = namespaces().current('', attrs.namespace) ?? await namespaces().readNow('', attrs.namespace);
      if (!ns) throw status.notFound({ group: '', resource: 'namespaces' }, attrs.namespace);
      if (ns.object.metadata?.deletionTimestamp || ns.object.status?.phase === 'Terminating') {
        throw status.forbidden(served.store.gr, attrs.name, `unable to create new content in namespace ${attrs.namespace} because it is being terminated`);
      }
    },
  };
}
