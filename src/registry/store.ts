// The generic registry: one ResourceStore per kind serves every verb from the kind's declaration.
// Objects here are always in the kind's storage version; codecs and conversion live above.
//
// Reads come from the watch cache, which may trail storage by a moment. Writes are compare-and-swap on
// the revision they read, as Kubernetes' GuaranteedUpdate: a write that loses the swap starts over from
// the object storage answered with (no limit: each loss means another write went through), and before an
// error (not found, conflict) or a no-op is answered from a cached object, the object is read from
// storage and the write tried again on it (the cache may not have seen the client's own last write yet).
import { randomUUID } from 'node:crypto';
import type { KindDefinition, RequestContext } from '../apis/kind.ts';
import { apiVersionOf } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { type KeyValue, type Storage, KeyExistsError, KeyNotFoundError, ModRevisionMismatchError, StoreUnavailableError, StorageError } from '../storage/interface.ts';
import { WatchCache, type CachedObject, type EncodedObject, decodeKv, encodeObject } from '../storage/cache.ts';
import * as status from '../machinery/status.ts';
import { type FieldError, fieldErrorText } from '../machinery/field-errors.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../machinery/validation/objectmeta.ts';
import { nameIsDNSSubdomain, nameIsDNSLabel, nameIsPathSegment } from '../machinery/validation/strings.ts';
import { applyDefaults } from '../machinery/schema/defaults.ts';
import { normalizeAsGoEncodes } from '../machinery/go-encoding.ts';
import { keepManagedFieldsTimes } from '../machinery/managed-fields-times.ts';
import { updateTracker } from '../machinery/apply/kind-scope.ts';
import { uncoveredStructuralErrors, validateStructure } from '../machinery/schema/validate.ts';
import { deepClone, deepEqual, deepEqualMetadataLast } from '../machinery/schema/walk.ts';
import { generateName, nowRfc3339 } from './names.ts';
import { revisionNow } from '../storage/revision-now.ts';
import { OwnWrites } from './own-writes.ts';
import { deletionFinalizers, namespaceDeletionFinalizers } from './gc-finalizers.ts';

export interface WriteOptions {
  ctx: RequestContext;
  dryRun: boolean;
  /** Records field ownership (metadata.managedFields) on the object about to be written, once defaulted;
   *  `old` is absent on create. */
  trackFields?(obj: ApiObject, old: ApiObject | undefined): void;
  /** Validating admission of the object as it will be written (defaulted, prepared, validated by the kind);
   *  `old` is absent on create. Answers nothing when there is nothing to wait for. */
  validateAdmission?(obj: ApiObject, old: ApiObject | undefined): Promise<void> | undefined;
  /** A create from a client: one that carries a resourceVersion fails as Kubernetes' storage fails it. */
  refuseResourceVersion?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  /** Orphan adds the `orphan` finalizer, Foreground `foregroundDeletion` (the garbage collector handles
   *  both); absent, a GC finalizer on the object or the kind's default policy decides. */
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  /** Admission for the delete: sees the object about to be deleted (after the preconditions) and may refuse. */
  validate?(current: ApiObject): void | Promise<void>;
}

/** The answer to a write: the object as stored (or as it would be, for a dry run). */
export interface WriteResult {
  object: ApiObject;
  json: string;
  created: boolean;
}

export interface DeleteResult {
  /** The object as it was removed, or as it is now while finalizers hold it. */
  object: ApiObject;
  /** False when the object is kept because finalizers are pending. */
  removed: boolean;
}

/** Computes the new object from the current one (absent when the object does not exist). Called again on
 *  every retry with the fresh object, so it must return a new object each time. */
export type UpdateTransform = (current: ApiObject | undefined) => ApiObject | Promise<ApiObject>;

export interface UpdateOptions extends WriteOptions {
  /** `status` (or a sub-resource the kind declares to behave like it), or '' for the main resource. Other
   *  sub-resources write the whole object, as '' does. */
  subresource: string;
  /** Create when absent (PUT on kinds that allow it, and apply). */
  allowCreate: boolean;
  /** Name of the object being written (from the URL). */
  name: string;
  /** The transform neither modifies the object it is given nor returns one sharing parts with it: it is
   *  given the cached object itself instead of a copy. */
  transformKeepsCurrent?: boolean;
}

