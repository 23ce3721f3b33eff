// What authorizers see and answer: Kubernetes' authorizer.Attributes, Decision and RuleResolver.
import type { UserInfo } from '../../apis/kind.ts';

export interface Attributes {
  user: UserInfo;
  /** API verb for resource requests (get, list, create ...), the lower-case HTTP method otherwise. */
  verb: string;
  isResourceRequest: boolean;
  /** Request path (non-resource requests). */
  path: string;
  namespace: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  name: string;
  /** Raw field selector of a list or watch, when one was given (the Node authorizer reads it). */
  fieldSelector?: string;
}

export type DecisionKind = 'allow' | 'deny' | 'noopinion';

export interface Decision {
  decision: DecisionKind;
  /** Why, in words; empty when there is nothing to say. */
  reason: string;
  /** An evaluation error that did not stop the decision (a missing role, a failed webhook call). */
  error?: string;
}

export const ALLOW: Decision = Object.freeze({ decision: 'allow', reason: '' });
export const NO_OPINION: Decision = Object.freeze({ decision: 'noopinion', reason: '' });

export function allow(reason = ''): Decision {
  return { decision: 'allow', reason };
}
export function deny(reason = '', error?: string): Decision {
  return error === undefined ? { decision: 'deny', reason } : { decision: 'deny', reason, error };
}
export function noOpinion(reason = '', error?: string): Decision {
  return error === undefined ? { decision: 'noopinion', reason } : { decision: 'noopinion', reason, error };
}

/** rbac/v1 PolicyRule, also the shape SelfSubjectRulesReview answers with. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface RulesResult {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** True when the authorizer cannot list everything the user may do. */
  incomplete: boolean;
  errors: string[];
}

export interface Authorizer {
  readonly name: string;
  authorize(attrs: Attributes): Decision | Promise<Decision>;
  /** What the user may do in a namespace ('' for cluster scope), for SelfSubjectRulesReview. */
  rulesFor?(user: UserInfo, namespace: string): RulesResult;
}

export function emptyRules(incomplete = false, errors: string[] = []): RulesResult {
  return { resourceRules: [], nonResourceRules: [], incomplete, errors };
}

/** Read-only verbs, as Kubernetes' Attributes.IsReadOnly says. */
export function isReadOnly(verb: string): boolean {
  return verb === 'get' || verb === 'list' || verb === 'watch';
}

/** Splits policy rules into the two shapes a rules review answers with. */
export function splitRules(rules: readonly PolicyRule[]): { resourceRules: ResourceRule[]; nonResourceRules: NonResourceRule[] } {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  for (const r of rules) {
    if (r.resources?.length) {
      const rr: ResourceRule = { verbs: [...r.verbs] };
      if (r.apiGroups?.length) rr.apiGroups = [...r.apiGroups];
      rr.resources = [...r.resources];
      if (r.resourceNames?.length) rr.resourceNames = [...r.resourceNames];
      resourceRules.push(rr);
    }
    if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...r.verbs], nonResourceURLs: [...r.nonResourceURLs] });
  }
  return { resourceRules, nonResourceRules };
}
