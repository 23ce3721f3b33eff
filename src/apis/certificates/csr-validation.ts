// CertificateSigningRequest validation as Kubernetes v1.32 does it (pkg/apis/certificates/validation):
// the request parses and its signature verifies, usages are known and distinct, the signer is named
// properly, conditions follow their rules, and an issued certificate is PEM CERTIFICATE blocks. What each
// write path may change (main resource, /status, /approval) is checked on update.
import type { ApiObject } from '../meta/v1.ts';
import { type FieldError, invalid, required, notSupported, duplicate, forbidden, index, child } from '../../machinery/field-errors.ts';
import { decodeBase64 } from '../core/keyed-data.ts';
import { errorWithGoValue } from '../../machinery/go-format.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { signerNameErrors } from './signer-name.ts';
import { certificateRequestProblem, issuedCertificateProblem } from './x509-checks.ts';

export const LEGACY_UNKNOWN_SIGNER = 'platform.io/legacy-unknown';
export const APPROVED = 'Approved', DENIED = 'Denied', FAILED = 'Failed';

export const KEY_USAGES = [
  'signing', 'digital signature', 'content commitment', 'key encipherment', 'key agreement', 'data encipherment',
  'cert sign', 'crl sign', 'encipher only', 'decipher only', 'any', 'server auth', 'client auth', 'code signing',
  'email protection', 's/mime', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing',
  'microsoft sgc', 'netscape sgc',
] as const;
// Kubernetes lists the supported usages sorted.
const SORTED_USAGES = [...KEY_USAGES].sort();
const USAGE_SET = new Set<string>(KEY_USAGES);

export interface Condition { type?: string; status?: string; reason?: string; message?: string; lastUpdateTime?: string; lastTransitionTime?: string }
export interface CsrSpec {
  request?: string;
  signerName?: string;
  expirationSeconds?: number | null;
  usages?: string[] | null;
  username?: string;
  uid?: string;
  groups?: string[] | null;
  extra?: Record<string, string[]> | null;
}
export interface CsrStatus { conditions?: Condition[] | null; certificate?: string }

export const specOf = (o: ApiObject) => (o.spec ?? {}) as CsrSpec;
export const statusOf = (o: ApiObject) => (o.status ?? {}) as CsrStatus;
export const conditionsOf = (o: ApiObject): Condition[] => (Array.isArray(statusOf(o).conditions) ? statusOf(o).conditions! : []);
const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);

/** The bytes of a `[]byte` field (absent is nil, as Go has it). */
export function bytesOf(b64: string | undefined): Uint8Array | undefined {
  if (b64 === undefined || b64 === null) return undefined;
  const r = decodeBase64(b64);
  return 'bytes' in r ? r.bytes : new Uint8Array();
}

/** `%#v` of a byte slice: `[]byte{0x2d, 0xa}`, or `[]byte(nil)`. */
export function goBytes(bytes: Uint8Array | undefined): string {
  if (!bytes) return '[]byte(nil)';
  return '[]byte{' + Array.from(bytes, (b) => '0x' + b.toString(16)).join(', ') + '}';
}

