// Secret (core v1): small amounts of sensitive data. `stringData` is a write-only convenience merged into
// `data` on every write and never stored; `type` selects per-type key requirements and cannot change.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, tooLong, immutable, key as keyPath } from '../../machinery/field-errors.ts';
import { withProto } from './schema-helpers.ts';
import { MAX_SECRET_SIZE, asStringMap, keyErrors, binaryMapSize, canonicalizeBinaryMap, immutableErrors, decodeBase64 } from './keyed-data.ts';
import { goJsonObjectError } from '../../machinery/go-json.ts';
import { x509KeyPairError } from './tls-key-pair.ts';

export const SecretTypes = {
  opaque: 'Opaque',
  serviceAccountToken: 'platform.io/service-account-token',
  dockercfg: 'platform.io/dockercfg',
  dockerConfigJson: 'platform.io/dockerconfigjson',
  basicAuth: 'platform.io/basic-auth',
  sshAuth: 'platform.io/ssh-auth',
  tls: 'platform.io/tls',
  bootstrapToken: 'bootstrap.platform.io/token',
} as const;

/** Well-known keys and annotations of the typed secrets. */
export const SecretKeys = {
  serviceAccountName: 'platform.io/service-account.name',
  serviceAccountUid: 'platform.io/service-account.uid',
  token: 'token',
  caCert: 'ca.crt',
  namespace: 'namespace',
  dockercfg: '.dockercfg',
  dockerConfigJson: '.dockerconfigjson',
  basicAuthUsername: 'username',
  basicAuthPassword: 'password',
  sshPrivateKey: 'ssh-privatekey',
  tlsCert: 'tls.crt',
  tlsKey: 'tls.key',
} as const;

const REDACTED = '<secret contents redacted>';

const DATA_DESCRIPTION = "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4";
const TYPE_DESCRIPTION = 'Used to facilitate programmatic handling of secret data. More info: https://platform.io/docs/concepts/configuration/secret/#secret-types';

export const SecretSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  immutable: S.bool({ proto: 5, description: 'Immutable, if set to true, ensures that data stored in the Secret cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.' }),
  data: S.map(S.bytes(), { proto: 2, description: DATA_DESCRIPTION }),
  stringData: S.map(S.string(), { proto: 4, description: 'stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.' }),
  type: S.string({ proto: 3, default: SecretTypes.opaque, description: TYPE_DESCRIPTION }),
}, { ref: 'core.v1.Secret', description: 'Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.' });

/** Decoded bytes of one data value, when present and decodable. */
function dataBytes(data: Record<string, string> | undefined, k: string): Uint8Array | undefined {
  if (!data || !Object.hasOwn(data, k)) return undefined;
  const r = decodeBase64(data[k]);
  return 'bytes' in r ? r.bytes : new Uint8Array();
}

/** Merges stringData into data (stringData wins) and drops it: it is never stored. */
function mergeStringData(obj: ApiObject): void {
  const stringData = asStringMap(obj.stringData);
  if (stringData && Object.keys(stringData).length > 0) {
    const data = asStringMap(obj.data) ?? {};
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(String(v), 'utf8').toString('base64');
    obj.data = data;
  }
  delete obj.stringData;
}

