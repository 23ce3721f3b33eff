// The review kinds, answered on create from the server's own authenticators and authorizers and never
// stored: TokenReview, SelfSubjectReview, SubjectAccessReview, SelfSubjectAccessReview,
// LocalSubjectAccessReview and SelfSubjectRulesReview.
import type { UserInfo } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { type FieldError, invalid } from '../machinery/field-errors.ts';
import * as status from '../machinery/status.ts';
import { decodeReviewBody } from './decode.ts';
import type { ServedResource } from '../server/apis.ts';
import { kubernetesGroupOf } from '../server/group-alias.ts';
import { negotiate, contentTypeOf } from '../server/negotiate.ts';
import { parseQuery } from '../server/params.ts';
import { readBody, sendObject, warningHeader, type Request, type Response } from '../server/respond.ts';
import type { RequestInfo } from '../server/requestinfo.ts';
import type { Attributes, Decision, RulesResult } from './authz/types.ts';
import { aggregate } from '../machinery/go-format.ts';
import { selectorAttributeErrors } from './review-selectors.ts';
import type { TokenReviewResult } from './authn/request.ts';
import { userInfoJson, withAuthenticatedGroup } from './user.ts';
import { nowRfc3339 } from '../registry/names.ts';

export const AUTHENTICATION_GROUP = 'authentication.svc.io';
export const AUTHORIZATION_GROUP = 'authorization.svc.io';

export interface ReviewDeps {
  authorize(attrs: Attributes): Promise<Decision>;
  rulesFor(user: UserInfo, namespace: string): RulesResult;
  authenticateToken(token: string, audiences: readonly string[] | undefined): Promise<TokenReviewResult>;
}

type Obj = Record<string, any>;

/**
 * Serves POST on a review collection; throws a StatusError for anything else. `clientGroup` is the group
 * the client addressed (Kubernetes' own name for the renamed group, from unmodified clients such as
 * `kubectl auth can-i`; see src/server/group-alias.ts): the body is read and the answer written in it.
 */
export async function serveReview(deps: ReviewDeps, served: ServedResource, req: Request, res: Response, info: RequestInfo, query: URLSearchParams, user: UserInfo, clientGroup = served.def.group): Promise<void> {
  const def = served.def;
  if (info.name || info.subresource || (def.namespaced && !info.namespace) || (!def.namespaced && info.namespace)) throw status.pathNotFound();
  if (info.verb !== 'create') throw status.noRouteForMethod();
  const params = parseQuery(query, 'create');
  const rep = negotiate(req.headers.accept, [''], { objects: true });
  const body = await readBody(req);
  const alias = kubernetesGroupOf(def.group);
  const groups = alias === undefined ? [def.group] : [def.group, alias];
  const { object, warnings, group } = decodeReviewBody(body, contentTypeOf(req.headers['content-type']), def.kind, groups, served.version, params.fieldValidation);
  const answerGroup = clientGroup !== def.group ? clientGroup : group;
  const bodyNs = object.metadata?.namespace;
  if (def.namespaced) {
    if (bodyNs && bodyNs !== info.namespace) throw status.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    object.metadata.namespace = info.namespace;
  } else if (bodyNs) {
    // As Kubernetes' create handler does for a cluster-scoped resource: a namespace in the body is dropped.
    delete object.metadata.namespace;
  }
  let answer: ApiObject;
  switch (def.kind) {
    case 'TokenReview': answer = await tokenReview(deps, object); break;
    case 'SelfSubjectReview': answer = selfSubjectReview(user); break;
    case 'SubjectAccessReview': answer = await subjectAccessReview(deps, object); break;
    case 'SelfSubjectAccessReview': answer = await selfSubjectAccessReview(deps, object, user); break;
    case 'LocalSubjectAccessReview': answer = await localSubjectAccessReview(deps, object, info.namespace); break;
    case 'SelfSubjectRulesReview': answer = selfSubjectRulesReview(deps, object, user); break;
    default: throw status.pathNotFound();
  }
  sendObject(res, 201, rep, { ...answer, apiVersion: `${answerGroup}/${served.version.name}`, kind: def.kind }, warningHeader(warnings));
}

