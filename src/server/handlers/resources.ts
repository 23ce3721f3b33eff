// Resource requests: routes a parsed request to the generic registry and writes the answer.
import type { Storage } from '../../storage/interface.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { RequestContext } from '../../apis/kind.ts';
import { apiVersionOf } from '../../apis/kind.ts';
import * as status from '../../machinery/status.ts';
import { applyJsonPatch } from '../../machinery/patch/json-patch.ts';
import { applyMergePatch } from '../../machinery/patch/merge-patch.ts';
import { listObjects, syncToStorage, waitNotOlderThan, requestedResourceVersion } from '../../registry/list.ts';
import { decodeBody, decodeValue, parseBody } from '../../registry/decode-body.ts';
import type { CachedObject } from '../../storage/cache.ts';
import type { ApiSurface, ServedResource } from '../apis.ts';
import { negotiate, contentTypeOf, type Representation } from '../negotiate.ts';
import { parseQuery, type QueryParams } from '../params.ts';
import { readBody, sendJsonText, sendObject, warningHeader, type Request, type Response } from '../respond.ts';
import type { RequestInfo } from '../requestinfo.ts';
import { toTable, partialMetadata } from './table.ts';
import { serveWatch } from './watch.ts';
import type { AdmissionChain } from '../../admission/chain.ts';

export interface ResourceHandlerDeps {
  surface: ApiSurface;
  storage: Storage;
  admission: AdmissionChain;
  /** Open watches end when the server stops. */
  watchRegistry: Set<() => void>;
}

const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

export async function handleResource(deps: ResourceHandlerDeps, req: Request, res: Response, info: RequestInfo, query: URLSearchParams, user: RequestContext['user']): Promise<void> {
  const served = deps.surface.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!served) throw status.pathNotFound();
  const { def } = served;
  const params = parseQuery(query);
  const sub = info.subresource;
  if (info.parts.length) throw status.pathNotFound();
  if (sub && sub !== 'status' && !def.status?.variants?.includes(sub) && !def.views?.some((v) => v.name === sub)) throw status.pathNotFound();
  if (sub === 'status' && !def.status) throw status.pathNotFound();
  if (!def.namespaced && info.namespace && info.resource !== 'namespaces') throw status.pathNotFound();
  const namespace = def.namespaced ? info.namespace : '';
  const ctx: RequestContext = { user, version: info.apiVersion, subresource: sub, dryRun: params.dryRun, warnings: [] };
  const tableAllowed = !sub && (info.verb === 'get' || info.verb === 'list' || info.verb === 'watch');
  const rep = negotiate(req.headers.accept, tableAllowed ? ['', 'Table', 'PartialObjectMetadata', 'PartialObjectMetadataList'] : ['']);

  switch (info.verb) {
    case 'get':
      return getObject(deps, served, req, res, namespace, info.name, sub, params, rep);
    case 'list':
      if (def.namespaced && !info.namespace && req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed(req.method!, served.store.gr);
      return listCollection(deps, served, req, res, namespace, params, rep);
    case 'watch':
      return serveWatch(deps, served, req, res, namespace, info.name, params, rep);
    case 'create':
      if (info.name) throw status.methodNotAllowed('POST', served.store.gr);
      if (def.namespaced && !info.namespace) throw status.methodNotAllowed('POST', served.store.gr);
      return createObject(deps, served, req, res, namespace, params, ctx, rep);
    case 'update':
      if (!info.name) throw status.methodNotAllowed('PUT', served.store.gr);
      return updateObject(deps, served, req, res, namespace, info.name, params, ctx, rep);
    case 'patch':
      if (!info.name) throw status.methodNotAllowed('PATCH', served.store.gr);
      return patchObject(deps, served, req, res, namespace, info.name, params, ctx, rep);
    case 'delete':
      if (sub) throw status.methodNotAllowed('DELETE', served.store.gr);
      return deleteObject(deps, served, req, res, namespace, info.name, params, ctx, rep);
    case 'deletecollection':
      if (def.namespaced && !info.namespace) throw status.methodNotAllowed('DELETE', served.store.gr);
      return deleteCollection(deps, served, req, res, namespace, params, ctx, rep);
    default:
      throw status.methodNotAllowed(req.method ?? info.verb, served.store.gr);
  }
}

