// Escalation prevention: a user may only grant permissions it already holds (Kubernetes'
// validation.Covers and ConfirmNoEscalation), unless it may `escalate` (roles) or `bind` (bindings).
import type { UserInfo } from '../../../apis/kind.ts';
import type { PolicyRule } from '../types.ts';
import { aggregate, goQuote, goQuoteList } from '../../../machinery/go-format.ts';
import type { RuleResolver } from './resolver.ts';

const ALL = '*';

/** Whether `owner` rules cover every permission in `servant` rules, and those that are missing. */
export function covers(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    for (const single of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, single))) missing.push(single);
    }
  }
  return { covered: missing.length === 0, missing };
}

/** One rule per (group, resource, verb, name) and per (URL, verb). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else {
          out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        }
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function has(set: readonly string[] | undefined, v: string): boolean {
  return !!set?.includes(v);
}

function hasAll(set: readonly string[] | undefined, values: readonly string[] | undefined): boolean {
  return (values ?? []).every((v) => has(set, v));
}

function resourceCoversAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(set, ALL) || hasAll(set, wanted)) return true;
  for (const path of wanted ?? []) {
    if (has(set, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(set, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  if (owner === sub) return true;
  return owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, ''));
}

function nonResourceURLsCoverAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  return (wanted ?? []).every((w) => (set ?? []).some((s) => nonResourceURLCovers(s, w)));
}

export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = nonResourceURLsCoverAll(owner.nonResourceURLs, sub.nonResourceURLs);
  const names = !sub.resourceNames?.length
    ? !owner.resourceNames?.length
    : !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/**
 * Merges simple rules (one group, one resource, at most one name, no URLs) that differ only in verbs
 * (Kubernetes' CompactRules). Verbs are appended as they come, repeats included, as Kubernetes does.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const names = r.resourceNames ?? [];
    const isSimple = r.apiGroups?.length === 1 && r.resources?.length === 1 && names.length <= 1 && !r.nonResourceURLs?.length;
    if (!isSimple) { out.push(r); continue; }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], names.length ? names[0] : null]);
    const existing = simple.get(key);
    if (existing) {
      existing.verbs.push(...r.verbs);
    } else {
      const copy: PolicyRule = { apiGroups: [...r.apiGroups!], resources: [...r.resources!], verbs: [...r.verbs] };
      if (names.length) copy.resourceNames = [...names];
      simple.set(key, copy);
      out.push(copy);
    }
  }
  return out;
}

/** rbacv1helpers.CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${goQuoteList(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${goQuoteList(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuoteList(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${goQuoteList(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${goQuoteList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** Full authority: what setting an aggregation rule requires. */
export const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/**
 * Undefined when `user` holds every permission in `rules` in `namespace`; otherwise the message
 * Kubernetes gives (the caller wraps it in a Forbidden naming the role or binding).
 */
export function escalationProblem(resolver: RuleResolver, user: UserInfo, namespace: string, rules: readonly PolicyRule[]): string | undefined {
  const owner = resolver.rulesFor(user, namespace);
  const { covered, missing } = covers(owner.rules, rules);
  if (covered) return undefined;
  const descriptions = [...new Set(compactRules(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`;
  if (owner.errors.length) msg += `; resolution errors: [${registryAggregate(owner.errors)}]`;
  return msg;
}

/**
 * The author's rules are read through the RBAC registry in Kubernetes, whose missing roles are the
 * registry's NotFound (`roles.<group> "x" not found`), gathered as utilerrors.NewAggregate prints them:
 * duplicates once, one as is, several as `[a, b]`.
 */
function registryAggregate(errors: readonly string[]): string {
  return aggregate(errors.map((e) => e.replace(/^(role|clusterrole)\./, '$1s.')));
}
