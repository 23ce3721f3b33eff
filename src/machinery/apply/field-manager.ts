// The field manager of every write: keeps metadata.managedFields as Kubernetes does (pkg/util/managedfields).
// - recordUpdate: a create, update or non-apply patch; the writer takes the fields it changed; never fails.
// - applyObject: a server-side apply; merges, prunes, checks conflicts (409), and records an Apply entry.
import type { ApiObject } from '../../apis/meta/v1.ts';
import { badRequest, internalError, StatusError } from '../status.ts';
import { ApplyConflicts, conflictError, conflictsToSet, type Conflict } from './conflict.ts';
import { compare } from './compare.ts';
import { createdFields } from './created-fields.ts';
import { FieldSet } from './fieldset.ts';
import {
  capUpdateManagers, decodeManagedFields, emptyManaged, encodeManagedFields, formatTime, formatTimeMs, isResetManagedFields,
  managerIdentifier, type Managed,
} from './managers.ts';
import { fieldElement } from './path.ts';
import { dropNulls } from './remove.ts';
import type { TypeRef } from './schema-view.ts';
import { toFieldSet, TypedValueError } from './tofieldset.ts';
import { typingErrors, typingErrorsMessage } from './body-typing.ts';
import { applyConfig, updateOwnership, type UpdaterOptions } from './updater.ts';
import { goJson } from './value.ts';
import type { VersionConverter } from './versions.ts';
import { isGoPrintable } from '../go-format.ts';
import { deepClone } from '../schema/walk.ts';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
/** kubectl's own manager name for server-side apply; only it upgrades from client-side apply. */
const KUBECTL_MANAGER = 'kubectl';
/** The Update manager that owns what an untracked object held before its first apply. */
const BEFORE_FIRST_APPLY_MANAGER = 'before-first-apply';
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

export interface FieldManagerScope {
  /** The object's type (the kind's storage schema). */
  type: TypeRef;
  /** The group/version of the request (`v1`, `apps/v1`): recorded in entries. */
  apiVersion: string;
  kind: string;
  /** `status`, `scale`, or '' for the main resource. */
  subresource: string;
  /** Fields this endpoint resets and nobody owns through it. */
  resetFields?: FieldSet;
  /** The kind's versions of other shapes, for managers recorded in them (absent: every version has this shape). */
  versions?: VersionConverter;
  now?: () => Date;
}

