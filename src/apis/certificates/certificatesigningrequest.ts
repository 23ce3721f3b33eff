// CertificateSigningRequest (certificates.svc.io/v1, cluster-scoped): a PKCS#10 request approved through
// /approval and issued through /status. The spec is fixed at creation and records who asked.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn, humanDuration } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { nowRfc3339 } from '../../registry/names.ts';
import {
  APPROVED, DENIED, FAILED, specOf, statusOf, conditionsOf, validationOptions, csrErrors, csrUpdateErrors,
  approvalOnlyErrors, type Condition, type CsrSpec,
} from './csr-validation.ts';

export const GROUP = 'certificates.svc.io';

/** A `[]byte` field that apply replaces whole. */
const atomicBytes = (o: Parameters<typeof S.bytes>[0]) => ({ ...S.bytes(o), 'x-platform-list-type': 'atomic' });

const SIGNER_NAME_DESCRIPTION = 'signerName indicates the requested signer, and is a qualified name.\n\nList/watch requests for CertificateSigningRequests can filter on this field using a "spec.signerName=NAME" fieldSelector.\n\nWell-known signers are:\n 1. "platform.io/apiserver-client": issues client certificates that can be used to authenticate to the API server.\n  Requests for this signer are never auto-approved by the controller manager, can be issued by the "csrsigning" controller in the controller manager.\n 2. "platform.io/apiserver-client-nodeagent": issues client certificates that node agents use to authenticate to the API server.\n  Requests for this signer can be auto-approved by the "csrapproving" controller in the controller manager, and can be issued by the "csrsigning" controller in the controller manager.\n 3. "platform.io/nodeagent-serving" issues serving certificates that node agents use to serve TLS endpoints, which the API server can connect to securely.\n  Requests for this signer are never auto-approved by the controller manager, and can be issued by the "csrsigning" controller in the controller manager.\n\nCustom signerNames can also be specified. The signer defines:\n 1. Trust distribution: how trust (CA bundles) are distributed.\n 2. Permitted subjects: and behavior when a disallowed subject is requested.\n 3. Required, permitted, or forbidden x509 extensions in the request (including whether subjectAltNames are allowed, which types, restrictions on allowed values) and behavior when a disallowed extension is requested.\n 4. Required, permitted, or forbidden key usages / extended key usages.\n 5. Expiration/certificate lifetime: whether it is fixed by the signer, configurable by the admin.\n 6. Whether or not requests for CA certificates are allowed.';
const REQUEST_DESCRIPTION = 'request contains an x509 certificate signing request encoded in a "CERTIFICATE REQUEST" PEM block. When serialized as JSON or YAML, the data is additionally base64-encoded.';
const EXPIRATION_DESCRIPTION = 'expirationSeconds is the requested duration of validity of the issued certificate. The certificate signer may issue a certificate with a different validity duration so a client must check the delta between the notBefore and and notAfter fields in the issued certificate to determine the actual duration.\n\nThe v1.22+ in-tree implementations of the well-known signers will honor this field as long as the requested duration is not greater than the maximum duration they will honor per the --cluster-signing-duration CLI flag to the controller manager.\n\nCertificate signers may not honor this field for various reasons:\n\n  1. Old signer that is unaware of the field (such as the in-tree\n     implementations prior to v1.22)\n  2. Signer whose configured maximum is shorter than the requested duration\n  3. Signer whose configured minimum is longer than the requested duration\n\nThe minimum valid value for expirationSeconds is 600, i.e. 10 minutes.';
const CONDITIONS_DESCRIPTION = 'conditions applied to the request. Known conditions are "Approved", "Denied", and "Failed".';

