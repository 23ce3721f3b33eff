// A read-modify-write of one object by a component inside the server (a controller, the authenticator's
// token tracking): straight to the registry, retried on a conflict, a no-op when nothing changed.
import type { RequestContext } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { isNotFound, StatusError } from '../machinery/status.ts';
import type { ResourceStore, WriteResult } from './store.ts';

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
