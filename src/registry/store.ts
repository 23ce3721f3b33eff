// The generic registry: one ResourceStore per kind serves every verb from the kind's declaration.
// Objects here are always in the kind's storage version; codecs and conversion live above.
import { randomUUID } from 'node:crypto';
import type { KindDefinition, RequestContext } from '../apis/kind.ts';
import { apiVersionOf } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { type Storage, KeyExistsError, KeyNotFoundError, ModRevisionMismatchError, StoreUnavailableError, StorageError } from '../storage/interface.ts';
import { WatchCache, type CachedObject, decodeKv } from '../storage/cache.ts';
import * as status from '../machinery/status.ts';
import type { FieldError } from '../machinery/field-errors.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../machinery/validation/objectmeta.ts';
import { nameIsDNSSubdomain, nameIsDNSLabel, nameIsPathSegment } from '../machinery/validation/strings.ts';
import { applyDefaults } from '../machinery/schema/defaults.ts';
import { validateStructure } from '../machinery/schema/validate.ts';
import { deepEqual } from '../machinery/schema/walk.ts';
import { generateNameSuffix, nowRfc3339 } from './names.ts';

export interface WriteOptions {
  ctx: RequestContext;
  dryRun: boolean;
}

export interface DeleteOptions extends WriteOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
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

/** Computes the new object from the current one (absent when the object does not exist). */
export type UpdateTransform = (current: ApiObject | undefined) => ApiObject | Promise<ApiObject>;

export interface UpdateOptions extends WriteOptions {
  /** `status`, or '' for the main resource. */
  subresource: string;
  /** Create when absent (PUT on kinds that allow it, and apply). */
  allowCreate: boolean;
  /** Name of the object being written (from the URL). */
  name: string;
}

const MAX_GENERATE_NAME_TRIES = 8;
const MAX_UPDATE_RETRIES = 16;

export class ResourceStore {
  readonly def: KindDefinition;
  readonly gr: status.GroupResource;
  readonly cache: WatchCache;
  readonly keyRoot: string;
  private readonly storage: Storage;
  private readonly storageSchema;
  private readonly nameFn: (name: string, prefix: boolean) => string[];

  constructor(def: KindDefinition, storage: Storage, cache?: WatchCache) {
    this.def = def;
    this.gr = { group: def.group, resource: def.plural };
    this.storage = storage;
    this.keyRoot = `/registry/${def.group || 'core'}/${def.storageResource ?? def.plural}/`;
    this.cache = cache ?? new WatchCache(storage, this.keyRoot);
    const version = def.versions.find((v) => v.name === def.storageVersion);
    if (!version) throw new Error(`${def.kind}: storage version ${def.storageVersion} is not declared`);
    this.storageSchema = version.schema;
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

  get storageApiVersion(): string {
    return apiVersionOf(this.def.group, this.def.storageVersion);
  }

  /** The current object, from the cache (which the caller has brought up to date). */
  current(namespace: string, name: string): CachedObject | undefined {
    return this.cache.get(this.key(namespace, name));
  }

  getOrThrow(namespace: string, name: string): CachedObject {
    const found = this.current(namespace, name);
    if (!found) throw status.notFound(this.gr, name);
    return found;
  }

  async create(namespace: string, obj: ApiObject, opts: WriteOptions): Promise<WriteResult> {
    const meta = obj.metadata ?? (obj.metadata = {});
    if (this.def.namespaced) meta.namespace = namespace; else delete meta.namespace;
    for (const f of ['uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink', 'resourceVersion'] as const) delete meta[f];
    meta.uid = randomUUID();
    meta.creationTimestamp = nowRfc3339();
    if (this.def.trackGeneration !== false) meta.generation = 1; else delete meta.generation;
    obj.apiVersion = this.storageApiVersion;
    obj.kind = this.def.kind;
    const generate = !meta.name && !!meta.generateName;
    if (generate) meta.name = meta.generateName + generateNameSuffix();

    applyDefaults(obj, this.storageSchema);
    this.def.defaults?.(obj);
    this.def.prepareForCreate?.(obj, opts.ctx);
    this.throwIfInvalid(obj, [
      ...validateObjectMeta(meta, { namespaced: this.def.namespaced, nameFn: this.nameFn }),
      ...validateStructure(obj, this.storageSchema),
      ...(this.def.validate?.(obj, opts.ctx) ?? []),
    ]);
    this.def.canonicalize?.(obj);
    this.def.decorate?.(obj);

    if (opts.dryRun) {
      if (this.current(namespace, meta.name!)) throw status.alreadyExists(this.gr, meta.name!);
      return { object: obj, json: JSON.stringify(obj), created: true };
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const kv = await this.storage.create(this.key(namespace, meta.name!), JSON.stringify(obj));
        meta.resourceVersion = String(kv.modRevision);
        return { object: obj, json: JSON.stringify(obj), created: true };
      } catch (err) {
        if (err instanceof KeyExistsError) {
          if (generate && attempt < MAX_GENERATE_NAME_TRIES) { meta.name = meta.generateName + generateNameSuffix(); continue; }
          if (generate) throw status.generateNameConflict(this.gr, meta.name!);
          const existing = this.current(namespace, meta.name!);
          const e = status.alreadyExists(this.gr, meta.name!);
          if (existing?.object.metadata?.deletionTimestamp) throw new status.StatusError(409, 'AlreadyExists', `object is being deleted: ${e.message}`, e.details);
          throw e;
        }
        throw this.storageError(err, 'create', meta.name!);
      }
    }
  }

