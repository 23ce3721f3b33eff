// StorageVersionMigration (storagemigration.svc.io/v1alpha1, cluster-scoped, alpha): a request to rewrite
// every stored object of one resource in the current storage version. The resource never changes; the
// migrator reports progress through /status.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, createdAtColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, required, duplicate, notSupported, tooLong, index, child } from '../../machinery/field-errors.ts';
import { regexError, byteLength } from '../../machinery/validation/strings.ts';
import { validateLabelName } from '../../machinery/validation/objectmeta.ts';
import { goQuote } from '../../machinery/go-format.ts';

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

interface MigrationCondition extends Condition { lastUpdateTime?: string | null; reason?: string; message?: string }

const conditionOf = (o: ApiObject, type: string) => ((statusOf(o).conditions ?? []) as Condition[]).find((c) => c?.type === type);
const isTrue = (o: ApiObject, type: string) => conditionOf(o, type)?.status === 'True';

const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REASON_FORMAT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const REASON_MESSAGE = regexError("a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'", REASON_FORMAT, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB');
const MAX_REASON = 1024, MAX_MESSAGE = 32 * 1024;

/** The migration's own condition rules (it does not use metav1.Condition): a unique qualified type, a known
 *  status, an update time (reported at lastTransitionTime, as Kubernetes does), and a reason. */
function conditionErrors(conditions: MigrationCondition[]): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((raw, i) => {
    const c = raw ?? {}, at = index('status.conditions', i), type = c.type ?? '';
    if (seen.has(type)) errs.push(duplicate(child(at, 'type'), type));
    seen.add(type);
    errs.push(...validateLabelName(type, child(at, 'type')));
    if (!CONDITION_STATUSES.includes(c.status ?? '')) errs.push(notSupported(child(at, 'status'), c.status ?? '', CONDITION_STATUSES));
    if (!c.lastUpdateTime) errs.push(required(child(at, 'lastTransitionTime'), 'must be set'));
    const reason = c.reason ?? '';
    if (!reason) errs.push(required(child(at, 'reason'), 'must be set'));
    else {
      if (!new RegExp(`^${REASON_FORMAT}$`).test(reason)) errs.push(invalid(child(at, 'reason'), reason, REASON_MESSAGE));
      if (byteLength(reason) > MAX_REASON) errs.push(tooLong(child(at, 'reason'), reason, MAX_REASON));
    }
    if (byteLength(c.message ?? '') > MAX_MESSAGE) errs.push(tooLong(child(at, 'message'), c.message, MAX_MESSAGE));
  });
  return errs;
}

/** strconv.ParseInt(rv, 10, 64) as convertResourceVersionToInt uses it: the value, or Go's error text. */
function parseResourceVersion(rv: string): { value: bigint } | { error: string } {
  if (!rv) return { value: 0n };
  const syntax = `strconv.ParseInt: parsing ${goQuote(rv)}: `;
  if (!/^[+-]?\d+$/.test(rv)) return { error: syntax + 'invalid syntax' };
  const value = BigInt(rv);
  if (value > 2n ** 63n - 1n || value < -(2n ** 63n)) return { error: syntax + 'value out of range' };
  return { value };
}

/** ValidateStorageVersionMigrationStatusUpdate: a non-negative resourceVersion fixed once set, valid
 *  conditions, and consistent outcomes (a success or failure, once true, stays true). */
function statusErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const rv = statusOf(obj).resourceVersion ?? '';
  const parsed = parseResourceVersion(rv);
  if ('error' in parsed) errs.push(invalid('status.resourceVersion', rv, `failed to parse resource version ${goQuote(rv)}: ${parsed.error}`));
  else if (parsed.value < 0n) errs.push(invalid('status.resourceVersion', parsed.value, 'must be greater than or equal to 0'));
  const conditions = (statusOf(obj).conditions ?? []) as MigrationCondition[];
  errs.push(...conditionErrors(Array.isArray(conditions) ? conditions : []));
  const oldRv = statusOf(old).resourceVersion ?? '';
  if (oldRv && oldRv !== rv) errs.push(invalid('status.resourceVersion', rv, 'resourceVersion cannot be updated'));
  const succeeded = isTrue(obj, SUCCEEDED), failed = isTrue(obj, FAILED), running = isTrue(obj, RUNNING);
  if (succeeded && failed) errs.push(invalid('status.conditions', conditions, 'Both success and failed conditions cannot be true at the same time'));
  if (succeeded && running) errs.push(invalid('status.conditions', conditions, 'Running condition cannot be true when success condition is true'));
  if (failed && running) errs.push(invalid('status.conditions', conditions, 'Running condition cannot be true when failed condition is true'));
  if (isTrue(old, SUCCEEDED) && !succeeded) errs.push(invalid('status.conditions', conditions, 'Success condition cannot be set to false once it is true'));
  if (isTrue(old, FAILED) && !failed) errs.push(invalid('status.conditions', conditions, 'Failed condition cannot be set to false once it is true'));
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
  // Its strategy sets no generation, and it is updated only with the version read.
  trackGeneration: false,
  allowUnconditionalUpdate: false,

  prepareForCreate(obj) {
    obj.status = {};
  },
  validate,
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? statusErrors(obj, old) : [...validate(obj), ...updateErrors(obj, old)]),

  tableColumns: [nameColumn, createdAtColumn],
};
