// Which webhooks a request goes to: a webhook's rules (operations, API groups, versions, resources with
// sub-resources and wildcards, scope), and under matchPolicy Equivalent the other served versions and groups
// of the same stored resource (autoscaling/v1 and v2 HorizontalPodAutoscalers, core and events.svc.io
// Events), whose version the webhook then receives. The rules of Kubernetes' webhook/predicates/rules.
import type { ServedResource } from '../server/apis.ts';

export interface WebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope: string;
}

/** A resource as rules see it: one served group/version of a kind, with the request's sub-resource. */
export interface RuleTarget {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** Namespaced resources (a Namespace itself is cluster-scoped). */
  namespaced: boolean;
}

export function targetOf(served: ServedResource, subresource: string): RuleTarget {
  return { group: served.def.group, version: served.version.name, resource: served.def.plural, subresource, namespaced: served.def.namespaced };
}

function listMatches(list: string[], value: string): boolean {
  return list.some((x) => x === '*' || x === value);
}

/** `pods` matches the resource only, `pods/*` its sub-resources, `*` every resource, `*\/scale` every scale. */
function resourceMatches(resources: string[], resource: string, subresource: string): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

function scopeMatches(scope: string, target: RuleTarget): boolean {
  if (scope === '*' || scope === '') return true;
  if (scope === 'Namespaced') return target.namespaced;
  if (scope === 'Cluster') return !target.namespaced;
  return false;
}

export function ruleMatches(rule: WebhookRule, operation: string, target: RuleTarget): boolean {
  return scopeMatches(rule.scope, target)
    && listMatches(rule.operations, operation)
    && listMatches(rule.apiGroups, target.group)
    && listMatches(rule.apiVersions, target.version)
    && resourceMatches(rule.resources, target.resource, target.subresource);
}

/** Whether `served` offers `subresource` (status, a status variant, or a view such as scale). */
function hasSubresource(served: ServedResource, subresource: string): boolean {
  if (!subresource) return true;
  const def = served.def;
  if (subresource === 'status') return !!def.status;
  return !!def.status?.variants?.includes(subresource) || !!def.views?.some((v) => v.name === subresource);
}

/**
 * The served resources a request may be matched through: the one addressed first, then the others that
 * store the same objects (same storage keys) and offer the same sub-resource, in the surface's order.
 */
export class Equivalents {
  private readonly byKeyRoot = new Map<string, ServedResource[]>();

  constructor(served: readonly ServedResource[]) {
    for (const s of served) {
      const key = s.store.keyRoot;
      let list = this.byKeyRoot.get(key);
      if (!list) this.byKeyRoot.set(key, list = []);
      list.push(s);
    }
  }

  of(served: ServedResource, subresource: string): ServedResource[] {
    const same = this.byKeyRoot.get(served.store.keyRoot) ?? [];
    return same.filter((s) => !(s.def === served.def && s.version.name === served.version.name) && hasSubresource(s, subresource));
  }
}

/**
 * The served resource a webhook is called for: the addressed one when a rule matches it, else (Equivalent)
 * the first equivalent that a rule matches, earlier rules first; undefined when none does.
 */
export function matchingResource(
  rules: readonly WebhookRule[], matchPolicy: string, operation: string, served: ServedResource, subresource: string, equivalents: Equivalents,
): ServedResource | undefined {
  const target = targetOf(served, subresource);
  if (rules.some((r) => ruleMatches(r, operation, target))) return served;
  if (matchPolicy !== 'Equivalent') return undefined;
  const others = equivalents.of(served, subresource);
  if (!others.length) return undefined;
  for (const rule of rules) {
    for (const other of others) if (ruleMatches(rule, operation, targetOf(other, subresource))) return other;
  }
  return undefined;
}
