// OpenAPI documents derived from the served kinds: the v3 index and per group-version documents that
// kubectl reads (explain, field validation support, strategic merge patch metadata), and the v2 document
// it falls back to. Pure and deterministic; the HTTP layer serves them.
import { createHash } from 'node:crypto';
import type { TSchema } from '@sinclair/typebox';
import { listKindOf, type KindDefinition, type ViewSubresource } from '../apis/kind.ts';
import { ObjectMeta } from '../apis/meta/v1.ts';
import { isComputed } from '../apis/computed-kind.ts';
import { compare, kindsIn, servedGroups, type ServedKind } from './discovery.ts';
import * as meta from './openapi-meta.ts';
import { DefinitionSet, definitionNameForRef, kindDefinitionName, META_PREFIX, type Flavor, type GvkEntry } from './openapi-schema.ts';

export { definitionNameForRef, kindDefinitionName, groupShortName, type GvkEntry } from './openapi-schema.ts';

type Json = Record<string, unknown>;

/** A view sub-resource may carry the schema of the object it answers (Scale, Eviction ...). */
type ViewWithSchema = ViewSubresource & { schema?: TSchema };

export interface OpenApiOptions {
  /** `info.version`: `unversioned` for v3 group-version documents, the server version for v2, as Kubernetes. */
  infoVersion?: string;
}

export interface OpenApiV3Document {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Json>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  security: Record<string, string[]>[];
}

export interface OpenApiV2Document {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, Json>;
  definitions: Record<string, Json>;
  securityDefinitions: Record<string, Json>;
  security: Record<string, string[]>[];
}

export interface OpenApiV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

export const DEFAULT_SERVER_VERSION = 'v1.32.0';