/** Go's zero ObjectMeta encodes as `{"creationTimestamp":null}`; reviews answer with it. */
function answerMeta(meta: Obj | undefined): Obj {
  const out: Obj = { ...(meta ?? {}) };
  if (out.creationTimestamp === undefined) out.creationTimestamp = null;
  return out;
}

async function tokenReview(deps: ReviewDeps, obj: ApiObject): Promise<ApiObject> {
  const spec = (obj.spec ?? {}) as Obj;
  if (!spec.token) throw status.badRequest('token is required for TokenReview in authentication');
  const audiences: string[] | undefined = Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences : undefined;
  const r = await deps.authenticateToken(spec.token, audiences);
  // authenticated is omitempty in Kubernetes' TokenReviewStatus: a rejected token leaves it out.
  const st: Obj = r.user ? { authenticated: true } : {};
  if (r.user) {
    st.user = userInfoJson(withAuthenticatedGroup(r.user));
    if (r.audiences?.length) st.audiences = r.audiences;
  } else {
    st.user = {};
    if (r.error) st.error = r.error;
  }
  return { ...obj, metadata: answerMeta(obj.metadata), status: st };
}

/** A new object, as Kubernetes builds it: only its creation time and the caller's attributes. */
function selfSubjectReview(user: UserInfo): ApiObject {
  return { metadata: { creationTimestamp: nowRfc3339() }, status: { userInfo: userInfoJson(user) } } as ApiObject;
}

/** How Go prints a non-nil *NonResourceAttributes or *ResourceAttributes in a field error (%#v of the struct). */
function goStruct(kind: 'ResourceAttributes' | 'NonResourceAttributes', v: Obj): string {
  const fields = kind === 'NonResourceAttributes'
    ? [['Path', v.path], ['Verb', v.verb]]
    : [['Namespace', v.namespace], ['Verb', v.verb], ['Group', v.group], ['Version', v.version], ['Resource', v.resource], ['Subresource', v.subresource], ['Name', v.name]];
  const extra = kind === 'ResourceAttributes' ? ', FieldSelector:(*authorization.FieldSelectorAttributes)(nil), LabelSelector:(*authorization.LabelSelectorAttributes)(nil)' : '';
  return `authorization.${kind}{${fields.map(([k, x]) => `${k}:${JSON.stringify(x ?? '')}`).join(', ')}${extra}}`;
}

/** A field error whose value is printed as Go prints a struct (no JSON quoting). */
function invalidStruct(field: string, printed: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, hasValue: false, detail: `${printed}: ${detail}` };
}

function specAttributeErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (ra && nra) errs.push(invalidStruct('spec.nonResourceAttributes', goStruct('NonResourceAttributes', nra), 'cannot be specified in combination with resourceAttributes'));
  if (!ra && !nra) errs.push(invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  return errs;
}

function metadataEmptyErrors(meta: Obj | undefined, except: string[], detail: string): FieldError[] {
  const rest = Object.entries(meta ?? {}).filter(([k, v]) => !except.includes(k) && k !== 'managedFields' && v !== undefined && v !== null && v !== '');
  return rest.length ? [invalid('metadata', Object.fromEntries(rest), detail)] : [];
}