/** Settles what a hook reserved before a write: kept when the write succeeded, given back when it failed. */
export type FinishWrite = (succeeded: boolean) => Promise<void>;

/**
 * Side effects around a kind's writes that need more than its declaration (Kubernetes' BeginCreate,
 * BeginUpdate and AfterDelete): a Service's cluster IP and node ports. The begin hooks run after defaults
 * and before prepareForCreate/Update and validation, and may fill the object in or refuse it.
 */
export interface StoreHooks {
  beginCreate?(obj: ApiObject, dryRun: boolean): Promise<FinishWrite>;
  beginUpdate?(obj: ApiObject, old: ApiObject, dryRun: boolean): Promise<FinishWrite>;
  /** After the object was removed from storage (never for a dry run, which removes nothing). */
  afterDelete?(obj: ApiObject): Promise<void>;
}

/** Kubernetes' maxNameGenerationCreateAttempts. */
const MAX_GENERATE_NAME_TRIES = 8;

/** A compare-and-swap lost to a concurrent write: start over from `current`, storage's object now. */
interface Retry {
  retry: true;
  current: CachedObject | undefined;
}

/** The cached object is not the version the client named: read storage's and try again. */
const STALE = Symbol('stale');

function retryWith(current: CachedObject | undefined): Retry {
  return { retry: true, current };
}

/** Kubernetes' answer to deleting a namespace that is still being emptied. */
const NAMESPACE_TERMINATING = 'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.';

export class ResourceStore {
  readonly def: KindDefinition;
  readonly gr: status.GroupResource;
  readonly cache: WatchCache;
  readonly keyRoot: string;
  private readonly storage: Storage;
  private readonly storageSchema;
  private readonly nameFn: (name: string, prefix: boolean) => string[];
  private readonly hooks: StoreHooks;
  /** Over a store whose watch trails its writes (etcd), what this server wrote before the cache saw it. */
  private readonly ownWrites: OwnWrites | undefined;
  /** Field trackers of the server's own writes, by manager and sub-resource. */
  private readonly ownTrackers = new Map<string, (obj: ApiObject, old: ApiObject | undefined) => void>();

  constructor(def: KindDefinition, storage: Storage, cache?: WatchCache, hooks: StoreHooks = {}) {
    this.def = def;
    this.hooks = hooks;
    this.gr = { group: def.group, resource: def.plural };
    this.storage = storage;
    this.keyRoot = `/registry/${(def.storedAs?.group ?? def.group) || 'core'}/${def.storageResource ?? def.plural}/`;
    this.cache = cache ?? new WatchCache(storage, this.keyRoot);
    this.ownWrites = revisionNow(storage) === undefined ? new OwnWrites(this.cache) : undefined;
    const version = def.versions.find((v) => v.name === def.storageVersion);
    if (!version) throw new Error(`${def.kind}: storage version ${def.storageVersion} is not declared`);
    this.storageSchema = def.storedAs?.schema ?? version.schema;
    const nv = def.nameValidation ?? 'dns-subdomain';
    this.nameFn = typeof nv === 'function' ? nv : nv === 'dns-label' ? nameIsDNSLabel : nv === 'path-segment' ? nameIsPathSegment : nameIsDNSSubdomain;
  }

  key(namespace: string, name: string): string {
    return this.def.namespaced ? `${this.keyRoot}${namespace}/${name}` : `${this.keyRoot}${name}`;
  }

  /** Key prefix of a list: the whole resource, or one namespace. */
  listPrefix(namespace: string): string {
    return this.def.namespaced && namespace ? `${this.keyRoot}${namespace}/` : this.keyRoot;
  }

  /** How a write records field ownership: as its request asks, or under the manager its context names (the
   *  server's own loops and controllers), in the stored version. */
  private fieldTracker(opts: WriteOptions): ((obj: ApiObject, old: ApiObject | undefined) => void) | undefined {
    if (opts.trackFields) return opts.trackFields;
    const manager = opts.ctx.fieldManager;
    if (!manager) return undefined;
    const key = `${manager}/${opts.ctx.subresource}`;
    let tracker = this.ownTrackers.get(key);
    if (!tracker) this.ownTrackers.set(key, tracker = updateTracker(this.def, this.def.storageVersion, opts.ctx.subresource, manager));
    return tracker;
  }

