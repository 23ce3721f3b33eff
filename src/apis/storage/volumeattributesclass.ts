// VolumeAttributesClass (storage.svc.io/v1beta1, cluster-scoped, beta and not served by default in v1.32):
// mutable volume attributes a CSI driver applies, referenced by claims. Driver and parameters are fixed.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, forbidden } from '../../machinery/field-errors.ts';
import { GROUP, provisionerErrors, parametersErrors } from './common.ts';

const DRIVER_DESCRIPTION = 'Name of the CSI driver This field is immutable.';

export const VolumeAttributesClassSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  driverName: S.string({ proto: 2, default: '', description: DRIVER_DESCRIPTION }),
  parameters: S.map(S.string(), { proto: 3, description: 'parameters hold volume attributes defined by the CSI driver. These values are opaque to the API server and are passed directly to the CSI driver. The underlying storage provider supports changing these attributes on an existing volume, however the parameters field itself is immutable. To invoke a volume update, a new VolumeAttributesClass should be created with new parameters, and the PersistentVolumeClaim should be updated to reference the new VolumeAttributesClass.\n\nThis field is required and must contain at least one key/value pair. The keys cannot be empty, and the maximum number of parameters is 512, with a cumulative max size of 256K. If the CSI driver rejects invalid parameters, the target PersistentVolumeClaim will be set to an "Infeasible" state in the modifyVolumeStatus field.' }),
}, { ref: 'storage.v1beta1.VolumeAttributesClass', description: 'VolumeAttributesClass represents a specification of mutable volume attributes defined by the CSI driver. The class can be specified during dynamic provisioning of PersistentVolumeClaims, and changed in the PersistentVolumeClaim spec after provisioning.' });

interface Vac { driverName?: string; parameters?: Record<string, string> | null }
const vac = (o: ApiObject) => o as unknown as Vac;

const validate = (obj: ApiObject): FieldError[] => [...provisionerErrors(vac(obj).driverName ?? '', 'driverName'), ...parametersErrors(vac(obj).parameters, false, 'parameters')];

export const volumeAttributesClassKind: KindDefinition = {
  group: GROUP,
  kind: 'VolumeAttributesClass',
  plural: 'volumeattributesclasses',
  singular: 'volumeattributesclass',
  namespaced: false,
  shortNames: ['vac'],
  // Beta APIs added after 1.22 are off unless --runtime-config turns them on.
  versions: [{ name: 'v1beta1', stability: 'beta', servedByDefault: false, schema: VolumeAttributesClassSchema }],
  storageVersion: 'v1beta1',
  deleteReturnsObject: true,
  trackGeneration: false,

  validate,
  validateUpdate(obj, old) {
    const errs: FieldError[] = [];
    if ((vac(obj).driverName ?? '') !== (vac(old).driverName ?? '')) errs.push(forbidden('driverName', 'updates to driverName are forbidden.'));
    if (JSON.stringify(Object.entries(vac(obj).parameters ?? {}).sort()) !== JSON.stringify(Object.entries(vac(old).parameters ?? {}).sort())) {
      errs.push(forbidden('parameters', 'updates to parameters are forbidden.'));
    }
    return [...errs, ...validate(obj)];
  },

  tableColumns: [
    nameColumn,
    { name: 'DriverName', type: 'string', description: DRIVER_DESCRIPTION, cell: (o) => vac(o).driverName ?? '' },
    ageColumn,
  ],
};