const PROTOBUF = 'application/vnd.platform.protobuf';
const MEDIA_TYPES = ['application/json', 'application/yaml', PROTOBUF];
const STREAM_MEDIA_TYPES = [...MEDIA_TYPES, 'application/json;stream=watch', `${PROTOBUF};stream=watch`];
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
const BEARER = { BearerToken: { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' } };

// ---- query parameters ----

type ParamType = 'string' | 'boolean' | 'integer';

const QUERY_PARAMS: Record<string, { type: ParamType; description: string }> = {
  pretty: { type: 'string', description: 'If \'true\', then the output is pretty printed. Defaults to \'false\' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).' },
  dryRun: { type: 'string', description: 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed' },
  fieldManager: { type: 'string', description: 'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.' },
  fieldValidation: { type: 'string', description: 'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.' },
  force: { type: 'boolean', description: 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.' },
  allowWatchBookmarks: { type: 'boolean', description: 'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.' },
  continue: { type: 'string', description: 'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token. If the client needs a consistent list, it must restart their list without the continue field. Otherwise, the client may send another list request with the token received with the 410 error, the server will respond with a list starting from the next key, but from the latest snapshot, which is inconsistent from the previous list results - objects that are created, modified, or deleted after the first list request will be included in the response, as long as their keys are after the "next key".\n\nThis field is not supported when watch is true. Clients may start a watch from the last resourceVersion value returned by the server and not miss any modifications.' },
  fieldSelector: { type: 'string', description: 'A selector to restrict the list of returned objects by their fields. Defaults to everything.' },
  labelSelector: { type: 'string', description: 'A selector to restrict the list of returned objects by their labels. Defaults to everything.' },
  limit: { type: 'integer', description: 'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available. Servers may choose not to support the limit argument and will return all of the available results. If limit is specified and the continue field is empty, clients may assume that no more results are available. This field is not supported if watch is true.\n\nThe server guarantees that the objects returned when using continue will be identical to issuing a single list call without a limit - that is, no objects created, modified, or deleted after the first request is issued will be included in any subsequent continued requests. This is sometimes referred to as a consistent snapshot, and ensures that a client that is using limit to receive smaller chunks of a very large result can ensure they see all possible objects. If objects are updated during a chunked list the version of the object that was present at the time the first list result was calculated is returned.' },
  resourceVersion: { type: 'string', description: 'resourceVersion sets a constraint on what resource versions a request may be served from. Defaults to unset' },
  resourceVersionMatch: { type: 'string', description: 'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set. Defaults to unset' },
  sendInitialEvents: { type: 'boolean', description: '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation. Afterwards, the watch stream will proceed as usual, sending watch events corresponding to changes (subsequent to the RV) to objects watched.\n\nWhen `sendInitialEvents` option is set, we require `resourceVersionMatch` option to also be set. The semantic of the watch request is as following: - `resourceVersionMatch` = NotOlderThan\n  is interpreted as "data at least as new as the provided `resourceVersion`"\n  and the bookmark event is send when the state is synced\n  to a `resourceVersion` at least as fresh as the one provided by the ListOptions.\n  If `resourceVersion` is unset, this is interpreted as "consistent read" and the\n  bookmark event is send when the state is synced at least to the moment\n  when request started being processed.\n- `resourceVersionMatch` set to any other value or unset\n  Invalid error is returned.\n\nDefaults to true if `resourceVersion=""` or `resourceVersion="0"` (for backward compatibility reasons) and to false otherwise.' },
  timeoutSeconds: { type: 'integer', description: 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.' },
  watch: { type: 'boolean', description: 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.' },
  gracePeriodSeconds: { type: 'integer', description: meta.DeleteOptions.properties.gracePeriodSeconds.description! },
  ignoreStoreReadErrorWithClusterBreakingPotential: { type: 'boolean', description: meta.DeleteOptions.properties.ignoreStoreReadErrorWithClusterBreakingPotential.description! },
  orphanDependents: { type: 'boolean', description: meta.DeleteOptions.properties.orphanDependents.description! },
  propagationPolicy: { type: 'string', description: meta.DeleteOptions.properties.propagationPolicy.description! },
};

const PATCH_FIELD_MANAGER = QUERY_PARAMS.fieldManager!.description + ' This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).';

const LIST_QUERY = ['allowWatchBookmarks', 'continue', 'fieldSelector', 'labelSelector', 'limit', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds', 'watch'];
const WRITE_QUERY = ['dryRun', 'fieldManager', 'fieldValidation'];
const PATCH_QUERY = ['dryRun', 'fieldManager', 'fieldValidation', 'force'];
const DELETE_QUERY = ['dryRun', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'orphanDependents', 'propagationPolicy'];
const DELETE_COLLECTION_QUERY = ['continue', 'dryRun', 'fieldSelector', 'gracePeriodSeconds', 'ignoreStoreReadErrorWithClusterBreakingPotential', 'labelSelector', 'limit', 'orphanDependents', 'propagationPolicy', 'resourceVersion', 'resourceVersionMatch', 'sendInitialEvents', 'timeoutSeconds'];

// ---- the operations of a group-version, independent of the OpenAPI flavor ----

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Action = 'get' | 'list' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection' | 'watch' | 'watchlist';

interface Operation {
  method: Method;
  action: Action;
  operationId: string;
  description: string;
  tag: string;
  gvk: GvkEntry;
  query: string[];
  /** Request body: an object of the named definition, a patch, or delete options. */
  body?: { kind: 'object'; ref: string } | { kind: 'patch' } | { kind: 'delete' };
  responses: { code: string; description: string; ref: string }[];
  stream: boolean;
}

interface PathItem {
  path: string;
  params: { name: string; description: string }[];
  ops: Operation[];
}

/** Go's `ToValidOperationID`: drops characters that are not letters (digits after the first) and capitalises after them. */
function validOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (/[A-Za-z_]/.test(c) || (i !== 0 && /[0-9]/.test(c))) {
      out += capitalize ? c.toUpperCase() : c;
      capitalize = false;
    } else {
      capitalize = true;
    }
  }
  return out;
}

function groupIdPart(group: string): string {
  return group === '' ? 'core' : group.replace(/\.(svc|k8s)\.io$/, '');
}

function title(s: string): string {
  return s ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** Kubernetes' GetArticleForNoun: plurals take none, vowels take "an". */
function article(noun: string): string {
  if (!noun.endsWith('ss') && noun.endsWith('s')) return ' ';
  return /^[aeiou]/i.test(noun) ? ' an ' : ' a ';
}

function metaName(kind: string): string {
  return META_PREFIX + kind;
}

/** Adds the definitions every document references. */
function addMetaDefinitions(defs: DefinitionSet, allGroupVersions: { group: string; version: string }[]): void {
  const everyGroup = (kind: string) => allGroupVersions.map(({ group, version }) => ({ group, kind, version }));
  const define = (schema: TSchema, extra?: Json) => defs.define(definitionNameForRef((schema as unknown as { 'x-ref': string })['x-ref']), schema, extra);
  define(meta.RawExtension);
  define(meta.ListMeta);
  define(meta.Status, { 'x-kubernetes-group-version-kind': [{ group: '', kind: 'Status', version: 'v1' }] });
  define(meta.DeleteOptions, { 'x-kubernetes-group-version-kind': everyGroup('DeleteOptions') });
  define(meta.WatchEvent, { 'x-kubernetes-group-version-kind': everyGroup('WatchEvent') });
  define(meta.Patch);
}

/** Every served group-version plus core v1, sorted by group then version (as Kubernetes lists meta kinds). */
function allGroupVersions(served: readonly ServedKind[]): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>([['/v1', { group: '', version: 'v1' }]]);
  for (const g of servedGroups(served)) for (const version of g.versions) seen.set(`${g.name}/${version}`, { group: g.name, version });
  return [...seen.values()].sort((a, b) => compare(a.group, b.group) || compare(a.version, b.version));
}

const CONVENTIONS = 'https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md';
/** What Kubernetes' OpenAPI says of every kind's apiVersion, kind and metadata (kubectl explain prints it). */
const TYPE_META_DESCRIPTIONS: Record<string, string> = {
  apiVersion: `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${CONVENTIONS}#resources`,
  kind: `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${CONVENTIONS}#types-kinds`,
  metadata: `Standard object's metadata. More info: ${CONVENTIONS}#metadata`,
};

/** A kind's schema with the standard descriptions on its apiVersion, kind and metadata where it gives none. */
function withTypeMetaDescriptions(schema: TSchema): TSchema {
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!props) return schema;
  const described = { ...props };
  for (const [name, description] of Object.entries(TYPE_META_DESCRIPTIONS)) {
    const field = props[name];
    // A field that only repeats its type's description (ObjectMeta's own) has none of its own.
    const ownDescription = field?.description !== undefined && field.description !== (ObjectMeta as TSchema).description;
    // The type keeps its own description (x-type-description), the field gets the standard one.
    if (field && !ownDescription) described[name] = { ...field, description, 'x-type-description': field.description } as TSchema;
  }
  return { ...schema, properties: described } as TSchema;
}

/** Publishes a kind and its list; returns their definition names. */
function addKindDefinitions(defs: DefinitionSet, { def, version }: ServedKind): { kindRef: string; listRef: string } {
  const group = def.group;
  const kindRef = kindDefinitionName(group, version.name, def.kind);
  defs.define(kindRef, withTypeMetaDescriptions(version.schema), { 'x-kubernetes-group-version-kind': [{ group, kind: def.kind, version: version.name }] });
  const listKind = listKindOf(def);
  const listRef = kindDefinitionName(group, version.name, listKind);
  if (!defs.has(listRef)) {
    const itemsRef = defs.refTo(kindRef);
    defs.set(listRef, {
      description: `${listKind} is a list of ${def.kind} objects.`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: defs.field(meta.apiVersionField()),
        items: { description: `List of ${def.plural}.`, type: 'array', items: { $ref: itemsRef } },
        kind: defs.field(meta.kindField()),
        metadata: defs.field({ ...meta.ListMeta, description: 'Standard list metadata.' }),
      },
      'x-kubernetes-group-version-kind': [{ group, kind: listKind, version: version.name }],
    });
  }
  return { kindRef, listRef };
}

/** Publishes the object a view answers: its own schema, a served kind of that name, or an open object. */
function addViewDefinition(defs: DefinitionSet, served: readonly ServedKind[], view: ViewWithSchema, owner: KindDefinition): string {
  const name = kindDefinitionName(view.group, view.version, view.kind);
  const gvk = { 'x-kubernetes-group-version-kind': [{ group: view.group, kind: view.kind, version: view.version }] };
  if (defs.has(name)) return name;
  const schema = view.schema ?? served.find((s) => s.def.group === view.group && s.version.name === view.version && s.def.kind === view.kind)?.version.schema;
  if (schema) return defs.define(name, schema, gvk);
  defs.set(name, {
    description: `${view.kind} is the ${view.name} sub-resource of ${owner.kind}.`,
    type: 'object',
    properties: {
      apiVersion: defs.field(meta.apiVersionField()),
      kind: defs.field(meta.kindField()),
      metadata: defs.field(ObjectMeta),
    },
    'x-kubernetes-preserve-unknown-fields': true,
    'x-platform-preserve-unknown-fields': true,
    ...gvk,
  });
  return name;
}

/** The paths and operations of one group-version, registering the definitions they reference. */
function groupVersionPaths(served: readonly ServedKind[], group: string, version: string, defs: DefinitionSet): PathItem[] {
  const prefix = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const gid = groupIdPart(group);
  const idPrefix = validOperationId(gid, true) + validOperationId(version, true);
  const tag = `${validOperationId(gid, false)}_${validOperationId(version, false)}`;
  const items: PathItem[] = [];

  for (const entry of kindsIn(served, group, version)) {
    const { def } = entry;
    const { kindRef, listRef } = addKindDefinitions(defs, entry);
    const K = def.kind;
    const gvk: GvkEntry = { group, kind: K, version };
    const ns = def.namespaced ? 'Namespaced' : '';
    const collection = def.namespaced ? `${prefix}/namespaces/{namespace}/${def.plural}` : `${prefix}/${def.plural}`;
    const item = `${collection}/{name}`;
    const nsParam = def.namespaced ? [{ name: 'namespace', description: 'object name and auth scope, such as for teams and projects' }] : [];
    const nameParam = { name: 'name', description: `name of the ${K}` };
    const status = metaName('Status');
    const deleted = def.deleteReturnsObject ? kindRef : status;
    const op = (o: Omit<Operation, 'tag' | 'stream'> & { stream?: boolean }): Operation => ({ tag, stream: false, ...o });

    if (def.createOnly) {
      // Reviews answer a POST on the collection and nothing else.
      items.push({ path: collection, params: nsParam, ops: [op({ method: 'post', action: 'post', operationId: `create${idPrefix}${ns}${K}`, description: `create${article(K)}${K}`, gvk, query: WRITE_QUERY, body: { kind: 'object', ref: kindRef }, responses: created(kindRef, true) })] });
      continue;
    }
    if (isComputed(def)) {
      // Computed on read (ComponentStatus): list and read, no watch.
      items.push({ path: collection, params: nsParam, ops: [op({ method: 'get', action: 'list', operationId: `list${idPrefix}${ns}${K}`, description: `list objects of kind ${K}`, gvk, query: LIST_QUERY, responses: [{ code: '200', description: 'OK', ref: listRef }] })] });
      items.push({ path: item, params: [nameParam, ...nsParam], ops: [op({ method: 'get', action: 'get', operationId: `read${idPrefix}${ns}${K}`, description: `read the specified ${K}`, gvk, query: [], responses: [{ code: '200', description: 'OK', ref: kindRef }] })] });
      continue;
    }
    items.push({
      path: collection,
      params: nsParam,
      ops: [
        op({ method: 'get', action: 'list', operationId: `list${idPrefix}${ns}${K}`, description: `list or watch objects of kind ${K}`, gvk, query: LIST_QUERY, responses: [{ code: '200', description: 'OK', ref: listRef }], stream: true }),
        op({ method: 'post', action: 'post', operationId: `create${idPrefix}${ns}${K}`, description: `create${article(K)}${K}`, gvk, query: WRITE_QUERY, body: { kind: 'object', ref: kindRef }, responses: created(kindRef, true) }),
        ...(def.noDeleteCollection ? [] : [op({ method: 'delete', action: 'deletecollection', operationId: `delete${idPrefix}Collection${ns}${K}`, description: `delete collection of ${K}`, gvk, query: DELETE_COLLECTION_QUERY, body: { kind: 'delete' }, responses: [{ code: '200', description: 'OK', ref: status }] })]),
      ],
    });
    items.push({
      path: item,
      params: [nameParam, ...nsParam],
      ops: [
        op({ method: 'get', action: 'get', operationId: `read${idPrefix}${ns}${K}`, description: `read the specified ${K}`, gvk, query: [], responses: [{ code: '200', description: 'OK', ref: kindRef }] }),
        op({ method: 'put', action: 'put', operationId: `replace${idPrefix}${ns}${K}`, description: `replace the specified ${K}`, gvk, query: WRITE_QUERY, body: { kind: 'object', ref: kindRef }, responses: created(kindRef, false) }),
        op({ method: 'patch', action: 'patch', operationId: `patch${idPrefix}${ns}${K}`, description: `partially update the specified ${K}`, gvk, query: PATCH_QUERY, body: { kind: 'patch' }, responses: created(kindRef, false) }),
        op({ method: 'delete', action: 'delete', operationId: `delete${idPrefix}${ns}${K}`, description: `delete${article(K)}${K}`, gvk, query: DELETE_QUERY, body: { kind: 'delete' }, responses: [{ code: '200', description: 'OK', ref: deleted }, { code: '202', description: 'Accepted', ref: deleted }] }),
      ],
    });

    // Sub-resources, in name order as Kubernetes installs them.
    const subs: { name: string; view?: ViewWithSchema }[] = [];
    if (def.status) subs.push({ name: 'status' });
    for (const name of def.status?.variants ?? []) subs.push({ name });
    for (const view of def.views ?? []) subs.push({ name: view.name, view });
    subs.sort((a, b) => compare(a.name, b.name));
    for (const sub of subs) {
      const Sub = title(sub.name);
      const ref = sub.view ? addViewDefinition(defs, served, sub.view, def) : kindRef;
      const subGvk = sub.view ? { group: sub.view.group, kind: sub.view.kind, version: sub.view.version } : gvk;
      const verbs = sub.view ? new Set(sub.view.verbs) : new Set(['get', 'update', 'patch']);
      const ops: Operation[] = [];
      if (verbs.has('get')) ops.push(op({ method: 'get', action: 'get', operationId: `read${idPrefix}${ns}${K}${Sub}`, description: `read ${sub.name} of the specified ${K}`, gvk: subGvk, query: [], responses: [{ code: '200', description: 'OK', ref }] }));
      if (verbs.has('create')) ops.push(op({ method: 'post', action: 'post', operationId: `create${idPrefix}${ns}${K}${Sub}`, description: `create ${sub.name} of${article(K)}${K}`, gvk: subGvk, query: WRITE_QUERY, body: { kind: 'object', ref }, responses: created(ref, true) }));
      if (verbs.has('update')) ops.push(op({ method: 'put', action: 'put', operationId: `replace${idPrefix}${ns}${K}${Sub}`, description: `replace ${sub.name} of the specified ${K}`, gvk: subGvk, query: WRITE_QUERY, body: { kind: 'object', ref }, responses: created(ref, false) }));
      if (verbs.has('patch')) ops.push(op({ method: 'patch', action: 'patch', operationId: `patch${idPrefix}${ns}${K}${Sub}`, description: `partially update ${sub.name} of the specified ${K}`, gvk: subGvk, query: PATCH_QUERY, body: { kind: 'patch' }, responses: created(ref, false) }));
      items.push({ path: `${item}/${sub.name}`, params: [nameParam, ...nsParam], ops });
    }

    const watchEvent = metaName('WatchEvent');
    const watchOk = [{ code: '200', description: 'OK', ref: watchEvent }];
    const watchListDoc = `watch individual changes to a list of ${K}. deprecated: use the 'watch' parameter with a list operation instead.`;
    const watchPrefix = `${prefix}/watch`;
    const watchCollection = def.namespaced ? `${watchPrefix}/namespaces/{namespace}/${def.plural}` : `${watchPrefix}/${def.plural}`;
    items.push({
      path: watchCollection,
      params: nsParam,
      ops: [op({ method: 'get', action: 'watchlist', operationId: `watch${idPrefix}${ns}${K}List`, description: watchListDoc, gvk, query: LIST_QUERY, responses: watchOk, stream: true })],
    });
    items.push({
      path: `${watchCollection}/{name}`,
      params: [nameParam, ...nsParam],
      ops: [op({ method: 'get', action: 'watch', operationId: `watch${idPrefix}${ns}${K}`, description: `watch changes to an object of kind ${K}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`, gvk, query: LIST_QUERY, responses: watchOk, stream: true })],
    });
    if (def.namespaced) {
      items.push({
        path: `${prefix}/${def.plural}`,
        params: [],
        ops: [op({ method: 'get', action: 'list', operationId: `list${idPrefix}${K}ForAllNamespaces`, description: `list or watch objects of kind ${K}`, gvk, query: LIST_QUERY, responses: [{ code: '200', description: 'OK', ref: listRef }], stream: true })],
      });
      items.push({
        path: `${watchPrefix}/${def.plural}`,
        params: [],
        ops: [op({ method: 'get', action: 'watchlist', operationId: `watch${idPrefix}${K}ListForAllNamespaces`, description: watchListDoc, gvk, query: LIST_QUERY, responses: watchOk, stream: true })],
      });
    }
  }
  return items;
}

function created(ref: string, accepted: boolean): Operation['responses'] {
  const r = [{ code: '200', description: 'OK', ref }, { code: '201', description: 'Created', ref }];
  if (accepted) r.push({ code: '202', description: 'Accepted', ref });
  return r;
}

// ---- rendering ----

function queryParamV3(name: string, method: Method): Json {
  const p = QUERY_PARAMS[name]!;
  const description = name === 'fieldManager' && method === 'patch' ? PATCH_FIELD_MANAGER : p.description;
  return { description, in: 'query', name, schema: { type: p.type, uniqueItems: true } };
}

function queryParamV2(name: string, method: Method): Json {
  const p = QUERY_PARAMS[name]!;
  const description = name === 'fieldManager' && method === 'patch' ? PATCH_FIELD_MANAGER : p.description;
  return { description, in: 'query', name, type: p.type, uniqueItems: true };
}

function pathParams(item: PathItem, flavor: Flavor): Json[] {
  const params: Json[] = item.params.map((p) => flavor === 'v3'
    ? { description: p.description, in: 'path', name: p.name, required: true, schema: { type: 'string', uniqueItems: true } }
    : { description: p.description, in: 'path', name: p.name, required: true, type: 'string', uniqueItems: true });
  params.push(flavor === 'v3' ? queryParamV3('pretty', 'get') : queryParamV2('pretty', 'get'));
  return params;
}

function gvkOf(op: Operation): Json {
  return { group: op.gvk.group, kind: op.gvk.kind, version: op.gvk.version };
}

function renderV3(op: Operation, defs: DefinitionSet): Json {
  const out: Json = { description: op.description, operationId: op.operationId };
  if (op.query.length) out.parameters = op.query.map((q) => queryParamV3(q, op.method));
  const schemaOf = (ref: string) => ({ schema: { $ref: defs.refTo(ref) } });
  if (op.body?.kind === 'object') out.requestBody = { content: { '*/*': schemaOf(op.body.ref) }, required: true };
  if (op.body?.kind === 'patch') out.requestBody = { content: Object.fromEntries(PATCH_TYPES.map((t) => [t, schemaOf(metaName('Patch'))])), required: true };
  if (op.body?.kind === 'delete') out.requestBody = { content: { '*/*': schemaOf(metaName('DeleteOptions')) } };
  const responses: Json = {};
  const media = (op.stream ? STREAM_MEDIA_TYPES : MEDIA_TYPES).slice().sort(compare);
  for (const r of op.responses) responses[r.code] = { content: Object.fromEntries(media.map((m) => [m, schemaOf(r.ref)])), description: r.description };
  responses['401'] = { description: 'Unauthorized' };
  out.responses = responses;
  out.tags = [op.tag];
  out['x-kubernetes-action'] = op.action;
  out['x-kubernetes-group-version-kind'] = gvkOf(op);
  return out;
}

function renderV2(op: Operation, defs: DefinitionSet): Json {
  const out: Json = {
    consumes: op.method === 'patch' ? PATCH_TYPES : ['*/*'],
    description: op.description,
    operationId: op.operationId,
  };
  const params: Json[] = [];
  const body = (ref: string, required: boolean) => ({ in: 'body', name: 'body', required, schema: { $ref: defs.refTo(ref) } });
  if (op.body?.kind === 'object') params.push(body(op.body.ref, true));
  if (op.body?.kind === 'patch') params.push(body(metaName('Patch'), true));
  if (op.body?.kind === 'delete') params.push(body(metaName('DeleteOptions'), false));
  for (const q of op.query) params.push(queryParamV2(q, op.method));
  if (params.length) out.parameters = params;
  out.produces = op.stream ? STREAM_MEDIA_TYPES : MEDIA_TYPES;
  const responses: Json = {};
  for (const r of op.responses) responses[r.code] = { description: r.description, schema: { $ref: defs.refTo(r.ref) } };
  responses['401'] = { description: 'Unauthorized' };
  out.responses = responses;
  out.schemes = ['https'];
  out.tags = [op.tag];
  out['x-kubernetes-action'] = op.action;
  out['x-kubernetes-group-version-kind'] = gvkOf(op);
  return out;
}

function renderPaths(items: PathItem[], defs: DefinitionSet, target: Record<string, Json>): void {
  for (const item of items) {
    const rendered: Json = target[item.path] ?? {};
    for (const op of item.ops) rendered[op.method] = defs.flavor === 'v3' ? renderV3(op, defs) : renderV2(op, defs);
    rendered.parameters = pathParams(item, defs.flavor);
    target[item.path] = rendered;
  }
}

function sortedKeys<T>(o: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(o).sort(compare)) {
    const v = o[k]!;
    // Within a path item the methods and `parameters` are listed in name order too.
    out[k] = v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => compare(a, b))) as T : v;
  }
  return out;
}

