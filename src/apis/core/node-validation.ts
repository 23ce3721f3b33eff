// Node validation as Kubernetes v1.32 does it (ValidateNode, ValidateNodeUpdate), paths and all: taint
// errors are reported under `metadata.taints`, a long-standing quirk clients see.
import type { ApiObject } from '../meta/v1.ts';
import { type FieldError, invalid, required, forbidden, notSupported, duplicate, index, child } from '../../machinery/field-errors.ts';
import { isQualifiedName, isValidLabelValue, isValidCIDR, cidrFamilyOf, isConfigMapKey, nameIsDNSLabel, nameIsDNSSubdomain } from '../../machinery/validation/strings.ts';
import { errorWithGoValue, goQuote, goStringSlice, goStruct, goPointer } from '../../machinery/go-format.ts';
import { goJsonObjectError, goJsonKind } from '../../machinery/go-json.ts';
import { resourceQuantityErrors } from './resource-quantity.ts';

export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
export const PREFER_AVOID_PODS_ANNOTATION = 'scheduler.alpha.platform.io/preferAvoidPods';

export interface Taint { key?: string; value?: string; effect?: string; timeAdded?: string | null }
export interface NodeAddress { type?: string; address?: string }
export interface ConfigMapNodeConfigSource { namespace?: string; name?: string; uid?: string; resourceVersion?: string; kubeletConfigKey?: string }
export interface NodeConfigSource { configMap?: ConfigMapNodeConfigSource | null }
export interface NodeSpec {
  podCIDR?: string;
  podCIDRs?: string[];
  providerID?: string;
  unschedulable?: boolean;
  taints?: Taint[];
  configSource?: NodeConfigSource | null;
  externalID?: string;
}
export interface NodeStatus {
  capacity?: Record<string, unknown>;
  allocatable?: Record<string, unknown>;
  conditions?: { type?: string; status?: string }[];
  addresses?: NodeAddress[];
  config?: { assigned?: NodeConfigSource | null; active?: NodeConfigSource | null; lastKnownGood?: NodeConfigSource | null; error?: string } | null;
  nodeInfo?: Record<string, string>;
  [field: string]: unknown;
}

export const nodeSpec = (o: ApiObject) => (o.spec ?? {}) as NodeSpec;
export const nodeStatus = (o: ApiObject) => (o.status ?? {}) as NodeStatus;
const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);

// ---- annotations ----

function preferAvoidPodsErrors(annotations: Record<string, string> | undefined): FieldError[] {
  const raw = annotations?.[PREFER_AVOID_PODS_ANNOTATION];
  if (!raw) return [];
  const path = 'metadata.annotations.AvoidPods';
  const problem = goJsonObjectError(new TextEncoder().encode(raw), 'v1.AvoidPods');
  if (problem) return [invalid(path, PREFER_AVOID_PODS_ANNOTATION, problem)];
  const parsed = JSON.parse(raw) as { preferAvoidPods?: unknown } | null;
  const entries = parsed?.preferAvoidPods;
  if (entries === undefined || entries === null) return [];
  if (!Array.isArray(entries)) {
    return [invalid(path, PREFER_AVOID_PODS_ANNOTATION, `json: cannot unmarshal ${goJsonKind(entries)} into Go struct field AvoidPods.preferAvoidPods of type []v1.PreferAvoidPodsEntry`)];
  }
  const errs: FieldError[] = [];
  entries.forEach((entry: { podSignature?: { podController?: { controller?: boolean } | null } } | null, i) => {
    const at = index(`metadata.annotations.${PREFER_AVOID_PODS_ANNOTATION}`, i);
    const controller = entry?.podSignature?.podController;
    if (!controller) errs.push(required(`${at}.PodSignature`, ''));
    else if (controller.controller !== true) errs.push(invalid(`${at}.PodSignature.PodController.Controller`, false, 'must point to a controller'));
  });
  return errs;
}

// ---- taints ----