/** The object as the client's version sees it, encoded. Fast path: the storage version is served as cached. */
function encodeFor(served: ServedResource, obj: CachedObject | { object: ApiObject; json: string }): { object: ApiObject; json: string } {
  const v = served.version;
  if (!v.fromStorage) return { object: obj.object as ApiObject, json: obj.json };
  const converted = v.fromStorage(structuredClone(obj.object) as ApiObject);
  return { object: converted, json: JSON.stringify(converted) };
}

function viewOf(served: ServedResource, sub: string) {
  return served.def.views?.find((v) => v.name === sub);
}

async function getObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, sub: string, params: QueryParams, rep: Representation): Promise<void> {
  const store = served.store;
  const rv = requestedResourceVersion(params.resourceVersion);
  if (rv === undefined) await syncToStorage(store, deps.storage);
  else if (rv > 0) await waitNotOlderThan(store, rv);
  const found = store.getOrThrow(namespace, name);
  const view = viewOf(served, sub);
  if (view) {
    if (!view.get) throw status.methodNotAllowed('GET', store.gr);
    return sendObject(res, 200, rep, view.get(found.object as ApiObject), {}, params.pretty);
  }
  const enc = encodeFor(served, found);
  if (rep.as === 'Table') return sendObject(res, 200, rep, toTable(served, [enc.object], params.includeObject, rep, undefined), {}, params.pretty);
  if (rep.as === 'PartialObjectMetadata') return sendObject(res, 200, rep, partialMetadata(enc.object, rep), {}, params.pretty);
  sendJsonText(res, 200, rep, enc.json, {}, params.pretty);
}

