// ReplicaSet (apps/v1, namespaced): keeps a number of pods matching its selector running. One replica by
// default, the pod template's defaults, a selector that matches the template and never changes; status
// through /status and replicas through the `scale` sub-resource.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, LabelSelector } from '../meta/v1.ts';
import { type FieldError } from '../../machinery/field-errors.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import { PodTemplateSpec } from '../core/pod-schema.ts';
import { scaleSubresource } from '../autoscaling/scale.ts';
import {
  defaultTemplate, selectorErrors, templateForReplicaSetErrors, selectorImmutableErrors, nonNegative, replicaSetStrategy,
  replicaSetColumns, replicaSetConditionSchema, selectorCell,
} from './workload.ts';
import { workloadUpdateWarnings } from '../core/pod-warnings.ts';
import { GROUP } from './deployment.ts';

type Obj = Record<string, any>;

const SELECTOR_DESCRIPTION = "Selector is a label query over pods that should match the replica count. Label keys and values that must match in order to be controlled by this replica set. It must match the pod template's labels. More info: https://platform.io/docs/concepts/overview/working-with-objects/labels/#label-selectors";
const DESIRED_DESCRIPTION = 'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://platform.io/docs/concepts/workloads/controllers/replicaset/#replicaset';
const CURRENT_DESCRIPTION = 'Replicas is the most recently observed number of non-terminating pods. More info: https://platform.io/docs/concepts/workloads/controllers/replicaset/#replicaset';
const READY_DESCRIPTION = 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.';

export const ReplicaSetSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    replicas: S.int32({ proto: 1, description: DESIRED_DESCRIPTION }),
    minReadySeconds: S.int32({ proto: 4, description: 'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)' }),
    selector: described(LabelSelector, 2, SELECTOR_DESCRIPTION),
    template: described(PodTemplateSpec, 3, 'Template is the object that describes the pod that will be created if insufficient replicas are detected. More info: https://platform.io/docs/concepts/workloads/controllers/replicaset/#pod-template'),
  }, { proto: 2, required: ['selector'], ref: 'apps.v1.ReplicaSetSpec', description: 'ReplicaSetSpec is the specification of a ReplicaSet.' }),
  status: S.object({
    replicas: S.int32({ proto: 1, description: CURRENT_DESCRIPTION }),
    fullyLabeledReplicas: S.int32({ proto: 2, description: 'The number of non-terminating pods that have labels matching the labels of the pod template of the replicaset.' }),
    readyReplicas: S.int32({ proto: 4, description: READY_DESCRIPTION }),
    availableReplicas: S.int32({ proto: 5, description: 'The number of available non-terminating pods (ready for at least minReadySeconds) for this replica set.' }),
    observedGeneration: S.int64({ proto: 3, description: 'ObservedGeneration reflects the generation of the most recently observed ReplicaSet.' }),
    conditions: S.list(replicaSetConditionSchema({ typeDescription: 'Type of replica set condition.', ref: 'apps.v1.ReplicaSetCondition', description: 'ReplicaSetCondition describes the state of a replica set at a certain point.' }), { proto: 6, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "Represents the latest available observations of a replica set's current state." }),
  }, { proto: 3, required: ['replicas'], ref: 'apps.v1.ReplicaSetStatus', description: 'ReplicaSetStatus represents the current status of a ReplicaSet.' }),
}, { ref: 'apps.v1.ReplicaSet', description: 'ReplicaSet ensures that a specified number of pod replicas are running at any given time.' });

const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;

function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  return [...nonNegative(spec, ['replicas', 'minReadySeconds'], 'spec'), ...selectorErrors(spec), ...templateForReplicaSetErrors(spec)];
}

export const replicaSetKind: KindDefinition = {
  group: GROUP,
  kind: 'ReplicaSet',
  plural: 'replicasets',
  singular: 'replicaset',
  namespaced: true,
  shortNames: ['rs'],
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: ReplicaSetSchema }],
  storageVersion: 'v1',
  status: {},
  views: [scaleSubresource(GROUP, 'replicasets')],

  defaults(obj) {
    const spec = (obj.spec ??= {}) as Obj;
    spec.replicas ??= 1;
    defaultTemplate(spec);
    // ReplicaSetStatus.replicas is always written.
    const status = (obj.status ??= {}) as Obj;
    status.replicas ??= 0;
  },
  ...replicaSetStrategy({ specErrors, updateErrors: selectorImmutableErrors, updateWarnings: workloadUpdateWarnings }),
  tableColumns: replicaSetColumns({ desired: DESIRED_DESCRIPTION, current: CURRENT_DESCRIPTION, ready: READY_DESCRIPTION, selector: SELECTOR_DESCRIPTION }, selectorCell),
};
