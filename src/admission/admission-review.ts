// The AdmissionReview a webhook receives and answers, in `admission.svc.io` v1 or v1beta1 (the first of the
// webhook's admissionReviewVersions that the server knows), as Kubernetes' webhook/request package builds
// and checks it. An answer may name the group by Kubernetes' name (`admission.k8s.io`) too.
import { renamedGroupOf } from '../server/group-alias.ts';
import { base64ErrorOffset, base64ErrorText } from '../machinery/schema/go-base64.ts';
import { goJsonKind, notAnObjectVersionKindError } from '../machinery/go-json.ts';
import { goQuote } from '../machinery/go-format.ts';
import { isPlainObject } from '../machinery/schema/walk.ts';
import type { UserInfoJson } from '../auth/user.ts';
import { splitApiVersion } from '../machinery/group-version.ts';

export const ADMISSION_GROUP = 'admission.svc.io';
export const REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = typeof REVIEW_VERSIONS[number];

export interface GroupVersionKind { group: string; version: string; kind: string }
export interface GroupVersionResource { group: string; version: string; resource: string }

/** The AdmissionRequest, in its JSON field order (empty optional fields are left out, as Go's omitempty does). */
export interface AdmissionRequest {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource?: string;
  requestKind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: UserInfoJson;
  object: unknown;
  oldObject: unknown;
  dryRun: boolean;
  options: unknown;
}

/** The review version to send: the first of the webhook's that is known, or undefined. */
export function reviewVersionFor(accepted: readonly string[]): ReviewVersion | undefined {
  return accepted.find((v): v is ReviewVersion => (REVIEW_VERSIONS as readonly string[]).includes(v));
}

export function reviewRequestBody(version: ReviewVersion, request: AdmissionRequest): string {
  return JSON.stringify({ kind: 'AdmissionReview', apiVersion: `${ADMISSION_GROUP}/${version}`, request });
}

/** What a webhook answered, once checked. */
export interface AdmissionAnswer {
  allowed: boolean;
  /** The status of a denial, as sent. */
  result: unknown;
  /** The JSON patch (decoded from base64), and its type; absent when there is none. */
  patch?: string;
  patchType?: string;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/** Go's json.Unmarshal error for a field of the wrong type. */
function wrongType(field: string, v: unknown, goType: string): Error {
  return new Error(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field AdmissionResponse.response.${field} of type ${goType}`);
}

/** The decoder's error for a field of the denial's Status (`response.status.<field>`) of the wrong type. */
function wrongStatusType(field: string, v: unknown, goType: string): Error {
  return new Error(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field Status.response.status.${field} of type ${goType}`);
}

/** The Status fields a denial is built from decode as Go types them: a code that is not an int32, or a
 *  message that is not a string, makes the whole answer undecodable (a failure to call the webhook). */
function checkStatusFields(status: Record<string, unknown>): void {
  const set = (k: string) => status[k] !== undefined && status[k] !== null;
  for (const [k, goType] of [['status', 'string'], ['message', 'string'], ['reason', 'v1.StatusReason']] as const) {
    if (set(k) && typeof status[k] !== 'string') throw wrongStatusType(k, status[k], goType);
  }
  if (set('metadata') && !isPlainObject(status.metadata)) throw wrongStatusType('metadata', status.metadata, 'v1.ListMeta');
  if (set('details') && !isPlainObject(status.details)) throw wrongStatusType('details', status.details, 'v1.StatusDetails');
  const code = status.code;
  if (set('code')) {
    if (typeof code !== 'number') throw wrongStatusType('code', code, 'int32');
    // A number that is not an int32 is named with its text, as Go's decoder names it.
    if (!Number.isInteger(code) || code < -(2 ** 31) || code >= 2 ** 31) throw new Error(`json: cannot unmarshal number ${JSON.stringify(code)} into Go struct field Status.response.status.code of type int32`);
  }
}

/** Go's base64 decoding of a []byte field: standard alphabet, padded, line breaks ignored. */
function base64Bytes(field: string, v: unknown): Buffer | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw wrongType(field, v, '[]uint8');
  const bad = base64ErrorOffset(v);
  if (bad >= 0) throw new Error(base64ErrorText(bad));
  return Buffer.from(v, 'base64');
}

/**
 * Reads the body of a webhook's answer as the client decodes it: JSON with a `response` of the expected
 * field types. Throws an Error with the decoder's message (a failure to call the webhook).
 */
