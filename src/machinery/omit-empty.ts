// Go's `omitempty`: Kubernetes stores and serves an object as its Go struct encodes, so an optional map or
// list field a client sent empty (`labels: {}`, `finalizers: []`, a ConfigMap's `data: {}`) is left out of
// what is stored and answered, the same as if it had not been sent.

/** ObjectMeta's map and list fields (every one is `omitempty`), but managedFields: an empty list sent is a
 *  request to clear field ownership, which the field manager reads after this runs (and it leaves the field
 *  out when nothing is owned). */
const META_OMIT_EMPTY = ['labels', 'annotations', 'ownerReferences', 'finalizers'];

/** Removes the named fields of `obj` that hold an empty map or an empty list. */
export function dropEmptyFields(obj: Record<string, unknown>, fields: readonly string[]): void {
  for (const f of fields) if (isEmptyContainer(obj[f])) delete obj[f];
}

/** Removes ObjectMeta's empty map and list fields. */
export function dropEmptyMetadata(meta: Record<string, unknown> | undefined): void {
  if (meta && typeof meta === 'object') dropEmptyFields(meta, META_OMIT_EMPTY);
}

function isEmptyContainer(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return v !== null && typeof v === 'object' && Object.keys(v).length === 0;
}
