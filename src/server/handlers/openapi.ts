// /openapi/v2 and /openapi/v3: documents generated from the served kinds, built once and cached with their hashes.
import type { Request, Response } from '../respond.ts';
import { send, sendNotModified } from '../respond.ts';
import type { ApiSurface } from '../apis.ts';
import * as status from '../../machinery/status.ts';
import { openApiV3Index, openApiV3Document, openApiV2Document, openApiHash } from '../openapi.ts';
import { OpenApiV2Representations, notModified, serveOpenApiV2 } from './openapi-v2.ts';

const built = new WeakMap<ApiSurface, { v2?: OpenApiV2Representations; v3: Map<string, { body: string; hash: string }>; index?: string }>();

export function serveOpenApi(surface: ApiSurface, req: Request, res: Response, path: string, url: URL): void {
  let cache = built.get(surface);
  if (!cache) { cache = { v3: new Map() }; built.set(surface, cache); }
  const served = surface.all;
  if (path === '/openapi/v2') {
    cache.v2 ??= new OpenApiV2Representations(openApiV2Document(served));
    return serveOpenApiV2(cache.v2, req, res);
  }
  if (path === '/openapi/v3') {
    if (!cache.index) {
      const hashes: Record<string, string> = {};
      for (const gvPath of groupVersionPaths(surface)) hashes[gvPath] = docFor(surface, cache.v3, gvPath).hash;
      cache.index = JSON.stringify(openApiV3Index(served, hashes));
    }
    return send(res, 200, 'application/json', cache.index);
  }
  const gvPath = path.slice('/openapi/v3/'.length);
  if (!groupVersionPaths(surface).includes(gvPath)) throw status.pathNotFound();
  const doc = docFor(surface, cache.v3, gvPath);
  const asked = url.searchParams.get('hash');
  if (asked && asked !== doc.hash) {
    (res as import('node:http').ServerResponse).writeHead(301, { location: `/openapi/v3/${gvPath}?hash=${doc.hash}` });
    res.end();
    return;
  }
  const headers: Record<string, string> = asked
    ? { 'cache-control': 'public, immutable', expires: new Date(Date.now() + 365 * 86400_000).toUTCString(), etag: `"${doc.hash}"` }
    : { etag: `"${doc.hash}"` };
  // A client that holds this version gets 304, as Go's ServeContent answers Kubernetes' v3 handler.
  if (notModified(req, headers.etag)) return sendNotModified(res, headers);
  send(res, 200, 'application/json', doc.body, headers);
}

function groupVersionPaths(surface: ApiSurface): string[] {
  const out = new Set<string>();
  for (const s of surface.all) out.add(s.def.group ? `apis/${s.def.group}/${s.version.name}` : `api/${s.version.name}`);
  return [...out];
}

function docFor(surface: ApiSurface, cache: Map<string, { body: string; hash: string }>, gvPath: string): { body: string; hash: string } {
  let entry = cache.get(gvPath);
  if (!entry) {
    const parts = gvPath.split('/');
    const [group, version] = parts[0] === 'api' ? ['', parts[1]] : [parts[1], parts[2]];
    const body = JSON.stringify(openApiV3Document(surface.all, group, version));
    entry = { body, hash: openApiHash(body) };
    cache.set(gvPath, entry);
  }
  return entry;
}