  get storageApiVersion(): string {
    return this.def.storedAs ? apiVersionOf(this.def.storedAs.group, this.def.storedAs.version) : apiVersionOf(this.def.group, this.def.storageVersion);
  }

  /** The current object, from the cache (which the caller has brought up to date). */
  current(namespace: string, name: string): CachedObject | undefined {
    return this.cache.get(this.key(namespace, name));
  }

  /** The object as storage has it now, for a caller that must not trust a cache miss (the cache may trail). */
  readNow(namespace: string, name: string): Promise<CachedObject | undefined> {
    return this.readStorage(this.key(namespace, name), name);
  }

  getOrThrow(namespace: string, name: string): CachedObject {
    const found = this.current(namespace, name);
    if (!found) throw status.notFound(this.gr, name);
    return found;
  }

  /**
   * Creates `obj` (modified in place): system metadata filled, name generated from generateName (retried
   * on a clash), defaults, validation (422), then create-if-absent (409 AlreadyExists).
   */
  async create(namespace: string, obj: ApiObject, opts: WriteOptions): Promise<WriteResult> {
    if (obj.metadata === null || typeof obj.metadata !== 'object') obj.metadata = {};
    const meta = obj.metadata;
    const versionSet = !!opts.refuseResourceVersion && setsResourceVersion(meta.resourceVersion);
    if (this.def.namespaced) meta.namespace = namespace; else delete meta.namespace;
    for (const f of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'resourceVersion'] as const) delete meta[f];
    meta.uid = randomUUID();
    meta.creationTimestamp = nowRfc3339();
    // Kinds that track generation start at 1; the others keep what the client sent, as Kubernetes does.
    if (this.def.trackGeneration !== false) meta.generation = 1;
    obj.apiVersion = this.storageApiVersion;
    obj.kind = this.def.kind;
    const generate = !meta.name && !!meta.generateName;
    if (generate) meta.name = generateName(meta.generateName!);

