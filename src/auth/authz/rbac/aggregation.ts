// The rules of an aggregated ClusterRole: those of every other cluster role its selectors match, in name
// order, without duplicates (Kubernetes' clusterroleaggregation controller).
import { deepEqual } from '../../../machinery/schema/walk.ts';
import { labelSelectorMatches } from '../../../machinery/labels.ts';
import type { PolicyRule } from '../types.ts';
import type { ClusterRole } from './types.ts';

export function aggregatedRules(target: ClusterRole, all: readonly ClusterRole[]): PolicyRule[] {
  const selected = new Map<string, ClusterRole>();
  for (const selector of target.aggregationRule?.clusterRoleSelectors ?? []) {
    for (const role of all) {
      const name = role.metadata.name ?? '';
      if (selected.has(name)) continue;
      let matches = false;
      try { matches = labelSelectorMatches(selector as Parameters<typeof labelSelectorMatches>[0], role.metadata.labels ?? {}); } catch { matches = false; }
      if (matches) selected.set(name, role);
    }
  }
  const rules: PolicyRule[] = [];
  for (const name of [...selected.keys()].sort()) {
    if (name === target.metadata.name) continue;
    for (const r of selected.get(name)!.rules ?? []) if (!rules.some((have) => deepEqual(have, r))) rules.push(r);
  }
  return rules;
}

export function isAggregated(role: ClusterRole): boolean {
  return !!role.aggregationRule;
}
