// Access control reads roles, bindings, service accounts, pods and secrets from the registry's watch caches.
// Caches follow storage a moment behind; reads that decide access first catch up with the storage's current
// revision, so that a binding, a deletion or a new service account counts from the moment it was answered.
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import type { CachedObject } from '../storage/cache.ts';
import { RBAC_GROUP, type RbacSource, type Role, type ClusterRole, type RoleBinding } from './authz/rbac/types.ts';
import type { NodeGraphSource, PodLike } from './authz/node.ts';
import type { BindingLookup, LiveObject } from './authn/service-account-tokens.ts';

/** The store of a resource, when the server serves it. */
export type StoreLookup = (group: string, resource: string) => ResourceStore | undefined;

/** How long a read waits for a cache to reach the storage revision before going on with what it has. */
const CATCH_UP_MS = 2000;

export class CacheFreshness {
  private readonly storage: Pick<Storage, 'currentRevision'>;
  constructor(storage: Pick<Storage, 'currentRevision'>) {
    this.storage = storage;
  }

  /** Waits until every given cache has seen every write answered so far. */
  async catchUp(stores: readonly (ResourceStore | undefined)[]): Promise<void> {
    const present = stores.filter((s): s is ResourceStore => !!s);
    if (!present.length) return;
    let rev: number;
    try {
      rev = await this.storage.currentRevision();
    } catch {
      // Storage unreachable: decide on what the caches hold, as Kubernetes' informers would.
      return;
    }
    await Promise.all(present.map((s) => (s.cache.revision >= rev ? true : s.cache.waitFor(rev, CATCH_UP_MS))));
  }
}

const objectOf = <T>(c: CachedObject | undefined) => c?.object as T | undefined;

export function rbacStores(lookup: StoreLookup): ResourceStore[] {
  return ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'].map((r) => lookup(RBAC_GROUP, r)).filter((s): s is ResourceStore => !!s);
}

/** RBAC objects straight from the caches (the RBAC authorizer and escalation checks read these). */
export function storeRbacSource(lookup: StoreLookup): RbacSource {
  const roles = () => lookup(RBAC_GROUP, 'roles');
  const clusterRoles = () => lookup(RBAC_GROUP, 'clusterroles');
  const roleBindings = () => lookup(RBAC_GROUP, 'rolebindings');
  const clusterRoleBindings = () => lookup(RBAC_GROUP, 'clusterrolebindings');
  return {
    getRole: (ns, name) => objectOf<Role>(roles()?.current(ns, name)),
    getClusterRole: (name) => objectOf<ClusterRole>(clusterRoles()?.current('', name)),
    listClusterRoleBindings: () => (clusterRoleBindings()?.cache.list() ?? []).map((c) => c.object as RoleBinding),
    listRoleBindings: (ns) => {
      const store = roleBindings();
      return store ? store.cache.list(store.listPrefix(ns)).map((c) => c.object as RoleBinding) : [];
    },
  };
}

/** Pods by the node they are bound to, kept up to date from the pods cache. */
export class PodsByNode implements NodeGraphSource {
  private readonly lookup: StoreLookup;
  private readonly byNode = new Map<string, Map<string, PodLike>>();
  private readonly nodeOf = new Map<string, string>();
  private unwatch: (() => void) | undefined;
  private started = false;

  constructor(lookup: StoreLookup) {
    this.lookup = lookup;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    const pods = this.lookup('', 'pods');
    if (!pods) return;
    for (const p of pods.cache.list()) this.put(p.key, p.object as PodLike);
    try {
      this.unwatch = pods.cache.watch(pods.cache.revision, {
        onEvent: (e) => (e.deleted ? this.remove(e.current.key) : this.put(e.current.key, e.current.object as PodLike)),
        // A stopped cache means the server is stopping; the index is not needed any more.
        onClose: () => { this.unwatch = undefined; },
      });
    } catch {
      this.started = false;
    }
  }

  private put(key: string, pod: PodLike): void {
    this.remove(key);
    const node = typeof pod.spec?.nodeName === 'string' ? pod.spec.nodeName : '';
    if (!node) return;
    let pods = this.byNode.get(node);
    if (!pods) this.byNode.set(node, pods = new Map());
    pods.set(key, pod);
    this.nodeOf.set(key, node);
  }

  private remove(key: string): void {
    const node = this.nodeOf.get(key);
    if (node === undefined) return;
    this.nodeOf.delete(key);
    const pods = this.byNode.get(node);
    pods?.delete(key);
    if (pods && !pods.size) this.byNode.delete(node);
  }

  podsOnNode(node: string): Iterable<PodLike> {
    this.start();
    return this.byNode.get(node)?.values() ?? [];
  }

  getPersistentVolumeClaim(namespace: string, name: string) {
    return objectOf<{ spec?: { volumeName?: string } }>(this.lookup('', 'persistentvolumeclaims')?.current(namespace, name));
  }

  getPersistentVolume(name: string) {
    return objectOf<{ spec?: Record<string, unknown> }>(this.lookup('', 'persistentvolumes')?.current('', name));
  }

  stores(): (ResourceStore | undefined)[] {
    return [this.lookup('', 'pods'), this.lookup('', 'persistentvolumeclaims'), this.lookup('', 'persistentvolumes')];
  }

  stop(): void {
    this.unwatch?.();
    this.unwatch = undefined;
  }
}

/** The objects a bound service account token names, read after the caches catch up. */
export function storeBindingLookup(lookup: StoreLookup, freshness: CacheFreshness): BindingLookup & { prepare(): Promise<void> } {
  const get = (resource: string, ns: string, name: string) => objectOf<LiveObject>(lookup('', resource)?.current(ns, name));
  return {
    prepare: () => freshness.catchUp(['serviceaccounts', 'pods', 'secrets', 'nodes'].map((r) => lookup('', r))),
    serviceAccount: (ns, name) => get('serviceaccounts', ns, name),
    pod: (ns, name) => get('pods', ns, name),
    secret: (ns, name) => get('secrets', ns, name),
    node: (name) => get('nodes', '', name),
  };
}
