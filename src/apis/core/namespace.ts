// Namespace (core v1, cluster-scoped): a scope for names. Created Active with the `kubernetes` finalizer;
// spec.finalizers changes only through the `finalize` sub-resource, status only through `status`.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, index } from '../../machinery/field-errors.ts';
import { isQualifiedName } from '../../machinery/validation/strings.ts';
import { withProto } from './schema-helpers.ts';

/** The finalizer the namespace controller removes once the namespace's content is gone. */
export const FINALIZER_KUBERNETES = 'kubernetes';
/** Every namespace carries its own name in this label. */
export const LABEL_METADATA_NAME = 'platform.io/metadata.name';

const STANDARD_FINALIZERS = new Set([FINALIZER_KUBERNETES, 'orphan', 'foregroundDeletion']);

export const NamespaceCondition = S.object({
  type: S.string({ proto: 1, description: 'Type of namespace controller condition.' }),
  status: S.string({ proto: 2, description: 'Status of the condition, one of True, False, Unknown.' }),
  lastTransitionTime: S.time({ proto: 4, description: 'Last time the condition transitioned from one status to another.' }),
  reason: S.string({ proto: 5, description: 'Unique, one-word, CamelCase reason for the condition\'s last transition.' }),
  message: S.string({ proto: 6, description: 'Human-readable message indicating details about last transition.' }),
}, { ref: 'core.v1.NamespaceCondition', description: 'NamespaceCondition contains details about state of namespace.' });

export const NamespaceSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    finalizers: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'Finalizers is an opaque list of values that must be empty to permanently remove object from storage. More info: https://platform.io/docs/tasks/administer-cluster/namespaces/' }),
  }, { proto: 2, ref: 'core.v1.NamespaceSpec', description: 'NamespaceSpec describes the attributes on a Namespace.' }),
  status: S.object({
    phase: S.string({ proto: 1, description: 'Phase is the current lifecycle phase of the namespace. More info: https://platform.io/docs/tasks/administer-cluster/namespaces/' }),
    conditions: S.list(NamespaceCondition, { proto: 2, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "Represents the latest available observations of a namespace's current state." }),
  }, { proto: 3, ref: 'core.v1.NamespaceStatus', description: 'NamespaceStatus is information about the current status of a Namespace.' }),
}, { ref: 'core.v1.Namespace', description: 'Namespace provides a scope for Names. Use of multiple namespaces is optional.' });

interface NamespaceSpec { finalizers?: string[] }
interface NamespaceStatus { phase?: string; conditions?: unknown[] }

const specOf = (o: ApiObject) => (o.spec ?? {}) as NamespaceSpec;
const statusOf = (o: ApiObject) => (o.status ?? {}) as NamespaceStatus;

/** A finalizer is a qualified name; without a domain prefix it must be one of the standard ones. */
function finalizerNameErrors(value: string, path: string): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => invalid(path, value, msg));
  if (!value.includes('/') && !STANDARD_FINALIZERS.has(value)) {
    errs.push(invalid(path, value, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

function setNameLabel(obj: ApiObject): void {
  const name = obj.metadata?.name;
  if (!name) return;
  obj.metadata.labels = { ...obj.metadata.labels, [LABEL_METADATA_NAME]: name };
}

function validateStatusUpdate(obj: ApiObject): FieldError[] {
  // The field path is written "status.Phase" in Kubernetes.
  const phase = statusOf(obj).phase ?? '';
  if (!obj.metadata.deletionTimestamp) {
    if (phase !== 'Active') return [invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  } else if (phase !== 'Terminating') {
    return [invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  }
  return [];
}

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  const oldStatus = structuredClone(old.status);
  switch (ctx.subresource) {
    case 'status':
      obj.spec = structuredClone(old.spec);
      return;
    case 'finalize':
      obj.status = oldStatus;
      return;
    default: {
      // Finalizers are owned by the finalize sub-resource and status by the status sub-resource.
      const spec: NamespaceSpec = { ...specOf(obj) };
      const oldFinalizers = specOf(old).finalizers;
      if (oldFinalizers) spec.finalizers = structuredClone(oldFinalizers); else delete spec.finalizers;
      obj.spec = spec;
      obj.status = oldStatus;
    }
  }
}

export const namespaceKind: KindDefinition = {
  group: '',
  kind: 'Namespace',
  plural: 'namespaces',
  singular: 'namespace',
  namespaced: false,
  shortNames: ['ns'],
  versions: [{ name: 'v1', stability: 'stable', schema: NamespaceSchema }],
  storageVersion: 'v1',
  status: {},
  views: [{
    name: 'finalize',
    group: '',
    version: 'v1',
    kind: 'Namespace',
    verbs: ['update'],
    // A PUT of the whole Namespace whose spec.finalizers (and metadata) are taken; status stays as stored.
    update(stored, view) {
      const next = structuredClone(view);
      next.status = structuredClone(stored.status);
      return next;
    },
  }],
  nameValidation: 'dns-label',
  trackGeneration: false,
  noDeleteCollection: true,

  defaults(obj) {
    // Go always serializes spec and status; a namespace without a phase is Active.
    obj.spec ??= {};
    const status = (obj.status ??= {}) as NamespaceStatus;
    if (!status.phase) status.phase = 'Active';
    setNameLabel(obj);
  },
  prepareForCreate(obj) {
    obj.status = { phase: 'Active' };
    const spec = specOf(obj);
    const finalizers = Array.isArray(spec.finalizers) ? spec.finalizers : [];
    if (!finalizers.includes(FINALIZER_KUBERNETES)) finalizers.push(FINALIZER_KUBERNETES);
    obj.spec = { ...spec, finalizers };
  },
  prepareForUpdate,
  validate(obj) {
    const errs: FieldError[] = [];
    for (const f of specOf(obj).finalizers ?? []) errs.push(...finalizerNameErrors(f, 'spec.finalizers'));
    return errs;
  },
  validateUpdate(obj, _old, ctx) {
    if (ctx.subresource === 'status') return validateStatusUpdate(obj);
    if (ctx.subresource === 'finalize') {
      const errs: FieldError[] = [];
      (specOf(obj).finalizers ?? []).forEach((f, i) => errs.push(...finalizerNameErrors(f, index('spec.finalizers', i))));
      return errs;
    }
    return [];
  },
  // A name chosen by generateName is known only now; the label must follow it.
  canonicalize: setNameLabel,
  // Deleting marks the namespace Terminating; it goes once its content is gone and spec.finalizers empty.
  deletionBlocked: (obj) => (specOf(obj).finalizers ?? []).length > 0,
  prepareForDelete(obj) {
    obj.status = { ...statusOf(obj), phase: 'Terminating' };
  },

  fieldSelectors: { 'status.phase': (o) => statusOf(o).phase ?? '' },
  tableColumns: [
    nameColumn,
    { name: 'Status', type: 'string', description: 'The status of the namespace', cell: (o) => statusOf(o).phase ?? '' },
    ageColumn,
  ],
};
