// The authorizers without state: AlwaysAllow, AlwaysDeny, and the system:masters bypass.
import type { UserInfo } from '../../apis/kind.ts';
import { ALLOW, NO_OPINION, noOpinion, emptyRules, type Authorizer, type RulesResult } from './types.ts';

export const SYSTEM_MASTERS = 'system:masters';

export const alwaysAllow: Authorizer = {
  name: 'AlwaysAllow',
  authorize: () => ALLOW,
  rulesFor: (): RulesResult => ({
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
    errors: [],
  }),
};

/** Kubernetes' AlwaysDeny gives no opinion (so a later authorizer could still allow), with this reason. */
export const alwaysDeny: Authorizer = {
  name: 'AlwaysDeny',
  authorize: () => noOpinion('Everything is forbidden.'),
  rulesFor: () => emptyRules(),
};

/** Members of these groups may do anything, whatever the configured authorizers say. */
export function privilegedGroups(groups: readonly string[] = [SYSTEM_MASTERS]): Authorizer {
  const set = new Set(groups);
  return {
    name: 'PrivilegedGroups',
    authorize: (attrs) => (isPrivileged(attrs.user, set) ? ALLOW : NO_OPINION),
  };
}

function isPrivileged(user: UserInfo, groups: Set<string>): boolean {
  for (const g of user.groups) if (groups.has(g)) return true;
  return false;
}