function taintGoValue(t: Taint): string {
  return goStruct('core.Taint', [
    ['Key', goQuote(t.key ?? '')],
    ['Value', goQuote(t.value ?? '')],
    ['Effect', goQuote(t.effect ?? '')],
    ['TimeAdded', goPointer('v1.Time', !!t.timeAdded)],
  ]);
}

export function taintErrors(taints: Taint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Map<string, Set<string>>();
  list(taints).forEach((t, i) => {
    const at = index(path, i);
    const key = t?.key ?? '', value = t?.value ?? '', effect = t?.effect ?? '';
    for (const msg of isQualifiedName(key)) errs.push(invalid(child(at, 'key'), key, msg));
    const valueErrs = isValidLabelValue(value);
    if (valueErrs.length) errs.push(invalid(child(at, 'value'), value, valueErrs.join(';')));
    if (!effect) errs.push(required(child(at, 'effect'), ''));
    else if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) errs.push(notSupported(child(at, 'effect'), effect, TAINT_EFFECTS));
    // A taint is identified by its key and effect.
    const keys = seen.get(effect) ?? new Set<string>();
    if (keys.has(key)) {
      errs.push(errorWithGoValue('FieldValueDuplicate', at, t, taintGoValue(t ?? {}), 'taints must be unique by key and effect pair'));
      return;
    }
    keys.add(key);
    seen.set(effect, keys);
  });
  return errs;
}

// ---- resources and pod CIDRs ----

function resourceErrors(obj: ApiObject): FieldError[] {
  const status = nodeStatus(obj);
  const errs: FieldError[] = [];
  for (const field of ['capacity', 'allocatable'] as const) {
    for (const [name, value] of Object.entries(status[field] ?? {})) {
      errs.push(...resourceQuantityErrors(`status.${field}.${name}`, name, value));
    }
  }
  return errs;
}

function podCIDRErrors(cidrs: string[]): FieldError[] {
  if (cidrs.length === 0) return [];
  const path = 'spec.podCIDRs';
  const errs: FieldError[] = [];
  cidrs.forEach((c, i) => { for (const msg of isValidCIDR(c)) errs.push(invalid(index(path, i), c, msg)); });
  if (cidrs.length > 1) {
    const bad = cidrs.findIndex((c) => !cidrFamilyOf(c));
    if (bad >= 0) {
      errs.push({ type: 'InternalError', field: path, hasValue: false, detail: `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR[${bad}]: <nil> (invalid CIDR address: ${cidrs[bad]})` });
    }
    const families = new Set(cidrs.map(cidrFamilyOf));
    const dualStack = bad < 0 && families.has('IPv4') && families.has('IPv6');
    if (!dualStack || cidrs.length > 2) {
      errs.push(errorWithGoValue('FieldValueInvalid', path, cidrs, goStringSlice(cidrs), 'may specify no more than one CIDR for each IP family'));
    }
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(duplicate(index(path, i), c));
      seen.add(c);
    });
  }
  return errs;
}

// ---- config sources ----

function configMapSourceErrors(src: ConfigMapNodeConfigSource, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!src.namespace) errs.push(required(child(path, 'namespace'), 'namespace must be set'));
  else for (const msg of nameIsDNSLabel(src.namespace, false)) errs.push(invalid(child(path, 'namespace'), src.namespace, msg));
  if (!src.name) errs.push(required(child(path, 'name'), 'name must be set'));
  else for (const msg of nameIsDNSSubdomain(src.name, false)) errs.push(invalid(child(path, 'name'), src.name, msg));
  if (!src.kubeletConfigKey) errs.push(required(child(path, 'kubeletConfigKey'), 'kubeletConfigKey must be set'));
  else for (const msg of isConfigMapKey(src.kubeletConfigKey)) errs.push(invalid(child(path, 'kubeletConfigKey'), src.kubeletConfigKey, msg));
  return errs;
}

