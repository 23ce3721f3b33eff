// The rules of an aggregated ClusterRole: those of every other cluster role its selectors match, in name
// order, without duplicates (Kubernetes' clusterroleaggregation controller).
import { labelSelectorFromObject, type LabelSelectorMatcher } from '../../../machinery/labels.ts';
import type { PolicyRule } from '../types.ts';
import type { ClusterRole } from './types.ts';

export function aggregatedRules(target: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const selected = new Map<string, ClusterRole>();
  for (const selector of target.aggregationRule?.clusterRoleSelectors ?? []) {
    // Parsed once per selector; an invalid one selects nothing.
    let matcher: LabelSelectorMatcher;
    try { matcher = labelSelectorFromObject(selector as Parameters<typeof labelSelectorFromObject>[0]); } catch { continue; }
    for (const role of all) {
      const name = role.metadata.name ?? '';
      if (!selected.has(name) && matcher.matches(role.metadata.labels ?? {})) selected.set(name, role);
    }
  }
  const rules: PolicyRule[] = [];
  // Rules compare as values (key order and absent fields aside): a canonical text of each says whether an
  // equal one was taken already, where comparing with every rule taken grew with the square of the count.
  const taken = new Set<string>();
  for (const name of [...selected.keys()].sort()) {
    if (name === target.metadata.name) continue;
    for (const r of selected.get(name)!.rules ?? []) {
      const key = ruleText(r);
      if (taken.has(key)) continue;
      taken.add(key);
      rules.push(r);
    }
  }
  return rules;
}

/** Aggregation reads the same rule objects again on every pass and for every aggregated role that selects
 *  their role (the first start settles the whole default policy), so each rule's text is made once. */
const ruleTexts = new WeakMap<object, string>();

function ruleText(rule: PolicyRule): string {
  let text = ruleTexts.get(rule);
  if (text === undefined) ruleTexts.set(rule, text = canonicalText(rule));
  return text;
}

/** JSON with object keys sorted and undefined members left out: equal texts for values deepEqual finds equal. */
function canonicalText(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonicalText).join(',')}]`;
  const o = value as Record<string, unknown>;
  const members: string[] = [];
  for (const k of Object.keys(o).sort()) if (o[k] !== undefined) members.push(`${JSON.stringify(k)}:${canonicalText(o[k])}`);
  return `{${members.join(',')}}`;
}

export function isAggregated(role: ClusterRole): boolean {
  return !!role.aggregationRule;
}
