// ClusterTrustBundle (certificates.svc.io/v1alpha1, cluster-scoped, alpha): X.509 trust anchors, optionally
// tied to a signer, in which case the name starts with the signer name (slashes turned to colons).
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, tooLong } from '../../machinery/field-errors.ts';
import { nameIsDNSSubdomain, byteLength } from '../../machinery/validation/strings.ts';
import { signerNameErrors } from './signer-name.ts';
import { trustBundleProblems } from './x509-checks.ts';
import { GROUP } from './certificatesigningrequest.ts';

export const MAX_TRUST_BUNDLE_SIZE = 1024 * 1024;

const SIGNER_NAME_DESCRIPTION = 'signerName indicates the associated signer, if any.\n\nIn order to create or update a ClusterTrustBundle that sets signerName, you must have the following cluster-scoped permission: group=certificates.svc.io resource=signers resourceName=<the signer name> verb=attest.\n\nIf signerName is not empty, then the ClusterTrustBundle object must be named with the signer name as a prefix (translating slashes to colons). For example, for the signer name `example.com/foo`, valid ClusterTrustBundle object names include `example.com:foo:abc` and `example.com:foo:v1`.\n\nIf signerName is empty, then the ClusterTrustBundle object\'s name must not have such a prefix.\n\nList/watch requests for ClusterTrustBundles can filter on this field using a `spec.signerName=NAME` field selector.';

const ClusterTrustBundleSpec = S.object({
  signerName: S.string({ proto: 1, description: SIGNER_NAME_DESCRIPTION }),
  trustBundle: S.string({ proto: 2, default: '', description: 'trustBundle contains the individual X.509 trust anchors for this bundle, as PEM bundle of PEM-wrapped, DER-formatted X.509 certificates.\n\nThe data must consist only of PEM certificate blocks that parse as valid X.509 certificates.  Each certificate must include a basic constraints extension with the CA bit set.  The API server will reject objects that contain duplicate certificates, or that use PEM block headers.\n\nUsers of ClusterTrustBundles, including the node agent, are free to reorder and deduplicate certificate blocks in this file according to their own logic, as well as to drop PEM block headers and inter-block data.' }),
}, { ref: 'certificates.v1alpha1.ClusterTrustBundleSpec', description: 'ClusterTrustBundleSpec contains the signer and trust anchors.' });

export const ClusterTrustBundleSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: { ...withProto(ClusterTrustBundleSpec, 2), description: 'spec contains the signer (if any) and trust anchors.' },
}, { ref: 'certificates.v1alpha1.ClusterTrustBundle', description: 'ClusterTrustBundle is a cluster-scoped container for X.509 trust anchors (root certificates).\n\nClusterTrustBundle objects are considered to be readable by any authenticated user in the cluster, because they can be mounted by pods using the `clusterTrustBundle` projection.  All service accounts have read access to ClusterTrustBundles by default.  Users who only have namespace-level access to a cluster can read ClusterTrustBundles by impersonating a serviceaccount that they have access to.\n\nIt can be optionally associated with a particular assigner, in which case it contains one valid set of trust anchors for that signer. Signers may have multiple associated ClusterTrustBundles; each is an independent set of trust anchors for that signer. Admission control is used to enforce that only users with permissions on the signer can create or modify the corresponding bundle.' });

interface Spec { signerName?: string; trustBundle?: string }
const specOf = (o: ApiObject) => (o.spec ?? {}) as Spec;

/** ValidateClusterTrustBundleName: the name depends on the signer. */
export function bundleNameErrors(name: string, prefix: boolean, signerName: string): string[] {
  if (!signerName) {
    if (name.includes(':')) return ['ClusterTrustBundle without signer name must not have ":" in its name'];
    return nameIsDNSSubdomain(name, prefix);
  }
  const required = signerName.replaceAll('/', ':') + ':';
  if (!name.startsWith(required)) return [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`];
  return nameIsDNSSubdomain(name.slice(required.length), prefix);
}

function validateBundle(obj: ApiObject, parseBundle: boolean): FieldError[] {
  const spec = specOf(obj);
  const signer = spec.signerName ?? '';
  const errs: FieldError[] = [];
  const meta = obj.metadata ?? {};
  if (meta.generateName) for (const msg of bundleNameErrors(meta.generateName, true, signer)) errs.push(invalid('metadata.generateName', meta.generateName, msg));
  if (meta.name) for (const msg of bundleNameErrors(meta.name, false, signer)) errs.push(invalid('metadata.name', meta.name, msg));
  if (signer) errs.push(...signerNameErrors('spec.signerName', signer));
  if (parseBundle) {
    const bundle = spec.trustBundle ?? '';
    if (byteLength(bundle) > MAX_TRUST_BUNDLE_SIZE) errs.push(tooLong('spec.trustBundle', `<value omitted, len ${byteLength(bundle)}>`, MAX_TRUST_BUNDLE_SIZE));
    else for (const p of trustBundleProblems(bundle)) errs.push(invalid('spec.trustBundle', '<value omitted>', p));
  }
  return errs;
}

export const clusterTrustBundleKind: KindDefinition = {
  group: GROUP,
  kind: 'ClusterTrustBundle',
  plural: 'clustertrustbundles',
  singular: 'clustertrustbundle',
  namespaced: false,
  versions: [{ name: 'v1alpha1', stability: 'alpha', schema: ClusterTrustBundleSchema }],
  storageVersion: 'v1alpha1',
  // The name rule depends on spec.signerName, so validate() checks it.
  nameValidation: () => [],
  trackGeneration: false,

  defaults(obj) {
    obj.spec ??= {};
    (obj.spec as Spec).trustBundle ??= '';
  },
  validate: (obj) => validateBundle(obj, true),
  validateUpdate(obj, old) {
    // An unchanged bundle is not parsed again: stored objects stay writable across parser changes.
    const errs = validateBundle(obj, specOf(obj).trustBundle !== specOf(old).trustBundle);
    const signer = specOf(obj).signerName ?? '', oldSigner = specOf(old).signerName ?? '';
    if (signer !== oldSigner) errs.push(invalid('spec.signerName', signer, 'field is immutable'));
    return errs;
  },

  fieldSelectors: { 'spec.signerName': (o) => specOf(o).signerName ?? '' },
  tableColumns: [
    nameColumn,
    { name: 'SignerName', type: 'string', description: SIGNER_NAME_DESCRIPTION, cell: (o) => specOf(o).signerName || '<none>' },
  ],
};
