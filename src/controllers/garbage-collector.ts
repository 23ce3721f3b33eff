// The garbage collector (Kubernetes' garbagecollector controller): deletes objects whose owners are gone,
// and carries out the two deletions the registry leaves to it through finalizers:
//  - `foregroundDeletion`: the owner's dependents are deleted; the owner goes once those that block it
//    (ownerReference blockOwnerDeletion=true) are gone;
//  - `orphan`: the owner's references are removed from its dependents, then the owner goes.
// It keeps a graph of every object that has owner references (dependents by owner uid) built from the
// watch caches; owners themselves are read from the caches, and an absence is trusted only once the cache
// is current (or storage says so, when the cache lags).
import type { ResourceStore } from '../registry/store.ts';
import type { Storage } from '../storage/interface.ts';
import { decodeKv, type CacheEvent, type CachedObject } from '../storage/cache.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { syncCache } from '../registry/list.ts';
import { SYSTEM_NAMESPACES } from '../admission/namespace-lifecycle.ts';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../registry/gc-finalizers.ts';
import { controllerContext, isDeletionCandidate, withoutFinalizer } from './client.ts';
import { updateObject } from '../registry/update-object.ts';
import { startInformer } from './informer.ts';
import { WorkQueue } from './work-queue.ts';
import { splitApiVersion } from '../machinery/group-version.ts';
import { isConflict, isNotFound } from '../machinery/status.ts';

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface GarbageCollectorDeps {
  /** Every store of the server: dependents are looked for in all of them, owners resolved among them. */
  stores: ResourceStore[];
  storage: Storage;
  log(line: string): void;
  /** How often the graph is rebuilt from the caches and dependents whose owner is missing are looked at
   *  again (default 30 s). */
  resyncMs?: number;
  /** Objects handled at the same time (default 8). */
  workers?: number;
}

interface ObjectId {
  store: ResourceStore;
  namespace: string;
  name: string;
  uid: string;
}

interface Dependent extends ObjectId {
  owners: OwnerReference[];
  deleting: boolean;
}

type OwnerState = { kind: 'absent' } | { kind: 'unresolvable' } | { kind: 'present'; object: ApiObject };

const ABSENT_CACHE_SIZE = 1000;
/** How long a cache may take to reach storage's revision before storage is read instead. */
const CACHE_WAIT_MS = 200;

/** Kinds the collector leaves alone: Kubernetes' default ignored resources are the Events. */
function tracked(store: ResourceStore): boolean {
  const def = store.def;
  return !def.createOnly && !def.storedAs && !(def.group === '' && def.plural === 'events');
}

export function ownerReferencesOf(obj: ApiObject): OwnerReference[] {
  const refs = obj.metadata?.ownerReferences;
  return Array.isArray(refs) ? (refs as OwnerReference[]).filter((r) => r && typeof r.uid === 'string' && r.uid) : [];
}

const groupOf = (apiVersion: string) => splitApiVersion(apiVersion).group;

const hasFinalizer = (obj: ApiObject, f: string) => Array.isArray(obj.metadata?.finalizers) && obj.metadata.finalizers.includes(f);
/** Being deleted, with the dependents to be deleted first. */
const deletingDependents = (obj: ApiObject) => isDeletionCandidate(obj, FOREGROUND_FINALIZER);
function setOwnerReferences(obj: ApiObject, refs: OwnerReference[]): void {
  const meta = obj.metadata as { ownerReferences?: OwnerReference[] };
  if (refs.length) meta.ownerReferences = refs; else delete meta.ownerReferences;
}
const sameOwners = (a: OwnerReference[], b: OwnerReference[]) => JSON.stringify(a) === JSON.stringify(b);