const CertificateSigningRequestSpec = S.object({
  request: atomicBytes({ proto: 1, description: REQUEST_DESCRIPTION }),
  signerName: S.string({ proto: 7, description: SIGNER_NAME_DESCRIPTION }),
  expirationSeconds: S.int32({ proto: 8, description: EXPIRATION_DESCRIPTION }),
  usages: S.list(S.string(), { proto: 5, listType: 'atomic', description: 'usages specifies a set of key usages requested in the issued certificate.\n\nRequests for TLS client certificates typically request: "digital signature", "key encipherment", "client auth".\n\nRequests for TLS serving certificates typically request: "key encipherment", "digital signature", "server auth".\n\nValid values are:\n "signing", "digital signature", "content commitment",\n "key encipherment", "key agreement", "data encipherment",\n "cert sign", "crl sign", "encipher only", "decipher only", "any",\n "server auth", "client auth",\n "code signing", "email protection", "s/mime",\n "ipsec end system", "ipsec tunnel", "ipsec user",\n "timestamping", "ocsp signing", "microsoft sgc", "netscape sgc"' }),
  username: S.string({ proto: 2, description: 'username contains the name of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
  uid: S.string({ proto: 3, description: 'uid contains the uid of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
  groups: S.list(S.string(), { proto: 4, listType: 'atomic', description: 'groups contains group membership of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
  extra: S.map(S.list(S.string()), { proto: 6, description: 'extra contains extra attributes of the user that created the CertificateSigningRequest. Populated by the API server on creation and immutable.' }),
}, { proto: 2, ref: 'certificates.v1.CertificateSigningRequestSpec', description: 'CertificateSigningRequestSpec contains the certificate request.' });

const CertificateSigningRequestCondition = S.object({
  type: S.string({ proto: 1, description: 'type of the condition. Known conditions are "Approved", "Denied", and "Failed".\n\nAn "Approved" condition is added via the /approval subresource, indicating the request was approved and should be issued by the signer.\n\nA "Denied" condition is added via the /approval subresource, indicating the request was denied and should not be issued by the signer.\n\nA "Failed" condition is added via the /status subresource, indicating the signer failed to issue the certificate.\n\nApproved and Denied conditions are mutually exclusive. Approved, Denied, and Failed conditions cannot be removed once added.\n\nOnly one condition of a given type is allowed.' }),
  status: S.string({ proto: 6, description: 'status of the condition, one of True, False, Unknown. Approved, Denied, and Failed conditions may not be "False" or "Unknown".' }),
  reason: S.string({ proto: 2, description: 'reason indicates a brief reason for the request state' }),
  message: S.string({ proto: 3, description: 'message contains a human readable message with details about the request state' }),
  lastUpdateTime: S.time({ proto: 4, description: 'lastUpdateTime is the time of the last update to this condition' }),
  lastTransitionTime: S.time({ proto: 5, description: "lastTransitionTime is the time the condition last transitioned from one status to another. If unset, when a new condition type is added or an existing condition's status is changed, the server defaults this to the current time." }),
}, { ref: 'certificates.v1.CertificateSigningRequestCondition', description: 'CertificateSigningRequestCondition describes a condition of a CertificateSigningRequest object' });

const CertificateSigningRequestStatus = S.object({
  conditions: S.list(CertificateSigningRequestCondition, { proto: 1, listType: 'map', listMapKeys: ['type'], description: CONDITIONS_DESCRIPTION }),
  certificate: atomicBytes({ proto: 2, description: 'certificate is populated with an issued certificate by the signer after an Approved condition is present. This field is set via the /status subresource. Once populated, this field is immutable.\n\nIf the certificate signing request is denied, a condition of type "Denied" is added and this field remains empty. If the signer cannot issue the certificate, a condition of type "Failed" is added and this field remains empty.\n\nValidation requirements:\n 1. certificate must contain one or more PEM blocks.\n 2. All PEM blocks must have the "CERTIFICATE" label, contain no headers, and the encoded data\n  must be a BER-encoded ASN.1 Certificate structure as described in section 4 of RFC5280.\n 3. Non-PEM content may appear before or after the "CERTIFICATE" PEM blocks and is unvalidated,\n  to allow for explanatory text as described in section 5.2 of RFC7468.\n\nIf more than one PEM block is present, and the definition of the requested spec.signerName does not indicate otherwise, the first block is the issued certificate, and subsequent blocks should be treated as intermediate certificates and presented in TLS handshakes.\n\nThe certificate is encoded in PEM format.\n\nWhen serialized as JSON or YAML, the data is additionally base64-encoded, so it consists of:\n\n    base64(\n    -----BEGIN CERTIFICATE-----\n    ...\n    -----END CERTIFICATE-----\n    )' }),
}, { proto: 3, ref: 'certificates.v1.CertificateSigningRequestStatus', description: 'CertificateSigningRequestStatus contains conditions used to indicate approved/denied/failed status of the request, and the issued certificate.' });

export const CertificateSigningRequestSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: { ...CertificateSigningRequestSpec, description: 'spec contains the certificate request, and is immutable after creation. Only the request, signerName, expirationSeconds, and usages fields can be set on creation. Other fields are derived by the API server and cannot be modified by users.' },
  status: { ...CertificateSigningRequestStatus, description: 'status contains information about whether the request is approved or denied, and the certificate issued by the signer, or the failure condition indicating signer failure.' },
}, { ref: 'certificates.v1.CertificateSigningRequest', description: 'CertificateSigningRequest objects provide a mechanism to obtain x509 certificates by submitting a certificate signing request, and having it asynchronously approved and issued.\n\nNode agents use this API to obtain:\n 1. client certificates to authenticate to the API server (with the "platform.io/apiserver-client-nodeagent" signerName).\n 2. serving certificates for TLS endpoints the API server can connect to securely (with the "platform.io/nodeagent-serving" signerName).\n\nThis API can be used to request client certificates to authenticate to the API server (with the "platform.io/apiserver-client" signerName), or to obtain certificates from custom signers.' });

/** The requesting user, recorded in the spec; anything the client wrote there is replaced. */
function recordRequester(obj: ApiObject, ctx: RequestContext): void {
  const spec = (obj.spec ??= {}) as CsrSpec;
  delete spec.username; delete spec.uid; delete spec.groups; delete spec.extra;
  const user = ctx.user;
  if (user.username) spec.username = user.username;
  if (user.uid) spec.uid = user.uid;
  if (user.groups?.length) spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length) spec.extra = structuredClone(user.extra);
}

/** Copies over the stored instances of `types` when the write kept their number (the path does not own them). */
function preserveConditions(obj: ApiObject, old: ApiObject, owned: (type: string) => boolean): void {
  const next = conditionsOf(obj);
  const before = conditionsOf(old);
  const types = new Set([...next, ...before].map((c) => c?.type ?? '').filter((t) => !owned(t)));
  for (const t of types) {
    const at = next.flatMap((c, i) => (c?.type === t ? [i] : []));
    const was = before.filter((c) => c?.type === t);
    if (at.length !== was.length) continue;
    at.forEach((i, k) => { next[i] = structuredClone(was[k]!); });
  }
}

/** Fills missing condition times: now, or the stored transition time while type and status are unchanged. */
function populateConditionTimestamps(obj: ApiObject, old: ApiObject): void {
  const now = nowRfc3339();
  for (const c of conditionsOf(obj)) {
    if (!c) continue;
    if (!c.lastUpdateTime) c.lastUpdateTime = now;
    if (!c.lastTransitionTime) {
      const same = conditionsOf(old).find((o) => o?.type === c.type && o?.status === c.status && o?.lastTransitionTime);
      c.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
  }
}

const isApproval = (t: string) => t === APPROVED || t === DENIED;

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  switch (ctx.subresource) {
    case 'status':
      obj.spec = structuredClone(old.spec);
      preserveConditions(obj, old, (t) => !isApproval(t));
      populateConditionTimestamps(obj, old);
      return;
    case 'approval': {
      obj.spec = structuredClone(old.spec);
      const status = (obj.status ??= {}) as { certificate?: string };
      const certificate = statusOf(old).certificate;
      if (certificate === undefined) delete status.certificate; else status.certificate = certificate;
      preserveConditions(obj, old, isApproval);
      populateConditionTimestamps(obj, old);
      return;
    }
    default:
      // The request is fixed at creation and only the sub-resources write the status: a write of the main
      // resource changes metadata alone, whatever its body says (as Kubernetes' strategy has it).
      obj.spec = structuredClone(old.spec);
      obj.status = structuredClone(old.status);
  }
}

function validateUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext) {
  const opts = validationOptions(obj, old);
  if (ctx.subresource === 'status') return csrUpdateErrors(obj, old, { ...opts, allowSettingCertificate: true });
  if (ctx.subresource === 'approval') return [...csrUpdateErrors(obj, old, { ...opts, allowSettingApprovalConditions: true }), ...approvalOnlyErrors(obj, old)];
  return csrUpdateErrors(obj, old, opts);
}

/** Pending, Approved or Denied, then Failed and Issued, as kubectl shows the request's state. */
export function conditionText(obj: ApiObject): string {
  const types = new Set(conditionsOf(obj).map((c: Condition) => c?.type));
  let text = types.has(DENIED) ? 'Denied' : types.has(APPROVED) ? 'Approved' : 'Pending';
  if (types.has(FAILED)) text += ',Failed';
  if (statusOf(obj).certificate) text += ',Issued';
  return text;
}

export const certificateSigningRequestKind: KindDefinition = {
  group: GROUP,
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  namespaced: false,
  shortNames: ['csr'],
  versions: [{ name: 'v1', stability: 'stable', schema: CertificateSigningRequestSchema }],
  storageVersion: 'v1',
  status: { variants: ['approval'] },
  // Any name will do for a request.
  nameValidation: () => [],
  trackGeneration: false,

  defaults(obj) {
    // Go always writes the spec and status structs.
    obj.spec ??= {};
    obj.status ??= {};
  },
  prepareForCreate(obj, ctx) {
    recordRequester(obj, ctx);
    // Nobody creates a request already approved or issued.
    obj.status = {};
  },
  prepareForUpdate,
  validate: (obj) => csrErrors(obj, validationOptions(obj, undefined)),
  validateUpdate,

  fieldSelectors: { 'spec.signerName': (o) => specOf(o).signerName ?? '' },
  tableColumns: [
    nameColumn,
    ageColumn,
    { name: 'SignerName', type: 'string', description: SIGNER_NAME_DESCRIPTION, cell: (o) => specOf(o).signerName || '<none>' },
    { name: 'Requestor', type: 'string', description: REQUEST_DESCRIPTION, cell: (o) => specOf(o).username ?? '' },
    {
      name: 'RequestedDuration', type: 'string', description: EXPIRATION_DESCRIPTION,
      cell: (o) => (typeof specOf(o).expirationSeconds === 'number' ? humanDuration(specOf(o).expirationSeconds! * 1000) : '<none>'),
    },
    { name: 'Condition', type: 'string', description: CONDITIONS_DESCRIPTION, cell: conditionText },
  ],
};