    // Zeros and empty lists Go's types drop (on decoding, or on the way through etcd) go first, so defaulting
    // then sees them unset, as Kubernetes' does.
    normalizeAsGoEncodes(obj, this.storageSchema);
    applyDefaults(obj, this.storageSchema);
    this.def.defaults?.(obj);
    this.fieldTracker(opts)?.(obj, undefined);
    const finish = await this.hooks.beginCreate?.(obj, opts.dryRun);
    return settling(finish, () => this.createPrepared(namespace, obj, opts, generate, versionSet), () => true);
  }

  /** The rest of create, once defaulted and past the kind's begin hook. */
  private async createPrepared(namespace: string, obj: ApiObject, opts: WriteOptions, generate: boolean, versionSet: boolean): Promise<WriteResult> {
    const meta = obj.metadata!;
    this.def.prepareForCreate?.(obj, opts.ctx);
    this.throwIfInvalid(obj, validateOrdered(
      validateObjectMeta(meta, { namespaced: this.def.namespaced, nameFn: this.nameFn }),
      validateStructure(obj, this.storageSchema),
      this.def.validate?.(obj, opts.ctx) ?? [],
    ));
    this.def.canonicalize?.(obj);
    this.def.decorate?.(obj);
    const admitted = opts.validateAdmission?.(obj, undefined);
    if (admitted) await admitted;
    // Kubernetes' storage refuses it before it looks for the key (a dry run never reaches that check): an
    // error that is no Status, so a 500 without a reason.
    if (versionSet && !opts.dryRun) throw new status.StatusError(500, '', 'resourceVersion should not be set on objects to be created');

    for (let attempt = 1; ; attempt++) {
      const key = this.key(namespace, meta.name!);
      try {
        if (opts.dryRun) {
          // A dry run answers what would be stored: no resourceVersion, but AlreadyExists as a real create would.
          if ((await this.storage.get(key)).kv) throw new KeyExistsError(key);
          return { ...asServed(key, obj, undefined), created: true };
        }
        const encoded = encodeObject(obj);
        const kv = await this.write(key, encoded, () => this.storage.create(key, encoded.value));
        return writeResult(encoded.at(key, kv.modRevision), true);
      } catch (err) {
        if (!(err instanceof KeyExistsError)) throw this.storageError(err, 'create', meta.name!);
        if (generate && attempt < MAX_GENERATE_NAME_TRIES) {
          meta.name = generateName(meta.generateName!);
          this.def.canonicalize?.(obj);
          continue;
        }
        throw await this.alreadyExists(key, meta.name!, !!meta.generateName);
      }
    }
  }

  /** 409 AlreadyExists, prefixed when the existing object is on its way out. */
  private async alreadyExists(key: string, name: string, generated: boolean): Promise<status.StatusError> {
    const e = generated ? status.generateNameConflict(this.gr, name) : status.alreadyExists(this.gr, name);
    const existing = await this.storage.get(key).then((r) => r.kv, () => undefined);
    const deleting = existing && (decodeKv(existing).object as ApiObject).metadata?.deletionTimestamp;
    return deleting ? new status.StatusError(409, 'AlreadyExists', `object is being deleted: ${e.message}`, e.details) : e;
  }

  /**
   * The update loop: read, transform, check the resourceVersion, prepare and validate, then
   * compare-and-swap. A concurrent write makes it start over with the fresh object; a client that pinned
   * a resourceVersion then gets the 409 Conflict. A write that changes nothing writes nothing.
   */
  async update(namespace: string, transform: UpdateTransform, opts: UpdateOptions): Promise<WriteResult> {
    const warningsBefore = opts.ctx.warnings.length;
    const key = this.key(namespace, opts.name);
    // The cached object (or this server's newer write of it) first; storage's once that proved stale or would
    // decide the answer (an object missing from the cache may be one it has not seen yet).
    let current = this.latestKnown(key);
    let fresh = !current;
    if (!current) current = await this.readStorage(key, opts.name);
    for (;;) {
      // Warnings belong to the attempt that succeeds.
      opts.ctx.warnings.length = warningsBefore;
      try {
        const outcome = await this.updateOnce(namespace, current, fresh, transform, opts);
        if (outcome === STALE) { current = await this.readStorage(key, opts.name); fresh = true; continue; }
        if ('retry' in outcome) {
          current = outcome.current;
          fresh = true;
          continue;
        }
        if (outcome.unchanged && !fresh) { current = await this.readStorage(key, opts.name); fresh = true; continue; }
        return outcome.result;
      } catch (err) {
        if (!fresh && err instanceof status.StatusError && err.code < 500) { current = await this.readStorage(key, opts.name); fresh = true; continue; }
        throw err;
      }
    }
  }

  private async updateOnce(namespace: string, current: CachedObject | undefined, fresh: boolean, transform: UpdateTransform, opts: UpdateOptions): Promise<typeof STALE | Retry | { result: WriteResult; unchanged: boolean }> {
    const given = current && (opts.transformKeepsCurrent ? current.object : deepClone(current.object));
    const next = await transform(given as ApiObject | undefined);
    if (next.metadata === null || typeof next.metadata !== 'object') next.metadata = {};
    if (!current) {
      if (!opts.allowCreate || this.writesStatusOnly(opts.subresource)) throw status.notFound(this.gr, opts.name);
      next.metadata.name = opts.name;
      try {
        return { result: await this.create(namespace, next, opts), unchanged: false };
      } catch (err) {
        // Someone created it meanwhile: this becomes an update of their object.
        if (err instanceof status.StatusError && err.reason === 'AlreadyExists') return retryWith(await this.readStorage(this.key(namespace, opts.name), opts.name));
        throw err;
      }
    }

    const currentRv = String(current.modRevision);
    const pinned = next.metadata.resourceVersion;
    if (pinned) {
      // Another version than the cached one: storage's may be the client's (the cache not having seen it yet).
      if (pinned !== currentRv) {
        if (!fresh) return STALE;
        throw status.conflict(this.gr, opts.name, status.OBJECT_MODIFIED);
      }
    } else if (this.def.allowUnconditionalUpdate === false) {
      // Kubernetes names the resource where the kind would go and prints the uint64 zero as Go's %#v does.
      throw status.invalid(this.gr.group, this.gr.resource, opts.name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', hasValue: false, detail: '0x0: must be specified for an update' }]);
    } else {
      // An unconditional update writes over the live version, as if the client had named it.
      next.metadata.resourceVersion = currentRv;
    }

    const old = current.object as ApiObject;
    const obj = this.prepareUpdate(next, old, opts);
    const finish = this.writesStatusOnly(opts.subresource) ? undefined : await this.hooks.beginUpdate?.(obj, old, opts.dryRun);
    return settling(finish, () => this.writeUpdate(namespace, current, obj, old, opts), (outcome) => !('retry' in outcome));
  }

  /** The rest of an update attempt, once prepared and past the kind's begin hook. */
  private async writeUpdate(namespace: string, current: CachedObject, obj: ApiObject, old: ApiObject, opts: UpdateOptions): Promise<Retry | { result: WriteResult; unchanged: boolean }> {
    keepManagedFieldsTimes(obj, old);
    this.throwIfInvalid(obj, validateOrdered(
      [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateObjectMeta(obj.metadata, { namespaced: this.def.namespaced, nameFn: this.nameFn, updateChecked: true })],
      validateStructure(obj, this.storageSchema),
      this.def.validateUpdate?.(obj, old, opts.ctx) ?? [],
    ));
    this.def.canonicalize?.(obj);
    this.def.decorate?.(obj);
    const admitted = opts.validateAdmission?.(obj, old);
    if (admitted) await admitted;

    if (deepEqualMetadataLast(obj, old)) return { result: { object: old, json: current.json, created: false }, unchanged: true };

    const key = this.key(namespace, opts.name);
    if (this.shouldDeleteDuringUpdate(obj, old)) {
      // The last finalizer went away: the update completes the deletion, and answers the object as it left it.
      let revision = current.modRevision;
      if (!opts.dryRun) {
        try {
          revision = (await this.storage.delete(key, current.modRevision)).modRevision;
          await this.hooks.afterDelete?.(obj);
        } catch (err) {
          if (err instanceof ModRevisionMismatchError) return retryWith(this.fromStorage(err.current));
          // Another update removed it first: the outcome is the same.
          if (!(err instanceof KeyNotFoundError)) throw this.storageError(err, 'delete', opts.name);
        }
      }
      return { result: { ...asServed(key, obj, revision), created: false }, unchanged: false };
    }

    if (opts.dryRun) return { result: { ...asServed(key, obj, current.modRevision), created: false }, unchanged: false };
    try {
      const encoded = encodeObject(obj);
      const kv = await this.write(key, encoded, () => this.storage.update(key, encoded.value, current.modRevision));
      return { result: writeResult(encoded.at(key, kv.modRevision), false), unchanged: false };
    } catch (err) {
      if (err instanceof ModRevisionMismatchError) return retryWith(this.fromStorage(err.current));
      if (err instanceof KeyNotFoundError) return retryWith(undefined);
      throw this.storageError(err, 'update', opts.name);
    }
  }

  /** Kubernetes' ShouldDeleteDuringUpdate: a deleted object whose last finalizer an update removes goes. */
  private shouldDeleteDuringUpdate(obj: ApiObject, old: ApiObject): boolean {
    if (!old.metadata.deletionTimestamp || obj.metadata.finalizers?.length || this.deletionBlocked(obj)) return false;
    const grace = old.metadata.deletionGracePeriodSeconds;
    return grace === undefined || grace === null || grace === 0;
  }

  /**
   * Delete: preconditions, admission, then either removal, or (finalizers pending) marking the object
   * with deletionTimestamp and a grace period of 0. Kinds with their own deletion lifecycle (a Namespace
   * waiting for its content) are marked on the first delete and refuse a second one while still held.
   */
  async delete(namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    const key = this.key(namespace, name);
    let current = this.latestKnown(key);
    let fresh = !current;
    if (!current) current = await this.readStorage(key, name);
    for (;;) {
      try {
        const outcome = await this.deleteOnce(namespace, name, current, opts);
        if (!('retry' in outcome)) return outcome;
        current = outcome.current;
        fresh = true;
      } catch (err) {
        if (!fresh && err instanceof status.StatusError && err.code < 500) { current = await this.readStorage(key, name); fresh = true; continue; }
        throw err;
      }
    }
  }

  private async deleteOnce(namespace: string, name: string, current: CachedObject | undefined, opts: DeleteOptions): Promise<Retry | DeleteResult> {
    if (!current) throw status.notFound(this.gr, name);
    const obj = deepClone(current.object) as ApiObject;
    const meta = obj.metadata;
    const lifecycle = this.def.deletionBlocked !== undefined;
    this.checkPreconditions(obj, opts.preconditions, lifecycle);
    if (lifecycle && meta.deletionTimestamp && this.deletionBlocked(obj)) {
      throw status.conflict(this.gr, name, this.def.group === '' && this.def.plural === 'namespaces' ? NAMESPACE_TERMINATING : 'the object is being deleted');
    }
    await opts.validate?.(obj);

    // The garbage collector's finalizers, as the propagation policy asks (a Namespace takes only explicit ones).
    const gc = lifecycle && !meta.deletionTimestamp
      ? namespaceDeletionFinalizers(meta.finalizers, opts.propagationPolicy)
      : deletionFinalizers({ def: this.def, version: opts.ctx.version, finalizers: meta.finalizers, propagationPolicy: opts.propagationPolicy });
    if (gc.changed) {
      if (gc.finalizers.length) meta.finalizers = gc.finalizers; else delete meta.finalizers;
    }

    if (lifecycle && !meta.deletionTimestamp && (this.deletionBlocked(obj) || meta.finalizers?.length)) {
      // The first delete only starts the lifecycle (a Namespace turns Terminating); no grace period is set.
      meta.deletionTimestamp = nowRfc3339();
      this.def.prepareForDelete?.(obj);
      return this.markDeleted(namespace, name, current, obj, opts.dryRun);
    }
    if (meta.finalizers?.length) {
      // Kubernetes' markAsDeleting; deleting again while finalizers are pending changes nothing but the GC finalizers.
      if (!gc.changed && meta.deletionTimestamp && meta.deletionGracePeriodSeconds === 0) return { object: current.object as ApiObject, removed: false };
      if (!meta.deletionTimestamp && typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
      meta.deletionTimestamp ??= nowRfc3339();
      meta.deletionGracePeriodSeconds = 0;
      return this.markDeleted(namespace, name, current, obj, opts.dryRun);
    }
    if (opts.dryRun) return { object: current.object as ApiObject, removed: true };
    try {
      const kv = await this.storage.delete(this.key(namespace, name), current.modRevision);
      const removed = decodeKv(kv).object as ApiObject;
      await this.hooks.afterDelete?.(removed);
      return { object: removed, removed: true };
    } catch (err) {
      if (err instanceof ModRevisionMismatchError) return retryWith(this.fromStorage(err.current));
      if (err instanceof KeyNotFoundError) return retryWith(undefined);
      throw this.storageError(err, 'delete', name);
    }
  }

  /** Writes an object marked for deletion (kept until its finalizers are gone). */
  private async markDeleted(namespace: string, name: string, current: CachedObject, obj: ApiObject, dryRun: boolean): Promise<Retry | DeleteResult> {
    const key = this.key(namespace, name);
    delete obj.metadata.resourceVersion;
    if (dryRun) return { object: asServed(key, obj, current.modRevision).object, removed: false };
    try {
      const encoded = encodeObject(obj);
      const kv = await this.write(key, encoded, () => this.storage.update(key, encoded.value, current.modRevision));
      return { object: encoded.at(key, kv.modRevision).object as ApiObject, removed: false };
    } catch (err) {
      if (err instanceof ModRevisionMismatchError) return retryWith(this.fromStorage(err.current));
      if (err instanceof KeyNotFoundError) return retryWith(undefined);
      throw this.storageError(err, 'delete', name);
    }
  }

  /** DeleteOptions.preconditions, with Kubernetes' texts (the Namespace registry words them its own way). */
  private checkPreconditions(obj: ApiObject, pre: DeleteOptions['preconditions'], lifecycle: boolean): void {
    if (!pre) return;
    const meta = obj.metadata;
    const name = meta.name ?? '';
    if (lifecycle) {
      const failed = status.preconditionConflict(this.gr, name, pre, meta);
      if (failed) throw failed;
      return;
    }
    // rest.BeforeDelete names the kind where the resource would go.
    const byKind = { group: this.def.group, resource: this.def.kind };
    if (pre.uid && pre.uid !== meta.uid) {
      throw status.conflict(byKind, name, `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid}). The object might have been deleted and then recreated`);
    }
    if (pre.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
      throw status.conflict(byKind, name, `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion}). The object might have been modified`);
    }
  }

  /** `status`, and the sub-resources the kind declares to behave like it. */
  private writesStatusOnly(subresource: string): boolean {
    return subresource === 'status' || (!!subresource && (this.def.status?.variants?.includes(subresource) ?? false));
  }

  private deletionBlocked(obj: ApiObject): boolean {
    return this.def.deletionBlocked?.(obj) ?? false;
  }

  /**
   * rest.BeforeUpdate: identity and deletion fields come from the old object unless the client sent them
   * (validation then refuses a change), generation is the old one (bumped when anything but metadata and
   * status changed), and the fields the sub-resource does not own are reset.
   */
  private prepareUpdate(next: ApiObject, old: ApiObject, opts: UpdateOptions): ApiObject {
    const obj: ApiObject = next;
    obj.apiVersion = this.storageApiVersion;
    obj.kind = this.def.kind;
    const meta = obj.metadata;
    const oldMeta = old.metadata;
    if (this.def.namespaced) meta.namespace ||= oldMeta.namespace; else delete meta.namespace;
    meta.name ||= oldMeta.name;
    meta.uid ||= oldMeta.uid;
    meta.creationTimestamp = oldMeta.creationTimestamp;
    if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
    if (oldMeta.deletionGracePeriodSeconds !== undefined && (meta.deletionGracePeriodSeconds === undefined || meta.deletionGracePeriodSeconds === null)) {
      meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    }
    delete meta.selfLink;
    if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation; else delete meta.generation;

    if (this.writesStatusOnly(opts.subresource)) {
      // A status write changes the status fields, labels and annotations, and nothing else.
      const statusFields = this.def.status?.statusFields ?? ['status'];
      const merged = deepClone(old) as ApiObject;
      for (const f of statusFields) { if (obj[f] === undefined) delete merged[f]; else merged[f] = obj[f]; }
      merged.metadata.resourceVersion = meta.resourceVersion;
      if (meta.labels) merged.metadata.labels = meta.labels; else delete merged.metadata.labels;
      if (meta.annotations) merged.metadata.annotations = meta.annotations; else delete merged.metadata.annotations;
      // Field ownership travels with the status (a status apply computed it; a status update recomputes it).
      if (meta.managedFields) merged.metadata.managedFields = meta.managedFields; else delete merged.metadata.managedFields;
      normalizeAsGoEncodes(merged, this.storageSchema);
      applyDefaults(merged, this.storageSchema);
      this.def.defaults?.(merged);
      this.fieldTracker(opts)?.(merged, old);
      this.def.prepareForUpdate?.(merged, old, opts.ctx);
      return merged;
    }
    // A view that writes the whole object (a Pod's binding) keeps the status it made.
    const wholeObject = !!opts.subresource && !!this.def.views?.some((v) => v.name === opts.subresource && v.writesWholeObject);
    if (this.def.status && !wholeObject) {
      for (const path of this.def.status.mainResetsFields ?? ['status']) copyPath(old, obj, path.split('.'));
    }
    normalizeAsGoEncodes(obj, this.storageSchema);
    applyDefaults(obj, this.storageSchema);
    this.def.defaults?.(obj);
    this.fieldTracker(opts)?.(obj, old);
    this.def.prepareForUpdate?.(obj, old, opts.ctx);
    const statusFields = this.def.status ? (this.def.status.statusFields ?? ['status']) : [];
    if (this.def.trackGeneration !== false && specChanged(obj, old, statusFields)) meta.generation = (oldMeta.generation ?? 0) + 1;
    return obj;
  }

  /** 422 Invalid. Generic and kind validation may both report an error; Kubernetes prints each text once. */
  private throwIfInvalid(obj: ApiObject, errs: FieldError[]): void {
    if (!errs.length) return;
    const seen = new Set<string>();
    const unique = errs.filter((e) => {
      const text = fieldErrorText(e);
      if (seen.has(text)) return false;
      seen.add(text);
      return true;
    });
    throw status.invalid(this.def.group, this.def.kind, obj.metadata?.name ?? '', unique);
  }

  /** Runs a storage write of `encoded`, whose event the cache then serves from the same encoding. */
  private async write(key: string, encoded: EncodedObject, op: () => Promise<KeyValue>): Promise<KeyValue> {
    const settled = this.cache.expect(key, encoded);
    let kv: KeyValue;
    try {
      kv = await op();
    } catch (err) {
      settled();
      throw err;
    }
    settled(kv.modRevision);
    this.ownWrites?.record(encoded.at(key, kv.modRevision));
    return kv;
  }

  private latestKnown(key: string): CachedObject | undefined {
    return this.ownWrites ? this.ownWrites.latest(key) : this.cache.get(key);
  }

  /** The object as storage has it now: the cached one when the cache is known to be current, or of the same revision. */
  private async readStorage(key: string, name: string): Promise<CachedObject | undefined> {
    if (this.cacheIsCurrent()) return this.cache.get(key);
    let kv: KeyValue | undefined;
    try {
      kv = (await this.storage.get(key)).kv;
    } catch (err) {
      throw this.storageError(err, 'get', name);
    }
    return this.fromStorage(kv);
  }

  /** Whether the cache holds what storage would answer now (only an in-process store can tell without asking). */
  private cacheIsCurrent(): boolean {
    const now = revisionNow(this.storage);
    return now !== undefined && !this.cache.failed && this.cache.revision >= now;
  }

  /** A key-value storage answered with, as the cache holds objects (reusing the cached one of that revision). */
  private fromStorage(kv: KeyValue | undefined): CachedObject | undefined {
    if (!kv) return undefined;
    const cached = this.cache.get(kv.key);
    return cached && cached.modRevision === kv.modRevision ? cached : decodeKv(kv);
  }

  storageError(err: unknown, operation: string, name: string): Error {
    if (err instanceof status.StatusError) return err;
    if (err instanceof StoreUnavailableError) return status.serverTimeout(this.gr, operation, 2, `storage is unavailable: ${err.message}`);
    if (err instanceof StorageError) return status.internalError(err);
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** Runs a write and settles what a begin hook reserved for it (`finish`) with its outcome, thrown or not. */
async function settling<T>(finish: FinishWrite | undefined, write: () => Promise<T>, succeeded: (outcome: T) => boolean): Promise<T> {
  if (!finish) return write();
  let ok = false;
  try {
    const outcome = await write();
    ok = succeeded(outcome);
    return outcome;
  } finally {
    await finish(ok);
  }
}

/** ObjectMeta's errors, then the schema's the others leave standing, then the kind's. */
function validateOrdered(meta: FieldError[], structural: FieldError[], kind: FieldError[]): FieldError[] {
  return [...meta, ...uncoveredStructuralErrors(structural, [...meta, ...kind]), ...kind];
}

/** The answer to a write, from the object as written; it is parsed only if someone reads `object`. */
function writeResult(served: CachedObject, created: boolean): WriteResult {
  return { get object() { return served.object as ApiObject; }, json: served.json, created };
}

/**
 * A written object as reads serve it (Kubernetes' field order, stamped with its resourceVersion): from the
 * stored key-value, or for a dry run from the object itself at `revision` (none for a dry-run create).
 */
function asServed(key: string, obj: ApiObject, written: KeyValue | number | undefined): { object: ApiObject; json: string } {
  const kv: KeyValue = typeof written === 'object' ? written : { key, value: JSON.stringify(obj), createRevision: 0, modRevision: written ?? 0 };
  const served = decodeKv(kv);
  if (written !== undefined) return { object: served.object as ApiObject, json: served.json };
  delete served.object.metadata.resourceVersion;
  return { object: served.object as ApiObject, json: JSON.stringify(served.object) };
}

/** Sets `path` of `to` to its value in `from` (removing it when `from` has none). */
function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string[]): void {
  let src: unknown = from;
  for (const seg of path) src = src !== null && typeof src === 'object' ? (src as Record<string, unknown>)[seg] : undefined;
  let dst = to;
  for (const seg of path.slice(0, -1)) {
    const child = dst[seg];
    if (child === null || typeof child !== 'object' || Array.isArray(child)) {
      if (src === undefined) return;
      dst[seg] = {};
    }
    dst = dst[seg] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (src === undefined) delete dst[last]; else dst[last] = deepClone(src);
}

/** True when anything but metadata and the status fields differs. */
function specChanged(a: ApiObject, b: ApiObject, statusFields: string[]): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    if (k === 'metadata' || k === 'apiVersion' || k === 'kind' || statusFields.includes(k)) continue;
    if (!deepEqual(a[k], b[k])) return true;
  }
  return false;
}

/** Whether a client's resourceVersion counts as set: Kubernetes' versioner parses it as a uint64, and one it
 *  cannot parse, or 0, lets the create through. */
function setsResourceVersion(rv: unknown): boolean {
  return typeof rv === 'string' && /^[0-9]+$/.test(rv) && BigInt(rv) > 0n && BigInt(rv) < 2n ** 64n;
}