export function decodeReviewResponse(body: unknown): { apiVersion: string; kind: string; response: Record<string, unknown> | undefined; patch?: Buffer } {
  // A null answer decodes as an empty AdmissionReview (json.Unmarshal leaves the struct alone): no response.
  if (body === null) return { apiVersion: '', kind: '', response: undefined };
  // The decoder reads apiVersion and kind first (the meta factory's Interpret), so that error comes first.
  if (!isPlainObject(body)) throw new Error(notAnObjectVersionKindError(body));
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
  const kind = typeof body.kind === 'string' ? body.kind : '';
  const r = body.response;
  if (r === undefined || r === null) return { apiVersion, kind, response: undefined };
  if (!isPlainObject(r)) throw new Error(`json: cannot unmarshal ${goJsonKind(r)} into Go struct field AdmissionReview.response of type v1.AdmissionResponse`);
  if (r.uid !== undefined && r.uid !== null && typeof r.uid !== 'string') throw wrongType('uid', r.uid, 'types.UID');
  if (r.allowed !== undefined && r.allowed !== null && typeof r.allowed !== 'boolean') throw wrongType('allowed', r.allowed, 'bool');
  if (r.patchType !== undefined && r.patchType !== null && typeof r.patchType !== 'string') throw wrongType('patchType', r.patchType, 'v1.PatchType');
  if (r.warnings !== undefined && r.warnings !== null && (!Array.isArray(r.warnings) || r.warnings.some((w) => typeof w !== 'string'))) throw wrongType('warnings', r.warnings, '[]string');
  if (r.auditAnnotations !== undefined && r.auditAnnotations !== null && (!isPlainObject(r.auditAnnotations) || Object.values(r.auditAnnotations).some((v) => typeof v !== 'string'))) {
    throw wrongType('auditAnnotations', r.auditAnnotations, 'map[string]string');
  }
  if (r.status !== undefined && r.status !== null) {
    if (!isPlainObject(r.status)) throw wrongType('status', r.status, 'v1.Status');
    checkStatusFields(r.status);
  }
  return { apiVersion, kind, response: r, patch: base64Bytes('patch', r.patch) };
}

/**
 * VerifyAdmissionResponse: a v1 answer must be an `AdmissionReview` of v1 with the request's uid, and carry
 * a patch and its type together (a validating webhook neither); v1beta1 answers are not checked for these,
 * and their patch is a JSON patch. Throws an Error saying what is wrong (an invalid webhook response).
 */
export function verifyReviewResponse(version: ReviewVersion, uid: string, mutating: boolean, decoded: ReturnType<typeof decodeReviewResponse>): AdmissionAnswer {
  const r = decoded.response;
  if (!r) throw new Error('webhook response was absent');
  const warnings = Array.isArray(r.warnings) ? r.warnings as string[] : [];
  const auditAnnotations = isPlainObject(r.auditAnnotations) ? r.auditAnnotations as Record<string, string> : {};
  const base = { allowed: r.allowed === true, result: r.status ?? undefined, warnings, auditAnnotations };
  const patch = decoded.patch && decoded.patch.length ? decoded.patch.toString('utf8') : undefined;
  if (version === 'v1beta1') return mutating && patch ? { ...base, patch, patchType: 'JSONPatch' } : base;

  const responseUid = typeof r.uid === 'string' ? r.uid : '';
  if (responseUid !== uid) throw new Error(`expected response.uid=${goQuote(uid)}, got ${goQuote(responseUid)}`);
  const gv = splitApiVersion(decoded.apiVersion);
  const group = renamedGroupOf(gv.group) === ADMISSION_GROUP ? ADMISSION_GROUP : gv.group;
  if (group !== ADMISSION_GROUP || gv.version !== 'v1' || decoded.kind !== 'AdmissionReview') {
    throw new Error(`expected webhook response of ${ADMISSION_GROUP}/v1, Kind=AdmissionReview, got ${gv.group}/${gv.version}, Kind=${decoded.kind}`);
  }
  const patchType = typeof r.patchType === 'string' ? r.patchType : undefined;
  const hasPatchType = r.patchType !== undefined && r.patchType !== null;
  if (!mutating) {
    if (patch) throw new Error('validating webhook may not return response.patch');
    if (hasPatchType) throw new Error('validating webhook may not return response.patchType');
    return base;
  }
  if (patch && !hasPatchType) throw new Error('webhook returned response.patch but not response.patchType');
  if (!patch && hasPatchType) throw new Error('webhook returned response.patchType but not response.patch');
  if (hasPatchType && !patchType) throw new Error(`webhook returned invalid response.patchType of ""`);
  return patch ? { ...base, patch, patchType } : base;
}
