// Priority (on by default in Kubernetes): a new pod's priority comes from its priorityClassName. No
// PriorityClass API is served here, so there is no global default class: a pod naming none gets priority 0;
// the two built-in classes resolve to their values; any other name is refused as not found. A pod that
// states a priority or preemption policy other than the computed one is refused. On update, a pod that
// leaves priority or preemptionPolicy out keeps the stored ones (validation refuses any other change).
import type { AdmissionAttributes, AdmissionPlugin } from './chain.ts';
import { admissionForbidden } from './forbidden.ts';

/** Kubernetes' system priority classes (scheduling.SystemPriorityClasses). */
const SYSTEM_PRIORITY_CLASSES: Readonly<Record<string, number>> = {
  'system-node-critical': 2000001000,
  'system-cluster-critical': 2000000000,
};
/** The priority of a pod without a class when no class is the global default. */
const DEFAULT_PRIORITY = 0;
/** A class's preemption policy defaults to this, and so does a pod's without a class. */
const DEFAULT_PREEMPTION_POLICY = 'PreemptLowerPriority';

interface PodPrioritySpec { priorityClassName?: string | null; priority?: number | null; preemptionPolicy?: string | null }

/** The priority and preemption policy a class name resolves to, or undefined when no such class exists. */
export function resolvePriorityClass(name: string): { priority: number; preemptionPolicy: string } | undefined {
  if (!name) return { priority: DEFAULT_PRIORITY, preemptionPolicy: DEFAULT_PREEMPTION_POLICY };
  const value = SYSTEM_PRIORITY_CLASSES[name];
  return value === undefined ? undefined : { priority: value, preemptionPolicy: DEFAULT_PREEMPTION_POLICY };
}

function admitCreate(attrs: AdmissionAttributes, spec: PodPrioritySpec): void {
  const name = spec.priorityClassName ?? '';
  const resolved = resolvePriorityClass(name);
  if (!resolved) throw admissionForbidden(attrs, `no PriorityClass with name ${name} was found`);
  const { priority, preemptionPolicy } = resolved;
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    throw admissionForbidden(attrs, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
  }
  spec.priority = priority;
  if (spec.preemptionPolicy && spec.preemptionPolicy !== preemptionPolicy) {
    throw admissionForbidden(attrs, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`);
  }
  spec.preemptionPolicy = preemptionPolicy;
}

function admitUpdate(spec: PodPrioritySpec, old: PodPrioritySpec | undefined): void {
  if ((spec.priority === undefined || spec.priority === null) && old?.priority !== undefined && old.priority !== null) spec.priority = old.priority;
  if (!spec.preemptionPolicy && old?.preemptionPolicy) spec.preemptionPolicy = old.preemptionPolicy;
}

export function priorityAdmission(): AdmissionPlugin {
  return {
    name: 'Priority',
    admit(attrs) {
      const { served, operation, object } = attrs;
      if (served.def.group !== '' || served.def.plural !== 'pods' || attrs.ctx.subresource || !object) return;
      const spec = (object.spec ??= {}) as PodPrioritySpec;
      if (operation === 'CREATE') admitCreate(attrs, spec);
      else if (operation === 'UPDATE') admitUpdate(spec, attrs.oldObject?.spec as PodPrioritySpec | undefined);
    },
  };
}
