// Parses a request's path and method once into what every later layer reads (Kubernetes' RequestInfo).
import { parseBool } from './params.ts';
import { unescaped } from '../machinery/unescape.ts';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** API verb: get, list, watch, create, update, patch, delete, deletecollection; for non-resource requests the lower-case method. */
  verb: string;
  apiPrefix: string;
  /** The group that serves the request (authorization and the registry see this one). */
  apiGroup: string;
  /** The group as the URL names it: Kubernetes' name of a renamed group, which answers are written in, or apiGroup. */
  clientGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the sub-resource (not interpreted). */
  parts: string[];
}

const methodVerbs: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/**
 * `servingGroup` maps the URL's group to the group that serves it (ApiSurface.servingGroup: Kubernetes'
 * names of renamed groups are served by the renamed ones).
 */
export function parseRequestInfo(method: string, path: string, query: URLSearchParams, servingGroup: (group: string) => string = (g) => g): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false, path, verb: method.toLowerCase(), apiPrefix: '', apiGroup: '', clientGroup: '', apiVersion: '',
    namespace: '', resource: '', subresource: '', name: '', parts: [],
  };
  // As Go's URL.Path: the path is decoded before it is split, so an escaped slash separates segments too.
  let cur = unescaped(path).replace(/^\/+|\/+$/g, '').split('/');
  if (cur[0] !== 'api' && cur[0] !== 'apis') return info;
  info.apiPrefix = cur[0];
  cur = cur.slice(1);
  if (info.apiPrefix === 'apis') {
    if (cur.length < 3) return info; // /apis, /apis/{g}, /apis/{g}/{v} are discovery
    info.clientGroup = cur[0];
    info.apiGroup = servingGroup(cur[0]);
    cur = cur.slice(1);
  } else if (cur.length < 2) {
    return info; // /api, /api/v1
  }
  info.apiVersion = cur[0];
  cur = cur.slice(1);
  info.isResourceRequest = true;
  info.verb = methodVerbs[method] ?? method.toLowerCase();

  // Deprecated verb prefixes: /watch/... and /proxy/...
  if ((cur[0] === 'watch' || cur[0] === 'proxy') && cur.length > 1) {
    info.verb = cur[0];
    cur = cur.slice(1);
  }
  if (cur[0] === 'namespaces' && cur.length > 1) {
    info.namespace = cur[1];
    // /namespaces/{ns}/{resource}/... addresses namespaced resources; /namespaces/{name}[/status|/finalize]
    // addresses the Namespace itself.
    if (cur.length > 2 && cur[2] !== 'status' && cur[2] !== 'finalize') cur = cur.slice(2);
  }
  info.resource = cur[0] ?? '';
  info.name = cur[1] ?? '';
  info.subresource = cur[2] ?? '';
  info.parts = cur.slice(3);
  if (info.resource === 'namespaces' && info.name) info.namespace = info.name;

  // A GET without a name is a list, or a watch with `watch` set (read as ListOptions reads booleans: anything
  // but 0, f and false, any case, is true). With a name it stays a get: Kubernetes' item route answers the
  // object whatever `watch` says (one object is watched through the collection and a name field selector).
  if (!info.name && info.verb === 'get') {
    const watch = query.get('watch');
    info.verb = watch !== null && parseBool(watch) ? 'watch' : 'list';
  }
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}

