// StatefulSet (apps/v1, namespaced): pods with stable names, hostnames and storage. Defaults as Kubernetes
// sets them (1 replica, OrderedReady, RollingUpdate from partition 0, 10 revisions, claims retained, the pod
// template's and the claim templates' defaults); once created, only replicas, ordinals, template,
// updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds may change; status through
// /status and replicas through the `scale` sub-resource. As in Kubernetes v1.32, the pod template is checked
// for its selector, labels and annotations only, and the claim templates not at all.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { podTemplateAnnotationErrors } from '../core/pod-validation.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, required, forbidden, notSupported, invalid } from '../../machinery/field-errors.ts';
import { validateLabels, validateAnnotations } from '../../machinery/validation/objectmeta.ts';
import { labelSelectorFromObject } from '../../machinery/labels.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { errorWithGoValue, goQuote, goStruct, goPointer } from '../../machinery/go-format.ts';
import { featureGates } from '../../config/feature-gates.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import { PodTemplateSpec } from '../core/pod-schema.ts';
import { fillGoZeroValues } from '../core/go-zero.ts';
import { templateMetadata } from '../core/pod-defaults.ts';
import { PersistentVolumeClaimSchema, defaultClaimSpec } from '../core/persistentvolumeclaim.ts';
import { canonicalizeResourceList } from '../core/resource-quantity.ts';
import { hasInvalidDeletionCost } from '../core/pod-annotations.ts';
import { claimSpecWarnings, podTemplateWarnings } from '../core/pod-warnings.ts';
import { scaleSubresource } from '../autoscaling/scale.ts';
import { warnWhenValid } from '../warnings.ts';
import {
  defaultTemplate, dropDisabledTemplateFields, canonicalizeTemplate, selectorErrors, nonNegative, collisionCountErrors, containerCells,
  goStringMap, goLabelSelector, goIntOrString, intOrPercentValue, positiveIntOrPercentErrors, notMoreThan100PercentErrors,
} from './workload.ts';
import { GROUP } from './deployment.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

export const POD_MANAGEMENT_POLICIES = ['OrderedReady', 'Parallel'];
export const RETENTION_POLICIES = ['Retain', 'Delete'];

/** What an update may change in the spec; anything else is refused with IMMUTABLE_SPEC_MESSAGE. */
const MUTABLE_SPEC_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];
const IMMUTABLE_SPEC_MESSAGE = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/** MaxUnavailableStatefulSet: alpha, off by default, in v1.32. */
export function maxUnavailableEnabled(): boolean {
  return featureGates.enabled('MaxUnavailableStatefulSet');
}

const REPLICAS_DESCRIPTION = 'replicas is the desired number of replicas of the given Template. These are replicas in the sense that they are instantiations of the same Template, but individual replicas also have a consistent identity. If unspecified, defaults to 1.';
const RETENTION_DELETED_DESCRIPTION = 'WhenDeleted specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is deleted. The default policy of `Retain` causes PVCs to not be affected by StatefulSet deletion. The `Delete` policy causes those PVCs to be deleted.';
const RETENTION_SCALED_DESCRIPTION = 'WhenScaled specifies what happens to PVCs created from StatefulSet VolumeClaimTemplates when the StatefulSet is scaled down. The default policy of `Retain` causes PVCs to not be affected by a scaledown. The `Delete` policy causes the associated PVCs for any excess pods above the replica count to be deleted.';

const RollingUpdateStatefulSetStrategy = S.object({
  partition: S.int32({ proto: 1, description: 'Partition indicates the ordinal at which the StatefulSet should be partitioned for updates. During a rolling update, all pods from ordinal Replicas-1 to Partition are updated. All pods from ordinal Partition-1 to 0 remain untouched. This is helpful in being able to do a canary based deployment. The default value is 0.' }),
  maxUnavailable: S.intOrString({ proto: 2, description: 'The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding up. This can not be 0. Defaults to 1. This field is alpha-level and is only honored by servers that enable the MaxUnavailableStatefulSet feature. The field applies to all pods in the range 0 to Replicas-1. That means if there is any unavailable pod in the range 0 to Replicas-1, it will be counted towards MaxUnavailable.' }),
}, { ref: 'apps.v1.RollingUpdateStatefulSetStrategy', description: 'RollingUpdateStatefulSetStrategy is used to communicate parameter for RollingUpdateStatefulSetStrategyType.' });