  /** The update loop: read, transform, validate, compare-and-swap; retried on a concurrent write unless the
   *  caller pinned a resourceVersion. */
  async update(namespace: string, transform: UpdateTransform, opts: UpdateOptions): Promise<WriteResult> {
    for (let attempt = 0; ; attempt++) {
      const current = this.current(namespace, opts.name);
      const currentObj = current ? structuredClone(current.object) as ApiObject : undefined;
      const next = await transform(currentObj);
      if (!current) {
        if (!opts.allowCreate) throw status.notFound(this.gr, opts.name);
        if (opts.subresource) throw status.notFound(this.gr, opts.name);
        const meta = next.metadata ?? (next.metadata = {});
        if (meta.resourceVersion) throw status.notFound(this.gr, opts.name);
        meta.name = opts.name;
        return this.create(namespace, next, opts);
      }
      const pinned = next.metadata?.resourceVersion;
      if (pinned && pinned !== String(current.modRevision)) throw status.conflict(this.gr, opts.name, status.OBJECT_MODIFIED);
      if (!pinned && this.def.allowUnconditionalUpdate === false) {
        throw status.invalid(this.def.group, this.def.kind, opts.name, [{ type: 'FieldValueInvalid', field: 'metadata.resourceVersion', value: 0, hasValue: true, detail: 'must be specified for an update' }]);
      }
      // An unconditional update writes over the live version, as if the client had named it.
      if (!pinned) (next.metadata ??= {}).resourceVersion = String(current.modRevision);
      const old = current.object as ApiObject;
      const obj = this.prepareUpdate(next, old, opts);
      this.throwIfInvalid(obj, [
        ...validateObjectMetaUpdate(obj.metadata, old.metadata),
        ...validateObjectMeta(obj.metadata, { namespaced: this.def.namespaced, nameFn: this.nameFn }),
        ...validateStructure(obj, this.storageSchema),
        ...(this.def.validateUpdate?.(obj, old, opts.ctx) ?? []),
      ]);
      this.def.canonicalize?.(obj);
      this.def.decorate?.(obj);

      const oldStored = withoutResourceVersion(old);
      const unchanged = deepEqual(withoutResourceVersion(obj), oldStored);
      if (unchanged) return { object: current.object as ApiObject, json: current.json, created: false };
      if (obj.metadata.deletionTimestamp && !obj.metadata.finalizers?.length && !this.deletionBlocked(obj)) {
        // The last finalizer went away: the update completes the deletion.
        const result = await this.removeObject(namespace, opts.name, current.modRevision, obj, opts.dryRun).catch((err) => {
          if (err instanceof ModRevisionMismatchError && !pinned && attempt < MAX_UPDATE_RETRIES) return undefined;
          throw err;
        });
        if (!result) continue;
        // The answer is the object as this update left it, at the revision that removed it.
        obj.metadata.resourceVersion = result.metadata.resourceVersion;
        return { object: obj, json: JSON.stringify(obj), created: false };
      }
      delete obj.metadata.resourceVersion;
      if (opts.dryRun) {
        obj.metadata.resourceVersion = String(current.modRevision);
        return { object: obj, json: JSON.stringify(obj), created: false };
      }
      try {
        const kv = await this.storage.update(this.key(namespace, opts.name), JSON.stringify(obj), current.modRevision);
        obj.metadata.resourceVersion = String(kv.modRevision);
        return { object: obj, json: JSON.stringify(obj), created: false };
      } catch (err) {
        if (err instanceof ModRevisionMismatchError) {
          if (pinned) throw status.conflict(this.gr, opts.name, status.OBJECT_MODIFIED);
          if (attempt < MAX_UPDATE_RETRIES) { await this.cache.waitFor(err.current?.modRevision ?? 0, 1000); continue; }
          throw status.conflict(this.gr, opts.name, status.OBJECT_MODIFIED);
        }
        if (err instanceof KeyNotFoundError) {
          if (attempt < MAX_UPDATE_RETRIES) { await this.waitForStorage(); continue; }
          throw status.notFound(this.gr, opts.name);
        }
        throw this.storageError(err, 'update', opts.name);
      }
    }
  }

