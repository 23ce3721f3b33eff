// Deployment (apps/v1, namespaced): declarative updates of pods through ReplicaSets. Defaults as Kubernetes
// sets them (1 replica, RollingUpdate 25%/25%, 10 revisions, 600s progress deadline, the pod template's
// defaults); the selector must match the template and cannot change; status through /status; replicas
// through the `scale` sub-resource (autoscaling/v1 Scale).
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, forbidden } from '../../machinery/field-errors.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import { errorWithGoValue, goQuote, goStruct, goPointer } from '../../machinery/go-format.ts';
import { PodTemplateSpec } from '../core/pod-schema.ts';
import { scaleSubresource } from '../autoscaling/scale.ts';
import {
  defaultTemplate, dropDisabledTemplateFields, canonicalizeTemplate, selectorErrors, templateForReplicaSetErrors,
  selectorImmutableErrors, nonNegative, replicaCountErrors, containerCells, selectorCell, goIntOrString, intOrPercentValue,
  positiveIntOrPercentErrors, notMoreThan100PercentErrors, collisionCountErrors,
} from './workload.ts';
import { workloadCreateWarnings, workloadUpdateWarnings } from '../core/pod-warnings.ts';
import { warnWhenValid } from '../warnings.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export const GROUP = 'apps';
export const STRATEGY_TYPES = ['Recreate', 'RollingUpdate'];

const SELECTOR_DESCRIPTION = "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment. It must match the pod template's labels.";

const DeploymentStrategy = S.object({
  type: S.string({ proto: 1, description: 'Type of deployment. Can be "Recreate" or "RollingUpdate". Default is RollingUpdate.' }),
  rollingUpdate: S.object({
    maxUnavailable: S.intOrString({ proto: 1, description: 'The maximum number of pods that can be unavailable during the update. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). Absolute number is calculated from percentage by rounding down. This can not be 0 if MaxSurge is 0. Defaults to 25%. Example: when this is set to 30%, the old ReplicaSet can be scaled down to 70% of desired pods immediately when the rolling update starts. Once new pods are ready, old ReplicaSet can be scaled down further, followed by scaling up the new ReplicaSet, ensuring that the total number of pods available at all times during the update is at least 70% of desired pods.' }),
    maxSurge: S.intOrString({ proto: 2, description: 'The maximum number of pods that can be scheduled above the desired number of pods. Value can be an absolute number (ex: 5) or a percentage of desired pods (ex: 10%). This can not be 0 if MaxUnavailable is 0. Absolute number is calculated from percentage by rounding up. Defaults to 25%. Example: when this is set to 30%, the new ReplicaSet can be scaled up immediately when the rolling update starts, such that the total number of old and new pods do not exceed 130% of desired pods. Once old pods have been killed, new ReplicaSet can be scaled up further, ensuring that total number of pods running at any time during the update is at most 130% of desired pods.' }),
  }, { proto: 2, ref: 'apps.v1.RollingUpdateDeployment', description: 'Spec to control the desired behavior of rolling update.' }),
}, { ref: 'apps.v1.DeploymentStrategy', description: 'DeploymentStrategy describes how to replace existing pods with new ones.' });

const DeploymentCondition = S.object({
  type: S.string({ proto: 1, description: 'Type of deployment condition.' }),
  status: S.string({ proto: 2, description: 'Status of the condition, one of True, False, Unknown.' }),
  lastUpdateTime: S.time({ proto: 6, description: 'The last time this condition was updated.' }),
  lastTransitionTime: S.time({ proto: 7, description: 'Last time the condition transitioned from one status to another.' }),
  reason: S.string({ proto: 4, description: "The reason for the condition's last transition." }),
  message: S.string({ proto: 5, description: 'A human readable message indicating details about the transition.' }),
}, { required: ['type', 'status'], ref: 'apps.v1.DeploymentCondition', description: 'DeploymentCondition describes the state of a deployment at a certain point.' });