const StatefulSetUpdateStrategy = S.object({
  type: S.string({ proto: 1, description: 'Type indicates the type of the StatefulSetUpdateStrategy. Default is RollingUpdate.' }),
  rollingUpdate: described(RollingUpdateStatefulSetStrategy, 2, 'RollingUpdate is used to communicate parameters when Type is RollingUpdateStatefulSetStrategyType.'),
}, { ref: 'apps.v1.StatefulSetUpdateStrategy', description: 'StatefulSetUpdateStrategy indicates the strategy that the StatefulSet controller will use to perform updates. It includes any additional parameters necessary to perform the update for the indicated strategy.' });

const StatefulSetPersistentVolumeClaimRetentionPolicy = S.object({
  whenDeleted: S.string({ proto: 1, description: RETENTION_DELETED_DESCRIPTION }),
  whenScaled: S.string({ proto: 2, description: RETENTION_SCALED_DESCRIPTION }),
}, { ref: 'apps.v1.StatefulSetPersistentVolumeClaimRetentionPolicy', description: 'StatefulSetPersistentVolumeClaimRetentionPolicy describes the policy used for PVCs created from the StatefulSet VolumeClaimTemplates.' });

const StatefulSetOrdinals = S.object({
  start: S.int32({ proto: 1, description: 'start is the number representing the first replica\'s index. It may be used to number replicas from an alternate index (eg: 1-indexed) over the default 0-indexed names, or to orchestrate progressive movement of replicas from one StatefulSet to another. If set, replica indices will be in the range:\n  [.spec.ordinals.start, .spec.ordinals.start + .spec.replicas).\nIf unset, defaults to 0. Replica indices will be in the range:\n  [0, .spec.replicas).' }),
}, { ref: 'apps.v1.StatefulSetOrdinals', description: 'StatefulSetOrdinals describes the policy used for replica ordinal assignment in this StatefulSet.' });

const StatefulSetCondition = S.object({
  type: S.string({ proto: 1, description: 'Type of statefulset condition.' }),
  status: S.string({ proto: 2, description: 'Status of the condition, one of True, False, Unknown.' }),
  lastTransitionTime: S.time({ proto: 3, description: 'Last time the condition transitioned from one status to another.' }),
  reason: S.string({ proto: 4, description: "The reason for the condition's last transition." }),
  message: S.string({ proto: 5, description: 'A human readable message indicating details about the transition.' }),
}, { required: ['type', 'status'], ref: 'apps.v1.StatefulSetCondition', description: 'StatefulSetCondition describes the state of a statefulset at a certain point.' });

