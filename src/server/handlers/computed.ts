// Requests to a computed kind (ComponentStatus): objects made on every read by the source the kind bound to
// the server, served for get and list only, as Kubernetes serves a storage that is only a Getter and a
// Lister (no watch, no writes, no sub-resources; limit and continue are ignored).
import type { ApiObject } from '../../apis/meta/v1.ts';
import { apiVersionOf } from '../../apis/kind.ts';
import * as status from '../../machinery/status.ts';
import { buildSelection, parseSelectors } from '../../registry/selection.ts';
import type { ComputedResource } from '../apis.ts';
import { negotiate } from '../negotiate.ts';
import { parseQuery } from '../params.ts';
import { sendObject, type Request, type Response } from '../respond.ts';
import type { RequestInfo } from '../requestinfo.ts';
import { toTable, partialMetadata, partialMetadataList } from './table.ts';
import { inClientGroup, type GroupAlias } from '../group-alias.ts';

/**
 * The route a request reaches: `get` or `list` (a `?watch=true` list is refused there, an item's `?watch`
 * is ignored by its get), `none` for a method no route serves (405), or undefined for a path with no route.
 */
function routeOf(served: ComputedResource, info: RequestInfo, query: URLSearchParams): 'get' | 'list' | 'none' | undefined {
  if (info.subresource || info.parts.length || (info.namespace && !served.def.namespaced)) return undefined;
  let verb = info.verb;
  if (verb === 'watch') {
    if (query.get('watch') === null) return undefined;
    verb = info.name ? 'get' : 'list';
  }
  const verbs: readonly string[] = served.def.computed.verbs;
  return verbs.includes(verb) ? (verb as 'get' | 'list') : 'none';
}

/** Whether the request reaches one of the kind's routes (a deprecation warning is sent only then). */
export function computedRouteExists(served: ComputedResource, info: RequestInfo, query: URLSearchParams): boolean {
  const route = routeOf(served, info, query);
  return route === 'get' || route === 'list';
}

export async function serveComputed(served: ComputedResource, req: Request, res: Response, info: RequestInfo, query: URLSearchParams): Promise<void> {
  // A client that named the group as Kubernetes does (`apiextensions.k8s.io`) is answered in that name.
  return inClientGroup(info, (alias) => answer(served, alias, req, res, info, query));
}

async function answer(served: ComputedResource, alias: GroupAlias | undefined, req: Request, res: Response, info: RequestInfo, query: URLSearchParams): Promise<void> {
  const { def, source } = served;
  const route = routeOf(served, info, query);
  if (route === undefined) throw status.pathNotFound();
  if (route === 'none') throw status.noRouteForMethod();
  const gr = { group: def.group, resource: def.plural };
  if (route === 'list' && info.verb === 'watch') throw status.methodNotAllowed('watch', gr);
  const params = parseQuery(query, route);
  const rep = negotiate(req.headers.accept, ['', 'Table', 'PartialObjectMetadata', 'PartialObjectMetadataList'], { objects: true });
  // Synthesised objects and their list carry no resourceVersion: the list's metadata is empty.
  const listMeta = {};

  if (route === 'get') {
    const obj = await source.get(info.name);
    if (!obj) throw status.notFound(gr, info.name);
    if (rep.as === 'Table') return sendObject(res, 200, rep, toTable(served, [obj], params.includeObject, rep, listMeta));
    if (rep.as === 'PartialObjectMetadata') return sendObject(res, 200, rep, partialMetadata(obj, rep));
    return sendObject(res, 200, rep, alias ? alias.object(obj) : obj);
  }

  const selection = buildSelection(def, '', parseSelectors(params.labelSelector, params.fieldSelector));
  const items = (await source.list()).filter((o) => selection.matches({ name: o.metadata?.name ?? '', namespace: '', object: o }));
  if (rep.as === 'Table') return sendObject(res, 200, rep, toTable(served, items, params.includeObject, rep, listMeta));
  if (rep.as === 'PartialObjectMetadataList' || rep.as === 'PartialObjectMetadata') {
    return sendObject(res, 200, rep, partialMetadataList(items, rep, listMeta));
  }
  // List items carry no kind and apiVersion, as Kubernetes encodes a list of synthesised objects.
  const bare = items.map(({ kind: _kind, apiVersion: _apiVersion, ...rest }) => rest as ApiObject);
  sendObject(res, 200, rep, { kind: def.listKind ?? `${def.kind}List`, apiVersion: apiVersionOf(alias?.client ?? def.group, served.version.name), metadata: listMeta, items: bare });
}