/** What an update path tolerates (Kubernetes' certificateValidationOptions); create tolerates nothing. */
export interface ValidationOptions {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const hasDuplicates = (values: string[]) => new Set(values).size !== values.length;

/** Problems already present in the stored object are tolerated, for compatibility with existing data. */
export function validationOptions(obj: ApiObject, old: ApiObject | undefined): ValidationOptions {
  const oldTypes = old ? conditionsOf(old).map((c) => c?.type ?? '') : [];
  const oldSpec = old ? specOf(old) : undefined;
  const newCert = statusOf(obj).certificate ?? '';
  const oldCert = old ? statusOf(old).certificate ?? '' : undefined;
  return {
    allowSettingApprovalConditions: false,
    allowSettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes(APPROVED) && oldTypes.includes(DENIED),
    allowLegacySignerName: oldSpec?.signerName === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: hasDuplicates(oldTypes),
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate: oldCert !== undefined && (sameBytes(newCert, oldCert) || issuedCertificateProblem(bytesOf(oldCert)!) !== undefined),
    allowUnknownUsages: !!oldSpec && list(oldSpec.usages).some((u) => !USAGE_SET.has(u)),
    allowDuplicateUsages: !!oldSpec && hasDuplicates(list(oldSpec.usages)),
  };
}

function sameBytes(a: string | undefined, b: string | undefined): boolean {
  const x = bytesOf(a ?? ''), y = bytesOf(b ?? '');
  return Buffer.from(x ?? []).equals(Buffer.from(y ?? []));
}

const TRUE_ONLY = new Set([APPROVED, DENIED, FAILED]);

function conditionErrors(obj: ApiObject, opts: ValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'status.conditions';
  const seen = new Set<string>();
  let approved = false, denied = false;
  conditionsOf(obj).forEach((c, i) => {
    const at = index(path, i);
    const type = c?.type ?? '', st = c?.status ?? '';
    if (!opts.allowEmptyConditionType && !type) errs.push(required(child(at, 'type'), ''));
    const allowed = TRUE_ONLY.has(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!st) errs.push(required(child(at, 'status'), ''));
    else if (!allowed.includes(st)) errs.push(notSupported(child(at, 'status'), st, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === APPROVED) {
        approved = true;
        if (denied) errs.push(invalid(child(at, 'type'), type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === DENIED) {
        denied = true;
        if (approved) errs.push(invalid(child(at, 'type'), type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(duplicate(child(at, 'type'), type));
      seen.add(type);
    }
  });
  return errs;
}

/** validateCertificateSigningRequest: the whole object, under `opts`. */
export function csrErrors(obj: ApiObject, opts: ValidationOptions): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  const request = bytesOf(spec.request);
  const problem = certificateRequestProblem(request ?? new Uint8Array());
  if (problem) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.request', spec.request, goBytes(request), problem));
  const usages = list(spec.usages);
  if (usages.length === 0) errs.push(required('spec.usages', ''));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => { if (!USAGE_SET.has(u)) errs.push(notSupported(index('spec.usages', i), u, SORTED_USAGES)); });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => { if (seen.has(u)) errs.push(duplicate(index('spec.usages', i), u)); seen.add(u); });
  }
  if (!opts.allowLegacySignerName && spec.signerName === LEGACY_UNKNOWN_SIGNER) {
    errs.push(invalid('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...signerNameErrors('spec.signerName', spec.signerName ?? ''));
  }
  if (typeof spec.expirationSeconds === 'number' && spec.expirationSeconds < 600) {
    errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }
  errs.push(...conditionErrors(obj, opts));
  if (!opts.allowArbitraryCertificate) {
    const certProblem = issuedCertificateProblem(bytesOf(statusOf(obj).certificate) ?? new Uint8Array());
    if (certProblem) errs.push(invalid('status.certificate', '<certificate data>', certProblem));
  }
  return errs;
}

const typesOf = (o: ApiObject, type: string) => conditionsOf(o).filter((c) => c?.type === type);

/** A readable account of how a condition list changed, for the "may not modify" message. */
function conditionDiff(before: Condition[], after: Condition[]): string {
  return `- ${JSON.stringify(before)}\n+ ${JSON.stringify(after)}`;
}

/** validateCertificateSigningRequestUpdate's rules on what changed. */
export function csrUpdateErrors(obj: ApiObject, old: ApiObject, opts: ValidationOptions): FieldError[] {
  const errs = csrErrors(obj, opts);
  for (const t of [APPROVED, DENIED, FAILED]) {
    if (typesOf(obj, t).length < typesOf(old, t).length) errs.push(forbidden('status.conditions', `updates may not remove a condition of type "${t}"`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of [APPROVED, DENIED]) {
      const before = typesOf(old, t), after = typesOf(obj, t);
      if (after.length > before.length) errs.push(forbidden('status.conditions', `updates may not add a condition of type "${t}"`));
      else if (after.length === before.length && !deepEqual(before, after)) {
        errs.push(forbidden('status.conditions', `updates may not modify a condition of type "${t}"\n${conditionDiff(before, after)}`));
      }
    }
  }
  if (!sameBytes(statusOf(obj).certificate, statusOf(old).certificate)) {
    if (!opts.allowSettingCertificate) errs.push(forbidden('status.certificate', 'updates may not set certificate content'));
    else if (bytesOf(statusOf(old).certificate ?? '')!.length > 0) errs.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** /approval owns only the Approved and Denied conditions: others may not be added or changed there. */
export function approvalOnlyErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const others = (o: ApiObject) => conditionsOf(o).filter((c) => c?.type !== APPROVED && c?.type !== DENIED);
  const types = new Set([...others(obj), ...others(old)].map((c) => c?.type ?? ''));
  for (const t of types) {
    if (t === FAILED && typesOf(obj, t).length < typesOf(old, t).length) continue;
    if (typesOf(obj, t).length > typesOf(old, t).length) errs.push(forbidden('status.conditions', `updates may not add a condition of type "${t}"`));
    else if (!deepEqual(typesOf(obj, t), typesOf(old, t))) errs.push(forbidden('status.conditions', `updates may not modify a condition of type "${t}"`));
  }
  return errs;
}
