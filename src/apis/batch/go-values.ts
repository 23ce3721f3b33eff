// Go's `%#v` of the batch values Kubernetes' Job and CronJob field errors print (`batch.PodFailurePolicy{...}`,
// `[]int32{1, 2}`, a pod template), and the `"null"` a nil pointer prints as.
import type { TSchema } from '@sinclair/typebox';
import { goQuote, goStringSlice, goStruct, goPointer } from '../../machinery/go-format.ts';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, scopeOf, type RefScope } from '../../machinery/schema/schema-kind.ts';
import { goStringMap } from '../apps/workload.ts';
import { PodTemplateSpec } from '../core/pod-schema.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const str = (v: unknown) => goQuote(typeof v === 'string' ? v : '');

/** A field error's value when Go hands it a nil pointer: the string "null", quoted. */
export const GO_NIL = goQuote('null');

/** `[]int32{1, 2}`; nil as `[]int32(nil)`. */
export function goInt32Slice(values: unknown): string {
  return Array.isArray(values) ? `[]int32{${values.join(', ')}}` : '[]int32(nil)';
}

/** A metav1.Time as its String() prints it: `2024-05-01 10:00:00 +0000 UTC`. */
export function goTime(rfc3339: string): string {
  const t = new Date(rfc3339);
  if (Number.isNaN(t.getTime())) return rfc3339;
  const iso = t.toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? '.' + fraction : ''} +0000 UTC`;
}

function goOnPodConditions(patterns: unknown): string {
  if (!Array.isArray(patterns)) return '[]batch.PodFailurePolicyOnPodConditionsPattern(nil)';
  const items = patterns.map((p) => goStruct('batch.PodFailurePolicyOnPodConditionsPattern', [['Type', str(p?.type)], ['Status', str(p?.status)]]));
  return `[]batch.PodFailurePolicyOnPodConditionsPattern{${items.join(', ')}}`;
}

export function goPodFailurePolicy(policy: Obj): string {
  const rules = Array.isArray(policy.rules)
    ? '[]batch.PodFailurePolicyRule{' + policy.rules.map((r: Obj) => goStruct('batch.PodFailurePolicyRule', [
      ['Action', str(r?.action)],
      ['OnExitCodes', goPointer('batch.PodFailurePolicyOnExitCodesRequirement', isObj(r?.onExitCodes))],
      ['OnPodConditions', goOnPodConditions(r?.onPodConditions)],
    ])).join(', ') + '}'
    : '[]batch.PodFailurePolicyRule(nil)';
  return goStruct('batch.PodFailurePolicy', [['Rules', rules]]);
}

export function goSuccessPolicy(policy: Obj): string {
  const rules = Array.isArray(policy.rules)
    ? '[]batch.SuccessPolicyRule{' + policy.rules.map((r: Obj) => goStruct('batch.SuccessPolicyRule', [
      ['SucceededIndexes', goPointer('string', isSet(r?.succeededIndexes))],
      ['SucceededCount', goPointer('int32', isSet(r?.succeededCount))],
    ])).join(', ') + '}'
    : '[]batch.SuccessPolicyRule(nil)';
  return goStruct('batch.SuccessPolicy', [['Rules', rules]]);
}

export function goUncountedTerminatedPods(u: Obj): string {
  const uids = (v: unknown) => (Array.isArray(v) ? goStringSlice(v).replace('[]string', '[]types.UID') : '[]types.UID(nil)');
  return goStruct('batch.UncountedTerminatedPods', [['Succeeded', uids(u.succeeded)], ['Failed', uids(u.failed)]]);
}

/** Go field names that are not the JSON name capitalised. */
const GO_NAMES: Record<string, string> = {
  dnsPolicy: 'DNSPolicy', dnsConfig: 'DNSConfig', hostIPC: 'HostIPC', hostPID: 'HostPID', tty: 'TTY', os: 'OS',
  httpGet: 'HTTPGet', tcpSocket: 'TCPSocket', grpc: 'GRPC', apiVersion: 'APIVersion', uid: 'UID', hostIP: 'HostIP',
  seLinuxOptions: 'SELinuxOptions', seLinuxChangePolicy: 'SELinuxChangePolicy', runAsUser: 'RunAsUser',
};
const goName = (json: string) => GO_NAMES[json] ?? json[0]!.toUpperCase() + json.slice(1);

/** The Go type a schema node stands for in Kubernetes' internal API (`core.v1.Container` is `core.Container`). */
function goType(schema: TSchema, scope: RefScope): string {
  const s = deref(schema, scope);
  switch (kindOf(s)) {
    case 'object': {
      const ref = asSchema(s)['x-ref'] ?? '';
      const [group, , name] = ref.split('.');
      return group === 'meta' ? `v1.${name}` : name ? `${group}.${name}` : 'struct {}';
    }
    case 'array': {
      const items = itemSchema(s);
      return `[]${items ? goType(items, scopeOf(s, scope)) : 'interface {}'}`;
    }
    case 'map': {
      const values = mapValueSchema(s);
      return values && kindOf(deref(values, scope)) === 'quantity' ? 'core.ResourceList' : `map[string]${values ? goType(values, scopeOf(s, scope)) : 'interface {}'}`;
    }
    case 'integer': return asSchema(s).format === 'int64' ? 'int64' : 'int32';
    case 'boolean': return 'bool';
    case 'quantity': return 'resource.Quantity';
    case 'intOrString': return 'intstr.IntOrString';
    default: return 'string';
  }
}

/**
 * `%#v` of a value of `schema`, field by field in the schema's order. Kubernetes prints every field of the
 * struct, and pointers as addresses; this prints the fields that are set, each nested struct in full.
 */
