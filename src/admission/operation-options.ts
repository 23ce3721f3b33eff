// The options object an admission request carries (AdmissionRequest.options), as Kubernetes' handlers pass
// it: CreateOptions for creates (an apply that creates too), UpdateOptions for updates and patches (the
// patch handler turns PatchOptions into UpdateOptions), DeleteOptions for deletes. Query defaults are not
// filled in: a fieldValidation the client did not name is left out (the server's default, Warn, is).
const META_API_VERSION = 'meta.svc.io/v1';

export interface WriteOptionFields {
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation?: string;
}

export function writeOptions(kind: 'CreateOptions' | 'UpdateOptions', o: WriteOptionFields): Record<string, unknown> {
  const out: Record<string, unknown> = { kind, apiVersion: META_API_VERSION };
  if (o.dryRun) out.dryRun = ['All'];
  if (o.fieldManager) out.fieldManager = o.fieldManager;
  if (o.fieldValidation && o.fieldValidation !== 'Warn') out.fieldValidation = o.fieldValidation;
  return out;
}

export interface DeleteOptionFields {
  dryRun: boolean;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: string;
}

export function deleteOptions(o: DeleteOptionFields): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: META_API_VERSION };
  if (o.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.preconditions && Object.keys(o.preconditions).length) out.preconditions = o.preconditions;
  // A policy the server derived from orphanDependents was not in the client's options.
  if (o.orphanDependents !== undefined) out.orphanDependents = o.orphanDependents;
  else if (o.propagationPolicy) out.propagationPolicy = o.propagationPolicy;
  if (o.dryRun) out.dryRun = ['All'];
  return out;
}