export function startGarbageCollector(deps: GarbageCollectorDeps): { stop(): void; queue: WorkQueue } {
  const ctx = controllerContext('generic-garbage-collector');
  const stores = deps.stores.filter(tracked);
  const byGroupKind = new Map<string, ResourceStore>();
  for (const s of deps.stores) if (!s.def.createOnly) byGroupKind.set(`${s.def.group}/${s.def.kind}`, s);

  const nodes = new Map<string, Dependent>();
  const dependentsOf = new Map<string, Set<string>>();
  /** Owners waiting for the collector: being deleted with a GC finalizer, or that a dependent left. */
  const ownerJobs = new Map<string, ObjectId>();
  const absent = new Set<string>();

  const queue = new WorkQueue(async (key) => {
    const [kind, uid] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    if (kind === 'dependent') await attemptToDelete(uid);
    else await processOwner(uid);
  }, { name: 'garbage collector', log: deps.log, workers: deps.workers ?? 8 });

  const link = (node: Dependent) => {
    for (const o of node.owners) {
      let set = dependentsOf.get(o.uid);
      if (!set) dependentsOf.set(o.uid, set = new Set());
      set.add(node.uid);
    }
  };
  const unlink = (node: Dependent) => {
    for (const o of node.owners) {
      const set = dependentsOf.get(o.uid);
      set?.delete(node.uid);
      if (set?.size === 0) dependentsOf.delete(o.uid);
    }
  };

  /** Where an owner reference of an object in `namespace` points, when that kind is served here. */
  const ownerTarget = (ref: OwnerReference, namespace: string): ObjectId | undefined => {
    const store = byGroupKind.get(`${groupOf(ref.apiVersion ?? '')}/${ref.kind}`);
    if (!store) return undefined;
    if (store.def.namespaced && !namespace) return undefined;
    return { store, namespace: store.def.namespaced ? namespace : '', name: ref.name, uid: ref.uid };
  };

  const enqueueOwner = (id: ObjectId) => {
    ownerJobs.set(id.uid, id);
    queue.add(`owner/${id.uid}`);
  };
  /** An owner a dependent left or stopped pointing to may now be free to go. */
  const ownerMayBeFree = (ref: OwnerReference, namespace: string) => {
    const target = ownerTarget(ref, namespace);
    if (!target) return;
    const owner = target.store.current(target.namespace, target.name)?.object as ApiObject | undefined;
    if (owner?.metadata?.uid === ref.uid && deletingDependents(owner)) enqueueOwner(target);
  };
  const enqueueDependents = (uid: string) => {
    for (const d of dependentsOf.get(uid) ?? []) queue.add(`dependent/${d}`);
  };

  const observe = (store: ResourceStore, e: CacheEvent) => {
    if (!e.deleted) {
      // An object without owners, not being deleted, that had no owners before (or is new) has no place in
      // the graph and leaves none: the cache says so without parsing it.
      if (outsideGraph(e.current) && (!e.previous || outsideGraph(e.previous))) return;
      observeObject(store, e.current);
      return;
    }
    const uid = (e.current.object as ApiObject).metadata?.uid;
    if (!uid) return;
    const prev = nodes.get(uid);
    if (prev) {
      nodes.delete(uid);
      unlink(prev);
      for (const o of prev.owners) ownerMayBeFree(o, prev.namespace);
    }
    ownerJobs.delete(uid);
    // Its dependents have lost an owner.
    enqueueDependents(uid);
  };

  const outsideGraph = (o: CachedObject) => !!o.meta && !o.meta.ownerReferences && !o.meta.deletionTimestamp;

  /** An object as it is now: its place in the graph, and the work it may need. */
  const observeObject = (store: ResourceStore, current: CachedObject) => {
    const obj = current.object as ApiObject;
    const uid = obj.metadata?.uid;
    if (!uid) return;
    const prev = nodes.get(uid);
    const owners = ownerReferencesOf(obj);
    const deleting = !!obj.metadata.deletionTimestamp;
    if (owners.length) {
      const node: Dependent = { store, namespace: current.namespace, name: current.name, uid, owners, deleting };
      if (prev) unlink(prev);
      nodes.set(uid, node);
      link(node);
      if (!prev || !sameOwners(prev.owners, owners) || prev.deleting !== deleting) queue.add(`dependent/${uid}`);
      if (prev && !sameOwners(prev.owners, owners)) for (const o of prev.owners) ownerMayBeFree(o, prev.namespace);
    } else if (prev) {
      nodes.delete(uid);
      unlink(prev);
      for (const o of prev.owners) ownerMayBeFree(o, prev.namespace);
    }
    if (deleting && (hasFinalizer(obj, ORPHAN_FINALIZER) || hasFinalizer(obj, FOREGROUND_FINALIZER))) {
      enqueueOwner({ store, namespace: current.namespace, name: current.name, uid });
      if (hasFinalizer(obj, FOREGROUND_FINALIZER)) enqueueDependents(uid);
    }
  };

  /** Rebuilds the graph from the caches and queues what may need work. */
  const resync = () => {
    nodes.clear();
    dependentsOf.clear();
    for (const store of stores) {
      for (const item of store.cache.unordered()) {
        // Only objects with owners, or on their way out, have a place in the graph; the cache says which
        // without parsing every object.
        if (item.meta && !item.meta.ownerReferences && !item.meta.deletionTimestamp) continue;
        const obj = item.object as ApiObject;
        const uid = obj.metadata?.uid;
        if (!uid) continue;
        const owners = ownerReferencesOf(obj);
        if (owners.length) {
          const node: Dependent = { store, namespace: item.namespace, name: item.name, uid, owners, deleting: !!obj.metadata.deletionTimestamp };
          nodes.set(uid, node);
          link(node);
        }
        if (obj.metadata.deletionTimestamp && (hasFinalizer(obj, ORPHAN_FINALIZER) || hasFinalizer(obj, FOREGROUND_FINALIZER))) {
          enqueueOwner({ store, namespace: item.namespace, name: item.name, uid });
        }
      }
    }
    // A dependent needs a look when one of its owners is not (or no longer) in the cache as referenced.
    for (const node of nodes.values()) {
      const missing = node.owners.some((o) => {
        const target = ownerTarget(o, node.namespace);
        if (!target) return false;
        const owner = target.store.current(target.namespace, target.name)?.object as ApiObject | undefined;
        return owner?.metadata?.uid !== o.uid || deletingDependents(owner);
      });
      if (missing) queue.add(`dependent/${node.uid}`);
    }
  };

  /** Whether an owner exists as referenced; an absence is trusted only once the cache is current. */
  const ownerState = async (ref: OwnerReference, dependent: ObjectId): Promise<OwnerState> => {
    const target = ownerTarget(ref, dependent.namespace);
    if (!target) return { kind: 'unresolvable' };
    if (absent.has(ref.uid)) return { kind: 'absent' };
    let found = target.store.current(target.namespace, target.name);
    if (found?.object.metadata?.uid !== ref.uid) {
      // Not in the cache as referenced: look again once it is current, or in storage if it lags.
      if (await syncCache(target.store, deps.storage, CACHE_WAIT_MS)) {
        found = target.store.current(target.namespace, target.name);
      } else {
        const { kv } = await deps.storage.get(target.store.key(target.namespace, target.name));
        found = kv && decodeKv(kv);
      }
    }
    if (!found || found.object.metadata?.uid !== ref.uid) {
      if (absent.size >= ABSENT_CACHE_SIZE) absent.clear();
      absent.add(ref.uid);
      return { kind: 'absent' };
    }
    return { kind: 'present', object: found.object as ApiObject };
  };

  /** Deletes with the uid (and, when given, resourceVersion) the decision was made on. */
  const deleteObject = async (id: ObjectId, policy: 'Orphan' | 'Background' | 'Foreground', resourceVersion: string | undefined, owners: OwnerReference[]) => {
    // What NamespaceLifecycle admission refuses to anyone, the collector does not do either.
    if (id.store.def.group === '' && id.store.def.plural === 'namespaces' && SYSTEM_NAMESPACES.includes(id.name)) return;
    const attempt = (rv: string | undefined) => id.store.delete(id.namespace, id.name, { ctx, dryRun: false, propagationPolicy: policy, preconditions: { uid: id.uid, resourceVersion: rv } });
    try {
      await attempt(resourceVersion);
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err) || !resourceVersion) throw err;
      // Changed since: delete anyway only if its owners are still those the decision saw.
      const live = id.store.current(id.namespace, id.name)?.object as ApiObject | undefined;
      if (!live || live.metadata.uid !== id.uid || !sameOwners(ownerReferencesOf(live), owners)) return;
      try { await attempt(undefined); } catch (e) { if (!isNotFound(e) && !isConflict(e)) throw e; }
    }
  };

  const attemptToDelete = async (uid: string) => {
    const node = nodes.get(uid);
    if (!node) return;
    const latest = node.store.current(node.namespace, node.name)?.object as ApiObject | undefined;
    if (!latest || latest.metadata.uid !== uid) return;
    // Already going; a foreground deletion of its own is the owner job's.
    if (latest.metadata.deletionTimestamp) return;
    const owners = ownerReferencesOf(latest);
    if (!owners.length) return;

    const solid: OwnerReference[] = [], dangling: OwnerReference[] = [], waiting: OwnerReference[] = [];
    for (const ref of owners) {
      const state = await ownerState(ref, node);
      if (state.kind === 'absent') dangling.push(ref);
      // A reference the collector cannot follow (an unknown kind, a namespaced owner of a cluster-scoped
      // object) never lets the object go.
      else if (state.kind === 'unresolvable') solid.push(ref);
      else if (deletingDependents(state.object)) waiting.push(ref);
      else solid.push(ref);
    }

    if (solid.length) {
      if (!dangling.length && !waiting.length) return;
      // It stays for its other owners: drop the references to those gone or going.
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      await updateObject(node.store, ctx, node.namespace, node.name, (obj) => {
        const kept = ownerReferencesOf(obj).filter((r) => !drop.has(r.uid));
        setOwnerReferences(obj, kept);
      }, { uid });
      return;
    }

    const rv = latest.metadata.resourceVersion;
    if (waiting.length && dependentsOf.get(uid)?.size) {
      // An owner waits in the foreground and this object has dependents of its own: it goes in the
      // foreground too. A dependent already doing so could close a cycle; unblock the owners first.
      const cycle = [...dependentsOf.get(uid)!].some((d) => {
        const dep = nodes.get(d);
        const live = dep && (dep.store.current(dep.namespace, dep.name)?.object as ApiObject | undefined);
        return !!live && deletingDependents(live);
      });
      if (cycle) {
        await updateObject(node.store, ctx, node.namespace, node.name, (obj) => {
          for (const r of ownerReferencesOf(obj)) if (r.blockOwnerDeletion) r.blockOwnerDeletion = false;
        }, { uid });
        await deleteObject(node, 'Foreground', undefined, owners);
        return;
      }
      await deleteObject(node, 'Foreground', rv, owners);
      return;
    }

    // No owner left to keep it: delete it, as its own GC finalizers ask.
    const first = (latest.metadata.finalizers ?? []).find((f: string) => f === ORPHAN_FINALIZER || f === FOREGROUND_FINALIZER);
    await deleteObject(node, first === ORPHAN_FINALIZER ? 'Orphan' : first === FOREGROUND_FINALIZER ? 'Foreground' : 'Background', rv, owners);
  };

  const removeFinalizer = (id: ObjectId, finalizer: string) =>
    updateObject(id.store, ctx, id.namespace, id.name, (obj) => withoutFinalizer(obj, finalizer), { uid: id.uid });

  /**
   * Makes sure the graph knows every dependent of `ownerUid` written up to now. A store whose cache has
   * reached storage's revision has given its events to `observe`; one that lags (on etcd an idle cache
   * learns the revision only from progress notifications) is read from storage for such dependents.
   */
  const dependentsCurrent = async (ownerUid: string) => {
    const revision = await deps.storage.currentRevision();
    await Promise.all(stores.map(async (store) => {
      if (await store.cache.waitFor(revision, CACHE_WAIT_MS)) return;
      const page = await deps.storage.range(store.keyRoot);
      for (const kv of page.kvs) {
        if (!kv.value.includes(ownerUid)) continue;
        const item = decodeKv(kv);
        if (ownerReferencesOf(item.object as ApiObject).some((o) => o.uid === ownerUid)) observeObject(store, item);
      }
    }));
  };

  const processOwner = async (uid: string) => {
    const id = ownerJobs.get(uid);
    if (!id) return;
    // Orphaning, and letting an owner go, trust the dependents the graph knows: it must know them all.
    await dependentsCurrent(uid);
    const done = () => { if (ownerJobs.get(uid) === id) ownerJobs.delete(uid); };
    const live = id.store.current(id.namespace, id.name)?.object as ApiObject | undefined;
    if (!live || live.metadata.uid !== uid || !live.metadata.deletionTimestamp) return done();

    if (hasFinalizer(live, ORPHAN_FINALIZER)) {
      // Orphan: every dependent forgets this owner, then the owner may go.
      for (const d of [...(dependentsOf.get(uid) ?? [])]) {
        const dep = nodes.get(d);
        if (!dep) continue;
        await updateObject(dep.store, ctx, dep.namespace, dep.name, (obj) => {
          const kept = ownerReferencesOf(obj).filter((r) => r.uid !== uid);
          setOwnerReferences(obj, kept);
        }, { uid: d });
      }
      await removeFinalizer(id, ORPHAN_FINALIZER);
      return done();
    }

    if (hasFinalizer(live, FOREGROUND_FINALIZER)) {
      const blocking = [...(dependentsOf.get(uid) ?? [])]
        .map((d) => nodes.get(d))
        .filter((dep): dep is Dependent => !!dep && dep.owners.some((o) => o.uid === uid && o.blockOwnerDeletion === true));
      if (!blocking.length) {
        await removeFinalizer(id, FOREGROUND_FINALIZER);
        return done();
      }
      // Still waiting: make sure each blocking dependent is on its way (their deletion brings us back).
      for (const dep of blocking) queue.add(`dependent/${dep.uid}`);
      return;
    }
    done();
  };

  const informer = startInformer({ stores, onEvent: observe, resync, resyncMs: deps.resyncMs ?? 30_000, log: deps.log, name: 'garbage collector' });
  return {
    queue,
    stop() { informer.stop(); queue.stop(); },
  };
}

