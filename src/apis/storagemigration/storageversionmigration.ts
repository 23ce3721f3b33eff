// StorageVersionMigration (storagemigration.svc.io/v1alpha1, cluster-scoped, alpha): a request to rewrite
// every stored object of one resource in the current storage version. The resource never changes; the
// migrator reports progress through /status.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, createdAtColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, required } from '../../machinery/field-errors.ts';

export const GROUP = 'storagemigration.svc.io';
export const SUCCEEDED = 'Succeeded', FAILED = 'Failed', RUNNING = 'Running';

const MigrationCondition = S.object({
  type: S.string({ proto: 1, default: '', description: 'Type of the condition.' }),
  status: S.string({ proto: 2, default: '', description: 'Status of the condition, one of True, False, Unknown.' }),
  lastUpdateTime: S.time({ proto: 3, description: 'The last time this condition was updated.' }),
  reason: S.string({ proto: 4, description: "The reason for the condition's last transition." }),
  message: S.string({ proto: 5, description: 'A human readable message indicating details about the transition.' }),
}, { ref: 'storagemigration.v1alpha1.MigrationCondition', description: 'Describes the state of a migration at a certain point.' });

export const StorageVersionMigrationSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    resource: S.object({
      group: S.string({ proto: 1, description: 'The name of the group.' }),
      version: S.string({ proto: 2, description: 'The name of the version.' }),
      resource: S.string({ proto: 3, description: 'The name of the resource.' }),
    }, { proto: 1, ref: 'storagemigration.v1alpha1.GroupVersionResource', description: 'The resource that is being migrated. The migrator sends requests to the endpoint serving the resource. Immutable.' }),
    continueToken: S.string({ proto: 2, description: 'The token used in the list options to get the next chunk of objects to migrate. When the .status.conditions indicates the migration is "Running", users can use this token to check the progress of the migration.' }),
  }, { proto: 2, ref: 'storagemigration.v1alpha1.StorageVersionMigrationSpec', description: 'Specification of the migration.' }),
  status: S.object({
    conditions: S.list(MigrationCondition, { proto: 1, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "The latest available observations of the migration's current state." }),
    resourceVersion: S.string({ proto: 2, description: 'ResourceVersion to compare with the GC cache for performing the migration. This is the current resource version of given group, version and resource when the controller manager first observes this StorageVersionMigration resource.' }),
  }, { proto: 3, ref: 'storagemigration.v1alpha1.StorageVersionMigrationStatus', description: 'Status of the migration.' }),
}, { ref: 'storagemigration.v1alpha1.StorageVersionMigration', description: 'StorageVersionMigration represents a migration of stored data to the latest storage version.' });

interface Gvr { group?: string; version?: string; resource?: string }
interface Condition { type?: string; status?: string }
const resourceOf = (o: ApiObject) => ((o.spec as { resource?: Gvr } | undefined)?.resource ?? {}) as Gvr;
const statusOf = (o: ApiObject) => (o.status ?? {}) as { conditions?: Condition[]; resourceVersion?: string };

function validate(obj: ApiObject): FieldError[] {
  const r = resourceOf(obj);
  const errs: FieldError[] = [];
  if (!r.resource) errs.push(required('spec.resource.resource', 'resource is required'));
  if (!r.version) errs.push(required('spec.resource.version', 'version is required'));
  return errs;
}

/** The resource being migrated never changes (Kubernetes names the fields without their spec path). */
function updateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const a = resourceOf(obj), b = resourceOf(old);
  const errs: FieldError[] = [];
  for (const f of ['group', 'version', 'resource'] as const) {
    if ((a[f] ?? '') !== (b[f] ?? '')) errs.push(invalid(f, a[f] ?? '', 'field is immutable'));
  }
  return errs;
}

const conditionOf = (o: ApiObject, type: string) => (statusOf(o).conditions ?? []).find((c) => c?.type === type);
const isTrue = (c: Condition | undefined) => c?.status === 'True';

/** ValidateStorageVersionMigrationStatusUpdate: a numeric resourceVersion and consistent conditions. */
function statusErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const rv = statusOf(obj).resourceVersion ?? '';
  if (rv && !/^[+-]?\d+$/.test(rv)) errs.push(invalid('status.resourceVersion', rv, `failed to parse resource version "${rv}": strconv.ParseInt: parsing "${rv}": invalid syntax`));
  else if (rv && BigInt(rv) < 0n) errs.push(invalid('status.resourceVersion', rv, 'resource version must be a non-negative integer'));
  const conditions = statusOf(obj).conditions ?? [];
  const succeeded = conditionOf(obj, SUCCEEDED), failed = conditionOf(obj, FAILED), running = conditionOf(obj, RUNNING);
  if (isTrue(succeeded) && isTrue(failed)) errs.push(invalid('status.conditions', conditions, 'Both success and failed conditions cannot be true at the same time'));
  if (isTrue(running)) {
    if (isTrue(succeeded)) errs.push(invalid('status.conditions', conditions, 'Running condition cannot be true when success condition is true'));
    if (isTrue(failed)) errs.push(invalid('status.conditions', conditions, 'Running condition cannot be true when failed condition is true'));
  }
  if (isTrue(conditionOf(old, SUCCEEDED)) && succeeded?.status === 'False') errs.push(invalid('status.conditions', conditions, 'Success condition cannot be set to false once it is true'));
  if (isTrue(conditionOf(old, FAILED)) && failed?.status === 'False') errs.push(invalid('status.conditions', conditions, 'Failure condition cannot be set to false once it is true'));
  return errs;
}

export const storageVersionMigrationKind: KindDefinition = {
  group: GROUP,
  kind: 'StorageVersionMigration',
  plural: 'storageversionmigrations',
  singular: 'storageversionmigration',
  namespaced: false,
  versions: [{ name: 'v1alpha1', stability: 'alpha', schema: StorageVersionMigrationSchema }],
  storageVersion: 'v1alpha1',
  status: {},
  trackGeneration: true,

  prepareForCreate(obj) {
    obj.status = {};
  },
  validate,
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? statusErrors(obj, old) : [...validate(obj), ...updateErrors(obj, old)]),

  tableColumns: [nameColumn, createdAtColumn],
};
