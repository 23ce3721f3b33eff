// autoscaling/v1 Scale: the view the `scale` sub-resource of workloads serves (Deployment, ReplicaSet,
// ReplicationController ...), and what a HorizontalPodAutoscaler's scaleTargetRef reads and writes.
import type { ViewSubresource } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto } from '../core/schema-helpers.ts';
import { labelSelectorToString, selectorFromSet } from '../../machinery/labels.ts';
import { invalid } from '../../machinery/field-errors.ts';
import * as status from '../../machinery/status.ts';

export const ScaleSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    replicas: S.int32({ proto: 1, description: 'replicas is the desired number of instances for the scaled object.' }),
  }, { proto: 2, ref: 'autoscaling.v1.ScaleSpec', description: 'ScaleSpec describes the attributes of a scale subresource.' }),
  status: S.object({
    replicas: S.int32({ proto: 1, description: 'replicas is the actual number of observed instances of the scaled object.' }),
    selector: S.string({ proto: 2, description: 'selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients. The string will be in the same format as the query-param syntax. More info about label selectors: https://platform.io/docs/concepts/overview/working-with-objects/labels/' }),
  }, { proto: 3, required: ['replicas'], ref: 'autoscaling.v1.ScaleStatus', description: 'ScaleStatus represents the current status of a scale subresource.' }),
}, { ref: 'autoscaling.v1.Scale', description: 'Scale represents a scaling request for a resource.' });

type Obj = Record<string, any>;

/** How a workload's spec.selector reads as Scale.status.selector. */
export type ScaleSelectorText = (selector: unknown) => string;

/** A metav1.LabelSelector object (the apps workloads'). */
function labelSelectorText(selector: unknown): string {
  try {
    return labelSelectorToString(selector as Obj);
  } catch {
    return '';
  }
}

/** A map of labels to match exactly (a ReplicationController's). */
export const labelSetText: ScaleSelectorText = (selector) => selectorFromSet(selector as Record<string, string> | undefined).toString();

/** The Scale of a workload whose desired count is spec.replicas and observed count status.replicas. */
export function scaleOf(obj: ApiObject, selectorText: ScaleSelectorText = labelSelectorText): ApiObject {
  const spec = (obj.spec ?? {}) as Obj;
  const st = (obj.status ?? {}) as Obj;
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  const selector = selectorText(spec.selector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name, namespace, uid, resourceVersion, creationTimestamp },
    // Go omits a zero spec.replicas and an empty selector.
    spec: spec.replicas ? { replicas: spec.replicas } : {},
    status: { replicas: st.replicas ?? 0, ...(selector ? { selector } : {}) },
  };
}

/** The `scale` sub-resource of a workload kind: GET reads the Scale, PUT and PATCH set spec.replicas. */
export function scaleSubresource(group: string, resource: string, selectorText?: ScaleSelectorText): ViewSubresource {
  return {
    name: 'scale',
    group: 'autoscaling',
    version: 'v1',
    kind: 'Scale',
    verbs: ['get', 'patch', 'update'],
    schema: ScaleSchema,
    get: (obj) => scaleOf(obj, selectorText),
    update(stored, view) {
      const name = stored.metadata.name ?? '';
      const replicas = (view.spec as Obj | undefined)?.replicas ?? 0;
      if (typeof replicas === 'number' && replicas < 0) {
        throw status.invalid('autoscaling', 'Scale', name, [invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
      }
      const uid = view.metadata?.uid;
      if (uid && uid !== stored.metadata.uid) {
        throw status.conflict({ group, resource: `${resource}/scale` }, name, `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${stored.metadata.uid}`);
      }
      const next = structuredClone(stored);
      next.spec = { ...(next.spec as Obj), replicas };
      // The Scale's resourceVersion, if any, is the precondition of the write.
      const rv = view.metadata?.resourceVersion;
      if (rv) next.metadata.resourceVersion = rv; else delete next.metadata.resourceVersion;
      return next;
    },
  };
}
