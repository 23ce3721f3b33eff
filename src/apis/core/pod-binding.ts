// A Pod's `binding` sub-resource, as schedulers bind: POST a v1 Binding naming a node, and the pod gets that
// spec.nodeName, the Binding's annotations and a True PodScheduled condition, in one write that no other
// check of a pod update sees (Kubernetes writes it straight to storage). Answers 201 with a Success Status.
import type { RequestContext, ViewSubresource, ViewTarget } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, ObjectReference } from '../meta/v1.ts';
import { withProto } from './schema-helpers.ts';
import { nowRfc3339 } from '../../registry/names.ts';
import * as status from '../../machinery/status.ts';

export const BindingSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  target: { ...ObjectReference, 'x-proto': 2, description: 'The target object that you want to bind to the standard object.' },
}, { required: ['target'], ref: 'core.v1.Binding', description: 'Binding ties one object to another; for example, a pod is bound to a node by a scheduler.' });

type Obj = Record<string, any>;

/** The sub-resource writes through its own name: the pod's update checks are not run for it (see pod.ts). */
export const BINDING = 'binding';

/** ValidatePodBinding's messages; Kubernetes answers them as an error of no known reason (500). */
function bindingErrors(binding: Obj): string[] {
  const target = (binding.target ?? {}) as Obj;
  const errs: string[] = [];
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind && kind !== 'Node') errs.push(`target.kind: Unsupported value: ${JSON.stringify(kind)}: supported values: "Node", "<empty>"`);
  if (!target.name) errs.push('target.name: Required value');
  return errs;
}

/** The pod bound to `node`, or why it cannot be (Kubernetes' texts). */
function bound(pod: ApiObject, node: string, annotations: Record<string, string> | undefined): ApiObject | string {
  const spec = (pod.spec ?? {}) as Obj;
  const name = pod.metadata.name;
  if (pod.metadata.deletionTimestamp) return `pod ${name} is being deleted, cannot be assigned to a host`;
  if (spec.nodeName) return `pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`;
  if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length) return `pod ${name} has non-empty .spec.schedulingGates`;
  const podStatus = { ...(pod.status as Obj | undefined) };
  const conditions = (Array.isArray(podStatus.conditions) ? podStatus.conditions : []) as Obj[];
  const scheduled = conditions.find((c) => c?.type === 'PodScheduled');
  // UpdatePodCondition: the condition is replaced; its transition time moves only when its status does.
  const condition = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: scheduled?.status === 'True' ? scheduled.lastTransitionTime : nowRfc3339() };
  podStatus.conditions = scheduled ? conditions.map((c) => (c === scheduled ? condition : c)) : [...conditions, condition];
  return {
    ...pod,
    metadata: { ...pod.metadata, annotations: { ...(pod.metadata.annotations as Record<string, string> | undefined), ...annotations } },
    spec: { ...spec, nodeName: node },
    status: podStatus,
  } as ApiObject;
}

async function bind(binding: ApiObject, target: ViewTarget): Promise<ApiObject> {
  if ((binding.metadata?.name ?? '') !== target.name) throw status.badRequest('name in URL does not match name in Binding object');
  const errs = bindingErrors(binding as Obj);
  if (errs.length) throw new status.StatusError(500, '', errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  const { annotations } = binding.metadata;
  const node = String((binding as Obj).target.name);
  await target.update((pod) => {
    // The Binding's uid and resourceVersion are the write's storage preconditions.
    const failed = status.preconditionConflict({ group: '', resource: 'pods' }, target.name, binding.metadata, pod.metadata);
    if (failed) throw failed;
    const next = bound(pod, node, annotations as Record<string, string> | undefined);
    if (typeof next === 'string') throw status.conflict({ group: '', resource: 'pods/binding' }, target.name, next);
    return next;
  });
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}

/** Whether a pod write is a binding's (pod.ts skips a pod update's checks for it). */
export const isBindingWrite = (ctx: RequestContext): boolean => ctx.subresource === BINDING;

export const bindingSubresource: ViewSubresource = {
  name: BINDING,
  group: '',
  version: 'v1',
  kind: 'Binding',
  verbs: ['create'],
  schema: BindingSchema,
  create: bind,
  writesWholeObject: true,
};
