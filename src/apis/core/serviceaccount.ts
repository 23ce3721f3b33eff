// ServiceAccount (core v1): an identity for processes in pods, with the secrets they may use.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, ObjectReference, LocalObjectReference } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from './schema-helpers.ts';
import { tokenRequestView } from '../authentication/tokenrequest.ts';

/** Deprecated since v1.32: restricts pods to the account's listed secrets when "true". */
export const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = 'platform.io/enforce-mountable-secrets';

const SECRETS_DESCRIPTION = 'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "platform.io/enforce-mountable-secrets" annotation set to "true". The "platform.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://platform.io/docs/concepts/configuration/secret';

export const ServiceAccountSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  secrets: S.list(ObjectReference, { proto: 2, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: SECRETS_DESCRIPTION }),
  imagePullSecrets: S.list(LocalObjectReference, { proto: 3, listType: 'atomic', description: 'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount. ImagePullSecrets are distinct from Secrets because Secrets can be mounted in the pod, but ImagePullSecrets are only accessed by the node agent. More info: https://platform.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod' }),
  automountServiceAccountToken: S.bool({ proto: 4, description: 'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted. Can be overridden at the pod level.' }),
}, { ref: 'core.v1.ServiceAccount', description: 'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets' });

/** Secret references keep only their name: namespace, uid and the rest are meaningless here. */
function cleanSecretReferences(obj: ApiObject): void {
  if (!Array.isArray(obj.secrets)) return;
  obj.secrets = obj.secrets.map((ref: { name?: unknown } | null) => {
    const name = ref && typeof ref === 'object' ? ref.name : undefined;
    return name === undefined ? {} : { name };
  });
}

function warnOnEnforceMountableSecrets(obj: ApiObject, old: ApiObject | undefined, warnings: string[]): void {
  // Only a request that newly sets the annotation hears about it.
  if (old?.metadata.annotations && Object.hasOwn(old.metadata.annotations, ENFORCE_MOUNTABLE_SECRETS_ANNOTATION)) return;
  if (obj.metadata.annotations && Object.hasOwn(obj.metadata.annotations, ENFORCE_MOUNTABLE_SECRETS_ANNOTATION)) {
    warnings.push(`metadata.annotations[${ENFORCE_MOUNTABLE_SECRETS_ANNOTATION}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`);
  }
}

export const serviceAccountKind: KindDefinition = {
  group: '',
  kind: 'ServiceAccount',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  versions: [{ name: 'v1', stability: 'stable', schema: ServiceAccountSchema }],
  storageVersion: 'v1',
  trackGeneration: false,
  deleteReturnsObject: true,
  // POST serviceaccounts/{name}/token issues a TokenRequest (served by access control, src/auth).
  views: [tokenRequestView],

  prepareForCreate: (obj) => cleanSecretReferences(obj),
  prepareForUpdate: (obj) => cleanSecretReferences(obj),
  // Only ObjectMeta is validated, and the registry does that; the hooks add the deprecation warning.
  validate(obj, ctx) {
    warnOnEnforceMountableSecrets(obj, undefined, ctx.warnings);
    return [];
  },
  validateUpdate(obj, old, ctx) {
    warnOnEnforceMountableSecrets(obj, old, ctx.warnings);
    return [];
  },

  tableColumns: [
    nameColumn,
    { name: 'Secrets', type: 'string', description: SECRETS_DESCRIPTION, cell: (o) => (Array.isArray(o.secrets) ? o.secrets.length : 0) },
    ageColumn,
  ],
};
