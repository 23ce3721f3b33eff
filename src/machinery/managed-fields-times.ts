// Kubernetes' IgnoreManagedFieldsTimestampsTransformer: a write whose only change is the `time` of
// managedFields entries keeps the old times, so it stores nothing. A server-side apply of a configuration
// that differs from the live object only in what Go's types normalise (an empty list read back as none)
// updates its entry's time, yet changes nothing once stored; without this every such apply in a new second
// would be a write.
import { deepEqual } from './schema/walk.ts';

type Obj = { metadata?: Record<string, unknown> | null } & Record<string, unknown>;

/**
 * Puts `old`'s managedFields back into `next` (in place) when the two objects differ only in the times of
 * their managedFields entries. Answers whether it did.
 */
export function keepManagedFieldsTimes(next: Obj, old: Obj): boolean {
  const a = next.metadata?.managedFields, b = old.metadata?.managedFields;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length || a === b) return false;
  // Everything but metadata first: an ordinary update differs there, and metadata is the larger part.
  for (const key of new Set([...Object.keys(next), ...Object.keys(old)])) {
    if (key !== 'metadata' && !deepEqual(next[key], old[key])) return false;
  }
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>, y = b[i] as Record<string, unknown>;
    if (x === y) continue;
    if (typeof x !== 'object' || x === null || typeof y !== 'object' || y === null) return false;
    if (!deepEqual({ ...x, time: undefined }, { ...y, time: undefined })) return false;
  }
  next.metadata!.managedFields = b;
  if (deepEqual(next.metadata, old.metadata)) return true;
  next.metadata!.managedFields = a;
  return false;
}
