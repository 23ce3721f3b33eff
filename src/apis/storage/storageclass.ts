// StorageClass (storage.svc.io/v1, cluster-scoped): a class of storage a provisioner creates volumes for.
// Provisioner, parameters, reclaim policy and binding mode are fixed once created.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, forbidden, notSupported } from '../../machinery/field-errors.ts';
import { deprecatedNodeLabelMessage } from '../core/node-label-warnings.ts';
import { warnWhenValid } from '../warnings.ts';
import { GROUP, TopologySelectorTerm, provisionerErrors, parametersErrors, allowedTopologiesErrors } from './common.ts';

export const DEFAULT_CLASS_ANNOTATION = 'storageclass.platform.io/is-default-class';
export const BETA_DEFAULT_CLASS_ANNOTATION = 'storageclass.beta.platform.io/is-default-class';
const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];

const PROVISIONER_DESCRIPTION = 'provisioner indicates the type of the provisioner.';
const RECLAIM_DESCRIPTION = 'reclaimPolicy controls the reclaimPolicy for dynamically provisioned PersistentVolumes of this storage class. Defaults to Delete.';
const BINDING_DESCRIPTION = 'volumeBindingMode indicates how PersistentVolumeClaims should be provisioned and bound.  When unset, VolumeBindingImmediate is used. This field is only honored by servers that enable the VolumeScheduling feature.';
const EXPANSION_DESCRIPTION = 'allowVolumeExpansion shows whether the storage class allow volume expand.';

export const StorageClassSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  provisioner: S.string({ proto: 2, default: '', description: PROVISIONER_DESCRIPTION }),
  parameters: S.map(S.string(), { proto: 3, description: 'parameters holds the parameters for the provisioner that should create volumes of this storage class.' }),
  reclaimPolicy: S.string({ proto: 4, description: RECLAIM_DESCRIPTION }),
  mountOptions: S.list(S.string(), { proto: 5, listType: 'atomic', description: 'mountOptions controls the mountOptions for dynamically provisioned PersistentVolumes of this storage class. e.g. ["ro", "soft"]. Not validated - mount of the PVs will simply fail if one is invalid.' }),
  allowVolumeExpansion: S.bool({ proto: 6, description: EXPANSION_DESCRIPTION }),
  volumeBindingMode: S.string({ proto: 7, description: BINDING_DESCRIPTION }),
  allowedTopologies: S.list(TopologySelectorTerm, { proto: 8, listType: 'atomic', description: 'allowedTopologies restrict the node topologies where volumes can be dynamically provisioned. Each volume plugin defines its own supported topology specifications. An empty TopologySelectorTerm list means there is no topology restriction. This field is only honored by servers that enable the VolumeScheduling feature.' }),
}, { ref: 'storage.v1.StorageClass', description: 'StorageClass describes the parameters for a class of storage for which PersistentVolumes can be dynamically provisioned.\n\nStorageClasses are non-namespaced; the name of the storage class according to etcd is in ObjectMeta.Name.' });

interface Sc {
  provisioner?: string;
  parameters?: Record<string, string> | null;
  reclaimPolicy?: string | null;
  volumeBindingMode?: string | null;
  allowVolumeExpansion?: boolean | null;
  allowedTopologies?: { matchLabelExpressions?: { key?: string; values?: string[] }[] }[] | null;
}
const sc = (o: ApiObject) => o as unknown as Sc;

function validate(obj: ApiObject): FieldError[] {
  const s = sc(obj);
  const errs = [...provisionerErrors(s.provisioner ?? '', 'provisioner'), ...parametersErrors(s.parameters, true, 'parameters')];
  if (s.reclaimPolicy && !RECLAIM_POLICIES.includes(s.reclaimPolicy)) errs.push(notSupported('reclaimPolicy', s.reclaimPolicy, RECLAIM_POLICIES));
  if (s.volumeBindingMode !== undefined && s.volumeBindingMode !== null && !BINDING_MODES.includes(s.volumeBindingMode)) {
    errs.push(notSupported('volumeBindingMode', s.volumeBindingMode, BINDING_MODES));
  }
  errs.push(...allowedTopologiesErrors(s.allowedTopologies, 'allowedTopologies'));
  return errs;
}

function updateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const a = sc(obj), b = sc(old);
  const errs: FieldError[] = [];
  if (!sameMap(a.parameters, b.parameters)) errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
  if ((a.provisioner ?? '') !== (b.provisioner ?? '')) errs.push(forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if ((a.reclaimPolicy ?? '') !== (b.reclaimPolicy ?? '')) errs.push(forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if ((a.volumeBindingMode ?? null) !== (b.volumeBindingMode ?? null)) errs.push(invalid('volumeBindingMode', a.volumeBindingMode ?? null, 'field is immutable'));
  return errs;
}

function sameMap(a: Record<string, string> | null | undefined, b: Record<string, string> | null | undefined): boolean {
  const x = a ?? null, y = b ?? null;
  if (x === null || y === null) return x === y;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && x[k] === y[k]);
}

/** GetWarningsForStorageClass: deprecated node labels in the allowed topologies. */
export function storageClassWarnings(obj: ApiObject): string[] {
  const warnings: string[] = [];
  const terms = sc(obj).allowedTopologies;
  (Array.isArray(terms) ? terms : []).forEach((term, i) => {
    (term?.matchLabelExpressions ?? []).forEach((e, j) => {
      const note = deprecatedNodeLabelMessage(e?.key ?? '');
      if (note) warnings.push(`allowedTopologies[${i}].matchLabelExpressions[${j}].key: ${note}`);
    });
  });
  return warnings;
}

/** A class annotated default shows `(default)` after its name. */
export function isDefaultClass(obj: ApiObject): boolean {
  const a = obj.metadata.annotations ?? {};
  return a[DEFAULT_CLASS_ANNOTATION] === 'true' || a[BETA_DEFAULT_CLASS_ANNOTATION] === 'true';
}

export const storageClassKind: KindDefinition = {
  group: GROUP,
  kind: 'StorageClass',
  plural: 'storageclasses',
  singular: 'storageclass',
  namespaced: false,
  shortNames: ['sc'],
  versions: [{ name: 'v1', stability: 'stable', schema: StorageClassSchema }],
  storageVersion: 'v1',
  deleteReturnsObject: true,
  trackGeneration: false,

  defaults(obj) {
    const s = sc(obj);
    if (!s.reclaimPolicy) s.reclaimPolicy = 'Delete';
    s.volumeBindingMode ??= 'Immediate';
  },
  validate: (obj, ctx) => warnWhenValid(validate(obj), ctx, () => storageClassWarnings(obj)),
  validateUpdate: (obj, old, ctx) => warnWhenValid([...validate(obj), ...updateErrors(obj, old)], ctx, () => storageClassWarnings(obj)),

  tableColumns: [
    { ...nameColumn, cell: (o) => (o.metadata.name ?? '') + (isDefaultClass(o) ? ' (default)' : '') },
    { name: 'Provisioner', type: 'string', description: PROVISIONER_DESCRIPTION, cell: (o) => sc(o).provisioner ?? '' },
    { name: 'ReclaimPolicy', type: 'string', description: RECLAIM_DESCRIPTION, cell: (o) => sc(o).reclaimPolicy || 'Delete' },
    { name: 'VolumeBindingMode', type: 'string', description: BINDING_DESCRIPTION, cell: (o) => sc(o).volumeBindingMode ?? 'Immediate' },
    { name: 'AllowVolumeExpansion', type: 'string', description: EXPANSION_DESCRIPTION, cell: (o) => sc(o).allowVolumeExpansion ?? false },
    ageColumn,
  ],
};
