// ReplicationController (core/v1, namespaced): the ReplicaSet's predecessor, keeping a number of pods that
// match an equality-only selector (a map of labels) running. Its selector and labels default to the pod
// template's labels and its replicas to 1; the template is optional in the schema but required by validation;
// status through /status and replicas through the `scale` sub-resource (autoscaling/v1 Scale). No controller
// acts on it here: it is stored, served, scaled and garbage-collected.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { type FieldError, required, notFound } from '../../machinery/field-errors.ts';
import { errorWithGoValue } from '../../machinery/go-format.ts';
import { selectorFromSet } from '../../machinery/labels.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { withProto, described } from './schema-helpers.ts';
import { PodTemplateSpec } from './pod-schema.ts';
import { scaleSubresource, labelSetText } from '../autoscaling/scale.ts';
import {
  defaultTemplate, nonNegative, templateLabelsMismatch, replicatedTemplateErrors, replicaSetStrategy, replicaSetColumns, replicaSetConditionSchema, goStringMap,
} from '../apps/workload.ts';
import { podTemplateWarnings } from './pod-warnings.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

const DOCS = 'https://platform.io/docs/concepts/workloads/controllers/replicationcontroller';
const DESIRED_DESCRIPTION = `Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: ${DOCS}#what-is-a-replicationcontroller`;
const SELECTOR_DESCRIPTION = 'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://platform.io/docs/concepts/overview/working-with-objects/labels/#label-selectors';
const CURRENT_DESCRIPTION = `Replicas is the most recently observed number of replicas. More info: ${DOCS}#what-is-a-replicationcontroller`;
const READY_DESCRIPTION = 'The number of ready replicas for this replication controller.';

export const ReplicationControllerSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    replicas: S.int32({ proto: 1, description: DESIRED_DESCRIPTION }),
    minReadySeconds: S.int32({ proto: 4, description: 'Minimum number of seconds for which a newly created pod should be ready without any of its container crashing, for it to be considered available. Defaults to 0 (pod will be considered available as soon as it is ready)' }),
    selector: S.map(S.string(), { proto: 2, atomic: true, description: SELECTOR_DESCRIPTION }),
    template: described(PodTemplateSpec, 3, `Template is the object that describes the pod that will be created if insufficient replicas are detected. This takes precedence over a TemplateRef. The only allowed template.spec.restartPolicy value is "Always". More info: ${DOCS}#pod-template`),
  }, { proto: 2, ref: 'core.v1.ReplicationControllerSpec', description: 'ReplicationControllerSpec is the specification of a replication controller.' }),
  status: S.object({
    replicas: S.int32({ proto: 1, description: CURRENT_DESCRIPTION }),
    fullyLabeledReplicas: S.int32({ proto: 2, description: 'The number of pods that have labels matching the labels of the pod template of the replication controller.' }),
    readyReplicas: S.int32({ proto: 4, description: READY_DESCRIPTION }),
    availableReplicas: S.int32({ proto: 5, description: 'The number of available replicas (ready for at least minReadySeconds) for this replication controller.' }),
    observedGeneration: S.int64({ proto: 3, description: 'ObservedGeneration reflects the generation of the most recently observed replication controller.' }),
    conditions: S.list(replicaSetConditionSchema({ typeDescription: 'Type of replication controller condition.', ref: 'core.v1.ReplicationControllerCondition', description: 'ReplicationControllerCondition describes the state of a replication controller at a certain point.' }), { proto: 6, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: "Represents the latest available observations of a replication controller's current state." }),
  }, { proto: 3, required: ['replicas'], ref: 'core.v1.ReplicationControllerStatus', description: 'ReplicationControllerStatus represents the current status of a replication controller.' }),
}, { ref: 'core.v1.ReplicationController', description: 'ReplicationController represents the configuration of a replication controller.' });

/** Annotations recording fields an older version could not convert (helper.NonConvertibleFields). */
const NON_CONVERTIBLE_PREFIX = 'non-convertible.platform.io';

