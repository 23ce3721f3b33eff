// Resource requests: routes a parsed request to the generic registry and writes the answer.
import type { Storage } from '../../storage/interface.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { RequestContext, ViewSubresource } from '../../apis/kind.ts';
import { apiVersionOf } from '../../apis/kind.ts';
import * as status from '../../machinery/status.ts';
import { patchedObjectInvalid } from '../../machinery/patch/patch-errors.ts';
import { listObjects, waitNotOlderThan, requestedResourceVersion } from '../../registry/list.ts';
import { decodeBody, decodePatchedObject, decodeViewCreateBody, parseBody } from '../../registry/decode-body.ts';
import type { CachedObject } from '../../storage/cache.ts';
import type { UpdateOptions } from '../../registry/store.ts';
import type { ApiSurface, ServedResource } from '../apis.ts';
import { inClientGroup } from '../group-alias.ts';
import { negotiate, contentTypeOf, type Representation } from '../negotiate.ts';
import { parseQuery, validateWriteOptions, type QueryParams } from '../params.ts';
import { readBody, sendJsonText, sendObject, warningHeader, type Request, type Response } from '../respond.ts';
import type { RequestInfo } from '../requestinfo.ts';
import { toTable, partialMetadata, partialMetadataList } from './table.ts';
import { serveWatch } from './watch.ts';
import type { AdmissionChain, AdmissionAttributes } from '../../admission/chain.ts';
import { deleteOptions, writeOptions } from '../../admission/operation-options.ts';
import { bindRequestAudit } from '../audit/request-context.ts';
import { deleteOptionsFrom, deleteOptionsOf } from './delete-options.ts';
import { patchFormatFor, patchBodyText, patchMediaTypes, type DecodedPatch } from './patch-formats.ts';
import { serverSideApply } from './apply.ts';
import { updateTracker } from '../../machinery/apply/kind-scope.ts';
import { managerOrUserAgent } from '../../machinery/apply/field-manager.ts';
import { deepClone } from '../../machinery/schema/walk.ts';
import { isValidPathSegmentName } from '../../machinery/validation/strings.ts';
import { goQuote } from '../../machinery/go-format.ts';

export interface ResourceHandlerDeps {
  surface: ApiSurface;
  storage: Storage;
  admission: AdmissionChain;
  /** Open watches end when the server stops. */
  watchRegistry: Set<() => void>;
}

export async function handleResource(deps: ResourceHandlerDeps, req: Request, res: Response, info: RequestInfo, query: URLSearchParams, user: RequestContext['user']): Promise<void> {
  const found = deps.surface.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!found) throw status.pathNotFound();
  // Addressed by Kubernetes' name of the group: served by the renamed group, answered in the name asked for.
  return inClientGroup(info, (alias) => serveResource(deps, alias ? { ...found, alias } : found, req, res, info, query, user));
}

const ITEM_VERBS = new Set(['get', 'update', 'patch', 'delete']);

async function serveResource(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, info: RequestInfo, query: URLSearchParams, user: RequestContext['user']): Promise<void> {
  const { def } = served;
  const sub = info.subresource;
  if (info.parts.length) throw status.pathNotFound();
  if (sub && sub !== 'status' && !def.status?.variants?.includes(sub) && !def.views?.some((v) => v.name === sub)) throw status.pathNotFound();
  if (sub === 'status' && !def.status) throw status.pathNotFound();
  if (!def.namespaced && info.namespace && info.resource !== 'namespaces') throw status.pathNotFound();
  // A namespaced kind's cluster-wide path is a collection only (list and watch): Kubernetes installs no item routes there.
  if (def.namespaced && !info.namespace && info.name) throw status.pathNotFound();
  const namespace = def.namespaced ? info.namespace : '';
  // The registry's key function refuses a name that cannot be a path segment before it reads or writes.
  if (info.name && ITEM_VERBS.has(info.verb)) {
    const errs = isValidPathSegmentName(info.name);
    if (errs.length) throw status.badRequest(`Name parameter invalid: ${goQuote(info.name)}: ${errs.join(';')}`);
  }
  const params = parseQuery(query, info.verb);
  const ctx: RequestContext = { user, version: info.apiVersion, subresource: sub, dryRun: params.dryRun, warnings: [] };
  bindRequestAudit(ctx, req);
  const tableAllowed = !sub && (info.verb === 'get' || info.verb === 'list' || info.verb === 'watch');
  const rep = negotiate(req.headers.accept, tableAllowed ? ['', 'Table', 'PartialObjectMetadata', 'PartialObjectMetadataList'] : [''], { objects: true, watch: info.verb === 'watch' });

  try {
    await serveVerb(deps, served, req, res, info, namespace, params, ctx, rep);
  } catch (err) {
    // As Kubernetes' warning recorder writes each warning to the answer's headers as it is recorded, the
    // warnings of a write that then failed (unknown fields, a kind's warnings) go out with its error.
    if (ctx.warnings.length && !res.headersSent) {
      const prior = res.getHeader('warning');
      res.setHeader('warning', [...(prior === undefined ? [] : [prior].flat().map(String)), ...warningHeader(ctx.warnings).warning]);
    }
    throw err;
  }
}

