// Empty lists and maps as Kubernetes stores them: a built-in object goes to etcd as protobuf, where an empty
// list or map (`[]`, `{}`) cannot be told from none, so it reads back as Go's nil. Every answer then encodes
// that nil as Go's encoding/json does: an `omitempty` field is left out, any other is written `null` (a
// ClusterRole without rules answers `"rules": null`). So, when a write is decoded:
// - an empty list or map field is removed, unless the field has no `omitempty`,
// - such a non-omitempty field, empty or absent, becomes `null` (Go writes it whenever its struct is there).
// Free-form values (preserve-unknown-fields) keep what was sent; ObjectMeta's managedFields is left to the
// field manager: an empty list sent there asks it to clear ownership, and it drops the field itself.
//
// The pass compiles a plan once per schema (cached by schema object), listing only the paths that can hold
// a list or map, as go-zero-values.ts does.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, preservesUnknown, type RefScope, scopeOf } from './schema/schema-kind.ts';

/**
 * List fields without `omitempty` in Kubernetes v1.32's Go types (k8s.io/api `types.go`), by definition
 * name; no map field of these groups lacks it. Every other list or map field is `omitempty`.
 */
const NULL_WHEN_EMPTY: Readonly<Record<string, readonly string[]>> = {
  'core.v1.PodSpec': ['containers'],
  'core.v1.NodeSelector': ['nodeSelectorTerms'],
  'core.v1.TopologySelectorLabelRequirement': ['values'],
  'core.v1.ProjectedVolumeSource': ['sources'],
  'core.v1.CephFSVolumeSource': ['monitors'],
  'core.v1.CephFSPersistentVolumeSource': ['monitors'],
  'core.v1.RBDVolumeSource': ['monitors'],
  'core.v1.RBDPersistentVolumeSource': ['monitors'],
  'core.v1.ContainerImage': ['names'],
  'core.v1.LimitRangeSpec': ['limits'],
  'rbac.v1.Role': ['rules'],
  'rbac.v1.ClusterRole': ['rules'],
  'rbac.v1.PolicyRule': ['verbs'],
  'networking.v1.HTTPIngressRuleValue': ['paths'],
  'storage.v1.CSINodeSpec': ['drivers'],
  'storage.v1.CSINodeDriver': ['topologyKeys'],
  'admissionregistration.v1.ValidatingWebhook': ['admissionReviewVersions'],
  'admissionregistration.v1.MutatingWebhook': ['admissionReviewVersions'],
  'flowcontrol.v1.PolicyRulesWithSubjects': ['subjects'],
  'flowcontrol.v1.ResourcePolicyRule': ['verbs', 'apiGroups', 'resources', 'namespaces'],
  'flowcontrol.v1.NonResourcePolicyRule': ['verbs', 'nonResourceURLs'],
  'authentication.v1.TokenRequestSpec': ['audiences'],
  'authorization.v1.SubjectRulesReviewStatus': ['resourceRules', 'nonResourceRules'],
  'authorization.v1.ResourceRule': ['verbs'],
  'authorization.v1.NonResourceRule': ['verbs'],
  'discovery.v1.EndpointSlice': ['endpoints'],
  'discovery.v1.Endpoint': ['addresses'],
  'batch.v1.PodFailurePolicy': ['rules'],
  'batch.v1.PodFailurePolicyRule': ['onPodConditions'],
  'batch.v1.PodFailurePolicyOnExitCodesRequirement': ['values'],
  'batch.v1.SuccessPolicy': ['rules'],
};

/**
 * Empty lists kept as sent, for Kubernetes' defaulting and validation to see: they tell an empty list from
 * none where this pass cannot. An HPA's scaling rules get default policies only when `policies` is absent,
 * and validation refuses an empty list ("must specify at least one Policy"), so it is never stored.
 */
const EMPTY_IS_SET: Readonly<Record<string, readonly string[]>> = {
  'autoscaling.v2.HPAScalingRules': ['policies'],
};

/** Whether Go writes field `name` of type `ref` as `null` when it holds no list (it lacks `omitempty`). */
export function emptyIsNull(ref: string | undefined, name: string): boolean {
  return !!ref && !!NULL_WHEN_EMPTY[ref]?.includes(name);
}

interface Plan {
  kind: 'object' | 'array' | 'map' | 'none';
  /** Properties removed when they hold an empty list or map, by the container they must be. */
  drops: { key: string; array: boolean }[];
  /** Properties set to null when absent or empty. */
  nulls: { key: string; array: boolean }[];
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
  const plan: Plan = { kind: 'none', drops: [], nulls: [], children: [], item: null, empty: false };
  // Registered before the children so recursive schemas terminate; such a plan is kept (not empty).
  cache.set(resolved, plan);
  const inner = scopeOf(resolved, scope);
  const kind = kindOf(resolved);
  if (kind === 'object' && !preservesUnknown(resolved)) {
    plan.kind = 'object';
    const ref = asSchema(resolved)['x-ref'];
    for (const [key, prop] of Object.entries(asSchema(resolved).properties ?? {})) {
      const propKind = kindOf(deref(prop, inner));
      if (propKind === 'array' || propKind === 'map') {
        const field = { key, array: propKind === 'array' };
        if (emptyIsNull(ref, key)) plan.nulls.push(field);
        else if (!(ref === 'meta.v1.ObjectMeta' && key === 'managedFields') && !(ref && EMPTY_IS_SET[ref]?.includes(key))) plan.drops.push(field);
      }
      const child = compile(prop, inner);
      if (!child.empty) plan.children.push({ key, plan: child });
    }
  } else if (kind === 'array' || kind === 'map') {
    plan.kind = kind;
    const items = kind === 'array' ? itemSchema(resolved) : mapValueSchema(resolved);
    const child = items ? compile(items, inner) : null;
    if (child && !child.empty) plan.item = child;
  }
  plan.empty = plan.drops.length === 0 && plan.nulls.length === 0 && plan.children.length === 0 && plan.item === null;
  return plan;
}

/** An empty value of the container kind the field declares (another type is left for validation). */
function isEmpty(v: unknown, array: boolean): boolean {
  if (array) return Array.isArray(v) && v.length === 0;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}

function visit(v: unknown, plan: Plan): void {
  if (typeof v !== 'object' || v === null) return;
  if (plan.kind === 'object') {
    if (Array.isArray(v)) return;
    const o = v as Record<string, unknown>;
    for (const d of plan.drops) if (isEmpty(o[d.key], d.array)) delete o[d.key];
    for (const n of plan.nulls) if (o[n.key] === undefined || isEmpty(o[n.key], n.array)) o[n.key] = null;
    for (const c of plan.children) {
      const x = o[c.key];
      if (typeof x === 'object' && x !== null) visit(x, c.plan);
    }
  } else if (plan.kind === 'array') {
    if (!Array.isArray(v) || !plan.item) return;
    for (const x of v) visit(x, plan.item);
  } else if (plan.kind === 'map') {
    if (Array.isArray(v) || !plan.item) return;
    const o = v as Record<string, unknown>;
    for (const k in o) visit(o[k], plan.item);
  }
}

/**
 * Stores `obj`'s lists and maps as Kubernetes reads them back from etcd (in place): an empty one is removed,
 * or is `null` when its Go field lacks `omitempty`, as is such a field left out. `schema` is the kind's
 * schema. Returns `obj`.
 */
export function normalizeGoEmptyCollections<T>(obj: T, schema: TSchema): T {
  const plan = compile(schema, EMPTY_SCOPE);
  if (!plan.empty) visit(obj, plan);
  return obj;
}