  async delete(namespace: string, name: string, opts: DeleteOptions): Promise<DeleteResult> {
    for (let attempt = 0; ; attempt++) {
      const current = this.current(namespace, name);
      if (!current) throw status.notFound(this.gr, name);
      const obj = structuredClone(current.object) as ApiObject;
      const pre = opts.preconditions;
      if (pre?.uid && pre.uid !== obj.metadata.uid) {
        throw status.conflict(this.gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid}`);
      }
      if (pre?.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
        throw status.conflict(this.gr, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`);
      }
      const finalizers = obj.metadata.finalizers ?? [];
      const blocked = finalizers.length > 0 || this.deletionBlocked(obj);
      if (blocked) {
        if (obj.metadata.deletionTimestamp) return { object: current.object as ApiObject, removed: false };
        obj.metadata.deletionTimestamp = nowRfc3339();
        obj.metadata.deletionGracePeriodSeconds = 0;
        this.def.prepareForDelete?.(obj);
        if (this.def.trackGeneration !== false && obj.metadata.generation) obj.metadata.generation += 1;
        delete obj.metadata.resourceVersion;
        if (opts.dryRun) return { object: { ...obj, metadata: { ...obj.metadata, resourceVersion: current.object.metadata.resourceVersion } }, removed: false };
        try {
          const kv = await this.storage.update(this.key(namespace, name), JSON.stringify(obj), current.modRevision);
          obj.metadata.resourceVersion = String(kv.modRevision);
          return { object: obj, removed: false };
        } catch (err) {
          if (err instanceof ModRevisionMismatchError && attempt < MAX_UPDATE_RETRIES) { await this.cache.waitFor(err.current?.modRevision ?? 0, 1000); continue; }
          if (err instanceof KeyNotFoundError) throw status.notFound(this.gr, name);
          throw this.storageError(err, 'delete', name);
        }
      }
      try {
        const removed = await this.removeObject(namespace, name, current.modRevision, obj, opts.dryRun);
        return { object: removed, removed: true };
      } catch (err) {
        if (err instanceof ModRevisionMismatchError && attempt < MAX_UPDATE_RETRIES) { await this.cache.waitFor(err.current?.modRevision ?? 0, 1000); continue; }
        throw err;
      }
    }
  }

  /** Deletes the key if it is still at `modRevision`; answers the last state. */
  private async removeObject(namespace: string, name: string, modRevision: number, last: ApiObject, dryRun: boolean): Promise<ApiObject> {
    if (dryRun) return last;
    try {
      const kv = await this.storage.delete(this.key(namespace, name), modRevision);
      const out = decodeKv(kv).object as ApiObject;
      return out;
    } catch (err) {
      if (err instanceof ModRevisionMismatchError) throw err;
      if (err instanceof KeyNotFoundError) throw status.notFound(this.gr, name);
      throw this.storageError(err, 'delete', name);
    }
  }

  private deletionBlocked(obj: ApiObject): boolean {
    return this.def.deletionBlocked?.(obj) ?? false;
  }

  /** Carries over what a write may not change and resets what its sub-resource does not own. */
  private prepareUpdate(next: ApiObject, old: ApiObject, opts: UpdateOptions): ApiObject {
    const obj: ApiObject = next;
    obj.apiVersion = this.storageApiVersion;
    obj.kind = this.def.kind;
    const meta = obj.metadata ?? (obj.metadata = {});
    const oldMeta = old.metadata;
    if (this.def.namespaced) meta.namespace ??= oldMeta.namespace;
    meta.name ??= oldMeta.name;
    meta.uid = oldMeta.uid;
    meta.creationTimestamp = oldMeta.creationTimestamp;
    if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp; else delete meta.deletionTimestamp;
    if (oldMeta.deletionGracePeriodSeconds !== undefined) meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds; else delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation; else delete meta.generation;

    const statusFields = this.def.status ? (this.def.status.statusFields ?? ['status']) : [];
    if (opts.subresource === 'status' || this.def.status?.variants?.includes(opts.subresource)) {
      // A status write changes the status fields, labels and annotations, and nothing else.
      const merged = structuredClone(old) as ApiObject;
      for (const f of statusFields) { if (obj[f] === undefined) delete merged[f]; else merged[f] = obj[f]; }
      merged.metadata.resourceVersion = meta.resourceVersion;
      if (meta.labels) merged.metadata.labels = meta.labels; else delete merged.metadata.labels;
      if (meta.annotations) merged.metadata.annotations = meta.annotations; else delete merged.metadata.annotations;
      applyDefaults(merged, this.storageSchema);
      this.def.defaults?.(merged);
      this.def.prepareForUpdate?.(merged, old, opts.ctx);
      return merged;
    }
    for (const f of statusFields) { if (old[f] === undefined) delete obj[f]; else obj[f] = structuredClone(old[f]); }
    applyDefaults(obj, this.storageSchema);
    this.def.defaults?.(obj);
    this.def.prepareForUpdate?.(obj, old, opts.ctx);
    if (this.def.trackGeneration !== false && specChanged(obj, old, statusFields)) meta.generation = (oldMeta.generation ?? 0) + 1;
    return obj;
  }

  private throwIfInvalid(obj: ApiObject, errs: FieldError[]): void {
    if (errs.length) throw status.invalid(this.def.group, this.def.kind, obj.metadata?.name ?? '', errs);
  }

  private async waitForStorage(): Promise<void> {
    const rev = await this.storage.currentRevision();
    await this.cache.waitFor(rev, 1000);
  }

  storageError(err: unknown, operation: string, name: string): Error {
    if (err instanceof status.StatusError) return err;
    if (err instanceof StoreUnavailableError) return status.serverTimeout(this.gr, operation, 2, `storage is unavailable: ${err.message}`);
    if (err instanceof StorageError) return status.internalError(err);
    return err instanceof Error ? err : new Error(String(err));
  }
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

function withoutResourceVersion(obj: ApiObject): ApiObject {
  const { resourceVersion: _rv, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}