const NO_REFERENCE = goStruct('core.NodeConfigSource', [['ConfigMap', goPointer('core.ConfigMapNodeConfigSource', false)]]);

/** In spec the reference names what to use (no uid or resourceVersion); in status what was used (both). */
function configSourceErrors(source: NodeConfigSource, path: string, inStatus: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const cm = source.configMap;
  if (cm) {
    const at = child(path, 'configMap');
    if (inStatus) {
      if (!cm.uid) errs.push(required(child(at, 'uid'), 'uid must be set in status'));
      if (!cm.resourceVersion) errs.push(required(child(at, 'resourceVersion'), 'resourceVersion must be set in status'));
    } else {
      if (cm.uid) errs.push(forbidden(child(at, 'uid'), 'uid must not be set in spec'));
      if (cm.resourceVersion) errs.push(forbidden(child(at, 'resourceVersion'), 'resourceVersion must not be set in spec'));
    }
    errs.push(...configMapSourceErrors(cm, at));
  } else {
    errs.push(errorWithGoValue('FieldValueInvalid', path, source, NO_REFERENCE, 'exactly one reference subfield must be non-nil'));
  }
  return errs;
}

// ---- the two entry points ----

/** ValidateNode: what any write of the whole node must satisfy. */
export function validateNode(obj: ApiObject): FieldError[] {
  const spec = nodeSpec(obj);
  return [
    ...preferAvoidPodsErrors(obj.metadata.annotations),
    ...taintErrors(spec.taints, 'metadata.taints'),
    ...resourceErrors(obj),
    ...podCIDRErrors(list(spec.podCIDRs)),
  ];
}

const UNCHANGEABLE_CIDR = 'node updates may not change podCIDR except from "" to valid';

/**
 * ValidateNodeUpdate without the checks ValidateNode already made (`withNodeChecks` adds back the ones a
 * status write runs on its own).
 */
export function validateNodeUpdate(obj: ApiObject, old: ApiObject, withNodeChecks: boolean): FieldError[] {
  const spec = nodeSpec(obj), oldSpec = nodeSpec(old);
  const errs: FieldError[] = [];
  if (withNodeChecks) errs.push(...preferAvoidPodsErrors(obj.metadata.annotations), ...resourceErrors(obj));

  const seen = new Set<string>();
  list(nodeStatus(obj).addresses).forEach((a, i) => {
    const id = JSON.stringify([a?.type ?? '', a?.address ?? '']);
    if (seen.has(id)) {
      errs.push(errorWithGoValue('FieldValueDuplicate', index('status.addresses', i), a, goStruct('core.NodeAddress', [['Type', goQuote(a?.type ?? '')], ['Address', goQuote(a?.address ?? '')]])));
    }
    seen.add(id);
  });

  // The controller manager may assign pod CIDRs once; after that they are fixed.
  const oldCIDRs = list(oldSpec.podCIDRs), newCIDRs = list(spec.podCIDRs);
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(forbidden('spec.podCIDRs', UNCHANGEABLE_CIDR));
    else oldCIDRs.forEach((c, i) => { if (c !== newCIDRs[i]) errs.push(forbidden('spec.podCIDRs', UNCHANGEABLE_CIDR)); });
  }
  if (oldSpec.providerID && oldSpec.providerID !== (spec.providerID ?? '')) {
    errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  if (spec.configSource) errs.push(...configSourceErrors(spec.configSource, 'spec.configSource', false));
  const config = nodeStatus(obj).config;
  if (config) {
    for (const field of ['assigned', 'active', 'lastKnownGood'] as const) {
      const src = config[field];
      if (src) errs.push(...configSourceErrors(src, `status.config.${field}`, true));
    }
  }
  if (withNodeChecks) errs.push(...taintErrors(spec.taints, 'metadata.taints'));
  if ((spec.externalID ?? '') !== (oldSpec.externalID ?? '')) errs.push(forbidden('spec.externalID', 'may not be updated'));
  return errs;
}