const StatefulSetSpec = S.object({
  replicas: S.int32({ proto: 1, description: REPLICAS_DESCRIPTION }),
  selector: described(LabelSelector, 2, "selector is a label query over pods that should match the replica count. It must match the pod template's labels. More info: https://platform.io/docs/concepts/overview/working-with-objects/labels/#label-selectors"),
  template: described(PodTemplateSpec, 3, 'template is the object that describes the pod that will be created if insufficient replicas are detected. Each pod stamped out by the StatefulSet will fulfill this Template, but have a unique identity from the rest of the StatefulSet. Each pod will be named with the format <statefulsetname>-<podindex>. For example, a pod in a StatefulSet named "web" with index number "3" would be named "web-3". The only allowed template.spec.restartPolicy value is "Always".'),
  volumeClaimTemplates: S.list(PersistentVolumeClaimSchema, { proto: 4, listType: 'atomic', description: 'volumeClaimTemplates is a list of claims that pods are allowed to reference. The StatefulSet controller is responsible for mapping network identities to claims in a way that maintains the identity of a pod. Every claim in this list must have at least one matching (by name) volumeMount in one container in the template. A claim in this list takes precedence over any volumes in the template, with the same name.' }),
  serviceName: S.string({ proto: 5, description: 'serviceName is the name of the service that governs this StatefulSet. This service must exist before the StatefulSet, and is responsible for the network identity of the set. Pods get DNS/hostnames that follow the pattern: pod-specific-string.serviceName.default.svc.cluster.local where "pod-specific-string" is managed by the StatefulSet controller.' }),
  podManagementPolicy: S.string({ proto: 6, description: 'podManagementPolicy controls how pods are created during initial scale up, when replacing pods on nodes, or when scaling down. The default policy is `OrderedReady`, where pods are created in increasing order (pod-0, then pod-1, etc) and the controller will wait until each pod is ready before continuing. When scaling down, the pods are removed in the opposite order. The alternative policy is `Parallel` which will create pods in parallel to match the desired scale without waiting, and on scale down will delete all pods at once.' }),
  updateStrategy: described(StatefulSetUpdateStrategy, 7, 'updateStrategy indicates the StatefulSetUpdateStrategy that will be employed to update Pods in the StatefulSet when a revision is made to Template.'),
  revisionHistoryLimit: S.int32({ proto: 8, description: "revisionHistoryLimit is the maximum number of revisions that will be maintained in the StatefulSet's revision history. The revision history consists of all revisions not represented by a currently applied StatefulSetSpec version. The default value is 10." }),
  minReadySeconds: S.int32({ proto: 9, description: 'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)' }),
  persistentVolumeClaimRetentionPolicy: described(StatefulSetPersistentVolumeClaimRetentionPolicy, 10, 'persistentVolumeClaimRetentionPolicy describes the lifecycle of persistent volume claims created from volumeClaimTemplates. By default, all persistent volume claims are created as needed and retained until manually deleted. This policy allows the lifecycle to be altered, for example by deleting persistent volume claims when their stateful set is deleted, or when their pod is scaled down.'),
  ordinals: described(StatefulSetOrdinals, 11, 'ordinals controls the numbering of replica indices in a StatefulSet. The default ordinals behavior assigns a "0" index to the first replica and increments the index by one for each additional replica requested.'),
}, { required: ['selector', 'template', 'serviceName'], ref: 'apps.v1.StatefulSetSpec', description: 'A StatefulSetSpec is the specification of a StatefulSet.' });

const StatefulSetStatus = S.object({
  observedGeneration: S.int64({ proto: 1, description: "observedGeneration is the most recent generation observed for this StatefulSet. It corresponds to the StatefulSet's generation, which is updated on mutation by the API Server." }),
  replicas: S.int32({ proto: 2, description: 'replicas is the number of Pods created by the StatefulSet controller.' }),
  readyReplicas: S.int32({ proto: 3, description: 'readyReplicas is the number of pods created for this StatefulSet with a Ready Condition.' }),
  currentReplicas: S.int32({ proto: 4, description: 'currentReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by currentRevision.' }),
  updatedReplicas: S.int32({ proto: 5, description: 'updatedReplicas is the number of Pods created by the StatefulSet controller from the StatefulSet version indicated by updateRevision.' }),
  currentRevision: S.string({ proto: 6, description: 'currentRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [0,currentReplicas).' }),
  updateRevision: S.string({ proto: 7, description: 'updateRevision, if not empty, indicates the version of the StatefulSet used to generate Pods in the sequence [replicas-updatedReplicas,replicas)' }),
  collisionCount: S.int32({ proto: 9, description: 'collisionCount is the count of hash collisions for the StatefulSet. The StatefulSet controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ControllerRevision.' }),
  conditions: S.list(StatefulSetCondition, { proto: 10, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "Represents the latest available observations of a statefulset's current state." }),
  availableReplicas: S.int32({ proto: 11, description: 'Total number of available pods (ready for at least minReadySeconds) targeted by this statefulset.' }),
}, { required: ['replicas'], ref: 'apps.v1.StatefulSetStatus', description: 'StatefulSetStatus represents the current state of a StatefulSet.' });

export const StatefulSetSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: described(StatefulSetSpec, 2, 'Spec defines the desired identities of pods in this set.'),
  status: described(StatefulSetStatus, 3, 'Status is the current status of Pods in this StatefulSet. This data may be out of date by some window of time.'),
}, { ref: 'apps.v1.StatefulSet', description: 'StatefulSet represents a set of pods with consistent identities. Identities are defined as:\n  - Network: A single stable DNS and hostname.\n  - Storage: As many VolumeClaims as requested.\n\nThe StatefulSet guarantees that a given network identity will always map to the same storage identity.' });

