// The request pipeline: panic recovery -> request info -> authentication -> audit -> impersonation ->
// priority and fairness -> authorization -> timeout -> handlers (discovery, openapi, health, version,
// metrics, resources). Authentication, impersonation and authorization are access control's (admit); the
// audit stage records what they found (the policy sees the authenticated user) and the answer.
import type { TLSSocket } from 'node:tls';
import { createHash } from 'node:crypto';
import type { Storage } from '../storage/interface.ts';
import type { UserInfo } from '../apis/kind.ts';
import * as status from '../machinery/status.ts';
import type { AdmissionChain } from '../admission/chain.ts';
import { isComputedResource, type ApiSurface } from './apis.ts';
import { parseRequestInfo, type RequestInfo } from './requestinfo.ts';
import { negotiate, type Representation } from './negotiate.ts';
import { send, sendError, sendNotModified, sendObject, toStatusError, type Request, type Response } from './respond.ts';
import { handleResource } from './handlers/resources.ts';
import { coreVersions, apiGroupList, apiGroup, apiResourceList, aggregatedDiscovery } from './discovery.ts';
import { serveOpenApi } from './handlers/openapi.ts';
import { VERSION_INFO } from './version.ts';
import { computedRouteExists, serveComputed } from './handlers/computed.ts';
import { markDeprecatedRequest } from './deprecated-request.ts';
import type { ApiServerMetrics } from './metrics/apiserver.ts';
import { TEXT_FORMAT } from './metrics/registry.ts';
import { isHealthPath, serveHealth, type HealthChecks } from './health.ts';
import { auditIdOf, type AdmitTrace, type Auditor, type RequestAudit } from './audit/auditor.ts';

export interface HandlerDeps {
  surface: ApiSurface;
  storage: Storage;
  admission: AdmissionChain;
  watchRegistry: Set<() => void>;
  /** Authentication, impersonation and authorization (src/auth), and the endpoints access control serves
   *  itself (token and access reviews, TokenRequest). */
  access: {
    admit(req: Request, info: RequestInfo, query: URLSearchParams, trace?: AdmitTrace): Promise<UserInfo>;
    serve(req: Request, res: Response, info: RequestInfo, query: URLSearchParams, user: UserInfo): Promise<boolean>;
  };
  log(line: string): void;
  healthChecks: HealthChecks;
  /** The server's metrics: served at /metrics, fed by every resource request. */
  metrics?: ApiServerMetrics;
  /** The audit stage: absent unless both an audit policy and an audit log are configured. */
  auditor?: Auditor;
}

/** What the pipeline learnt of one request, for the steps after its answer. */
interface RequestState {
  /** Set once the request passed access control (only such requests are counted, as Kubernetes counts them per route). */
  admitted?: RequestInfo;
  audit?: RequestAudit;
}

export function buildHandler(deps: HandlerDeps) {
  const discoveryCache = new Map<string, { body: string; etag: string }>();
  const special = specialResources(deps);
  return (req: Request, res: Response): void => {
    const state: RequestState = {};
    handle(deps, discoveryCache, special, req, res, state).then(() => answered(deps, req, res, state), (err) => {
      // Panic recovery: anything unexpected is a 500 Status, and the process lives on.
      if (!(err instanceof status.StatusError)) {
        deps.log(`request ${req.method} ${req.url} failed: ${(err as Error)?.stack ?? err}`);
        if (toStatusError(err).reason === 'InternalError') state.audit?.panic(err);
      }
      try { sendError(res, err); } catch { res.destroy?.(); }
      answered(deps, req, res, state);
    });
  };
}

function answered(deps: HandlerDeps, req: Request, res: Response, state: RequestState): void {
  if (state.admitted?.isResourceRequest) deps.metrics?.recordRequest(req, state.admitted, res.statusCode);
}

/** The resources with a deprecated served version or a computed kind. */
function specialResources(deps: HandlerDeps): Set<string> {
  return new Set(deps.surface.all.filter((s) => s.version.deprecated || isComputedResource(s)).map((s) => s.def.plural));
}

