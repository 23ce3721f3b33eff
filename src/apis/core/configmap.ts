// ConfigMap (core v1): configuration data for pods, as text (`data`) or bytes (`binaryData`).
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, tooLong, key as keyPath } from '../../machinery/field-errors.ts';
import { withProto } from './schema-helpers.ts';
import { MAX_SECRET_SIZE, asStringMap, keyErrors, binaryMapSize, stringMapSize, canonicalizeBinaryMap, immutableErrors } from './keyed-data.ts';

const DATA_DESCRIPTION = "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";

export const ConfigMapSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  immutable: S.bool({ proto: 4, description: 'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated (only object metadata can be modified). If not set to true, the field can be modified at any time. Defaulted to nil.' }),
  data: S.map(S.string(), { proto: 2, description: DATA_DESCRIPTION }),
  binaryData: S.map(S.bytes(), { proto: 3, description: "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process." }),
}, { ref: 'core.v1.ConfigMap', description: 'ConfigMap holds configuration data for pods to consume.' });

function validateConfigMap(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const data = asStringMap(obj.data);
  const binary = asStringMap(obj.binaryData);
  for (const k of Object.keys(data ?? {})) {
    errs.push(...keyErrors('data', k));
    if (binary && Object.hasOwn(binary, k)) errs.push(invalid(keyPath('data', k), k, 'duplicate of key present in binaryData'));
  }
  for (const k of Object.keys(binary ?? {})) errs.push(...keyErrors('binaryData', k));
  const total = stringMapSize(data) + binaryMapSize('binaryData', binary, errs);
  // Kubernetes reports the size on the root path, which prints as "[]".
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('[]', '', MAX_SECRET_SIZE));
  return errs;
}

export const configMapKind: KindDefinition = {
  group: '',
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  namespaced: true,
  shortNames: ['cm'],
  versions: [{ name: 'v1', stability: 'stable', schema: ConfigMapSchema }],
  storageVersion: 'v1',
  trackGeneration: false,

  validate: (obj) => validateConfigMap(obj),
  validateUpdate: (obj, old) => [
    ...immutableErrors(obj, old, [['data', false], ['binaryData', true]]),
    ...validateConfigMap(obj),
  ],
  canonicalize: (obj) => canonicalizeBinaryMap(asStringMap(obj.binaryData)),

  tableColumns: [
    nameColumn,
    { name: 'Data', type: 'string', description: DATA_DESCRIPTION, cell: (o) => Object.keys(asStringMap(o.data) ?? {}).length + Object.keys(asStringMap(o.binaryData) ?? {}).length },
    ageColumn,
  ],
};