// ---- public API ----

/** The v3 index key of a group-version: `api/v1`, `apis/apps/v1`. */
export function openApiV3Key(group: string, version: string): string {
  return group === '' ? `api/${version}` : `apis/${group}/${version}`;
}

/** The group-version of a v3 index key, or undefined when the key names no group-version. */
export function parseOpenApiV3Key(key: string): { group: string; version: string } | undefined {
  const parts = key.replace(/^\/+|\/+$/g, '').split('/');
  if (parts[0] === 'api' && parts.length === 2 && parts[1]) return { group: '', version: parts[1] };
  if (parts[0] === 'apis' && parts.length === 3 && parts[1] && parts[2]) return { group: parts[1], version: parts[2] };
  return undefined;
}

/** Index keys of every served group-version, sorted. */
export function openApiV3Keys(served: readonly ServedKind[]): string[] {
  const keys: string[] = [];
  for (const g of servedGroups(served)) for (const v of g.versions) keys.push(openApiV3Key(g.name, v));
  return keys.sort(compare);
}

/** The OpenAPI 3.0 document of one group-version, or undefined when it is not served. */
export function openApiV3Document(served: readonly ServedKind[], group: string, version: string, options: OpenApiOptions = {}): OpenApiV3Document | undefined {
  if (kindsIn(served, group, version).length === 0) return undefined;
  const defs = new DefinitionSet('v3');
  addMetaDefinitions(defs, allGroupVersions(served));
  const paths: Record<string, Json> = {};
  renderPaths(groupVersionPaths(served, group, version, defs), defs, paths);
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: options.infoVersion ?? 'unversioned' },
    paths: sortedKeys(paths),
    components: { schemas: defs.toObject(), securitySchemes: BEARER },
    security: [{ BearerToken: [] }],
  };
}