const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;
const statusOf = (o: ApiObject) => (o.status ?? {}) as Obj;

/** A claim template as Kubernetes keeps it: a PersistentVolumeClaim with its defaults, its quantities canonical. */
function claimTemplate(given: Obj): Obj {
  // The conversion to apps/v1 names every claim template's type, whatever the client sent.
  const { apiVersion: _apiVersion, kind: _kind, ...rest } = given;
  const claim: Obj = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', ...rest };
  templateMetadata(claim);
  const spec = isObj(claim.spec) ? claim.spec : (claim.spec = {});
  defaultClaimSpec(spec);
  canonicalizeResourceList(spec.resources?.requests);
  canonicalizeResourceList(spec.resources?.limits);
  const status = isObj(claim.status) ? claim.status : (claim.status = {});
  status.phase ||= 'Pending';
  return claim;
}

/** SetDefaults_StatefulSet, the pod template's and the claim templates' defaults. */
export function defaultStatefulSet(obj: ApiObject, maxUnavailableGate = maxUnavailableEnabled()): void {
  const spec = (obj.spec ??= {}) as Obj;
  spec.podManagementPolicy ||= 'OrderedReady';
  const strategy = isObj(spec.updateStrategy) ? spec.updateStrategy : (spec.updateStrategy = {});
  if (!strategy.type) {
    strategy.type = 'RollingUpdate';
    if (!isObj(strategy.rollingUpdate)) strategy.rollingUpdate = {};
  }
  // An explicit RollingUpdate without parameters stays without them.
  if (strategy.type === 'RollingUpdate' && isObj(strategy.rollingUpdate)) {
    strategy.rollingUpdate.partition ??= 0;
    if (maxUnavailableGate) strategy.rollingUpdate.maxUnavailable ??= 1;
  }
  const retention = isObj(spec.persistentVolumeClaimRetentionPolicy) ? spec.persistentVolumeClaimRetentionPolicy : (spec.persistentVolumeClaimRetentionPolicy = {});
  retention.whenDeleted ||= 'Retain';
  retention.whenScaled ||= 'Retain';
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  // Non-pointer fields Go always writes: the service name, an ordinals' start.
  spec.serviceName ??= '';
  if (isObj(spec.ordinals)) spec.ordinals.start ??= 0;
  defaultTemplate(spec);
  // Quantities are canonical from the start, as Kubernetes parses them: a spec that only writes one
  // differently is no change.
  canonicalizeTemplate(spec);
  // Kubernetes v1.32 does not check the pod spec of the template: what it lacks reads as Go's zero values.
  fillGoZeroValues(spec.template, PodTemplateSpec);
  if (Array.isArray(spec.volumeClaimTemplates)) spec.volumeClaimTemplates = spec.volumeClaimTemplates.map((c: unknown) => (isObj(c) ? claimTemplate(c) : c));
  const status = (obj.status ??= {}) as Obj;
  status.replicas ??= 0;
  status.availableReplicas ??= 0;
}

/** dropStatefulSetDisabledFields: maxUnavailable needs its gate, unless the stored object already uses it. */
export function dropDisabledFields(spec: Obj, old: Obj | undefined, maxUnavailableGate = maxUnavailableEnabled()): void {
  const usedBefore = old?.updateStrategy?.rollingUpdate?.maxUnavailable !== undefined && old?.updateStrategy?.rollingUpdate?.maxUnavailable !== null;
  if (!maxUnavailableGate && !usedBefore && isObj(spec.updateStrategy?.rollingUpdate)) delete spec.updateStrategy.rollingUpdate.maxUnavailable;
  dropDisabledTemplateFields(spec, old);
}

