// The declaration of a resource kind: what the generic registry, discovery, OpenAPI, codecs and apply read.
// A kind's file under src/apis/<group>/ exports one KindDefinition; its group's index lists it.
import type { TSchema } from '@sinclair/typebox';
import type { FieldError } from '../machinery/field-errors.ts';
import type { ApiObject } from './meta/v1.ts';

export type Stability = 'alpha' | 'beta' | 'stable';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** What a strategy hook knows of the request that caused it. */
export interface RequestContext {
  user: UserInfo;
  /** The version the client addressed (the object given to hooks is always in the storage version). */
  version: string;
  subresource: string;
  dryRun: boolean;
  /** Warnings the hook wants sent back in `Warning` headers. */
  warnings: string[];
  /** The field manager of a write by the server's own loops and controllers (which no request carries): the
   *  registry records their fields under it, as Kubernetes' components' writes are recorded under the name
   *  their user agent starts with. */
  fieldManager?: string;
}

/** The API server acting on its own behalf (its bootstrap objects, its own loops): a system:masters user,
 *  recording its fields as `kube-apiserver` unless another manager is named (the flow control configuration's).
 *  A new context each time, as a write adds its warnings to it. */
export function apiServerContext(subresource = '', fieldManager = 'kube-apiserver'): RequestContext {
  return { user: { username: 'system:apiserver', groups: ['system:masters'] }, version: 'v1', subresource, dryRun: false, warnings: [], fieldManager };
}

/** The field manager of the controllers' writes: Kubernetes' controller manager's. */
export const CONTROLLER_MANAGER_FIELD_MANAGER = 'kube-controller-manager';

export interface VersionDefinition {
  name: string;
  stability: Stability;
  /** Schema of the whole object in this version (apiVersion, kind, metadata, spec, status ...). */
  schema: TSchema;
  /** Served unless `--runtime-config` says otherwise (alpha defaults off, and beta for kinds added after 1.22). */
  servedByDefault?: boolean;
  deprecated?: { warning: string; removedRelease?: string };
  /** Conversion between this version and the storage version (absent when this is the storage version). */
  toStorage?(obj: ApiObject): ApiObject;
  fromStorage?(obj: ApiObject): ApiObject;
}

export interface TableColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  format?: string;
  description: string;
  priority?: number;
  cell(obj: ApiObject): unknown;
}

export interface StatusSubresource {
  /** Paths (dotted) a write to the main resource keeps from the old object; default `status`. */
  mainResetsFields?: string[];
  /** Top-level fields a write to /status may change besides metadata labels and annotations; default `status`. */
  statusFields?: string[];
  /** Further sub-resources that, like status, take and answer the whole object and write only the status
   *  fields (a CertificateSigningRequest's `approval`); hooks tell them apart by `ctx.subresource`. */
  variants?: string[];
}

/** The stored object a sub-resource's `create` acts on (a Pod an eviction deletes). */
export interface ViewTarget {
  namespace: string;
  name: string;
  ctx: RequestContext;
  /** The object as stored now; the kind's 404 when there is none. */
  read(): Promise<ApiObject>;
  /** Deletes it with a DeleteOptions body's options, checked as a DELETE's are (no admission of its own: the
   *  sub-resource's create was admitted). */
  delete(options: Record<string, unknown> | undefined): Promise<void>;
  /** Writes the object as `transform` makes it from the stored one, through the sub-resource's name (the
   *  kind's update checks see `ctx.subresource`); a StatusError the transform throws is the answer. */
  update(transform: (current: ApiObject) => ApiObject): Promise<void>;
}

/** A sub-resource served as a view over the same stored object (Scale, approval ...). */
export interface ViewSubresource {
  name: string;
  group: string;
  version: string;
  kind: string;
  verbs: ('get' | 'update' | 'patch' | 'create')[];
  /** Reads the view from the stored object. */
  get?(obj: ApiObject): ApiObject;
  /** Applies an updated view to a copy of the stored object and returns it. */
  update?(stored: ApiObject, view: ApiObject): ApiObject;
  /** Schema of the view object, published in OpenAPI (a served kind of that group, version and kind otherwise). */
  schema?: TSchema;
  /** Versions of the view's group its `create` body may be in besides `version` (an Eviction's v1beta1). */
  alsoAccepts?: string[];
  /** POST to the sub-resource (a Pod's eviction): the body is the view's kind, admitted as a CREATE of the
   *  sub-resource; acts on the stored object and gives the answer (a Status). */
  create?(view: ApiObject, target: ViewTarget): Promise<ApiObject>;
  /** Its `target.update` writes status and spec alike (a Pod's binding); otherwise the status is kept. */
  writesWholeObject?: boolean;
}

