// DeleteOptions of delete and deletecollection: from the body (JSON or YAML, any group's `DeleteOptions`)
// and the query, checked as Kubernetes' ValidateDeleteOptions does (422 on `DeleteOptions.meta.svc.io`).
import { DeleteOptions as DeleteOptionsSchema } from '../../apis/meta/v1.ts';
import * as status from '../../machinery/status.ts';
import type { FieldError } from '../../machinery/field-errors.ts';
import { decodeObject } from '../../machinery/schema/decode.ts';
import { cannotHandleMessage } from '../../machinery/schema/decode-errors.ts';
import { parseBody } from '../../registry/decode-body.ts';
import { notAnObjectVersionKindError } from '../../machinery/go-json.ts';
import { goStringSliceLiteral, isPropagationPolicy, META_GROUP, PROPAGATION_VALUES, type PropagationPolicy, type QueryParams } from '../params.ts';

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
  return decodeDeleteOptionsValue(parseBody(body, mediaType || 'application/json', 'DeleteOptions').value);
}

function decodeDeleteOptionsValue(value: unknown): DeleteOptionsBody {
  if (value === null || value === undefined) return {};
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
  return checkedDeleteOptions(body.length ? decodeDeleteOptionsBody(body, mediaType) : {}, params);
}

/** The same for DeleteOptions carried inside another object (an Eviction's `deleteOptions`). */
export function deleteOptionsFrom(value: unknown, params: QueryParams): DeleteRequestOptions {
  return checkedDeleteOptions(decodeDeleteOptionsValue(value), params);
}

function checkedDeleteOptions(b: DeleteOptionsBody, params: QueryParams): DeleteRequestOptions {
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