function goValue(v: unknown, schema: TSchema, scope: RefScope): string {
  const s = deref(schema, scope);
  const inner = scopeOf(s, scope);
  switch (kindOf(s)) {
    case 'object': {
      const props = asSchema(s).properties ?? {};
      const fields: [string, string][] = [];
      for (const [name, prop] of Object.entries(props)) {
        const x = isObj(v) ? v[name] : undefined;
        if (isSet(x)) fields.push([goName(name), goValue(x, prop, inner)]);
      }
      return goStruct(goType(s, scope), fields);
    }
    case 'array': {
      const items = itemSchema(s);
      if (!Array.isArray(v)) return `${goType(s, scope)}(nil)`;
      return `${goType(s, scope)}{${v.map((x) => (items ? goValue(x, items, inner) : goQuote(String(x)))).join(', ')}}`;
    }
    case 'map': {
      const values = mapValueSchema(s);
      if (!isObj(v)) return `${goType(s, scope)}(nil)`;
      if (values && kindOf(deref(values, scope)) === 'string') return goStringMap(v as Record<string, string>);
      return `${goType(s, scope)}{${Object.keys(v).sort().map((k) => `${goQuote(k)}:${values ? goValue(v[k], values, inner) : goQuote(String(v[k]))}`).join(', ')}}`;
    }
    case 'integer': case 'number': case 'boolean': return String(v);
    case 'quantity': return `resource.MustParse(${goQuote(String(v))})`;
    case 'intOrString': return typeof v === 'number' ? `intstr.FromInt32(${v})` : `intstr.FromString(${goQuote(String(v))})`;
    default: return goQuote(String(v));
  }
}

/** A pod template as `core.PodTemplateSpec{ObjectMeta:v1.ObjectMeta{...}, Spec:core.PodSpec{...}}`. */
export function goPodTemplateSpec(template: unknown): string {
  const t = isObj(template) ? template : {};
  const meta = isObj(t.metadata) ? t.metadata : {};
  const objectMeta = goStruct('v1.ObjectMeta', [
    ['Name', str(meta.name)], ['GenerateName', str(meta.generateName)], ['Namespace', str(meta.namespace)], ['SelfLink', '""'],
    ['UID', str(meta.uid)], ['ResourceVersion', str(meta.resourceVersion)], ['Generation', String(meta.generation ?? 0)],
    ['CreationTimestamp', 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)'], ['DeletionTimestamp', '<nil>'],
    ['DeletionGracePeriodSeconds', '(*int64)(nil)'], ['Labels', goStringMap(meta.labels)], ['Annotations', goStringMap(meta.annotations)],
    ['OwnerReferences', '[]v1.OwnerReference(nil)'], ['Finalizers', goStringSlice(Array.isArray(meta.finalizers) ? meta.finalizers : undefined)],
    ['ManagedFields', '[]v1.ManagedFieldsEntry(nil)'],
  ]);
  const specSchema = asSchema(PodTemplateSpec).properties!.spec!;
  return goStruct('core.PodTemplateSpec', [['ObjectMeta', objectMeta], ['Spec', goValue(isObj(t.spec) ? t.spec : {}, specSchema, EMPTY_SCOPE)]]);
}