/** The internal RollingUpdateStatefulSetStrategy as `%#v` shows it. */
function goRollingUpdate(ru: Obj): string {
  const maxUnavailable = ru.maxUnavailable !== undefined && ru.maxUnavailable !== null;
  return goStruct('apps.RollingUpdateStatefulSetStrategy', [['Partition', String(typeof ru.partition === 'number' ? ru.partition : 0)], ['MaxUnavailable', goPointer('intstr.IntOrString', maxUnavailable)]]);
}

/** validateRollingUpdateStatefulSet: a partition not below 0, and a maxUnavailable that is valid and not 0. */
function rollingUpdateErrors(ru: Obj, path: string): FieldError[] {
  const errs = nonNegative(ru, ['partition'], path);
  const maxUnavailable = ru.maxUnavailable;
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const at = `${path}.maxUnavailable`;
    errs.push(...positiveIntOrPercentErrors(maxUnavailable, at));
    if (intOrPercentValue(maxUnavailable) === 0) errs.push(errorWithGoValue('FieldValueInvalid', at, maxUnavailable, goIntOrString(maxUnavailable), 'cannot be 0'));
    errs.push(...notMoreThan100PercentErrors(maxUnavailable, at));
  }
  return errs;
}

function updateStrategyErrors(strategy: Obj): FieldError[] {
  const path = 'spec.updateStrategy';
  const ru = strategy.rollingUpdate;
  switch (strategy.type) {
    case undefined: case null: case '':
      return [required(path)];
    case 'OnDelete':
      return isObj(ru) ? [errorWithGoValue('FieldValueInvalid', `${path}.rollingUpdate`, ru, goRollingUpdate(ru), "only allowed for updateStrategy 'RollingUpdate'")] : [];
    case 'RollingUpdate':
      return isObj(ru) ? rollingUpdateErrors(ru, `${path}.rollingUpdate`) : [];
    default: {
      const rendered = goStruct('apps.StatefulSetUpdateStrategy', [['Type', goQuote(String(strategy.type))], ['RollingUpdate', goPointer('apps.RollingUpdateStatefulSetStrategy', isObj(ru))]]);
      return [errorWithGoValue('FieldValueInvalid', path, strategy, rendered, "must be 'RollingUpdate' or 'OnDelete'")];
    }
  }
}

function retentionPolicyErrors(policy: unknown): FieldError[] {
  if (!isObj(policy)) return [];
  const path = 'spec.persistentVolumeClaimRetentionPolicy';
  return (['whenDeleted', 'whenScaled'] as const)
    .filter((f) => !RETENTION_POLICIES.includes(policy[f]))
    .map((f) => notSupported(`${path}.${f}`, policy[f] ?? '', RETENTION_POLICIES));
}

/** ValidatePodTemplateSpecForStatefulSet: the selector's match, the labels and the annotations (not the pod spec). */
function templateErrors(spec: Obj, allowInvalidDeletionCost: boolean): FieldError[] {
  let selector;
  try {
    selector = labelSelectorFromObject(isObj(spec.selector) ? spec.selector : null);
  } catch {
    // Kubernetes reports a selector it cannot build without a detail, and leaves the template unchecked.
    return [errorWithGoValue('FieldValueInvalid', 'spec.selector', spec.selector, goLabelSelector(spec.selector))];
  }
  const tpl = isObj(spec.template) ? spec.template : {};
  const meta = isObj(tpl.metadata) ? tpl.metadata : {};
  const errs: FieldError[] = [];
  if (!selector.empty && !selector.matches(meta.labels ?? {})) {
    errs.push(errorWithGoValue('FieldValueInvalid', 'spec.template.metadata.labels', meta.labels, goStringMap(meta.labels), '`selector` does not match template `labels`'));
  }
  errs.push(...validateLabels(meta.labels, 'spec.template.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'spec.template.annotations'));
  errs.push(...podTemplateAnnotationErrors(tpl, 'spec.template', allowInvalidDeletionCost));
  return errs;
}

/** ValidateStatefulSetSpec. */
function specErrors(obj: ApiObject, allowInvalidDeletionCost: boolean): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (!policy) errs.push(required('spec.podManagementPolicy'));
  else if (!POD_MANAGEMENT_POLICIES.includes(policy)) errs.push(invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...updateStrategyErrors(isObj(spec.updateStrategy) ? spec.updateStrategy : {}));
  errs.push(...retentionPolicyErrors(spec.persistentVolumeClaimRetentionPolicy));
  errs.push(...nonNegative(spec, ['replicas', 'minReadySeconds'], 'spec'));
  // Kubernetes names the path as one child: `spec.ordinals.start`.
  if (isObj(spec.ordinals)) errs.push(...nonNegative(spec.ordinals, ['start'], 'spec.ordinals'));
  errs.push(...selectorErrors(spec, 'statefulset'));
  errs.push(...templateErrors(spec, allowInvalidDeletionCost));
  const tplSpec = spec.template?.spec;
  const restart = tplSpec?.restartPolicy;
  if (restart !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restart ?? '', ['Always']));
  if (typeof tplSpec?.activeDeadlineSeconds === 'number') errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  return errs;
}

