// POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token: issues a bound service account token for the
// audiences asked (the API server's by default), for expirationSeconds (at least 10 minutes, an hour by
// default, capped by --service-account-max-token-expiration), optionally bound to a Pod or a Secret.
import type { VersionDefinition } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { TokenRequestSchema, MIN_TOKEN_EXPIRATION_SECONDS, DEFAULT_TOKEN_EXPIRATION_SECONDS, MAX_TOKEN_EXPIRATION_SECONDS } from '../apis/authentication/tokenrequest.ts';
import { type FieldError, invalid } from '../machinery/field-errors.ts';
import * as status from '../machinery/status.ts';
import { decodeReviewBody } from './decode.ts';
import type { ResourceStore } from '../registry/store.ts';
import { negotiate, contentTypeOf } from '../server/negotiate.ts';
import { parseQuery } from '../server/params.ts';
import { readBody, sendObject, warningHeader, type Request, type Response } from '../server/respond.ts';
import type { RequestInfo } from '../server/requestinfo.ts';
import type { TokenIssuer, ObjectRef } from './authn/service-account-tokens.ts';
import type { CacheFreshness, StoreLookup } from './stores.ts';
import { AUTHENTICATION_GROUP } from './reviews.ts';
import { kubernetesGroupOf } from '../server/group-alias.ts';
import { featureGates } from '../config/feature-gates.ts';

const tokenRequestVersion: VersionDefinition = { name: 'v1', stability: 'stable', schema: TokenRequestSchema };

export interface TokenRequestDeps {
  issuer: TokenIssuer;
  apiAudiences: string[];
  maxExpirationSeconds?: number;
  lookup: StoreLookup;
  freshness: CacheFreshness;
}

type Obj = Record<string, any>;

async function fresh(deps: TokenRequestDeps, resource: string, namespace: string, name: string): Promise<{ store: ResourceStore; object: Obj } | undefined> {
  const store = deps.lookup('', resource);
  if (!store) return undefined;
  let found = store.current(namespace, name);
  if (!found) {
    await deps.freshness.catchUp([store]);
    found = store.current(namespace, name);
  }
  return found ? { store, object: found.object } : undefined;
}

export async function serveTokenRequest(deps: TokenRequestDeps, req: Request, res: Response, info: RequestInfo, query: URLSearchParams): Promise<void> {
  if (info.verb !== 'create') throw status.noRouteForMethod();
  const params = parseQuery(query, 'create');
  const rep = negotiate(req.headers.accept, [''], { objects: true });
  const body = await readBody(req);
  // Unmodified clients (kubectl create token) send and expect authentication.k8s.io/v1.
  const { object, warnings, group: clientGroup } = decodeReviewBody(body, contentTypeOf(req.headers['content-type']), 'TokenRequest', [AUTHENTICATION_GROUP, kubernetesGroupOf(AUTHENTICATION_GROUP)!], tokenRequestVersion, params.fieldValidation);
  const namespace = info.namespace;
  const name = info.name;
  const meta = object.metadata as Obj;
  if (meta.namespace && meta.namespace !== namespace) throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (meta.name && meta.name !== name) {
    throw status.invalid(AUTHENTICATION_GROUP, 'TokenRequest', name, [invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
  }

  const sa = await fresh(deps, 'serviceaccounts', namespace, name);
  if (!sa) throw status.notFound({ group: '', resource: 'serviceaccounts' }, name);
  const spec = (object.spec ?? {}) as Obj;
  if (!Array.isArray(spec.audiences) || !spec.audiences.length) spec.audiences = [...deps.apiAudiences];
  if (spec.expirationSeconds === undefined || spec.expirationSeconds === null || spec.expirationSeconds === 0) spec.expirationSeconds = DEFAULT_TOKEN_EXPIRATION_SECONDS;
  meta.name ||= name;
  meta.namespace ||= namespace;
  const now = new Date();
  now.setMilliseconds(0);
  meta.creationTimestamp = now.toISOString().replace('.000Z', 'Z');

  const errs: FieldError[] = [];
  if (spec.expirationSeconds < MIN_TOKEN_EXPIRATION_SECONDS) errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (spec.expirationSeconds > MAX_TOKEN_EXPIRATION_SECONDS) errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  if (errs.length) throw status.invalid(AUTHENTICATION_GROUP, 'TokenRequest', '', errs);

  let pod: ObjectRef | undefined;
  let secret: ObjectRef | undefined;
  let node: ObjectRef | undefined;
  const ref = spec.boundObjectRef as Obj | undefined;
  if (ref) {
    const apiVersion = String(ref.apiVersion ?? '');
    const slash = apiVersion.lastIndexOf('/');
    const group = slash < 0 ? '' : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    const kind = String(ref.kind ?? '');
    const refName = String(ref.name ?? '');
    let live: Obj | undefined;
    if (group === '' && (kind === 'Pod' || kind === 'Secret')) {
      const resource = kind === 'Pod' ? 'pods' : 'secrets';
      live = (await fresh(deps, resource, namespace, refName))?.object;
      if (!live) throw status.notFound({ group: '', resource }, refName);
    } else if (group === '' && kind === 'Node') {
      if (!featureGates.enabled('ServiceAccountTokenNodeBinding')) throw status.badRequest('cannot bind token to a Node object as the "ServiceAccountTokenNodeBinding" feature-gate is disabled');
      live = (await fresh(deps, 'nodes', '', refName))?.object;
      if (!live) throw status.notFound({ group: '', resource: 'nodes' }, refName);
    } else {
      throw status.badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
    }
    const uid = String(live.metadata?.uid ?? '');
    if (ref.uid && ref.uid !== uid) {
      throw status.conflict({ group: '', resource: kind }, refName, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
    }
    ref.uid = uid;
    if (kind === 'Pod') {
      if (live.spec?.serviceAccountName !== name) throw status.badRequest(`cannot bind token for serviceaccount ${JSON.stringify(name)} to pod running with different serviceaccount name.`);
      pod = { name: refName, uid };
      const nodeName = live.spec?.nodeName;
      if (typeof nodeName === 'string' && nodeName) {
        const n = (await fresh(deps, 'nodes', '', nodeName))?.object;
        if (n?.metadata?.uid) node = { name: nodeName, uid: String(n.metadata.uid) };
      }
    } else if (kind === 'Node') {
      node = { name: refName, uid };
    } else {
      secret = { name: refName, uid };
    }
  }
  if (deps.maxExpirationSeconds && spec.expirationSeconds > deps.maxExpirationSeconds) {
    warnings.push(`requested expiration of ${spec.expirationSeconds} seconds shortened to ${deps.maxExpirationSeconds} seconds`);
    spec.expirationSeconds = deps.maxExpirationSeconds;
  }

  const nowSeconds = Math.floor(now.getTime() / 1000);
  const { token } = await deps.issuer.issue({
    namespace, serviceAccount: { name, uid: String(sa.object.metadata?.uid ?? '') }, audiences: spec.audiences,
    expirationSeconds: spec.expirationSeconds, pod, secret, node, now: nowSeconds,
  });
  const expires = new Date((nowSeconds + spec.expirationSeconds) * 1000).toISOString().replace('.000Z', 'Z');
  const answer: ApiObject = { ...object, apiVersion: `${clientGroup}/v1`, kind: 'TokenRequest', metadata: meta, spec, status: { token, expirationTimestamp: expires } };
  sendObject(res, 201, rep, answer, warningHeader(warnings));
}
