// The status conditions the namespace controller keeps on a terminating namespace, as Kubernetes' namespace
// deleter writes them: one condition per type, True with the details while something is wrong or left, the
// fixed "ok" reason and message (status False) otherwise. Condition order and texts are Kubernetes'.

export interface NamespaceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** What one pass of the deleter found: content left per resource, and its finalizers. */
export interface DeletionTotals {
  /** `resource.group` (the core group is empty, so `pods.`) to the number of objects still present. */
  remainingByResource: Map<string, number>;
  /** Finalizer name to the number of remaining objects carrying it. */
  remainingByFinalizer: Map<string, number>;
  /** Messages of failed deletions. */
  deleteErrors: string[];
}

const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

const OK: Record<(typeof CONDITION_TYPES)[number], { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

/** Byte-wise ordering, as Go's sort.Strings. */
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The conditions a pass with these totals reports, each type once, in Kubernetes' order. */
export function deletionConditions(totals: DeletionTotals, now: string): NamespaceCondition[] {
  const found = new Map<string, NamespaceCondition>();
  if (totals.deleteErrors.length) {
    found.set('NamespaceDeletionContentFailure', {
      type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: now, reason: 'ContentDeletionFailed',
      // The errors joined as Go's error aggregate prints them.
      message: `Failed to delete all resource types, ${totals.deleteErrors.length} remaining: ${totals.deleteErrors.length === 1 ? totals.deleteErrors[0] : `[${totals.deleteErrors.join(', ')}]`}`,
    });
  }
  const resources = [...totals.remainingByResource].filter(([, n]) => n > 0).map(([gr, n]) => `${gr} has ${n} resource instances`).sort(byteOrder);
  if (resources.length) {
    found.set('NamespaceContentRemaining', {
      type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${resources.join(', ')}`,
    });
  }
  const finalizers = [...totals.remainingByFinalizer].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`).sort(byteOrder);
  if (finalizers.length) {
    found.set('NamespaceFinalizersRemaining', {
      type: 'NamespaceFinalizersRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}`,
    });
  }
  return CONDITION_TYPES.map((type) => found.get(type) ?? { type, status: 'False', lastTransitionTime: now, ...OK[type] });
}

/**
 * Merges `next` into `current` (a namespace's status.conditions) as Kubernetes does: a missing type is
 * appended; a changed one takes the new status, reason and message, and a new lastTransitionTime only when
 * its status changed. Answers the merged list, or undefined when nothing changed.
 */
export function mergeConditions(current: NamespaceCondition[] | undefined, next: NamespaceCondition[]): NamespaceCondition[] | undefined {
  const merged = (current ?? []).map((c) => ({ ...c }));
  let changed = false;
  for (const cond of next) {
    const old = merged.find((c) => c.type === cond.type);
    if (!old) { merged.push({ ...cond }); changed = true; continue; }
    if (old.status === cond.status && old.reason === cond.reason && old.message === cond.message) continue;
    if (old.status !== cond.status) old.lastTransitionTime = cond.lastTransitionTime;
    old.status = cond.status;
    old.reason = cond.reason;
    old.message = cond.message;
    changed = true;
  }
  return changed ? merged : undefined;
}