/** The spec without what an update may change. */
function fixedPart(spec: Obj): Obj {
  return Object.fromEntries(Object.entries(spec).filter(([k]) => !MUTABLE_SPEC_FIELDS.includes(k)));
}

function immutableSpecErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  return deepEqual(fixedPart(specOf(obj)), fixedPart(specOf(old))) ? [] : [forbidden('spec', IMMUTABLE_SPEC_MESSAGE)];
}

/** ValidateStatefulSetStatusUpdate: no negative count, no count above status.replicas, a collision count that never goes down. */
function statusErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const status = statusOf(obj);
  const errs = nonNegative(status, ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas', 'observedGeneration', 'collisionCount'], 'status');
  const replicas = status.replicas ?? 0;
  for (const f of ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas']) {
    if ((status[f] ?? 0) > replicas) errs.push(invalid(`status.${f}`, status[f], 'cannot be greater than status.replicas'));
  }
  if ((status.availableReplicas ?? 0) > (status.readyReplicas ?? 0)) errs.push(invalid('status.availableReplicas', status.availableReplicas, 'cannot be greater than status.readyReplicas'));
  return [...errs, ...collisionCountErrors(status, statusOf(old))];
}

/** pvcutil.GetWarningsForPersistentVolumeClaimSpec of each claim template; Kubernetes' update path names their spec `Spec`. */
function claimTemplateWarnings(obj: ApiObject, specSegment: string): string[] {
  return list(specOf(obj).volumeClaimTemplates).flatMap((claim, i) => claimSpecWarnings(claim.spec, `spec.volumeClaimTemplates[${i}]${specSegment}`));
}

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  if (ctx.subresource !== 'status') dropDisabledFields(specOf(obj), specOf(old));
}

export const statefulSetKind: KindDefinition = {
  group: GROUP,
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  namespaced: true,
  shortNames: ['sts'],
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: StatefulSetSchema }],
  storageVersion: 'v1',
  status: {},
  views: [scaleSubresource(GROUP, 'statefulsets')],
  // Pods take their hostname from the StatefulSet's name.
  nameValidation: 'dns-label',

  defaults: (obj) => defaultStatefulSet(obj),
  prepareForCreate(obj) {
    obj.status = { replicas: 0, availableReplicas: 0 };
    dropDisabledFields(specOf(obj), undefined);
  },
  prepareForUpdate,
  validate: (obj, ctx) => warnWhenValid(specErrors(obj, false), ctx, () => [
    ...podTemplateWarnings(specOf(obj).template, 'spec.template'),
    ...claimTemplateWarnings(obj, ''),
  ]),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return statusErrors(obj, old);
    const errs = [...specErrors(obj, hasInvalidDeletionCost(specOf(old).template?.metadata?.annotations)), ...immutableSpecErrors(obj, old)];
    return warnWhenValid(errs, ctx, () => [
      ...(obj.metadata.generation !== old.metadata.generation ? podTemplateWarnings(specOf(obj).template, 'spec.template') : []),
      ...claimTemplateWarnings(obj, '.Spec'),
    ]);
  },

  tableColumns: [
    nameColumn,
    { name: 'Ready', type: 'string', description: 'Number of the pod with ready state', cell: (o) => `${statusOf(o).readyReplicas ?? 0}/${specOf(o).replicas ?? 0}` },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o).names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o).images },
  ],
};