/** Never owned by anyone: type information and the metadata the server controls. */
const STRIPPED = FieldSet.of(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [fieldElement('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => [fieldElement('metadata'), fieldElement(f)]),
);

function updaterOptions(scope: FieldManagerScope): UpdaterOptions {
  return { type: scope.type, ignored: scope.resetFields, versions: scope.versions };
}

function now(scope: FieldManagerScope): string {
  return scope.now ? formatTime(scope.now()) : formatTimeMs(Date.now());
}

function withoutManagedFields(obj: ApiObject | undefined): ApiObject {
  if (!obj) return { metadata: {} } as ApiObject;
  const meta = { ...(obj.metadata ?? {}) };
  delete meta.managedFields;
  return { ...obj, metadata: meta };
}

function strip(managed: Managed, id: string): void {
  const vs = managed.fields.get(id);
  if (!vs) return;
  const set = vs.set.difference(STRIPPED);
  if (set.empty()) managed.fields.delete(id);
  else managed.fields.set(id, { ...vs, set });
}

function writeManagedFields(obj: ApiObject, managed: Managed): void {
  obj.metadata ??= {};
  if (!managed.fields.size) { delete obj.metadata.managedFields; return; }
  obj.metadata.managedFields = encodeManagedFields(managed) as ApiObject['metadata']['managedFields'];
}

/** The managers a write starts from: the request's own entries when it set some, else the live object's. */
function decodeLiveOrNew(live: ApiObject | undefined, obj: ApiObject, isSubresource: boolean): Managed {
  const fromLive = () => { try { return decodeManagedFields(live?.metadata?.managedFields); } catch { return emptyManaged(); } };
  if (isSubresource) return fromLive();
  const requested = obj.metadata?.managedFields;
  if (isResetManagedFields(requested)) return emptyManaged();
  try {
    const m = decodeManagedFields(requested);
    if (m.fields.size) return m;
  } catch {
    // A request whose entries do not decode keeps the live ones.
  }
  return fromLive();
}

/**
 * Records a create (live absent), update or non-apply patch by `manager` in obj.metadata.managedFields.
 * An object that has no entries is not tracked by updates (only creates and applies start tracking).
 * Never throws: if the bookkeeping fails the object is written without managedFields.
 */
export function recordUpdate(scope: FieldManagerScope, live: ApiObject | undefined, obj: ApiObject, manager: string): void {
  try {
    const managed = decodeLiveOrNew(live, obj, scope.subresource !== '');
    if (obj.metadata) delete obj.metadata.managedFields;
    if (!managed.fields.size && live?.metadata?.uid) return;
    const id = managerIdentifier({ manager: manager || 'unknown', operation: 'Update', apiVersion: scope.apiVersion, subresource: scope.subresource });
    const liveObj = withoutManagedFields(live);
    if (!live && !managed.fields.size) {
      // A creation without entries of its own: the writer takes what the object's shape holds.
      const set = createdFields(scope.type, scope.resetFields, obj, () =>
        updateOwnership(updaterOptions(scope), liveObj, obj, scope.apiVersion, managed.fields, id, STRIPPED).managers.get(id)?.set ?? new FieldSet());
      if (!set.empty()) {
        managed.fields.set(id, { set, apiVersion: scope.apiVersion, applied: false });
        managed.times.set(id, now(scope));
      }
      writeManagedFields(obj, managed);
      return;
    }
    const ownership = updateOwnership(updaterOptions(scope), liveObj, obj, scope.apiVersion, managed.fields, id, STRIPPED);
    managed.fields = ownership.managers;
    if (ownership.took) managed.times.set(id, now(scope));
    capUpdateManagers(managed);
    writeManagedFields(obj, managed);
  } catch {
    if (obj.metadata) delete obj.metadata.managedFields;
  }
}

/** `group/version, Kind=kind`, as Go prints a GroupVersionKind. */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const parts = av.split('/');
  let group = '', version = '';
  if (parts.length === 1) version = parts[0];
  else if (parts.length === 2) [group, version] = parts;
  return `${group}/${version}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/**
 * The checks Kubernetes makes on an apply body before merging it: its type, no managedFields, and its typing
 * against the schema (every field declared, every value of its type; whatever fieldValidation says).
 */
export function checkApplyBody(scope: FieldManagerScope, body: Record<string, unknown>): void {
  if (body.apiVersion !== scope.apiVersion || body.kind !== scope.kind) {
    throw badRequest(`invalid object type: ${gvkString(body.apiVersion, body.kind)}`);
  }
  const meta = body.metadata as Record<string, unknown> | undefined | null;
  if (meta && typeof meta === 'object' && meta.managedFields !== undefined && meta.managedFields !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
  const errors = typingErrors(body, scope.type);
  if (errors.length) throw typedPatchError(scope, body, typingErrorsMessage(errors));
}

/**
 * An apply body that cannot be typed: Kubernetes returns the plain error (not a Status), so it answers 500
 * without a reason, naming the body's own namespace and name.
 */
function typedPatchError(scope: FieldManagerScope, body: { metadata?: unknown }, message: string): StatusError {
  const meta = (body.metadata && typeof body.metadata === 'object' ? body.metadata : {}) as { namespace?: unknown; name?: unknown };
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return new StatusError(500, '', `failed to create typed patch object (${text(meta.namespace)}/${text(meta.name)}; ${gvkString(scope.apiVersion, scope.kind)}): ${message}`);
}

export interface ApplyOptions {
  manager: string;
  force: boolean;
  /** The body as sent (before decoding), recorded in the last-applied annotation for kubectl. */
  rawConfig?: Record<string, unknown>;
}

/**
 * Applies `config` (decoded, in the storage version) onto `live` (absent: the object is created) and
 * answers the object to write, with managedFields. Throws a 409 StatusError on conflicts.
 */
export function applyObject(scope: FieldManagerScope, live: ApiObject | undefined, config: ApiObject, opts: ApplyOptions): ApiObject {
  let managed: Managed;
  try {
    managed = decodeManagedFields(live?.metadata?.managedFields);
  } catch (err) {
    throw internalError(new Error(`failed to decode managed fields: ${(err as Error).message}`));
  }
  const id = managerIdentifier({ manager: opts.manager, operation: 'Apply', apiVersion: scope.apiVersion, subresource: scope.subresource });
  const liveObj = withoutManagedFields(live);
  if (live && !managed.fields.size) ownExistingFields(scope, liveObj, managed);
  const run = (force: boolean) => applyConfig(updaterOptions(scope), liveObj, config, scope.apiVersion, managed.fields, id, force);
  let outcome;
  try {
    try {
      outcome = run(opts.force);
    } catch (err) {
      if (!(err instanceof ApplyConflicts) || opts.manager !== KUBECTL_MANAGER) throw err;
      // kubectl moving from client-side apply: fields its last-applied configuration set may be taken.
      const allowed = allowedFromLastApplied(scope, liveObj);
      if (!allowed) throw err;
      const remaining = err.conflicts.filter((c: Conflict) => !allowed.has(c.path));
      if (remaining.length) throw new ApplyConflicts(remaining);
      outcome = run(true);
    }
  } catch (err) {
    if (err instanceof ApplyConflicts) throw conflictError(err.conflicts);
    if (!(err instanceof TypedValueError)) throw err;
    throw typedPatchError(scope, config, (err as Error).message);
  }
  managed.fields = outcome.managers;
  strip(managed, id);
  let obj: ApiObject;
  if (outcome.object !== undefined) {
    managed.times.set(id, now(scope));
    obj = dropNulls(outcome.object, scope.type) as ApiObject;
  } else {
    obj = deepClone(liveObj);
  }
  obj.metadata ??= {};
  if (opts.manager === KUBECTL_MANAGER && obj.metadata.annotations?.[LAST_APPLIED_ANNOTATION] !== undefined) {
    setLastApplied(obj, opts.rawConfig ?? config);
  }
  writeManagedFields(obj, managed);
  return obj;
}

/**
 * Before the first apply to an object nobody tracks (its entries were cleared, or every write so far
 * recorded nothing), Kubernetes records its existing fields as an Update by `before-first-apply`, so that
 * the apply conflicts with them like with any other owner's.
 */
function ownExistingFields(scope: FieldManagerScope, liveObj: ApiObject, managed: Managed): void {
  const id = managerIdentifier({ manager: BEFORE_FIRST_APPLY_MANAGER, operation: 'Update', apiVersion: scope.apiVersion, subresource: scope.subresource });
  const set = createdFields(scope.type, scope.resetFields, liveObj, () =>
    updateOwnership(updaterOptions(scope), withoutManagedFields(undefined), liveObj, scope.apiVersion, managed.fields, id, STRIPPED).managers.get(id)?.set ?? new FieldSet());
  if (set.empty()) return;
  managed.fields.set(id, { set, apiVersion: scope.apiVersion, applied: false });
  managed.times.set(id, now(scope));
}

/** The fields of kubectl's last-applied configuration that still hold their live values. */
function allowedFromLastApplied(scope: FieldManagerScope, live: ApiObject): FieldSet | undefined {
  const text = live.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  if (!text) return undefined;
  try {
    const last = JSON.parse(text) as Record<string, unknown>;
    if (last === null || typeof last !== 'object' || last.apiVersion !== scope.apiVersion) return undefined;
    const set = toFieldSet(last, scope.type);
    const c = compare(last, live, scope.type);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}

function setLastApplied(obj: ApiObject, config: Record<string, unknown>): void {
  const copy = deepClone(config) as Record<string, unknown>;
  const meta = copy.metadata as Record<string, unknown> | undefined;
  const ann = meta?.annotations as Record<string, unknown> | undefined;
  if (ann) delete ann[LAST_APPLIED_ANNOTATION];
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  annotations[LAST_APPLIED_ANNOTATION] = goJson(copy) + '\n';
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k) + Buffer.byteLength(v);
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED_ANNOTATION];
  obj.metadata.annotations = annotations;
}

/** The manager of a write without `fieldManager`: the User-Agent up to its first `/`, printable, 128 bytes. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const prefix = (userAgent ?? '').split('/')[0];
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    const c = ch.codePointAt(0)!;
    if (!isGoPrintable(c)) continue;
    const n = c < 0x80 ? 1 : Buffer.byteLength(ch);
    if (bytes + n > 128) break;
    out += ch;
    bytes += n;
  }
  return out;
}

export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string | undefined): string {
  return fieldManager ? fieldManager : managerFromUserAgent(userAgent);
}