const specOf = (o: ApiObject) => (o.spec ?? {}) as Obj;
const isEmptyMap = (m: unknown) => !isObj(m) || Object.keys(m).length === 0;

/** SetDefaults_ReplicationController, then the template's defaults when there is a template (a pointer in Go). */
function defaultReplicationController(obj: ApiObject): void {
  const spec = (obj.spec ??= {}) as Obj;
  const labels = isObj(spec.template) && isObj(spec.template.metadata?.labels) ? spec.template.metadata.labels as Record<string, string> : undefined;
  if (labels) {
    if (isEmptyMap(spec.selector)) spec.selector = { ...labels };
    if (isEmptyMap(obj.metadata.labels)) obj.metadata.labels = { ...labels };
  }
  spec.replicas ??= 1;
  if (isObj(spec.template)) defaultTemplate(spec);
  // ReplicationControllerStatus.replicas is always written.
  const status = (obj.status ??= {}) as Obj;
  status.replicas ??= 0;
}

/** ValidateReplicationControllerSpec with ValidatePodTemplateSpecForRC. */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs = nonNegative(spec, ['minReadySeconds'], 'spec');
  const selector = selectorFromSet(isObj(spec.selector) ? spec.selector : undefined);
  if (selector.empty) errs.push(required('spec.selector'));
  errs.push(...nonNegative(spec, ['replicas'], 'spec'));
  if (!isObj(spec.template)) return [...errs, required('spec.template')];
  const labels = spec.template.metadata?.labels as Record<string, string> | undefined;
  if (!selector.empty && !selector.matches(labels ?? {})) errs.push(templateLabelsMismatch(labels));
  return [...errs, ...replicatedTemplateErrors(spec.template, spec.replicas, 'ReplicationController')];
}

/** What the strategy's ValidateUpdate adds for fields an older version could not convert. */
function nonConvertibleErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const [key, value] of Object.entries(old.metadata.annotations ?? {})) {
    if (!key.startsWith(NON_CONVERTIBLE_PREFIX)) continue;
    const parts = key.split('/');
    if (parts.length !== 2) continue;
    const field = parts[1]!;
    if (field.includes('selector')) {
      const selector = specOf(obj).selector;
      if (!deepEqual(specOf(old).selector ?? null, selector ?? null)) {
        errs.push(errorWithGoValue('FieldValueInvalid', 'spec.selector', selector, goStringMap(selector), 'cannot update non-convertible selector'));
      }
    } else {
      errs.push({ ...notFound(field, value), detail: 'unknown non-convertible field' });
    }
  }
  return errs;
}

/** The strategy's WarningsOnUpdate. Kubernetes hands the pod template warnings the old template as the new one,
 *  so an update that makes a new generation is warned about what the object held before it. */
function updateWarnings(obj: ApiObject, old: ApiObject): string[] {
  if (obj.metadata.generation === old.metadata.generation) return [];
  return podTemplateWarnings(specOf(old).template, 'spec.template');
}

/** labels.FormatLabels, as the wide SELECTOR column shows the map. */
function selectorCell(obj: ApiObject): string {
  return labelSetText(specOf(obj).selector) || '<none>';
}

export const replicationControllerKind: KindDefinition = {
  group: '',
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  singular: 'replicationcontroller',
  namespaced: true,
  shortNames: ['rc'],
  categories: ['all'],
  versions: [{ name: 'v1', stability: 'stable', schema: ReplicationControllerSchema }],
  storageVersion: 'v1',
  // Kubernetes keeps them under /registry/controllers.
  storageResource: 'controllers',
  status: {},
  views: [scaleSubresource('', 'replicationcontrollers', labelSetText)],

  defaults: defaultReplicationController,
  // (Kubernetes checks the spec twice on update; the registry reports each text once.)
  ...replicaSetStrategy({ specErrors, updateErrors: nonConvertibleErrors, updateWarnings }),
  tableColumns: replicaSetColumns({ desired: DESIRED_DESCRIPTION, current: CURRENT_DESCRIPTION, ready: READY_DESCRIPTION, selector: SELECTOR_DESCRIPTION }, selectorCell),
};