function typeErrors(obj: ApiObject, data: Record<string, string> | undefined): FieldError[] {
  const has = (k: string) => !!data && Object.hasOwn(data, k);
  const errs: FieldError[] = [];
  switch (obj.type) {
    case SecretTypes.serviceAccountToken: {
      // The token controller fills in the uid annotation and the token later; only the account name is needed.
      if (!obj.metadata.annotations?.[SecretKeys.serviceAccountName]) {
        errs.push(required(keyPath('metadata.annotations', SecretKeys.serviceAccountName), ''));
      }
      break;
    }
    case SecretTypes.dockercfg:
    case SecretTypes.dockerConfigJson: {
      const k = obj.type === SecretTypes.dockercfg ? SecretKeys.dockercfg : SecretKeys.dockerConfigJson;
      if (!has(k)) { errs.push(required(keyPath('data', k), '')); break; }
      const problem = goJsonObjectError(dataBytes(data, k)!);
      if (problem) errs.push(invalid(keyPath('data', k), REDACTED, problem));
      break;
    }
    case SecretTypes.basicAuth:
      // Either may be empty, but one of them must be there.
      if (!has(SecretKeys.basicAuthUsername) && !has(SecretKeys.basicAuthPassword)) {
        errs.push(required(keyPath('data', SecretKeys.basicAuthUsername), ''), required(keyPath('data', SecretKeys.basicAuthPassword), ''));
      }
      break;
    case SecretTypes.sshAuth:
      if (!dataBytes(data, SecretKeys.sshPrivateKey)?.length) errs.push(required(keyPath('data', SecretKeys.sshPrivateKey), ''));
      break;
    case SecretTypes.tls:
      if (!has(SecretKeys.tlsCert)) errs.push(required(keyPath('data', SecretKeys.tlsCert), ''));
      if (!has(SecretKeys.tlsKey)) errs.push(required(keyPath('data', SecretKeys.tlsKey), ''));
      break;
    default:
      // Opaque, bootstrap tokens and custom types have no required keys.
      break;
  }
  return errs;
}

function validateSecret(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = asStringMap(obj.data);
  for (const k of Object.keys(data ?? {})) errs.push(...keyErrors('data', k));
  if (binaryMapSize('data', data, errs) > MAX_SECRET_SIZE) errs.push(tooLong('data', '', MAX_SECRET_SIZE));
  errs.push(...typeErrors(obj, data));
  return errs;
}

/** A TLS secret whose certificate and key do not pair is accepted with a warning. */
function warn(obj: ApiObject, ctx: { warnings: string[] }): void {
  if (obj.type !== SecretTypes.tls) return;
  const data = asStringMap(obj.data);
  const problem = x509KeyPairError(dataBytes(data, SecretKeys.tlsCert) ?? new Uint8Array(), dataBytes(data, SecretKeys.tlsKey) ?? new Uint8Array());
  if (problem) ctx.warnings.push(problem);
}

export const secretKind: KindDefinition = {
  group: '',
  kind: 'Secret',
  plural: 'secrets',
  singular: 'secret',
  namespaced: true,
  versions: [{ name: 'v1', stability: 'stable', schema: SecretSchema }],
  storageVersion: 'v1',
  trackGeneration: false,

  // Kubernetes merges stringData while decoding the request (converting to its internal form), so
  // defaulting, field ownership and admission all see the merged data and never stringData.
  defaults(obj) {
    mergeStringData(obj);
    if (!obj.type) obj.type = SecretTypes.opaque;
  },
  prepareForUpdate(obj, old) {
    if (!obj.type) obj.type = old.type;
  },
  validate(obj, ctx) {
    const errs = validateSecret(obj);
    if (errs.length === 0) warn(obj, ctx);
    return errs;
  },
  validateUpdate(obj, old, ctx) {
    const errs: FieldError[] = [];
    if (obj.type !== old.type) errs.push(immutable('type', obj.type ?? ''));
    // stringData was merged into data before validation, so only data is compared.
    errs.push(...immutableErrors(obj, old, [['data', true]]), ...validateSecret(obj));
    if (errs.length === 0) warn(obj, ctx);
    return errs;
  },
  canonicalize: (obj) => canonicalizeBinaryMap(asStringMap(obj.data)),

  fieldSelectors: { type: (o) => String(o.type ?? '') },
  tableColumns: [
    nameColumn,
    { name: 'Type', type: 'string', description: TYPE_DESCRIPTION, cell: (o) => o.type ?? '' },
    { name: 'Data', type: 'string', description: DATA_DESCRIPTION, cell: (o) => Object.keys(asStringMap(o.data) ?? {}).length },
    ageColumn,
  ],
};