async function serveVerb(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, info: RequestInfo, namespace: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const { def } = served;
  const sub = info.subresource;
  // A method the path has no route for is the mux's 405 (go-restful), which names no kind.
  switch (info.verb) {
    case 'get':
      return getObject(deps, served, req, res, namespace, info.name, sub, params, rep);
    case 'list':
      return listCollection(deps, served, req, res, namespace, params, rep);
    case 'watch':
      return serveWatch(deps, served, req, res, namespace, info.name, params, rep);
    case 'create':
      if (info.name) {
        const view = sub ? viewOf(served, sub) : undefined;
        if (view?.create) return createOnView(deps, served, view, req, res, namespace, info.name, params, ctx, rep);
        throw status.noRouteForMethod();
      }
      if (def.namespaced && !info.namespace) throw status.noRouteForMethod();
      return createObject(deps, served, req, res, namespace, params, ctx, rep);
    case 'update':
      if (!info.name) throw status.noRouteForMethod();
      return updateObject(deps, served, req, res, namespace, info.name, params, ctx, rep);
    case 'patch':
      if (!info.name) throw status.noRouteForMethod();
      return patchObject(deps, served, req, res, namespace, info.name, params, ctx, rep);
    case 'delete':
      if (sub) throw status.noRouteForMethod();
      return deleteObject(deps, served, req, res, namespace, info.name, params, ctx, rep);
    case 'deletecollection':
      if (def.noDeleteCollection) throw status.noRouteForMethod();
      if (def.namespaced && !info.namespace) throw status.noRouteForMethod();
      return deleteCollection(deps, served, req, res, namespace, params, ctx, rep);
    default:
      throw status.noRouteForMethod();
  }
}

/**
 * The object as the client's version (and group name) sees it, encoded. Fast path: the storage version is
 * served as cached.
 */
export function encodeFor(served: ServedResource, obj: CachedObject | { object: ApiObject; json: string }): { object: ApiObject; json: string } {
  const v = served.version;
  // The same object, not a copy: reading `object` may parse it, and most answers need only the JSON.
  if (!v.fromStorage && !served.alias) return obj as { object: ApiObject; json: string };
  const converted = v.fromStorage ? v.fromStorage(deepClone(obj.object) as ApiObject) : obj.object as ApiObject;
  const object = served.alias ? served.alias.object(converted, served.def.groupReferencesIn) : converted;
  return { object, json: JSON.stringify(object) };
}

/** A view's object (Scale, approval ...) as the client sees it: in the group name it asked for when it is the resource's. */
export function viewAnswer(served: ServedResource, obj: ApiObject): ApiObject {
  return served.alias ? served.alias.object(obj) : obj;
}

/** Records managedFields for a create, update or non-apply patch through `sub` ('' for the main resource). */
function fieldTracker(served: ServedResource, req: Request, params: QueryParams, sub: string) {
  return updateTracker(served.def, served.version.name, sub, managerOrUserAgent(params.fieldManager, req.headers['user-agent']));
}