export interface KindDefinition {
  group: string;
  kind: string;
  listKind?: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Served versions in preference order; `storageVersion` names the one stored. */
  versions: VersionDefinition[];
  storageVersion: string;
  /** Key prefix segment in storage; the plural by default. */
  storageResource?: string;
  /** Objects stored in another group's form and keys (events.svc.io Events are core v1 Events): every served
   *  version converts with toStorage/fromStorage, and hooks see objects of this schema. */
  storedAs?: { group: string; version: string; schema: TSchema };
  status?: StatusSubresource;
  views?: ViewSubresource[];
  /** Computed on create and never stored (token and access reviews): only `create` is served, by a handler
   *  outside the generic registry. */
  createOnly?: boolean;
  /** No `deletecollection` (Namespaces): not listed in discovery or OpenAPI, and answered 405. */
  noDeleteCollection?: boolean;

  /** PUT of an absent object creates it. */
  allowCreateOnUpdate?: boolean;
  /** PUT without metadata.resourceVersion is allowed (the live one is used); true unless said otherwise. */
  allowUnconditionalUpdate?: boolean;
  /** DELETE answers the deleted object instead of a Status. */
  deleteReturnsObject?: boolean;
  /** Answered in another name of its group (Kubernetes' name of a renamed group, server/group-alias.ts): a
   *  copy of `obj` whose fields that name the group itself (a binding's roleRef) say `client` for `served`. */
  groupReferencesIn?(obj: ApiObject, served: string, client: string): ApiObject;
  /** Name validation for metadata.name: DNS subdomain unless said otherwise. */
  nameValidation?: 'dns-subdomain' | 'dns-label' | 'path-segment' | ((name: string, prefix: boolean) => string[]);
  /** Generation is kept (and bumped on spec changes); false for kinds without spec semantics. */
  trackGeneration?: boolean;

  /** Kind-specific defaults, after the schema's own defaults. */
  defaults?(obj: ApiObject): void;
  prepareForCreate?(obj: ApiObject, ctx: RequestContext): void;
  prepareForUpdate?(obj: ApiObject, old: ApiObject, ctx: RequestContext): void;
  validate?(obj: ApiObject, ctx: RequestContext): FieldError[];
  validateUpdate?(obj: ApiObject, old: ApiObject, ctx: RequestContext): FieldError[];
  /** Normalises stored form (quantities, sorted sets) after validation. */
  canonicalize?(obj: ApiObject): void;
  /** Fields usable in field selectors besides metadata.name and metadata.namespace. */
  fieldSelectors?: Record<string, (obj: ApiObject) => string>;
  /** How an unsupported field selector is refused, as Kubernetes' field label conversion does: 'custom' (the
   *  kind registers its own conversion: Pod, Node, Namespace, Secret, Service, Event ...; only metadata.name,
   *  metadata.namespace when namespaced, and `fieldSelectors` are accepted, others are `field label not
   *  supported: x`) or 'default'. Unset: 'custom' when the kind declares `fieldSelectors`. */
  fieldSelectorStyle?: 'default' | 'custom';
  /** Old field selector names the conversion rewrites (Pod's `spec.host` → `spec.nodeName`). */
  fieldSelectorAliases?: Record<string, string>;
  tableColumns?: TableColumn[];
  /** Strips what is never stored nor returned (Secret's write-only stringData), before every write. */
  decorate?(obj: ApiObject): void;
  /** Keeps a deleted object (marked with deletionTimestamp) while this says so, beside metadata.finalizers
   *  (a Namespace waits for its spec.finalizers). */
  deletionBlocked?(obj: ApiObject): boolean;
  /** Runs when a delete marks the object instead of removing it (a Namespace turns Terminating). */
  prepareForDelete?(obj: ApiObject): void;
}

export function listKindOf(def: KindDefinition): string {
  return def.listKind ?? def.kind + 'List';
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