async function listCollection(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, params: QueryParams, rep: Representation): Promise<void> {
  const result = await listObjects(served.store, deps.storage, namespace, params);
  const metadata: Record<string, unknown> = { resourceVersion: result.resourceVersion };
  if (result.continue) metadata.continue = result.continue;
  if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  if (rep.as === 'Table') {
    return sendObject(res, 200, rep, toTable(served, result.items.map((i) => encodeFor(served, i).object), params.includeObject, rep, metadata), {}, params.pretty);
  }
  if (rep.as === 'PartialObjectMetadataList' || rep.as === 'PartialObjectMetadata') {
    const list = { kind: 'PartialObjectMetadataList', apiVersion: `${rep.group}/${rep.version}`, metadata, items: result.items.map((i) => partialMetadata(i.object as ApiObject, rep)) };
    return sendObject(res, 200, rep, list, {}, params.pretty);
  }
  const apiVersion = apiVersionOf(served.def.group, served.version.name);
  const listKind = served.def.listKind ?? served.def.kind + 'List';
  // Encode once, write many: the list is the items' cached JSON joined.
  const head = `{"kind":${JSON.stringify(listKind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
  const body = head + result.items.map((i) => encodeFor(served, i).json).join(',') + ']}';
  sendJsonText(res, 200, rep, body, {}, params.pretty);
}

async function createObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const body = await readBody(req);
  const { object, warnings } = decodeBody(body, contentTypeOf(req.headers['content-type']), served.def, served.version, params.fieldValidation);
  ctx.warnings.push(...warnings);
  const bodyNs = object.metadata?.namespace;
  if (served.def.namespaced && bodyNs && bodyNs !== namespace) {
    throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  if (!object.metadata?.name && !object.metadata?.generateName) {
    throw status.invalid(served.def.group, served.def.kind, '', [{ type: 'FieldValueRequired', field: 'metadata.name', hasValue: false, detail: 'name or generateName is required' }]);
  }
  await deps.admission.admit({ operation: 'CREATE', served, namespace, name: object.metadata.name ?? '', object, ctx });
  const result = await served.store.create(namespace, object, { ctx, dryRun: params.dryRun });
  const enc = encodeFor(served, result);
  sendJsonText(res, 201, rep, enc.json, warningHeader(ctx.warnings), params.pretty);
}

async function updateObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const body = await readBody(req);
  const sub = ctx.subresource;
  const view = viewOf(served, sub);
  const mediaType = contentTypeOf(req.headers['content-type']);
  let decoded: ApiObject;
  if (view) {
    if (!view.update) throw status.methodNotAllowed('PUT', served.store.gr);
    decoded = parseBody(body, mediaType).value as ApiObject;
  } else {
    const d = decodeBody(body, mediaType, served.def, served.version, params.fieldValidation);
    decoded = d.object;
    ctx.warnings.push(...d.warnings);
  }
  const bodyName = decoded.metadata?.name;
  if (bodyName && bodyName !== name) throw status.badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
  const bodyNs = decoded.metadata?.namespace;
  if (served.def.namespaced && bodyNs && bodyNs !== namespace) throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const result = await served.store.update(namespace, async (current) => {
    let next: ApiObject = structuredClone(decoded);
    if (view && current) {
      next = view.update!(current, next);
    }
    await deps.admission.admit({ operation: current ? 'UPDATE' : 'CREATE', served, namespace, name, object: next, oldObject: current, ctx });
    return next;
  }, { ctx, dryRun: params.dryRun, subresource: view ? '' : sub, allowCreate: !!served.def.allowCreateOnUpdate && !sub, name });
  if (view?.get) return sendObject(res, result.created ? 201 : 200, rep, view.get(result.object), warningHeader(ctx.warnings), params.pretty);
  const enc = encodeFor(served, result);
  sendJsonText(res, result.created ? 201 : 200, rep, enc.json, warningHeader(ctx.warnings), params.pretty);
}

async function patchObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const mediaType = contentTypeOf(req.headers['content-type']);
  if (mediaType === 'application/strategic-merge-patch+json' || mediaType === 'application/apply-patch+yaml') {
    throw status.unsupportedMediaType(mediaType, ['application/json-patch+json', 'application/merge-patch+json']);
  }
  if (!PATCH_TYPES.includes(mediaType)) throw status.unsupportedMediaType(mediaType, PATCH_TYPES);
  if (params.force !== undefined && params.force) {
    throw status.invalid('meta.k8s.io', 'PatchOptions', '', [{ type: 'FieldValueForbidden', field: 'force', hasValue: false, detail: 'may not be specified for non-apply patch' }]);
  }
  const body = await readBody(req);
  const patchText = body.toString('utf8');
  const sub = ctx.subresource;
  const view = viewOf(served, sub);
  const result = await served.store.update(namespace, async (current) => {
    if (!current) throw status.notFound(served.store.gr, name);
    const base = view ? view.get!(current) : encodeFor(served, { object: current, json: '' }).object;
    let patched: unknown;
    if (mediaType === 'application/json-patch+json') patched = applyJsonPatch(base, patchText);
    else {
      let patch: unknown;
      try { patch = JSON.parse(patchText); } catch (err) { throw status.badRequest(`error decoding patch: ${(err as Error).message}`); }
      patched = applyMergePatch(base, patch);
    }
    let next: ApiObject;
    if (view) {
      next = view.update!(current, patched as ApiObject);
    } else {
      const d = decodeValue(patched, [], served.def, served.version, params.fieldValidation);
      ctx.warnings.push(...d.warnings);
      next = d.object;
      const pm = (patched as ApiObject)?.metadata;
      if (pm?.name !== undefined && pm.name !== name) throw status.badRequest(`the name of the object (${pm.name}) does not match the name on the URL (${name})`);
    }
    await deps.admission.admit({ operation: 'UPDATE', served, namespace, name, object: next, oldObject: current, ctx });
    return next;
  }, { ctx, dryRun: params.dryRun, subresource: view ? '' : sub, allowCreate: false, name });
  if (view?.get) return sendObject(res, 200, rep, view.get(result.object), warningHeader(ctx.warnings), params.pretty);
  const enc = encodeFor(served, result);
  sendJsonText(res, 200, rep, enc.json, warningHeader(ctx.warnings), params.pretty);
}

interface DeleteBody {
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  dryRun?: string[];
  orphanDependents?: boolean;
}

async function readDeleteOptions(req: Request, params: QueryParams): Promise<DeleteBody> {
  const body = await readBody(req);
  let opts: DeleteBody = {};
  if (body.length) {
    const { value } = parseBody(body, contentTypeOf(req.headers['content-type']) || 'application/json');
    if (value && typeof value === 'object') opts = value as DeleteBody;
    const kind = (value as { kind?: string })?.kind;
    if (kind !== undefined && kind !== 'DeleteOptions') throw status.badRequest(`the kind in the data (${kind}) does not match the expected kind (DeleteOptions)`);
  }
  if (opts.dryRun?.some((d) => d !== 'All')) throw status.badRequest(`invalid value for dryRun: supported values: "All"`);
  const policy = opts.propagationPolicy ?? params.propagationPolicy;
  if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(policy)) {
    throw status.invalid('meta.k8s.io', 'DeleteOptions', '', [{ type: 'FieldValueNotSupported', field: 'propagationPolicy', value: policy, hasValue: true, detail: 'supported values: "Foreground", "Background", "Orphan", "nil"' }]);
  }
  return { ...opts, propagationPolicy: policy, gracePeriodSeconds: opts.gracePeriodSeconds ?? params.gracePeriodSeconds };
}

async function deleteObject(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, name: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const opts = await readDeleteOptions(req, params);
  const dryRun = params.dryRun || !!opts.dryRun?.length;
  await syncToStorage(served.store, deps.storage);
  const current = served.store.getOrThrow(namespace, name);
  await deps.admission.admit({ operation: 'DELETE', served, namespace, name, object: undefined, oldObject: current.object as ApiObject, ctx });
  const result = await served.store.delete(namespace, name, { ctx, dryRun, preconditions: opts.preconditions, propagationPolicy: opts.propagationPolicy, gracePeriodSeconds: opts.gracePeriodSeconds });
  if (!result.removed || served.def.deleteReturnsObject) {
    const enc = encodeFor(served, { object: result.object, json: JSON.stringify(result.object) });
    return sendJsonText(res, result.removed ? 200 : 200, rep, enc.json, warningHeader(ctx.warnings), params.pretty);
  }
  const s = {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success',
    details: { name, ...(served.def.group ? { group: served.def.group } : {}), kind: served.def.plural, uid: result.object.metadata.uid },
  };
  sendObject(res, 200, rep, s, warningHeader(ctx.warnings), params.pretty);
}

async function deleteCollection(deps: ResourceHandlerDeps, served: ServedResource, req: Request, res: Response, namespace: string, params: QueryParams, ctx: RequestContext, rep: Representation): Promise<void> {
  const opts = await readDeleteOptions(req, params);
  const dryRun = params.dryRun || !!opts.dryRun?.length;
  const listed = await listObjects(served.store, deps.storage, namespace, { ...params, limit: undefined, continue: undefined });
  for (const item of listed.items) {
    try {
      await deps.admission.admit({ operation: 'DELETE', served, namespace: item.namespace, name: item.name, object: undefined, oldObject: item.object as ApiObject, ctx });
      await served.store.delete(item.namespace, item.name, { ctx, dryRun, propagationPolicy: opts.propagationPolicy, gracePeriodSeconds: opts.gracePeriodSeconds });
    } catch (err) {
      if (err instanceof status.StatusError && err.code === 404) continue;
      throw err;
    }
  }
  sendObject(res, 200, rep, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' }, warningHeader(ctx.warnings), params.pretty);
}