function viewOf(served: ServedResource, sub: string) {
  return served.def.views?.find((v) => v.name === sub);
}

/**
 * The object as of now, as Kubernetes reads etcd for a get without resourceVersion (a watch cache that lags
 * behind storage neither delays nor ages the answer): from storage, or from the cache when it is known to
 * hold what storage has.
 */
async function readCurrent(served: ServedResource, namespace: string, name: string): Promise<CachedObject> {
  const found = await served.store.readNow(namespace, name);
  if (!found) throw status.notFound(served.store.gr, name);
  return found;
}

async function getObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, sub: string, params: QueryParams, rep: Representation): Promise<void> {
  const store = served.store;
  const rv = requestedResourceVersion(params.resourceVersion);
  let found: CachedObject;
  if (rv === undefined) {
    found = await readCurrent(served, namespace, name);
  } else {
    if (rv > 0) await waitNotOlderThan(store, rv);
    found = store.getOrThrow(namespace, name);
  }
  const view = viewOf(served, sub);
  if (view) {
    if (!view.get) throw status.methodNotAllowed('GET', store.gr);
    return sendObject(res, 200, rep, viewAnswer(served, view.get(found.object as ApiObject)));
  }
  const enc = encodeFor(served, found);
  if (rep.as === 'Table') return sendObject(res, 200, rep, toTable(served, [enc.object], params.includeObject, rep, undefined));
  if (rep.as === 'PartialObjectMetadata') return sendObject(res, 200, rep, partialMetadata(enc.object, rep));
  sendJsonText(res, 200, rep, enc.json);
}

async function listCollection(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, params: QueryParams, rep: Representation): Promise<void> {
  sendList(served, res, await listObjects(served.store, deps.storage, namespace, params), params, rep);
}

