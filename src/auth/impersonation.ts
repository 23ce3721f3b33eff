// Impersonation: the Impersonate-User, Impersonate-Group, Impersonate-Uid and Impersonate-Extra-<key>
// headers let a user act as another, each part authorized with the `impersonate` verb (users, groups and
// serviceaccounts in the core group; uids and userextras in authentication.svc.io), as Kubernetes does.
import type { UserInfo } from '../apis/kind.ts';
import { internalError } from '../machinery/status.ts';
import type { Attributes, Decision } from './authz/types.ts';
import { forbiddenError } from './authz/forbidden.ts';
import {
  ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, parseServiceAccountUsername, serviceAccountGroups,
} from './user.ts';
import { unescaped } from '../machinery/unescape.ts';

export const AUTHENTICATION_GROUP = 'authentication.svc.io';
const EXTRA_PREFIX = 'impersonate-extra-';

type Headers = Record<string, string | string[] | undefined>;

const values = (h: string | string[] | undefined): string[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);

/**
 * The impersonation headers of a request, one array entry per header line. Node joins repeated lines
 * with ", " in `headers`, which would turn `Impersonate-Group: a,b` plus `Impersonate-Group: c` into
 * one string; Go keeps each line as one value, commas included, so the lines are read from
 * `headersDistinct` (HTTP/1.1) or `rawHeaders` (HTTP/2, which has no headersDistinct).
 */
export function impersonationHeaders(req: { headers: Headers; rawHeaders?: string[]; headersDistinct?: Record<string, string[] | undefined> }): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const wanted = (name: string) => name.startsWith('impersonate-');
  if (req.headersDistinct) {
    for (const [name, vals] of Object.entries(req.headersDistinct)) if (wanted(name) && vals) out[name] = [...vals];
    return out;
  }
  const raw = req.rawHeaders;
  if (!raw) {
    for (const [name, h] of Object.entries(req.headers)) if (wanted(name)) out[name] = values(h);
    return out;
  }
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (wanted(name)) (out[name] ??= []).push(raw[i + 1]!);
  }
  return out;
}

/** True when the request asks to impersonate anything. */
export function wantsImpersonation(headers: Headers): boolean {
  if (headers['impersonate-user'] !== undefined || headers['impersonate-group'] !== undefined || headers['impersonate-uid'] !== undefined) return true;
  for (const k in headers) if (k.startsWith(EXTRA_PREFIX)) return true;
  return false;
}

interface Request {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UID' | 'UserExtra';
  name: string;
  namespace?: string;
  /** UserExtra: the extra key. */
  key?: string;
}

/**
 * The requests as Go's %v prints Kubernetes' []ObjectReference: every field (kind, namespace, name, uid,
 * apiVersion, resourceVersion, fieldPath) space-separated, empty ones included; extras and uids carry the
 * authentication group's version, an extra its key as the field path.
 */
function describeRequests(reqs: Request[]): string {
  const fields = (r: Request) => {
    const apiVersion = r.kind === 'UserExtra' || r.kind === 'UID' ? `${AUTHENTICATION_GROUP}/v1` : '';
    return [r.kind, r.namespace ?? '', r.name, '', apiVersion, '', r.key ?? ''].join(' ');
  };
  return `[${reqs.map((r) => `{${fields(r)}}`).join(' ')}]`;
}

/**
 * The user the request acts as. `headers` holds one value per header line (see impersonationHeaders);
 * `authorize` is the server's authorizer; a refusal is a 403 naming the impersonated resource. Without impersonation headers the user is returned unchanged.
 */
export async function impersonate(user: UserInfo, headers: Headers, authorize: (a: Attributes) => Promise<Decision>): Promise<UserInfo> {
  if (!wantsImpersonation(headers)) return user;
  const requests: Request[] = [];
  const username = values(headers['impersonate-user'])[0];
  let hasUser = false;
  if (username !== undefined && username !== '') {
    hasUser = true;
    const sa = parseServiceAccountUsername(username);
    requests.push(sa ? { kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace } : { kind: 'User', name: username });
  }
  // Each header line is one group (or extra value), commas included, as Go reads them.
  const groups = values(headers['impersonate-group']);
  for (const g of groups) requests.push({ kind: 'Group', name: g });
  const extra: Record<string, string[]> = {};
  for (const [header, value] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_PREFIX)) continue;
    // Extra keys travel percent-encoded in header names (`Impersonate-Extra-acme.com%2fproject`).
    const key = unescaped(header.slice(EXTRA_PREFIX.length));
    const vals = values(value);
    extra[key] = [...(extra[key] ?? []), ...vals];
    for (const v of vals) requests.push({ kind: 'UserExtra', name: v, key });
  }
  const uid = values(headers['impersonate-uid'])[0];
  if (uid !== undefined && uid !== '') requests.push({ kind: 'UID', name: uid });
  if (!hasUser && requests.length) {
    throw internalError(`requested ${describeRequests(requests)} without impersonating a user`);
  }

  let actingUser = '';
  let actingGroups: string[] = [];
  let groupsSpecified = false;
  for (const r of requests) {
    const attrs: Attributes = {
      user, verb: 'impersonate', isResourceRequest: true, path: '', namespace: '', apiGroup: '', apiVersion: '',
      resource: '', subresource: '', name: r.name,
    };
    switch (r.kind) {
      case 'User':
        attrs.resource = 'users';
        actingUser = r.name;
        break;
      case 'ServiceAccount':
        attrs.resource = 'serviceaccounts';
        attrs.namespace = r.namespace!;
        actingUser = `system:serviceaccount:${r.namespace}:${r.name}`;
        if (!groupsSpecified) actingGroups = serviceAccountGroups(r.namespace!);
        break;
      case 'Group':
        attrs.resource = 'groups';
        if (!groupsSpecified) { actingGroups = []; groupsSpecified = true; }
        actingGroups.push(r.name);
        break;
      case 'UID':
        attrs.apiGroup = AUTHENTICATION_GROUP;
        attrs.resource = 'uids';
        break;
      case 'UserExtra':
        attrs.apiGroup = AUTHENTICATION_GROUP;
        attrs.resource = 'userextras';
        attrs.subresource = r.key!;
        break;
    }
    const d = await authorize(attrs);
    if (d.decision !== 'allow') throw forbiddenError(attrs, d.reason);
  }

  // The impersonated user gets the group every request of its kind carries.
  if (actingUser !== ANONYMOUS_USER) {
    if (!actingGroups.includes(ALL_AUTHENTICATED) && !actingGroups.includes(ALL_UNAUTHENTICATED)) actingGroups.push(ALL_AUTHENTICATED);
  } else if (!actingGroups.includes(ALL_UNAUTHENTICATED)) {
    actingGroups.push(ALL_UNAUTHENTICATED);
  }
  const out: UserInfo = { username: actingUser, groups: actingGroups };
  if (uid) out.uid = uid;
  if (Object.keys(extra).length) out.extra = extra;
  return out;
}
