// How in-process controllers write: as their kube-system service account, straight to the registry
// (no HTTP, no admission, as Kubernetes' controllers are trusted by the policy that binds them).
import { CONTROLLER_MANAGER_FIELD_MANAGER, type RequestContext } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore, WriteResult } from '../registry/store.ts';
import { StatusError } from '../machinery/status.ts';

/** The request context of a controller running as `system:serviceaccount:kube-system:<account>`. */
export function controllerContext(account: string, subresource = ''): RequestContext {
  return {
    user: { username: `system:serviceaccount:kube-system:${account}`, groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] },
    version: 'v1',
    subresource,
    dryRun: false,
    warnings: [],
    fieldManager: CONTROLLER_MANAGER_FIELD_MANAGER,
  };
}

export interface UpdateObjectOptions {
  /** The write fails as not found when the object now has another uid (it was deleted and recreated). */
  uid?: string;
  subresource?: string;
}

/**
 * Changes an object with `mutate` (given a fresh copy on every retry) and writes it unless nothing changed.
 * Answers undefined when the object is gone (or was recreated).
 */
export async function updateObject(store: ResourceStore, ctx: RequestContext, namespace: string, name: string, mutate: (obj: ApiObject) => void, opts: UpdateObjectOptions = {}): Promise<WriteResult | undefined> {
  const subresource = opts.subresource ?? '';
  try {
    return await store.update(namespace, (current) => {
      if (!current || (opts.uid && current.metadata?.uid !== opts.uid)) throw new StatusError(404, 'NotFound', `${name} is gone`);
      // Unconditional where the kind allows it, so that a concurrent write only costs a retry.
      if (store.def.allowUnconditionalUpdate !== false) delete current.metadata.resourceVersion;
      mutate(current);
      return current;
    }, { ctx: { ...ctx, subresource, warnings: [] }, dryRun: false, subresource, allowCreate: false, name });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** Being deleted, and still held by `finalizer`. */
export function isDeletionCandidate(obj: Record<string, any>, finalizer: string): boolean {
  return !!obj.metadata?.deletionTimestamp && ((obj.metadata.finalizers ?? []) as string[]).includes(finalizer);
}

/** Drops `finalizer` from the object (and the list with its last entry). */
export function withoutFinalizer(obj: ApiObject, finalizer: string): void {
  const kept = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  if (kept.length > 0) obj.metadata.finalizers = kept; else delete obj.metadata.finalizers;
}

export function isNotFound(err: unknown): boolean {
  return err instanceof StatusError && err.code === 404;
}

export function isConflict(err: unknown): boolean {
  return err instanceof StatusError && err.code === 409;
}