/** A list answered in the representation asked for. */
function sendList(served: ServedResource, res: Response, result: Awaited<ReturnType<typeof listObjects>>, params: QueryParams, rep: Representation, headers: Record<string, string | string[]> = {}): void {
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue) metadata.continue = result.continue;
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  if (rep.as === 'Table') {
    return sendObject(res, 200, rep, toTable(served, result.items.map((i) => encodeFor(served, i).object), params.includeObject, rep, metadata), headers);
  }
  if (rep.as === 'PartialObjectMetadataList' || rep.as === 'PartialObjectMetadata') {
    return sendObject(res, 200, rep, partialMetadataList(result.items.map((i) => i.object as ApiObject), rep, metadata), headers);
  }
  const apiVersion = apiVersionOf(served.alias?.client ?? served.def.group, served.version.name);
  const listKind = served.def.listKind ?? served.def.kind + 'List';
  // Encode once, write many: the list is the items' cached JSON joined. Items carry no kind and
  // apiVersion, as Kubernetes encodes built-in lists (clients take both from the list).
  const typePrefix = `{"kind":${JSON.stringify(served.def.kind)},"apiVersion":${JSON.stringify(apiVersion)},`;
  const itemJson = (item: CachedObject) => {
    const { json, object } = encodeFor(served, item);
    if (json.startsWith(typePrefix)) return '{' + json.slice(typePrefix.length);
    const { kind: _kind, apiVersion: _apiVersion, ...rest } = object;
    return JSON.stringify(rest);
  };
  const head = `{"kind":${JSON.stringify(listKind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
  const body = head + result.items.map(itemJson).join(',') + ']}';
  sendJsonText(res, 200, rep, body, headers);
}

async function createObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const { def } = served;
  validateWriteOptions('CreateOptions', params);
  const body = await readBody(req);
  const { object, warnings } = decodeBody(body, contentTypeOf(req.headers['content-type']), def, served.version, params.fieldValidation);
  ctx.warnings.push(...warnings);
  const bodyNs = object.metadata.namespace;
  if (def.namespaced && bodyNs && bodyNs !== namespace) {
    throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const attrs: AdmissionAttributes = { operation: 'CREATE', served, namespace, name: object.metadata.name ?? '', object, ctx, options: writeOptions('CreateOptions', params) };
  await deps.admission.admit(attrs);
  const result = await served.store.create(namespace, object, {
    ctx, dryRun: params.dryRun, trackFields: fieldTracker(served, req, params, ''), refuseResourceVersion: true,
    validateAdmission: (obj) => deps.admission.validates ? deps.admission.validate({ ...attrs, object: obj }) : undefined,
  });
  const enc = encodeFor(served, result);
  sendJsonText(res, 201, rep, enc.json, warningHeader(ctx.warnings));
}

/**
 * POST to a sub-resource that acts on the stored object (a Pod's eviction): the body, of the view's kind, is
 * admitted as a CREATE of the sub-resource; then the view acts and its answer goes back with 201.
 */
async function createOnView(deps: ResourceHandlerDeps, served: ServedResource, view: ViewSubresource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  validateWriteOptions('CreateOptions', params);
  const body = await readBody(req);
  const { object, warnings } = decodeViewCreateBody(body, contentTypeOf(req.headers['content-type']), view, params.fieldValidation);
  ctx.warnings.push(...warnings);
  if (served.def.namespaced) {
    const bodyNs = object.metadata.namespace;
    if (bodyNs && bodyNs !== namespace) throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    object.metadata.namespace = namespace;
  }
  const attrs: AdmissionAttributes = { operation: 'CREATE', served, namespace, name, object, ctx, options: writeOptions('CreateOptions', params) };
  await admitFinal(deps, attrs);
  const answer = await view.create!(attrs.object!, {
    namespace, name, ctx,
    read: async () => (await readCurrent(served, namespace, name)).object as ApiObject,
    async delete(value) {
      const opts = deleteOptionsFrom(value, params);
      ctx.dryRun = opts.dryRun;
      await served.store.delete(namespace, name, { ctx, dryRun: opts.dryRun, preconditions: opts.preconditions, propagationPolicy: opts.propagationPolicy, gracePeriodSeconds: opts.gracePeriodSeconds });
    },
    async update(transform) {
      await served.store.update(namespace, (current) => {
        if (!current) throw status.notFound({ group: served.def.group, resource: served.def.plural }, name);
        return transform(current);
      }, { ctx, dryRun: params.dryRun, subresource: view.name, allowCreate: false, name });
    },
  });
  sendObject(res, 201, rep, answer, warningHeader(ctx.warnings));
}

/** Kubernetes' checkName: the object must carry the URL's name, and no other namespace than the URL's. */
export function checkName(obj: ApiObject, name: string, namespace: string): void {
  const meta = (obj.metadata ?? {}) as ApiObject['metadata'];
  const objName = typeof meta.name === 'string' ? meta.name : '';
  if (objName !== name) throw status.badRequest(`the name of the object (${objName}) does not match the name on the URL (${name})`);
  const objNs = typeof meta.namespace === 'string' ? meta.namespace : '';
  if (namespace && objNs && objNs !== namespace) {
    throw status.badRequest(`the namespace of the object (${objNs}) does not match the namespace on the request (${namespace})`);
  }
}

/** The body of a PUT to a view sub-resource: the view's own kind when it is the resource's, else any object. */
function decodeViewBody(served: ServedResource, view: ViewSubresource, body: Buffer, mediaType: string, params: QueryParams, ctx: RequestContext): ApiObject {
  if (view.kind === served.def.kind && view.group === served.def.group) {
    const d = decodeBody(body, mediaType, served.def, served.version, params.fieldValidation);
    ctx.warnings.push(...d.warnings);
    return d.object;
  }
  const value = parseBody(body, mediaType, view.kind).value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw status.badRequest(`the object provided is unrecognized (must be of type ${view.kind})`);
  }
  const obj = value as ApiObject;
  if (obj.metadata === null || typeof obj.metadata !== 'object') obj.metadata = {};
  return obj;
}

/** Validating admission of what an update or patch writes (an update that creates is a CREATE), for the store
 *  to call once the object is final; nothing to wait for without validating admission. */
export function validateWrite(deps: ResourceHandlerDeps, served: ServedResource, namespace: string, name: string, ctx: RequestContext, params: QueryParams): UpdateOptions['validateAdmission'] {
  return (obj, old) => deps.admission.validates
    ? deps.admission.validate({ operation: old ? 'UPDATE' : 'CREATE', served, namespace, name, object: obj, oldObject: old, ctx, options: writeOptions(old ? 'UpdateOptions' : 'CreateOptions', params) })
    : undefined;
}

/** `status` and the sub-resources that behave like it write only the status fields. */
function statusLike(served: ServedResource, sub: string): boolean {
  return sub === 'status' || (served.def.status?.variants?.includes(sub) ?? false);
}

async function updateObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const sub = ctx.subresource;
  const view = viewOf(served, sub);
  if (view && !view.update) throw status.methodNotAllowed('PUT', served.store.gr);
  validateWriteOptions('UpdateOptions', params);
  const body = await readBody(req);
  const mediaType = contentTypeOf(req.headers['content-type']);
  let decoded: ApiObject;
  if (view) {
    decoded = decodeViewBody(served, view, body, mediaType, params, ctx);
  } else {
    const d = decodeBody(body, mediaType, served.def, served.version, params.fieldValidation);
    decoded = d.object;
    ctx.warnings.push(...d.warnings);
  }
  checkName(decoded, name, namespace);
  let attempts = 0;
  const result = await served.store.update(namespace, async (current) => {
    // The first attempt writes the decoded body itself; a retry (the first one changed it) decodes it again.
    let next: ApiObject = attempts++ === 0 ? decoded
      : view ? decodeViewBody(served, view, body, mediaType, params, { ...ctx, warnings: [] })
      : decodeBody(body, mediaType, served.def, served.version, params.fieldValidation).object;
    if (view && current) next = view.update!(current, next);
    await deps.admission.admit({ operation: current ? 'UPDATE' : 'CREATE', served, namespace, name, object: next, oldObject: current, ctx, options: writeOptions(current ? 'UpdateOptions' : 'CreateOptions', params) });
    return next;
  }, {
    ctx, dryRun: params.dryRun, subresource: statusLike(served, sub) ? sub : '', allowCreate: !!served.def.allowCreateOnUpdate && !sub, name, trackFields: fieldTracker(served, req, params, sub),
    transformKeepsCurrent: !view,
    validateAdmission: validateWrite(deps, served, namespace, name, ctx, params),
  });
  const code = result.created ? 201 : 200;
  if (view?.get) return sendObject(res, code, rep, viewAnswer(served, view.get(result.object)), warningHeader(ctx.warnings));
  const enc = encodeFor(served, result);
  sendJsonText(res, code, rep, enc.json, warningHeader(ctx.warnings));
}

async function patchObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const patchType = contentTypeOf(req.headers['content-type']);
  const format = patchFormatFor(patchType);
  if (!format) throw status.unsupportedMediaType('', patchMediaTypes());
  const sub = ctx.subresource;
  const view = viewOf(served, sub);
  if (view && (!view.verbs.includes('patch') || !view.get || !view.update)) throw status.methodNotAllowed('PATCH', served.store.gr);
  const body = await readBody(req);
  validateWriteOptions('PatchOptions', params, { apply: !!format.apply });
  if (format.apply) return serverSideApply(deps, served, res, namespace, name, params, ctx, rep, format.decode(patchBodyText(body, patchType), params.fieldValidation).applyBody!);
  // The patch is read once; its errors are answered only once the object is known to exist, as Kubernetes
  // reads it only then.
  let patch: DecodedPatch | undefined;
  let patchError: unknown;
  try { patch = format.decode(patchBodyText(body, patchType), params.fieldValidation, view ? view.schema : served.version.schema); } catch (err) { patchError = err; }
  const result = await served.store.update(namespace, async (current) => {
    if (!current) throw status.notFound(served.store.gr, name);
    if (!patch) throw patchError;
    let next: ApiObject;
    if (view) {
      const patched = patch.apply(viewAnswer(served, view.get!(current)));
      if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) throw patchedObjectInvalid(patched, `the object provided is unrecognized (must be of type ${view.kind})`);
      next = view.update!(current, patched as ApiObject);
    } else {
      const patched = patch.apply(encodeFor(served, { object: current, json: '' }).object);
      // A patched document that does not decode is shown as the patch left it: the patch applied again.
      const d = decodePatchedObject(patched, served.def, served.version, params.fieldValidation, patch.strictErrors, () => patch!.apply(encodeFor(served, { object: current, json: '' }).object));
      next = d.object;
      ctx.warnings.push(...d.warnings);
      checkName(next, name, namespace);
    }
    await deps.admission.admit({ operation: 'UPDATE', served, namespace, name, object: next, oldObject: current, ctx, options: writeOptions('UpdateOptions', params) });
    return next;
  }, {
    ctx, dryRun: params.dryRun, subresource: statusLike(served, sub) ? sub : '', allowCreate: false, name, trackFields: fieldTracker(served, req, params, sub),
    transformKeepsCurrent: !view,
    validateAdmission: validateWrite(deps, served, namespace, name, ctx, params),
  });
  if (view?.get) return sendObject(res, 200, rep, viewAnswer(served, view.get(result.object)), warningHeader(ctx.warnings));
  const enc = encodeFor(served, result);
  sendJsonText(res, 200, rep, enc.json, warningHeader(ctx.warnings));
}

/**
 * The Status a delete answers when the object is gone: `details.kind` holds the resource and
 * `details.group` the group the client addressed, as Kubernetes fills them.
 */
function deletedStatus(served: ServedResource, name: string, uid: string | undefined) {
  const details: Record<string, string> = { name };
  if (served.def.group) details.group = served.alias?.client ?? served.def.group;
  details.kind = served.def.plural;
  if (uid) details.uid = uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

/** Admission of what is final once mutated (the object a delete removes, a sub-resource's create): the
 *  validating webhooks see it at once. */
async function admitFinal(deps: ResourceHandlerDeps, attrs: AdmissionAttributes): Promise<void> {
  await deps.admission.admit(attrs);
  const validated = deps.admission.validate(attrs);
  if (validated) await validated;
}

async function deleteObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const opts = deleteOptionsOf(await readBody(req), contentTypeOf(req.headers['content-type']), params);
  ctx.dryRun = opts.dryRun;
  const result = await served.store.delete(namespace, name, {
    ctx, dryRun: opts.dryRun, preconditions: opts.preconditions, propagationPolicy: opts.propagationPolicy, gracePeriodSeconds: opts.gracePeriodSeconds,
    validate: (current) => admitFinal(deps, { operation: 'DELETE', served, namespace, name, object: undefined, oldObject: current, ctx, options: deleteOptions(opts) }),
  });
  // 202 only when the object stays and the client asked for cascading with the old orphanDependents=false.
  const code = !result.removed && opts.orphanDependents === false ? 202 : 200;
  if (!result.removed || served.def.deleteReturnsObject) {
    const enc = encodeFor(served, { object: result.object, json: JSON.stringify(result.object) });
    return sendJsonText(res, code, rep, enc.json, warningHeader(ctx.warnings));
  }
  sendObject(res, code, rep, deletedStatus(served, name, result.object.metadata.uid), warningHeader(ctx.warnings));
}

async function deleteCollection(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const opts = deleteOptionsOf(await readBody(req), contentTypeOf(req.headers['content-type']), params);
  ctx.dryRun = opts.dryRun;
  // A limit deletes one page only, as Kubernetes' DeleteCollection does.
  const listed = await listObjects(served.store, deps.storage, namespace, { ...params, watch: false });
  for (const item of listed.items) {
    try {
      await served.store.delete(item.namespace, item.name, {
        ctx, dryRun: opts.dryRun, propagationPolicy: opts.propagationPolicy, gracePeriodSeconds: opts.gracePeriodSeconds,
        validate: (current) => admitFinal(deps, { operation: 'DELETE', served, namespace: item.namespace, name: item.name, object: undefined, oldObject: current, ctx, options: deleteOptions(opts) }),
      });
    } catch (err) {
      if (status.isNotFound(err)) continue;
      throw err;
    }
  }
  // Kubernetes answers the list of what it deleted, as it listed it.
  sendList(served, res, listed, params, rep, warningHeader(ctx.warnings));
}