const UPDATED_DESCRIPTION = 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.';
const AVAILABLE_DESCRIPTION = 'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.';

export const DeploymentSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    replicas: S.int32({ proto: 1, description: 'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.' }),
    selector: described(LabelSelector, 2, SELECTOR_DESCRIPTION),
    template: described(PodTemplateSpec, 3, 'Template describes the pods that will be created. The only allowed template.spec.restartPolicy value is "Always".'),
    strategy: described(DeploymentStrategy, 4, 'The deployment strategy to use to replace existing pods with new ones.', { 'x-platform-patch-strategy': 'retainKeys' }),
    minReadySeconds: S.int32({ proto: 5, description: 'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)' }),
    revisionHistoryLimit: S.int32({ proto: 6, description: 'The number of old ReplicaSets to retain to allow rollback. This is a pointer to distinguish between explicit zero and not specified. Defaults to 10.' }),
    paused: S.bool({ proto: 7, description: 'Indicates that the deployment is paused.' }),
    progressDeadlineSeconds: S.int32({ proto: 9, description: 'The maximum time in seconds for a deployment to make progress before it is considered to be failed. The deployment controller will continue to process failed deployments and a condition with a ProgressDeadlineExceeded reason will be surfaced in the deployment status. Note that progress will not be estimated during the time a deployment is paused. Defaults to 600s.' }),
  }, { proto: 2, required: ['selector', 'template'], ref: 'apps.v1.DeploymentSpec', description: 'DeploymentSpec is the specification of the desired behavior of the Deployment.' }),
  status: S.object({
    observedGeneration: S.int64({ proto: 1, description: 'The generation observed by the deployment controller.' }),
    replicas: S.int32({ proto: 2, description: 'Total number of non-terminating pods targeted by this deployment (their labels match the selector).' }),
    updatedReplicas: S.int32({ proto: 3, description: UPDATED_DESCRIPTION }),
    readyReplicas: S.int32({ proto: 7, description: 'Total number of non-terminating pods targeted by this Deployment with a Ready Condition.' }),
    availableReplicas: S.int32({ proto: 4, description: AVAILABLE_DESCRIPTION }),
    unavailableReplicas: S.int32({ proto: 5, description: 'Total number of unavailable pods targeted by this deployment. This is the total number of pods that are still required for the deployment to have 100% available capacity. They may either be pods that are running but not yet available or pods that still have not been created.' }),
    conditions: S.list(DeploymentCondition, { proto: 6, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "Represents the latest available observations of a deployment's current state." }),
    collisionCount: S.int32({ proto: 8, description: 'Count of hash collisions for the Deployment. The Deployment controller uses this field as a collision avoidance mechanism when it needs to create the name for the newest ReplicaSet.' }),
  }, { proto: 3, ref: 'apps.v1.DeploymentStatus', description: 'DeploymentStatus is the most recently observed status of the Deployment.' }),
}, { ref: 'apps.v1.Deployment', description: 'Deployment enables declarative updates for Pods and ReplicaSets.' });

const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;
const statusOf = (o: ApiObject) => (o.status ?? {}) as Obj;

/** SetDefaults_Deployment, then the pod template's defaults. */
function defaultDeployment(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  spec.replicas ??= 1;
  const strategy = isObj(spec.strategy) ? spec.strategy : (spec.strategy = {});
  strategy.type ||= 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(spec);
  obj.status ??= {};
}

