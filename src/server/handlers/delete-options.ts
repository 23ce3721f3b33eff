// DeleteOptions of delete and deletecollection: from the body (JSON or YAML, any group's `DeleteOptions`)
// and the query, checked as Kubernetes' ValidateDeleteOptions does (422 on `DeleteOptions.meta.svc.io`).
import { S } from '../../apis/meta/schema.ts';
import * as status from '../../machinery/status.ts';
import type { FieldError } from '../../machinery/field-errors.ts';
import { decodeObject } from '../../machinery/schema/decode.ts';
import { cannotHandleMessage } from '../../machinery/schema/decode-errors.ts';
import { parseBody } from '../../registry/decode-body.ts';
import { notAnObjectVersionKindError } from '../../machinery/go-json.ts';
import { goStringSliceLiteral, isPropagationPolicy, META_GROUP, PROPAGATION_VALUES, type PropagationPolicy, type QueryParams } from '../params.ts';

const DeleteOptionsSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  gracePeriodSeconds: S.int64(),
  preconditions: S.object({ uid: S.string(), resourceVersion: S.string() }, { ref: 'meta.v1.Preconditions' }),
  orphanDependents: S.bool(),
  propagationPolicy: S.string(),
  dryRun: S.list(S.string()),
  ignoreStoreReadErrorWithClusterBreakingPotential: S.bool(),
}, { ref: 'meta.v1.DeleteOptions' });

export interface DeleteRequestOptions {
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  orphanDependents?: boolean;
  dryRun: boolean;
}

interface DeleteOptionsBody {
  kind?: string;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: string;
  dryRun?: string[];
}

/** Decodes a DeleteOptions body; a malformed one is a 400 (Kubernetes answers these with a 500). */
function decodeDeleteOptionsBody(body: Buffer, mediaType: string): DeleteOptionsBody {
  const parsed = parseBody(body, mediaType || 'application/json', 'DeleteOptions');
  const value = parsed.value;
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw status.badRequest(notAnObjectVersionKindError(value));
  }
  const kind = (value as { kind?: unknown }).kind;
  if (kind !== undefined && kind !== null && kind !== '' && kind !== 'DeleteOptions') throw status.badRequest('decoded object cannot be converted to DeleteOptions');
  const decoded = decodeObject<DeleteOptionsBody>(value, DeleteOptionsSchema, { kind: 'DeleteOptions', apiVersion: 'v1' });
  if (decoded.typeError) throw status.badRequest(cannotHandleMessage('DeleteOptions', 'v1', decoded.typeError));
  return decoded.object;
}

/**
 * The options of a delete: the body's fields, and the query's where the body is silent. Throws 400 for a
 * body that cannot be read, 422 for options Kubernetes refuses (orphanDependents with propagationPolicy,
 * an unknown policy or dryRun value in the body).
 */
export function deleteOptionsOf(body: Buffer, mediaType: string, params: QueryParams): DeleteRequestOptions {
  const b = body.length ? decodeDeleteOptionsBody(body, mediaType) : {};
  const policy = b.propagationPolicy ?? params.propagationPolicy;
  const orphanDependents = b.orphanDependents ?? params.orphanDependents;
  const errs: FieldError[] = [];
  if (orphanDependents !== undefined && policy !== undefined) {
    errs.push({ type: 'FieldValueInvalid', field: 'propagationPolicy', value: policy, hasValue: true, detail: 'orphanDependents and deletionPropagation cannot be both set' });
  }
  if (policy !== undefined && !isPropagationPolicy(policy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'propagationPolicy', value: policy, hasValue: true, detail: `supported values: ${PROPAGATION_VALUES.map((v) => JSON.stringify(v)).join(', ')}` });
  }
  if (b.dryRun?.some((d) => d !== 'All')) {
    errs.push({ type: 'FieldValueNotSupported', field: 'dryRun', hasValue: false, detail: `${goStringSliceLiteral(b.dryRun)}: supported values: "All"` });
  }
  if (errs.length) throw status.invalid(META_GROUP, 'DeleteOptions', '', errs);
  return {
    preconditions: b.preconditions,
    propagationPolicy: (policy as PropagationPolicy | undefined) ?? (orphanDependents === undefined ? undefined : orphanDependents ? 'Orphan' : 'Background'),
    gracePeriodSeconds: b.gracePeriodSeconds ?? params.gracePeriodSeconds,
    orphanDependents,
    dryRun: params.dryRun || (b.dryRun?.length ?? 0) > 0,
  };
}