async function handle(deps: HandlerDeps, discoveryCache: Map<string, { body: string; etag: string }>, special: Set<string>, req: Request, res: Response, state: RequestState): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://localhost');
  const path = url.pathname;
  const info = parseRequestInfo(req.method ?? 'GET', path, url.searchParams, (group) => deps.surface.servingGroup(group));

  // Authentication, impersonation and authorization: a refused request ends here with a 401 or 403. The
  // audit policy is evaluated once they are done (or failed), on what they found.
  const audit = deps.auditor?.begin(req, res, info);
  // As Kubernetes' WithAuditInit, every answer carries an audit ID, also on a server that writes no audit log.
  if (!audit) res.setHeader('Audit-ID', auditIdOf(req));
  state.audit = audit;
  let user: UserInfo;
  try {
    user = await deps.access.admit(req, info, url.searchParams, audit?.trace);
  } finally {
    audit?.start();
  }
  state.admitted = info;

  if (info.isResourceRequest) {
    // Only resources with a deprecated version or a computed kind need their entry here; the others are
    // looked up once, by the resource handler.
    const served = special.has(info.resource) ? deps.surface.find(info.apiGroup, info.apiVersion, info.resource) : undefined;
    const computed = served && isComputedResource(served) ? served : undefined;
    if (served?.version.deprecated && (!computed || computedRouteExists(computed, info, url.searchParams))) markDeprecatedRequest(res, served, info, deps.metrics, audit);
    if (await deps.access.serve(req, res, info, url.searchParams, user)) return;
    if (computed) return serveComputed(computed, req, res, info, url.searchParams);
    return handleResource(deps, req, res, info, url.searchParams, user);
  }
  return handleNonResource(deps, discoveryCache, req, res, info, url);
}

async function handleNonResource(deps: HandlerDeps, discoveryCache: Map<string, { body: string; etag: string }>, req: Request, res: Response, info: RequestInfo, url: URL): Promise<void> {
  const path = info.path.replace(/\/+$/, '') || '/';
  const method = req.method ?? 'GET';
  if (isHealthPath(path)) {
    if (method !== 'GET' && method !== 'HEAD') throw status.methodNotAllowed(method, { group: '', resource: path });
    return serveHealth(deps.healthChecks, res, path, url.searchParams);
  }
  if (method !== 'GET' && method !== 'HEAD') throw status.pathNotFound();
  if (path === '/metrics' && deps.metrics) return send(res, 200, TEXT_FORMAT, deps.metrics.registry.write());
  if (path === '/version') return sendObject(res, 200, { mediaType: 'application/json' }, VERSION_INFO);
  if (path.startsWith('/openapi/')) return serveOpenApi(deps.surface, req, res, path, url);
  const served = deps.surface.all;
  if (path === '/api' || path === '/apis') {
    const rep = negotiate(req.headers.accept, ['', 'APIGroupDiscoveryList']);
    if (rep.as === 'APIGroupDiscoveryList') return sendDiscovery(discoveryCache, req, res, rep, path, () => aggregatedDiscovery(served, path === '/api' ? 'api' : 'apis', rep.group, rep.version as 'v2' | 'v2beta1'));
    const address = `${(req.socket as TLSSocket).localAddress}:${(req.socket as TLSSocket).localPort}`;
    return sendObject(res, 200, rep, path === '/api' ? coreVersions(address) : apiGroupList(served));
  }
  const rep = negotiate(req.headers.accept);
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length === 2) {
    const list = apiResourceList(served, '', parts[1]);
    if (list) return sendObject(res, 200, rep, list);
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const group = apiGroup(served, parts[1]);
    if (group) return sendObject(res, 200, rep, group);
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const list = apiResourceList(served, parts[1], parts[2]);
    if (list) return sendObject(res, 200, rep, list);
  }
  throw status.pathNotFound();
}

/** Aggregated discovery with an ETag, answered 304 when the client has it already. */
function sendDiscovery(cache: Map<string, { body: string; etag: string }>, req: Request, res: Response, rep: Representation, path: string, build: () => unknown): void {
  const cacheKey = `${path}|${rep.group}|${rep.version}|${rep.mediaType}`;
  let entry = cache.get(cacheKey);
  if (!entry) {
    const body = JSON.stringify(build());
    entry = { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
    cache.set(cacheKey, entry);
  }
  const contentType = `application/json;g=${rep.group};v=${rep.version};as=APIGroupDiscoveryList`;
  const headers = { etag: entry.etag, vary: 'Accept', 'cache-control': 'public' };
  if (req.headers['if-none-match'] === entry.etag) return sendNotModified(res, headers);
  send(res, 200, contentType, entry.body, headers);
}

