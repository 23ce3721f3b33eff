// How in-process controllers write: as their kube-system service account, straight to the registry
// (no HTTP, no admission, as Kubernetes' controllers are trusted by the policy that binds them); their
// writes go through registry/update-object.ts. The objects they create for users (a ReplicaSet's pods, a
// Deployment's ReplicaSets, an ephemeral volume's claim) are admitted first, as a request's would be
// (AdmittedCreate).
import { CONTROLLER_MANAGER_FIELD_MANAGER, type RequestContext } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { OwnerReference } from './garbage-collector.ts';
import { StatusError } from '../machinery/status.ts';

/** Creates an object through admission (the built-in plugins and the webhooks), then the registry. */
export type AdmittedCreate = (group: string, plural: string, namespace: string, object: ApiObject, ctx: RequestContext) => Promise<ApiObject>;

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

/** Being deleted, and still held by `finalizer`. */
export function isDeletionCandidate(obj: Record<string, any>, finalizer: string): boolean {
  return !!obj.metadata?.deletionTimestamp && ((obj.metadata.finalizers ?? []) as string[]).includes(finalizer);
}

/** Drops `finalizer` from the object (and the list with its last entry). */
export function withoutFinalizer(obj: ApiObject, finalizer: string): void {
  const kept = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  if (kept.length > 0) obj.metadata.finalizers = kept; else delete obj.metadata.finalizers;
}

/** The owner reference marked `controller` (an object has at most one controller). */
export function controllerRefOf(meta: { ownerReferences?: unknown[] } | undefined): OwnerReference | undefined {
  const refs = meta?.ownerReferences;
  if (!Array.isArray(refs)) return undefined;
  return refs.find((r): r is OwnerReference => !!r && typeof r === 'object' && (r as OwnerReference).controller === true);
}

/** A create refused because its namespace is being deleted: every create there fails alike, nothing to report. */
export function namespaceTerminating(err: unknown): boolean {
  return err instanceof StatusError && !!err.details?.causes?.some((c) => c.reason === 'NamespaceTerminating');
}
