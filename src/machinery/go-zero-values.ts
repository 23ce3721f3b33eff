// Go's `omitempty` on non-pointer numbers and booleans: Kubernetes decodes every body into its Go structs,
// where a zero of such a field is indistinguishable from "not sent", and encodes it back without the field.
// So `paused: false` or `minReadySeconds: 0` sent in any format (JSON, YAML, CBOR, protobuf) is stored and
// answered as if absent. Pointer fields (`replicas`, `*int32`, `*bool`) keep their zero: it means something.
//
// The table below names those fields by OpenAPI definition (`x-ref` of the object schema). The pass that
// removes them compiles a plan once per schema (cached by schema object), listing only the paths that lead
// to such a field, so a kind without any costs one lookup per write.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, type RefScope, scopeOf } from './schema/schema-kind.ts';

/**
 * Non-pointer `omitempty` numeric and boolean fields of Kubernetes v1.32's Go types, by definition name.
 * (The schemas do not say which fields are Go pointers; numbers and booleans elsewhere keep their zero.)
 */
const ZERO_IS_UNSET: Readonly<Record<string, readonly string[]>> = {
  'meta.v1.ObjectMeta': ['generation'],
  'core.v1.PodSpec': ['hostNetwork', 'hostPID', 'hostIPC'],
  'core.v1.Container': ['stdin', 'stdinOnce', 'tty'],
  'core.v1.EphemeralContainer': ['stdin', 'stdinOnce', 'tty'],
  'core.v1.ContainerPort': ['hostPort'],
  'core.v1.VolumeMount': ['readOnly'],
  'core.v1.Probe': ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'],
  'core.v1.PersistentVolumeClaimVolumeSource': ['readOnly'],
  'core.v1.ServiceSpec': ['publishNotReadyAddresses', 'healthCheckNodePort'],
  'core.v1.ServicePort': ['nodePort'],
  'core.v1.NodeSpec': ['unschedulable'],
  'core.v1.Event': ['count'],
  'events.v1.Event': ['deprecatedCount'],
  'apps.v1.DeploymentSpec': ['minReadySeconds', 'paused'],
  'apps.v1.DeploymentStatus': ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'],
  'apps.v1.ReplicaSetSpec': ['minReadySeconds'],
  'apps.v1.ReplicaSetStatus': ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
  'autoscaling.v1.ScaleSpec': ['replicas'],
  'autoscaling.v2.HorizontalPodAutoscalerStatus': ['currentReplicas'],
};

/** Whether Go omits field `name` of the type `ref` (`meta.v1.ObjectMeta`) when it holds its zero. */
export function zeroIsUnset(ref: string | undefined, name: string): boolean {
  return !!ref && !!ZERO_IS_UNSET[ref]?.includes(name);
}

/** The fields of type `ref` whose zero Go omits (none for an unknown or absent ref). */
export function zeroIsUnsetFields(ref: string | undefined): readonly string[] {
  return (ref && ZERO_IS_UNSET[ref]) || NONE;
}

const NONE: readonly string[] = [];

interface Plan {
  kind: 'object' | 'array' | 'map' | 'none';
  /** Properties of this object removed when they hold their type's zero (0, or false for a boolean). */
  zeros: { key: string; zero: 0 | false }[];
  /** Properties whose value may hold such fields further down. */
  children: { key: string; plan: Plan }[];
  /** Plan for list items or map values. */
  item: Plan | null;
  /** True when this plan (and everything under it) does nothing. */
  empty: boolean;
}

const cache = new WeakMap<TSchema, Plan>();

function compile(schema: TSchema, scope: RefScope): Plan {
  const resolved = deref(schema, scope);
  const cached = cache.get(resolved);
  if (cached) return cached;
  const plan: Plan = { kind: 'none', zeros: [], children: [], item: null, empty: false };
  // Registered before the children so recursive schemas terminate; such a plan is kept (not empty).
  cache.set(resolved, plan);
  const inner = scopeOf(resolved, scope);
  const kind = kindOf(resolved);
  if (kind === 'object') {
    plan.kind = 'object';
    const properties = asSchema(resolved).properties ?? {};
    for (const key of zeroIsUnsetFields(asSchema(resolved)['x-ref'])) {
      // A value of another type is left for validation to refuse.
      if (key in properties) plan.zeros.push({ key, zero: kindOf(deref(properties[key], inner)) === 'boolean' ? false : 0 });
    }
    for (const [key, prop] of Object.entries(properties)) {
      const child = compile(prop, inner);
      if (!child.empty) plan.children.push({ key, plan: child });
    }
  } else if (kind === 'array' || kind === 'map') {
    plan.kind = kind;
    const items = kind === 'array' ? itemSchema(resolved) : mapValueSchema(resolved);
    const child = items ? compile(items, inner) : null;
    if (child && !child.empty) plan.item = child;
  }
  plan.empty = plan.zeros.length === 0 && plan.children.length === 0 && plan.item === null;
  return plan;
}

function drop(v: unknown, plan: Plan): void {
  if (typeof v !== 'object' || v === null) return;
  if (plan.kind === 'object') {
    if (Array.isArray(v)) return;
    const o = v as Record<string, unknown>;
    for (const z of plan.zeros) if (o[z.key] === z.zero) delete o[z.key];
    for (const c of plan.children) {
      const x = o[c.key];
      if (typeof x === 'object' && x !== null && !c.plan.empty) drop(x, c.plan);
    }
  } else if (plan.kind === 'array') {
    if (!Array.isArray(v) || !plan.item) return;
    for (const x of v) drop(x, plan.item);
  } else if (plan.kind === 'map') {
    if (Array.isArray(v) || !plan.item) return;
    const o = v as Record<string, unknown>;
    for (const k in o) drop(o[k], plan.item);
  }
}

/**
 * Removes from `obj` (in place) every non-pointer `omitempty` number or boolean holding its zero, as
 * decoding into Kubernetes' Go types and encoding back would; `schema` is the kind's schema. Returns `obj`.
 */
export function dropGoZeroValues<T>(obj: T, schema: TSchema): T {
  const plan = compile(schema, EMPTY_SCOPE);
  if (!plan.empty) drop(obj, plan);
  return obj;
}