function strategyErrors(strategy: Obj): FieldError[] {
  const path = 'spec.strategy';
  switch (strategy.type) {
    case 'Recreate':
      return strategy.rollingUpdate ? [forbidden(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      const ru = strategy.rollingUpdate;
      if (!isObj(ru)) return [required(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
      const errs = [
        ...positiveIntOrPercentErrors(ru.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`),
        ...positiveIntOrPercentErrors(ru.maxSurge, `${path}.rollingUpdate.maxSurge`),
      ];
      if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
        errs.push(errorWithGoValue('FieldValueInvalid', `${path}.rollingUpdate.maxUnavailable`, ru.maxUnavailable, goIntOrString(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...notMoreThan100PercentErrors(ru.maxUnavailable, `${path}.rollingUpdate.maxUnavailable`));
      return errs;
    }
    default: {
      const rendered = goStruct('apps.DeploymentStrategy', [['Type', goQuote(String(strategy.type ?? ''))], ['RollingUpdate', goPointer('apps.RollingUpdateDeployment', isObj(strategy.rollingUpdate))]]);
      return [errorWithGoValue('FieldValueNotSupported', path, strategy, rendered, 'supported values: "Recreate", "RollingUpdate"')];
    }
  }
}

/** ValidateDeploymentSpec. */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs = [...nonNegative(spec, ['replicas'], 'spec'), ...selectorErrors(spec), ...templateForReplicaSetErrors(spec)];
  errs.push(...strategyErrors(isObj(spec.strategy) ? spec.strategy : {}));
  errs.push(...nonNegative(spec, ['minReadySeconds', 'revisionHistoryLimit'], 'spec'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative(spec, ['progressDeadlineSeconds'], 'spec'));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) errs.push(invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** ValidateDeploymentStatus (and that the collision count never goes down). */
function statusErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const status = statusOf(obj);
  const errs = [
    ...nonNegative(status, ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas', 'collisionCount'], 'status'),
    ...replicaCountErrors(status, ['updatedReplicas', 'readyReplicas', 'availableReplicas']),
  ];
  return [...errs, ...collisionCountErrors(status, statusOf(old))];
}

function prepareForUpdate(obj: ApiObject, old: ApiObject, ctx: RequestContext): void {
  if (ctx.subresource === 'status') return;
  dropDisabledTemplateFields(specOf(obj), specOf(old));
  // Annotations are copied to the ReplicaSets: changing them is a new generation too.
  if (!deepEqual(obj.metadata.annotations ?? {}, old.metadata.annotations ?? {})) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
}

export const deploymentKind: KindDefinition = {
  group: GROUP,
  kind: 'Deployment',
  plural: 'deployments',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: DeploymentSchema }],
  storageVersion: 'v1',
  status: {},
  views: [scaleSubresource(GROUP, 'deployments')],

  defaults: defaultDeployment,
  prepareForCreate(obj) {
    obj.status = {};
    dropDisabledTemplateFields(specOf(obj), undefined);
  },
  prepareForUpdate,
  validate: (obj, ctx) => warnWhenValid(specErrors(obj), ctx, () => workloadCreateWarnings(obj)),
  validateUpdate(obj, old, ctx) {
    if (ctx.subresource === 'status') return statusErrors(obj, old);
    return warnWhenValid([...specErrors(obj), ...selectorImmutableErrors(obj, old)], ctx, () => workloadUpdateWarnings(obj, old));
  },
  canonicalize: (obj) => canonicalizeTemplate(specOf(obj)),

  tableColumns: [
    nameColumn,
    { name: 'Ready', type: 'string', description: 'Number of the pod with ready state', cell: (o) => `${statusOf(o).readyReplicas ?? 0}/${specOf(o).replicas ?? 0}` },
    { name: 'Up-to-date', type: 'string', description: UPDATED_DESCRIPTION, cell: (o) => statusOf(o).updatedReplicas ?? 0 },
    { name: 'Available', type: 'string', description: AVAILABLE_DESCRIPTION, cell: (o) => statusOf(o).availableReplicas ?? 0 },
    ageColumn,
    { name: 'Containers', type: 'string', priority: 1, description: 'Names of each container in the template.', cell: (o) => containerCells(o).names },
    { name: 'Images', type: 'string', priority: 1, description: 'Images referenced by each container in the template.', cell: (o) => containerCells(o).images },
    { name: 'Selector', type: 'string', priority: 1, description: SELECTOR_DESCRIPTION, cell: selectorCell },
  ],
};
