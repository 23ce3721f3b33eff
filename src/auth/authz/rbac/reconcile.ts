// Reconciliation of the default roles and bindings on start (Kubernetes' rbac/reconciliation): missing
// objects are created; existing ones gain missing permissions, aggregation selectors, subjects, labels and
// annotations, and keep whatever was added to them; an object annotated autoupdate=false is left alone.
import { deepEqual } from '../../../machinery/schema/walk.ts';
import { covers } from './escalation.ts';
import { AUTOUPDATE_ANNOTATION } from './bootstrap-policy.ts';
import type { ClusterRole, RoleBinding, Subject } from './types.ts';

export type Reconciled<T> = { action: 'none' } | { action: 'create'; object: T } | { action: 'update'; object: T } | { action: 'recreate'; object: T };

function autoUpdate(existing: { metadata: { annotations?: Record<string, string> } }): boolean {
  return existing.metadata.annotations?.[AUTOUPDATE_ANNOTATION] !== 'false';
}

function mergeMaps(expected?: Record<string, string>, existing?: Record<string, string>): Record<string, string> | undefined {
  const merged = { ...(expected ?? {}), ...(existing ?? {}) };
  return Object.keys(merged).length ? merged : undefined;
}

/** A Role or ClusterRole: expected permissions and selectors are added, nothing is removed. */
export function reconcileRole<T extends ClusterRole>(existing: T | undefined, expected: T): Reconciled<T> {
  if (!existing) return { action: 'create', object: structuredClone(expected) };
  if (!autoUpdate(existing)) return { action: 'none' };
  const next = structuredClone(existing) as T;
  const labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  const annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  if (labels) next.metadata.labels = labels;
  if (annotations) next.metadata.annotations = annotations;
  const selectors = expected.aggregationRule?.clusterRoleSelectors ?? [];
  if (selectors.length) {
    const have = next.aggregationRule?.clusterRoleSelectors ?? [];
    const missing = selectors.filter((s) => !have.some((h) => deepEqual(h, s)));
    if (missing.length || !next.aggregationRule) next.aggregationRule = { clusterRoleSelectors: [...have, ...missing] };
  } else {
    // Rules of an aggregated role are the aggregation controller's business.
    const { missing } = covers(existing.rules ?? [], expected.rules ?? []);
    if (missing.length) next.rules = [...(existing.rules ?? []), ...missing];
  }
  return deepEqual(next, existing) ? { action: 'none' } : { action: 'update', object: next };
}

function sameSubject(a: Subject, b: Subject): boolean {
  return a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '') && (a.apiGroup ?? '') === (b.apiGroup ?? '');
}

/** A RoleBinding or ClusterRoleBinding: expected subjects are added; a changed roleRef replaces the binding. */
export function reconcileBinding<T extends RoleBinding>(existing: T | undefined, expected: T): Reconciled<T> {
  if (!existing) return { action: 'create', object: structuredClone(expected) };
  if (!autoUpdate(existing)) return { action: 'none' };
  if (!deepEqual(existing.roleRef, expected.roleRef)) {
    const replacement = structuredClone(expected);
    replacement.subjects = mergeSubjects(existing.subjects ?? [], expected.subjects ?? []);
    if (!replacement.subjects.length) delete replacement.subjects;
    return { action: 'recreate', object: replacement };
  }
  const next = structuredClone(existing) as T;
  const labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
  const annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
  if (labels) next.metadata.labels = labels;
  if (annotations) next.metadata.annotations = annotations;
  const subjects = mergeSubjects(existing.subjects ?? [], expected.subjects ?? []);
  if (subjects.length) next.subjects = subjects;
  return deepEqual(next, existing) ? { action: 'none' } : { action: 'update', object: next };
}

function mergeSubjects(have: Subject[], want: Subject[]): Subject[] {
  return [...have, ...want.filter((w) => !have.some((h) => sameSubject(h, w)))];
}
