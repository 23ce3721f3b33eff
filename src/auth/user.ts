// Well-known users and groups, and the identities of service accounts (Kubernetes' user and
// serviceaccount packages).
import type { UserInfo } from '../apis/kind.ts';

export const ANONYMOUS_USER = 'system:anonymous';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const SYSTEM_MASTERS = 'system:masters';
export const SERVICE_ACCOUNT_USER_PREFIX = 'system:serviceaccount:';
export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
export const SERVICE_ACCOUNT_GROUP_PREFIX = 'system:serviceaccounts:';

/** Extra keys a service account token carries about the pod or node it was bound to. */
export const EXTRA_POD_NAME = 'authentication.platform.io/pod-name';
export const EXTRA_POD_UID = 'authentication.platform.io/pod-uid';
export const EXTRA_NODE_NAME = 'authentication.platform.io/node-name';
export const EXTRA_NODE_UID = 'authentication.platform.io/node-uid';
export const EXTRA_CREDENTIAL_ID = 'authentication.platform.io/credential-id';

/** A user as Kubernetes' UserInfo JSON carries it (reviews, admission reviews, audit events): empty fields left out, as Go's omitempty does. */
export interface UserInfoJson {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export function userInfoJson(user: UserInfo): UserInfoJson {
  const out: UserInfoJson = {};
  if (user.username) out.username = user.username;
  if (user.uid) out.uid = user.uid;
  if (user.groups?.length) out.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) out.extra = user.extra;
  return out;
}

export function anonymousUser(): UserInfo {
  return { username: ANONYMOUS_USER, groups: [ALL_UNAUTHENTICATED] };
}

export function serviceAccountUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;
}

export function serviceAccountGroups(namespace: string): string[] {
  return [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNT_GROUP_PREFIX}${namespace}`];
}

/** `system:serviceaccount:ns:name` split into its parts, or undefined for any other user name. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USER_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USER_PREFIX.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** Adds system:authenticated unless the user already carries it or system:unauthenticated. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(ALL_AUTHENTICATED) || user.groups.includes(ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}