function attributesFrom(spec: Obj, user: UserInfo): Attributes {
  const ra = spec.resourceAttributes as Obj | undefined;
  if (ra) {
    const attrs: Attributes = {
      user, verb: ra.verb ?? '', isResourceRequest: true, path: '', namespace: ra.namespace ?? '', apiGroup: ra.group ?? '',
      apiVersion: ra.version ?? '', resource: ra.resource ?? '', subresource: ra.subresource ?? '', name: ra.name ?? '',
    };
    if (ra.fieldSelector?.rawSelector) attrs.fieldSelector = ra.fieldSelector.rawSelector;
    return attrs;
  }
  const nra = (spec.nonResourceAttributes ?? {}) as Obj;
  return { user, verb: nra.verb ?? '', isResourceRequest: false, path: nra.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

function specUser(spec: Obj): UserInfo {
  const u: UserInfo = { username: spec.user ?? '', groups: Array.isArray(spec.groups) ? [...spec.groups] : [] };
  if (spec.uid) u.uid = spec.uid;
  if (spec.extra && Object.keys(spec.extra).length) u.extra = spec.extra;
  return u;
}

async function decide(deps: ReviewDeps, obj: ApiObject, attrs: Attributes): Promise<ApiObject> {
  const d = await deps.authorize(attrs);
  const st: Obj = { allowed: d.decision === 'allow' };
  if (d.decision === 'deny') st.denied = true;
  if (d.reason) st.reason = d.reason;
  if (d.error) st.evaluationError = d.error;
  return { ...obj, metadata: answerMeta(obj.metadata), status: st };
}

function throwIfInvalid(kind: string, errs: FieldError[]): void {
  if (errs.length) throw status.invalid(AUTHORIZATION_GROUP, kind, '', errs);
}

async function subjectAccessReview(deps: ReviewDeps, obj: ApiObject): Promise<ApiObject> {
  const spec = (obj.spec ?? {}) as Obj;
  const errs = specAttributeErrors(spec);
  if (!spec.user && !(Array.isArray(spec.groups) && spec.groups.length)) errs.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  errs.push(...selectorAttributeErrors(spec.resourceAttributes));
  errs.push(...metadataEmptyErrors(obj.metadata, [], 'must be empty'));
  throwIfInvalid('SubjectAccessReview', errs);
  return decide(deps, obj, attributesFrom(spec, specUser(spec)));
}

async function selfSubjectAccessReview(deps: ReviewDeps, obj: ApiObject, user: UserInfo): Promise<ApiObject> {
  const spec = (obj.spec ?? {}) as Obj;
  const errs = specAttributeErrors(spec);
  errs.push(...selectorAttributeErrors(spec.resourceAttributes));
  errs.push(...metadataEmptyErrors(obj.metadata, [], 'must be empty'));
  throwIfInvalid('SelfSubjectAccessReview', errs);
  return decide(deps, obj, attributesFrom(spec, user));
}

async function localSubjectAccessReview(deps: ReviewDeps, obj: ApiObject, namespace: string): Promise<ApiObject> {
  const spec = (obj.spec ?? {}) as Obj;
  const errs = specAttributeErrors(spec);
  if (!spec.user && !(Array.isArray(spec.groups) && spec.groups.length)) errs.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  errs.push(...selectorAttributeErrors(spec.resourceAttributes));
  errs.push(...metadataEmptyErrors(obj.metadata, ['namespace'], 'must be empty except for namespace'));
  const ra = spec.resourceAttributes as Obj | undefined;
  if (ra && (ra.namespace ?? '') !== (obj.metadata?.namespace ?? '')) errs.push(invalid('spec.resourceAttributes.namespace', ra.namespace ?? '', 'must match metadata.namespace'));
  if (spec.nonResourceAttributes) errs.push(invalidStruct('spec.nonResourceAttributes', goStruct('NonResourceAttributes', spec.nonResourceAttributes), 'disallowed on this kind of request'));
  throwIfInvalid('LocalSubjectAccessReview', errs);
  if (!namespace) throw status.badRequest(`namespace is required on this type: ${namespace}`);
  return decide(deps, obj, attributesFrom(spec, specUser(spec)));
}

/** The answer is a new object holding only the status, as Kubernetes builds it (the spec is not echoed). */
function selfSubjectRulesReview(deps: ReviewDeps, obj: ApiObject, user: UserInfo): ApiObject {
  const spec = (obj.spec ?? {}) as Obj;
  if (!spec.namespace) throw status.badRequest('no namespace on request');
  const r = deps.rulesFor(user, spec.namespace);
  const st: Obj = { resourceRules: r.resourceRules, nonResourceRules: r.nonResourceRules, incomplete: r.incomplete };
  if (r.errors.length) st.evaluationError = aggregate(r.errors);
  return { metadata: answerMeta(undefined), spec: {}, status: st } as ApiObject;
}