/** The Swagger 2.0 document covering every served group-version. */
export function openApiV2Document(served: readonly ServedKind[], options: OpenApiOptions = {}): OpenApiV2Document {
  const defs = new DefinitionSet('v2');
  addMetaDefinitions(defs, allGroupVersions(served));
  const paths: Record<string, Json> = {};
  for (const g of servedGroups(served)) for (const v of g.versions) renderPaths(groupVersionPaths(served, g.name, v, defs), defs, paths);
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: options.infoVersion ?? DEFAULT_SERVER_VERSION },
    paths: sortedKeys(paths),
    definitions: defs.toObject(),
    securityDefinitions: BEARER,
    security: [{ BearerToken: [] }],
  };
}

/** Every v3 schema definition of every served group-version, by name (what `kubectl explain` searches). */
export function openApiV3Schemas(served: readonly ServedKind[]): Record<string, Json> {
  const defs = new DefinitionSet('v3');
  addMetaDefinitions(defs, allGroupVersions(served));
  for (const g of servedGroups(served)) for (const v of g.versions) groupVersionPaths(served, g.name, v, defs);
  return defs.toObject();
}

/** kube-openapi's ETag hash: sha512 of the served bytes, upper-case hex. */
export function openApiHash(doc: unknown): string {
  const bytes = typeof doc === 'string' || doc instanceof Uint8Array ? doc : JSON.stringify(doc);
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

/**
 * `GET /openapi/v3`. `hashes` maps index keys to the hash of the document served there; keys it names
 * besides the served group-versions (`version`, `api` ...) are listed too. A served group-version without a
 * hash gets the hash of its document as `openApiV3Document` builds it.
 */
export function openApiV3Index(served: readonly ServedKind[], hashes: Record<string, string> | ReadonlyMap<string, string> = {}): OpenApiV3Index {
  const given = hashes instanceof Map ? hashes : new Map(Object.entries(hashes));
  const keys = new Set([...openApiV3Keys(served), ...given.keys()]);
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const key of [...keys].sort(compare)) {
    let hash = given.get(key);
    if (hash === undefined) {
      const gv = parseOpenApiV3Key(key)!;
      hash = openApiHash(openApiV3Document(served, gv.group, gv.version));
    }
    paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${hash}` };
  }
  return { paths };
}

export interface BuiltOpenApiV3 {
  index: OpenApiV3Index;
  /** By index key: the document, its JSON text and the hash of that text. */
  documents: Map<string, { document: OpenApiV3Document; json: string; hash: string }>;
}

/** Builds every v3 document once, with the index pointing at their hashes. */
export function buildOpenApiV3(served: readonly ServedKind[], options: OpenApiOptions = {}): BuiltOpenApiV3 {
  const documents: BuiltOpenApiV3['documents'] = new Map();
  for (const key of openApiV3Keys(served)) {
    const gv = parseOpenApiV3Key(key)!;
    const document = openApiV3Document(served, gv.group, gv.version, options)!;
    const json = JSON.stringify(document);
    documents.set(key, { document, json, hash: openApiHash(json) });
  }
  const hashes = new Map([...documents].map(([k, d]) => [k, d.hash]));
  return { index: openApiV3Index(served, hashes), documents };
}
