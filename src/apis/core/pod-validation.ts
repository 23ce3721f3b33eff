// Pod spec validation as Kubernetes v1.32 does it (ValidatePodSpec, validateContainers and friends,
// ValidatePodTemplateSpec, ValidatePodCreate and ValidatePodUpdate), with its paths and messages.
import { type FieldError, invalid, required, forbidden, notSupported, duplicate, notFound, tooLong, child, index, key } from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isRelaxedEnvVarName, isConfigMapKey, isValidPortNum, isValidPortName, isHTTPHeaderName, isValidIP, inclusiveRangeError } from '../../machinery/validation/strings.ts';
import { validateAnnotations, validateLabels, validateLabelName, validateLabelSelector, validateNonnegativeField } from '../../machinery/validation/objectmeta.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { resourceQuantityErrors, isExtendedResourceName } from './resource-quantity.ts';
import { goQuote, goStruct, goPointer, errorWithGoValue } from '../../machinery/go-format.ts';
import { podAnnotationErrors } from './pod-annotations.ts';
import {
  validateVolumes, dns1123LabelErrors, dns1123SubdomainErrors, localDescendingPathErrors, noBackstepErrors,
  objectFieldSelectorErrors, resourceFieldSelectorErrors, ENV_DOWNWARD_FIELDS,
} from './volume-validation.ts';

type Obj = Record<string, any>;
const list = <T = Obj>(v: unknown): T[] => (Array.isArray(v) ? v : []);
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const MAX_INT32 = 2147483647;

export const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];
const DNS_POLICIES = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
const HTTP_SCHEMES = ['HTTP', 'HTTPS'];
const MOUNT_PROPAGATIONS = ['Bidirectional', 'HostToContainer', 'None'];
const RECURSIVE_READ_ONLY = ['Disabled', 'Enabled', 'IfPossible'];
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const SYSCTL_REGEX = '^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';
const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'requests.storage', 'limits.cpu', 'limits.memory', 'ephemeral-storage', 'requests.ephemeral-storage', 'limits.ephemeral-storage', 'pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'storage', 'services.nodeports', 'services.loadbalancers']);

/** Which checks a spec gets: a pod's own spec, or a template's (no pod name, no image requirement). */
export interface PodSpecContext {
  /** The pod's name, for ephemeral volume claim names; absent for templates. */
  podName?: string;
  isPod: boolean;
  /** The spec before an update: namespaced sysctls it already had with hostNetwork or hostIPC stay allowed. */
  oldSpec?: Obj;
}

function qualifiedNameErrors(value: string, path: string): FieldError[] {
  return isQualifiedName(value).map((m) => invalid(path, value, m));
}

const isHugePages = (name: string) => name.startsWith('hugepages-');
const isNativeResource = (name: string) => !name.includes('/') || name.includes('platform.io/');
const overcommitAllowed = (name: string) => isNativeResource(name) && !isHugePages(name);

/** validateResourceName: a qualified name, and standard when unprefixed. */
export function resourceNameErrors(name: string, path: string): FieldError[] {
  const errs = qualifiedNameErrors(name, path);
  if (errs.length) return errs;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isHugePages(name) && !name.startsWith('requests.hugepages-')) {
    return [invalid(path, name, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

function containerResourceNameErrors(name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

function quantityText(v: unknown): string {
  try { return quantityFromJSON(v).toString(); } catch { return String(v); }
}

/** validateResourceRequirements for a container (or the pod level). */
export function resourceRequirementsErrors(res: Obj | undefined, path: string): FieldError[] {
  if (!isObj(res)) return [];
  const errs: FieldError[] = [];
  const limPath = child(path, 'limits'), reqPath = child(path, 'requests');
  const limits = isObj(res.limits) ? res.limits : {};
  const requests = isObj(res.requests) ? res.requests : {};
  let cpuOrMemory = false, hugePages = false;
  for (const name of Object.keys(limits).sort()) {
    const at = key(limPath, name);
    errs.push(...containerResourceNameErrors(name, at), ...resourceQuantityErrors(at, name, limits[name]));
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const name of Object.keys(requests).sort()) {
    const at = key(reqPath, name);
    errs.push(...containerResourceNameErrors(name, at), ...resourceQuantityErrors(at, name, requests[name]));
    if (Object.hasOwn(limits, name)) {
      let cmp = 0;
      try { cmp = quantityFromJSON(requests[name]).cmp(quantityFromJSON(limits[name])); } catch { cmp = 0; }
      const q = quantityText(requests[name]), l = quantityText(limits[name]);
      if (cmp !== 0 && !overcommitAllowed(name)) errs.push(invalid(reqPath, q, `must be equal to ${name} limit of ${l}`));
      else if (cmp > 0) errs.push(invalid(reqPath, q, `must be less than or equal to ${name} limit of ${l}`));
    } else if (!overcommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) hugePages = true;
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}

function portNumOrNameErrors(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  return [];
}

interface Handler { exec?: Obj; httpGet?: Obj; tcpSocket?: Obj; grpc?: Obj; sleep?: Obj }

/** validateHandler: exactly one action, each checked. */
function handlerErrors(h: Handler, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const one = (name: keyof Handler, check: (v: Obj, at: string) => FieldError[]) => {
    const v = h[name];
    if (!isObj(v)) return;
    const at = child(path, name);
    if (count > 0) { errs.push(forbidden(at, 'may not specify more than 1 handler type')); return; }
    count++;
    errs.push(...check(v, at));
  };
  one('exec', (v, at) => (list(v.command).length === 0 ? [required(child(at, 'command'))] : []));
  one('httpGet', (v, at) => {
    const e: FieldError[] = [];
    if (!v.path) e.push(required(child(at, 'path')));
    e.push(...portNumOrNameErrors(v.port, child(at, 'port')));
    if (!HTTP_SCHEMES.includes(v.scheme)) e.push(notSupported(child(at, 'scheme'), v.scheme ?? '', HTTP_SCHEMES));
    for (const header of list(v.httpHeaders)) for (const m of isHTTPHeaderName(String(header?.name ?? ''))) e.push(invalid(child(at, 'httpHeaders'), header?.name ?? '', m));
    return e;
  });
  one('tcpSocket', (v, at) => portNumOrNameErrors(v.port, child(at, 'port')));
  one('grpc', (v, at) => (typeof v.port === 'number' ? isValidPortNum(v.port).map((m) => invalid(child(at, 'port'), v.port, m)) : []));
  one('sleep', (v, at) => {
    const seconds = Number(v.seconds ?? 0);
    if (gracePeriod !== undefined && (seconds <= 0 || seconds > gracePeriod)) return [invalid(at, seconds, `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`)];
    return [];
  });
  if (count === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

function probeErrors(probe: Obj | undefined, gracePeriod: number | undefined, path: string, kind: 'liveness' | 'readiness' | 'startup'): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = handlerErrors({ exec: probe.exec, httpGet: probe.httpGet, tcpSocket: probe.tcpSocket, grpc: probe.grpc }, gracePeriod, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...validateNonnegativeField(probe[f], child(path, f)));
  }
  const tgps = probe.terminationGracePeriodSeconds;
  if (typeof tgps === 'number' && tgps <= 0) errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  if (kind !== 'readiness' && typeof probe.successThreshold === 'number' && probe.successThreshold !== 1) {
    errs.push(invalid(child(path, 'successThreshold'), probe.successThreshold, 'must be 1'));
  }
  if (kind === 'readiness' && typeof tgps === 'number') errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'));
  return errs;
}

function lifecycleErrors(lc: Obj | undefined, gracePeriod: number | undefined, path: string): FieldError[] {
  if (!isObj(lc)) return [];
  const errs: FieldError[] = [];
  if (isObj(lc.postStart)) errs.push(...handlerErrors(lc.postStart, gracePeriod, child(path, 'postStart')));
  if (isObj(lc.preStop)) errs.push(...handlerErrors(lc.preStop, gracePeriod, child(path, 'preStop')));
  return errs;
}

function containerPortErrors(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(ports).forEach((p, i) => {
    const at = index(path, i);
    if (p.name) {
      const msgs = isValidPortName(p.name);
      if (msgs.length) for (const m of msgs) errs.push(invalid(child(at, 'name'), p.name, m));
      else if (names.has(p.name)) errs.push(duplicate(child(at, 'name'), p.name));
      else names.add(p.name);
    }
    if (p.containerPort === 0) errs.push(required(child(at, 'containerPort')));
    else if (typeof p.containerPort === 'number') for (const m of isValidPortNum(p.containerPort)) errs.push(invalid(child(at, 'containerPort'), p.containerPort, m));
    if (typeof p.hostPort === 'number' && p.hostPort !== 0) for (const m of isValidPortNum(p.hostPort)) errs.push(invalid(child(at, 'hostPort'), p.hostPort, m));
    if (!p.protocol) errs.push(required(child(at, 'protocol')));
    else if (!PROTOCOLS.includes(p.protocol)) errs.push(notSupported(child(at, 'protocol'), p.protocol, PROTOCOLS));
  });
  return errs;
}

function secretOrConfigMapNameErrors(name: string, path: string): FieldError[] {
  return isDNS1123Subdomain(name).map((m) => invalid(path, name, m));
}

function keySelectorErrors(s: Obj, path: string): FieldError[] {
  const errs = secretOrConfigMapNameErrors(String(s.name ?? ''), child(path, 'name'));
  if (s.key === '') errs.push(required(child(path, 'key')));
  else if (typeof s.key === 'string') for (const m of isConfigMapKey(s.key)) errs.push(invalid(child(path, 'key'), s.key, m));
  return errs;
}

function envErrors(vars: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(vars).forEach((ev, i) => {
    const at = index(path, i);
    // RelaxedEnvironmentVariableValidation is on by default in v1.32: any printable ASCII but '='.
    if (!ev.name) errs.push(required(child(at, 'name')));
    else if (typeof ev.name === 'string') for (const m of isRelaxedEnvVarName(ev.name)) errs.push(invalid(child(at, 'name'), ev.name, m));
    const from = ev.valueFrom;
    if (!isObj(from)) return;
    const fromPath = child(at, 'valueFrom');
    let count = 0;
    if (isObj(from.fieldRef)) { count++; errs.push(...objectFieldSelectorErrors(from.fieldRef, ENV_DOWNWARD_FIELDS, child(fromPath, 'fieldRef'))); }
    if (isObj(from.resourceFieldRef)) { count++; errs.push(...resourceFieldSelectorErrors(from.resourceFieldRef, child(fromPath, 'resourceFieldRef'), false)); }
    if (isObj(from.configMapKeyRef)) { count++; errs.push(...keySelectorErrors(from.configMapKeyRef, child(fromPath, 'configMapKeyRef'))); }
    if (isObj(from.secretKeyRef)) { count++; errs.push(...keySelectorErrors(from.secretKeyRef, child(fromPath, 'secretKeyRef'))); }
    if (count === 0) errs.push(invalid(fromPath, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    else if (ev.value) errs.push(invalid(fromPath, '', 'may not be specified when `value` is not empty'));
    else if (count > 1) errs.push(invalid(fromPath, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function envFromErrors(sources: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(sources).forEach((ev, i) => {
    const at = index(path, i);
    if (ev.prefix) for (const m of isRelaxedEnvVarName(ev.prefix)) errs.push(invalid(child(at, 'prefix'), ev.prefix, m));
    let count = 0;
    for (const f of ['configMapRef', 'secretRef']) {
      const ref = ev[f];
      if (!isObj(ref)) continue;
      count++;
      if (!ref.name) errs.push(required(child(child(at, f), 'name')));
      else errs.push(...secretOrConfigMapNameErrors(ref.name, child(child(at, f), 'name')));
    }
    if (count === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function volumeMountErrors(ctr: Obj, volumes: Map<string, Obj>, path: string, ephemeral: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  const devices = list(ctr.volumeDevices);
  list(ctr.volumeMounts).forEach((m, i) => {
    const at = index(path, i);
    if (m.name === '') errs.push(required(child(at, 'name')));
    if (typeof m.name === 'string' && !volumes.has(m.name)) errs.push(notFound(child(at, 'name'), m.name));
    if (m.mountPath === '') errs.push(required(child(at, 'mountPath')));
    if (typeof m.mountPath === 'string') {
      if (mountPoints.has(m.mountPath)) errs.push(invalid(child(at, 'mountPath'), m.mountPath, 'must be unique'));
      mountPoints.add(m.mountPath);
    }
    if (devices.some((d) => d?.name === m.name)) errs.push(invalid(child(at, 'name'), m.name, 'must not already exist in volumeDevices'));
    if (devices.some((d) => d?.devicePath === m.mountPath)) errs.push(invalid(child(at, 'mountPath'), m.mountPath, 'must not already exist as a path in volumeDevices'));
    // Kubernetes reports sub-path problems at the list's path, without the index.
    if (m.subPath) errs.push(...localDescendingPathErrors(m.subPath, child(path, 'subPath')));
    if (m.subPathExpr) {
      if (m.subPath) errs.push(invalid(child(at, 'subPathExpr'), m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...localDescendingPathErrors(m.subPathExpr, child(path, 'subPathExpr')));
    }
    if (typeof m.mountPropagation === 'string') {
      const propPath = child(path, 'mountPropagation');
      if (!MOUNT_PROPAGATIONS.includes(m.mountPropagation)) errs.push(notSupported(propPath, m.mountPropagation, MOUNT_PROPAGATIONS));
      if (!ephemeral && m.mountPropagation === 'Bidirectional' && ctr.securityContext?.privileged !== true) {
        errs.push(forbidden(propPath, 'Bidirectional mount propagation is available only to privileged containers'));
      }
    }
    if (typeof m.recursiveReadOnly === 'string') {
      const rroPath = child(path, 'recursiveReadOnly');
      if (m.recursiveReadOnly === 'Enabled' || m.recursiveReadOnly === 'IfPossible') {
        if (!m.readOnly) errs.push(forbidden(rroPath, 'may only be specified when readOnly is true'));
        if (m.mountPropagation !== undefined && m.mountPropagation !== 'None') errs.push(forbidden(rroPath, 'may only be specified when mountPropagation is None or not specified'));
      } else if (m.recursiveReadOnly !== 'Disabled') {
        errs.push(notSupported(rroPath, m.recursiveReadOnly, RECURSIVE_READ_ONLY));
      }
    }
  });
  return errs;
}

function volumeDeviceErrors(ctr: Obj, volumes: Map<string, Obj>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>(), paths = new Set<string>();
  const mounts = list(ctr.volumeMounts);
  list(ctr.volumeDevices).forEach((d, i) => {
    const at = index(path, i);
    const name = String(d.name ?? ''), devPath = String(d.devicePath ?? '');
    const vol = volumes.get(name);
    if (d.name === '') errs.push(required(child(at, 'name')));
    if (names.has(name)) errs.push(invalid(child(at, 'name'), name, 'must be unique'));
    if (vol && !vol.persistentVolumeClaim && !vol.ephemeral) errs.push(invalid(child(at, 'name'), name, 'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode'));
    if (!vol) errs.push(notFound(child(at, 'name'), name));
    if (d.devicePath === '') errs.push(required(child(at, 'devicePath')));
    if (paths.has(devPath)) errs.push(invalid(child(at, 'devicePath'), devPath, 'must be unique'));
    if (devPath && noBackstepErrors(devPath, child(path, 'devicePath')).length) errs.push(invalid(child(at, 'devicePath'), devPath, "can not contain backsteps ('..')"));
    else paths.add(devPath);
    if (mounts.some((m) => m?.name === name)) errs.push(invalid(child(at, 'name'), name, 'must not already exist in volumeMounts'));
    if (mounts.some((m) => m?.mountPath === devPath)) errs.push(invalid(child(at, 'devicePath'), devPath, 'must not already exist as a path in volumeMounts'));
    if (name) names.add(name);
  });
  return errs;
}

function userOrGroupErrors(value: unknown, path: string): FieldError[] {
  if (typeof value !== 'number' || (value >= 0 && value <= MAX_INT32)) return [];
  return [invalid(path, value, inclusiveRangeError(0, MAX_INT32))];
}

function seccompErrors(sp: Obj | undefined, path: string): FieldError[] {
  if (!isObj(sp)) return [];
  const errs: FieldError[] = [];
  const typePath = child(path, 'type');
  if (!sp.type) errs.push(required(typePath, 'type is required when seccompProfile is set'));
  else if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(sp.type)) errs.push(notSupported(typePath, sp.type, ['Localhost', 'RuntimeDefault', 'Unconfined']));
  if (sp.type === 'Localhost') {
    if (typeof sp.localhostProfile !== 'string') errs.push(required(child(path, 'localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPathErrors(sp.localhostProfile, child(path, 'localhostProfile')));
  } else if (typeof sp.localhostProfile === 'string') {
    errs.push(invalid(child(path, 'localhostProfile'), sp, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

function appArmorErrors(p: Obj | undefined, path: string): FieldError[] {
  if (!isObj(p)) return [];
  const lp = child(path, 'localhostProfile');
  switch (p.type) {
    case 'Localhost': {
      if (typeof p.localhostProfile !== 'string') return [required(lp, 'must be set when AppArmor type is Localhost')];
      const errs: FieldError[] = [];
      const trimmed = p.localhostProfile.trim();
      if (trimmed !== p.localhostProfile) errs.push(invalid(lp, p.localhostProfile, 'must not be padded with whitespace'));
      else if (trimmed === '') errs.push(required(lp, 'must be set when AppArmor type is Localhost'));
      if (p.localhostProfile.length > 4095) errs.push(tooLong(lp, p.localhostProfile, 4095));
      return errs;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      return typeof p.localhostProfile === 'string' ? [invalid(lp, p.localhostProfile, 'can only be set when AppArmor type is Localhost')] : [];
    case '':
    case undefined:
      return [required(child(path, 'type'), 'type is required when appArmorProfile is set')];
    default:
      return [notSupported(child(path, 'type'), p.type, ['Localhost', 'RuntimeDefault', 'Unconfined'])];
  }
}

function securityContextErrors(sc: Obj | undefined, path: string, hostUsers: boolean): FieldError[] {
  if (!isObj(sc)) return [];
  const errs: FieldError[] = [];
  errs.push(...userOrGroupErrors(sc.runAsUser, child(path, 'runAsUser')), ...userOrGroupErrors(sc.runAsGroup, child(path, 'runAsGroup')));
  if (typeof sc.procMount === 'string') {
    if (!['Default', 'Unmasked'].includes(sc.procMount)) errs.push(notSupported(child(path, 'procMount'), sc.procMount, ['Default', 'Unmasked']));
    if (hostUsers && sc.procMount === 'Unmasked') errs.push(invalid(child(path, 'procMount'), sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...seccompErrors(sc.seccompProfile, child(path, 'seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of list<string>(sc.capabilities?.add)) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...appArmorErrors(sc.appArmorProfile, child(path, 'appArmorProfile')));
  return errs;
}

/** validateContainerCommon: what every kind of container must satisfy. */
function containerCommonErrors(ctr: Obj, volumes: Map<string, Obj>, path: string, hostUsers: boolean, ephemeral = false): FieldError[] {
  const errs: FieldError[] = [];
  const namePath = child(path, 'name');
  if (!ctr.name) errs.push(required(namePath));
  else if (typeof ctr.name === 'string') errs.push(...dns1123LabelErrors(ctr.name, namePath));
  // Templates need an image too; only the whitespace check is for pods alone.
  if (!ctr.image) errs.push(required(child(path, 'image')));
  switch (ctr.terminationMessagePolicy) {
    case 'File': case 'FallbackToLogsOnError': break;
    case '': case undefined: case null: errs.push(required(child(path, 'terminationMessagePolicy'))); break;
    default: errs.push(notSupported(child(path, 'terminationMessagePolicy'), ctr.terminationMessagePolicy, TERMINATION_MESSAGE_POLICIES));
  }
  errs.push(...containerPortErrors(ctr.ports, child(path, 'ports')));
  errs.push(...envErrors(ctr.env, child(path, 'env')));
  errs.push(...envFromErrors(ctr.envFrom, child(path, 'envFrom')));
  errs.push(...volumeMountErrors(ctr, volumes, child(path, 'volumeMounts'), ephemeral));
  errs.push(...volumeDeviceErrors(ctr, volumes, child(path, 'volumeDevices')));
  const pull = ctr.imagePullPolicy;
  if (!pull) errs.push(required(child(path, 'imagePullPolicy')));
  else if (!PULL_POLICIES.includes(pull)) errs.push(notSupported(child(path, 'imagePullPolicy'), pull, PULL_POLICIES));
  errs.push(...resourceRequirementsErrors(ctr.resources, child(path, 'resources')));
  errs.push(...securityContextErrors(ctr.securityContext, child(path, 'securityContext'), hostUsers));
  return errs;
}

/** AccumulateUniqueHostPorts: one protocol/hostIP/hostPort triple per pod. */
function hostPortConflictErrors(containers: Obj[], path: string, seen: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((ctr, ci) => {
    list(ctr.ports).forEach((p, pi) => {
      if (!p.hostPort) return;
      const id = `${p.protocol ?? ''}/${p.hostIP ?? ''}/${p.hostPort}`;
      if (seen.has(id)) errs.push(duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), id));
      else seen.add(id);
    });
  });
  return errs;
}

function containersErrors(containers: unknown, volumes: Map<string, Obj>, grace: number | undefined, path: string, hostUsers: boolean, names: Set<string>): FieldError[] {
  const ctrs = list(containers);
  if (Array.isArray(containers) && ctrs.length === 0) return [required(path)];
  const errs: FieldError[] = [];
  ctrs.forEach((ctr, i) => {
    const at = index(path, i);
    errs.push(...containerCommonErrors(ctr, volumes, at, hostUsers));
    if (names.has(ctr.name)) errs.push(duplicate(child(at, 'name'), ctr.name));
    else names.add(ctr.name);
    errs.push(...lifecycleErrors(ctr.lifecycle, grace, child(at, 'lifecycle')));
    errs.push(...probeErrors(ctr.livenessProbe, grace, child(at, 'livenessProbe'), 'liveness'));
    errs.push(...probeErrors(ctr.readinessProbe, grace, child(at, 'readinessProbe'), 'readiness'));
    errs.push(...probeErrors(ctr.startupProbe, grace, child(at, 'startupProbe'), 'startup'));
    if (ctr.restartPolicy !== undefined) errs.push(forbidden(child(at, 'restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...hostPortConflictErrors(ctrs, path, new Set()));
  return errs;
}

function initContainersErrors(containers: unknown, volumes: Map<string, Obj>, grace: number | undefined, path: string, hostUsers: boolean, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  list(containers).forEach((ctr, i) => {
    const at = index(path, i);
    errs.push(...containerCommonErrors(ctr, volumes, at, hostUsers));
    let always = false;
    if (ctr.restartPolicy !== undefined) {
      if (ctr.restartPolicy !== 'Always') errs.push(notSupported(child(at, 'restartPolicy'), ctr.restartPolicy, ['Always']));
      always = ctr.restartPolicy === 'Always';
    }
    if (names.has(ctr.name)) errs.push(duplicate(child(at, 'name'), ctr.name));
    else if (ctr.name) names.add(ctr.name);
    errs.push(...hostPortConflictErrors([ctr], path, new Set()));
    if (always) {
      errs.push(...lifecycleErrors(ctr.lifecycle, grace, child(at, 'lifecycle')));
      errs.push(...probeErrors(ctr.livenessProbe, grace, child(at, 'livenessProbe'), 'liveness'));
      errs.push(...probeErrors(ctr.readinessProbe, grace, child(at, 'readinessProbe'), 'readiness'));
      errs.push(...probeErrors(ctr.startupProbe, grace, child(at, 'startupProbe'), 'startup'));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (ctr[f] !== undefined && ctr[f] !== null) errs.push(forbidden(child(at, f), 'may not be set for init containers without restartPolicy=Always'));
      }
    }
  });
  return errs;
}

function ephemeralContainersErrors(containers: unknown, volumes: Map<string, Obj>, path: string, hostUsers: boolean, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  list(containers).forEach((ctr, i) => {
    const at = index(path, i);
    errs.push(...containerCommonErrors(ctr, volumes, at, hostUsers, true));
    if (names.has(ctr.name)) errs.push(duplicate(child(at, 'name'), ctr.name));
    else names.add(ctr.name);
    for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe', 'ports', 'resources', 'resizePolicy', 'restartPolicy']) {
      const v = ctr[f];
      const set = Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : v !== undefined && v !== null;
      if (set) errs.push(forbidden(child(at, f), 'cannot be set for an Ephemeral Container'));
    }
  });
  return errs;
}

// ---- scheduling ----

function nodeSelectorRequirementErrors(rq: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = list<string>(rq.values);
  switch (rq.operator) {
    case 'In': case 'NotIn':
      if (values.length === 0) errs.push(required(child(path, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists': case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(child(path, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt': case 'Lt':
      if (values.length !== 1) errs.push(required(child(path, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalid(child(path, 'operator'), rq.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(String(rq.key ?? ''), child(path, 'key')));
  return errs;
}

function nodeFieldRequirementErrors(rq: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = list<string>(rq.values);
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(child(path, 'values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(child(path, 'operator'), rq.operator ?? '', 'not a valid selector operator'));
  }
  if (rq.key !== 'metadata.name') errs.push(invalid(child(path, 'key'), rq.key ?? '', 'not a valid field selector key'));
  else values.forEach((v, i) => errs.push(...isDNS1123Subdomain(v).map((m) => invalid(index(child(path, 'values'), i), v, m))));
  return errs;
}

export function nodeSelectorTermErrors(term: Obj | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(term?.matchExpressions).forEach((rq, j) => errs.push(...nodeSelectorRequirementErrors(rq, index(child(path, 'matchExpressions'), j))));
  list(term?.matchFields).forEach((rq, j) => errs.push(...nodeFieldRequirementErrors(rq, index(child(path, 'matchFields'), j))));
  return errs;
}

export function nodeSelectorErrors(sel: Obj, path: string): FieldError[] {
  const terms = list(sel.nodeSelectorTerms);
  const termPath = child(path, 'nodeSelectorTerms');
  if (terms.length === 0) return [required(termPath, 'must have at least one node selector term')];
  return terms.flatMap((t, i) => nodeSelectorTermErrors(t, index(termPath, i)));
}

function podAffinityTermErrors(term: Obj, path: string): FieldError[] {
  const errs = [...validateLabelSelector(term.labelSelector, child(path, 'labelSelector')), ...validateLabelSelector(term.namespaceSelector, child(path, 'namespaceSelector'))];
  for (const ns of list<string>(term.namespaces)) errs.push(...dns1123LabelErrors(ns, child(path, 'namespace')));
  if (!term.topologyKey) errs.push(required(child(path, 'topologyKey'), 'can not be empty'));
  errs.push(...validateLabelName(String(term.topologyKey ?? ''), child(path, 'topologyKey')));
  return errs;
}

function weightErrors(weight: unknown, path: string): FieldError[] {
  const w = Number(weight ?? 0);
  return w <= 0 || w > 100 ? [invalid(path, w, 'must be in the range 1-100')] : [];
}

function affinityErrors(aff: Obj | undefined, path: string): FieldError[] {
  if (!isObj(aff)) return [];
  const errs: FieldError[] = [];
  const na = aff.nodeAffinity;
  if (isObj(na)) {
    const at = child(path, 'nodeAffinity');
    if (isObj(na.requiredDuringSchedulingIgnoredDuringExecution)) errs.push(...nodeSelectorErrors(na.requiredDuringSchedulingIgnoredDuringExecution, child(at, 'requiredDuringSchedulingIgnoredDuringExecution')));
    list(na.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const tp = index(child(at, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
      errs.push(...weightErrors(t.weight, child(tp, 'weight')), ...nodeSelectorTermErrors(t.preference, child(tp, 'preference')));
    });
  }
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    const pa = aff[kind];
    if (!isObj(pa)) continue;
    const at = child(path, kind);
    list(pa.requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => errs.push(...podAffinityTermErrors(t, index(child(at, 'requiredDuringSchedulingIgnoredDuringExecution'), i))));
    list(pa.preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      const tp = index(child(at, 'preferredDuringSchedulingIgnoredDuringExecution'), i);
      errs.push(...weightErrors(t.weight, child(tp, 'weight')), ...podAffinityTermErrors(isObj(t.podAffinityTerm) ? t.podAffinityTerm : {}, child(tp, 'podAffinityTerm')));
    });
  }
  return errs;
}

function tolerationGoValue(t: Obj): string {
  return goStruct('core.Toleration', [
    ['Key', goQuote(t.key ?? '')], ['Operator', goQuote(t.operator ?? '')], ['Value', goQuote(t.value ?? '')],
    ['Effect', goQuote(t.effect ?? '')], ['TolerationSeconds', goPointer('int64', typeof t.tolerationSeconds === 'number')],
  ]);
}

export function tolerationErrors(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(tolerations).forEach((t, i) => {
    const at = index(path, i);
    const k = String(t.key ?? ''), op = String(t.operator ?? ''), value = String(t.value ?? ''), effect = String(t.effect ?? '');
    if (k) errs.push(...validateLabelName(k, child(at, 'key')));
    if (!k && op !== 'Exists') errs.push(invalid(child(at, 'operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    if (typeof t.tolerationSeconds === 'number' && effect !== 'NoExecute') errs.push(invalid(child(at, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    if (op === 'Equal' || op === '') { const m = isValidLabelValue(value); if (m.length) errs.push(invalid(child(at, 'operator'), value, m.join(';'))); }
    else if (op === 'Exists') { if (value) errs.push(errorWithGoValue('FieldValueInvalid', child(at, 'operator'), t, tolerationGoValue(t), "value must be empty when `operator` is 'Exists'")); }
    else errs.push(notSupported(child(at, 'operator'), op, ['Equal', 'Exists']));
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(child(at, 'effect'), effect, TAINT_EFFECTS));
  });
  return errs;
}

function topologySpreadErrors(constraints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const all = list(constraints);
  all.forEach((c, i) => {
    const at = index(path, i);
    if (Number(c.maxSkew ?? 0) <= 0) errs.push(invalid(child(at, 'maxSkew'), Number(c.maxSkew ?? 0), 'must be greater than zero'));
    const tk = String(c.topologyKey ?? '');
    if (!tk) errs.push(required(child(at, 'topologyKey'), 'can not be empty'));
    else { const e = validateLabelName(tk, child(at, 'topologyKey')); if (e.length) errs.push(e[0]); }
    const when = String(c.whenUnsatisfiable ?? '');
    if (!['DoNotSchedule', 'ScheduleAnyway'].includes(when)) errs.push(notSupported(child(at, 'whenUnsatisfiable'), when, ['DoNotSchedule', 'ScheduleAnyway']));
    if (all.slice(i + 1).some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable)) {
      errs.push(duplicate(child(at, '{topologyKey, whenUnsatisfiable}'), `{${tk}, ${when}}`));
    }
    if (typeof c.minDomains === 'number') {
      if (c.minDomains <= 0) errs.push(invalid(child(at, 'minDomains'), c.minDomains, 'must be greater than zero'));
      if (when !== 'DoNotSchedule') errs.push(invalid(child(at, 'minDomains'), c.minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`));
    }
    for (const f of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
      if (typeof c[f] === 'string' && !['Honor', 'Ignore'].includes(c[f])) errs.push(notSupported(child(at, f), c[f], ['Honor', 'Ignore']));
    }
    errs.push(...validateLabelSelector(c.labelSelector, child(at, 'labelSelector')));
  });
  return errs;
}

function dnsConfigErrors(cfg: Obj | undefined, policy: string, path: string): FieldError[] {
  if (policy === 'None') {
    if (!isObj(cfg)) return [required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (list(cfg.nameservers).length === 0) return [required(child(path, 'nameservers'), 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
  }
  if (!isObj(cfg)) return [];
  const errs: FieldError[] = [];
  const ns = list<string>(cfg.nameservers), searches = list<string>(cfg.searches);
  if (ns.length > 3) errs.push(invalid(child(path, 'nameservers'), ns, 'must not have more than 3 nameservers'));
  ns.forEach((n, i) => { for (const m of isValidIP(n)) errs.push(invalid(index(child(path, 'nameservers'), i), n, m)); });
  if (searches.length > 32) errs.push(invalid(child(path, 'searches'), searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) errs.push(invalid(child(path, 'searches'), searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  searches.forEach((s, i) => errs.push(...dns1123SubdomainErrors(s.replace(/\.$/, ''), index(child(path, 'searches'), i))));
  list(cfg.options).forEach((o, i) => { if (!o?.name) errs.push(required(index(child(path, 'options'), i), 'must not be empty')); });
  return errs;
}

/** utilsysctl.GetNamespace, for the two namespaces a pod can share with its host. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const sep = name.search(/[./]/);
  const normalized = sep >= 0 && name[sep] === '/' ? name.replace(/[./]/g, (c) => (c === '/' ? '.' : '/')) : name;
  if (normalized === 'kernel.sem' || ['kernel.shm', 'kernel.msg', 'fs.mqueue.'].some((p) => normalized.startsWith(p))) return 'ipc';
  if (normalized.startsWith('net.')) return 'net';
  return undefined;
}

function hostSysctlError(name: string, spec: Obj, path: string): FieldError | undefined {
  const ns = sysctlNamespace(name);
  if (spec.hostNetwork === true && ns === 'net') return invalid(path, name, "may not be specified when 'hostNetwork' is true");
  if (spec.hostIPC === true && ns === 'ipc') return invalid(path, name, "may not be specified when 'hostIPC' is true");
  return undefined;
}

function podSecurityContextErrors(spec: Obj, path: string, oldSpec?: Obj): FieldError[] {
  const sc = spec.securityContext;
  if (!isObj(sc)) return [];
  const errs: FieldError[] = [];
  errs.push(...userOrGroupErrors(sc.fsGroup, child(path, 'fsGroup')), ...userOrGroupErrors(sc.runAsUser, child(path, 'runAsUser')), ...userOrGroupErrors(sc.runAsGroup, child(path, 'runAsGroup')));
  list<number>(sc.supplementalGroups).forEach((g, i) => errs.push(...userOrGroupErrors(g, index(child(path, 'supplementalGroups'), i))));
  if (spec.shareProcessNamespace === true && spec.hostPID === true) errs.push(invalid(child(path, 'shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  const seen = new Set<string>();
  // An update may keep what the old spec already had (AllowNamespacedSysctlsForHostNetAndHostIPC).
  const allowHostSysctls = !!oldSpec && list(oldSpec.securityContext?.sysctls).some((s) => hostSysctlError(String(s?.name ?? ''), oldSpec, '') !== undefined);
  list(sc.sysctls).forEach((s, i) => {
    const at = child(index(child(path, 'sysctls'), i), 'name');
    const name = String(s?.name ?? '');
    if (!name) errs.push(required(at));
    else if (name.length > 253 || !new RegExp(SYSCTL_REGEX).test(name)) errs.push(invalid(at, name, `must have at most 253 characters and match regex ${SYSCTL_REGEX}`));
    else if (seen.has(name)) errs.push(duplicate(at, name));
    const hostErr = allowHostSysctls ? undefined : hostSysctlError(name, spec, at);
    if (hostErr) errs.push(hostErr);
    seen.add(name);
  });
  if (typeof sc.fsGroupChangePolicy === 'string' && !['Always', 'OnRootMismatch'].includes(sc.fsGroupChangePolicy)) {
    errs.push(notSupported(child(path, 'fsGroupChangePolicy'), sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']));
  }
  errs.push(...seccompErrors(sc.seccompProfile, child(path, 'seccompProfile')), ...appArmorErrors(sc.appArmorProfile, child(path, 'appArmorProfile')));
  return errs;
}

function hostNetworkPortErrors(spec: Obj, path: string, isPod: boolean): FieldError[] {
  if (spec.hostNetwork !== true) return [];
  const errs: FieldError[] = [];
  list(spec.containers).forEach((ctr, i) => {
    list(ctr.ports).forEach((p, j) => {
      const hostPort = p.hostPort ?? 0;
      if (!isPod && hostPort === 0) return;
      if (hostPort !== p.containerPort) errs.push(invalid(child(index(child(index(child(path, 'containers'), i), 'ports'), j), 'hostPort'), hostPort, 'must match `containerPort` when `hostNetwork` is true'));
    });
  });
  return errs;
}

/** ValidatePodSpec. */
export function podSpecErrors(spec: Obj, path: string, ctx: PodSpecContext): FieldError[] {
  const errs: FieldError[] = [];
  if (typeof spec.terminationGracePeriodSeconds !== 'number') errs.push(required(child(path, 'terminationGracePeriodSeconds'), 'must be set'));
  const grace = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : undefined;
  const hostUsers = spec.hostUsers !== false;
  const vols = validateVolumes(spec.volumes, child(path, 'volumes'), ctx.podName ? { name: ctx.podName } : undefined);
  errs.push(...vols.errs);
  const names = new Set<string>();
  errs.push(...containersErrors(spec.containers, vols.byName, grace, child(path, 'containers'), hostUsers, names));
  errs.push(...initContainersErrors(spec.initContainers, vols.byName, grace, child(path, 'initContainers'), hostUsers, names));
  errs.push(...ephemeralContainersErrors(spec.ephemeralContainers, vols.byName, child(path, 'ephemeralContainers'), hostUsers, names));
  errs.push(...hostNetworkPortErrors(spec, path, ctx.isPod));
  const restart = spec.restartPolicy;
  if (!restart) errs.push(required(child(path, 'restartPolicy')));
  else if (!RESTART_POLICIES.includes(restart)) errs.push(notSupported(child(path, 'restartPolicy'), restart, RESTART_POLICIES));
  const dns = spec.dnsPolicy;
  if (!dns) errs.push(required(child(path, 'dnsPolicy')));
  else if (!DNS_POLICIES.includes(dns)) errs.push(notSupported(child(path, 'dnsPolicy'), dns, DNS_POLICIES));
  errs.push(...validateLabels(spec.nodeSelector, child(path, 'nodeSelector')));
  errs.push(...podSecurityContextErrors(spec, child(path, 'securityContext'), ctx.oldSpec));
  errs.push(...affinityErrors(spec.affinity, child(path, 'affinity')));
  errs.push(...dnsConfigErrors(spec.dnsConfig, String(dns ?? ''), child(path, 'dnsConfig')));
  list(spec.readinessGates).forEach((g, i) => errs.push(...qualifiedNameErrors(String(g?.conditionType ?? ''), child(index(child(path, 'readinessGates'), i), 'conditionType'))));
  const gates = new Set<string>();
  list(spec.schedulingGates).forEach((g, i) => {
    const at = index(child(path, 'schedulingGates'), i);
    const name = String(g?.name ?? '');
    errs.push(...qualifiedNameErrors(name, at));
    if (gates.has(name)) errs.push(duplicate(at, name));
    gates.add(name);
  });
  errs.push(...topologySpreadErrors(spec.topologySpreadConstraints, child(path, 'topologySpreadConstraints')));
  if (spec.serviceAccountName) errs.push(...dns1123SubdomainErrors(spec.serviceAccountName, child(path, 'serviceAccountName')));
  if (spec.nodeName) errs.push(...dns1123SubdomainErrors(spec.nodeName, child(path, 'nodeName')));
  if (typeof spec.activeDeadlineSeconds === 'number' && (spec.activeDeadlineSeconds < 1 || spec.activeDeadlineSeconds > MAX_INT32)) {
    errs.push(invalid(child(path, 'activeDeadlineSeconds'), spec.activeDeadlineSeconds, inclusiveRangeError(1, MAX_INT32)));
  }
  if (spec.hostname) errs.push(...dns1123LabelErrors(spec.hostname, child(path, 'hostname')));
  if (spec.subdomain) errs.push(...dns1123LabelErrors(spec.subdomain, child(path, 'subdomain')));
  errs.push(...tolerationErrors(spec.tolerations, child(path, 'tolerations')));
  list(spec.hostAliases).forEach((a, i) => {
    const at = index(child(path, 'hostAliases'), i);
    for (const m of isValidIP(String(a?.ip ?? ''))) errs.push(invalid(child(at, 'ip'), a?.ip ?? '', m));
    list<string>(a?.hostnames).forEach((h, j) => errs.push(...dns1123SubdomainErrors(h, index(child(at, 'hostnames'), j))));
  });
  if (spec.priorityClassName) errs.push(...dns1123SubdomainErrors(spec.priorityClassName, child(path, 'priorityClassName')));
  if (typeof spec.runtimeClassName === 'string') errs.push(...dns1123SubdomainErrors(spec.runtimeClassName, child(path, 'runtimeClassName')));
  if (typeof spec.preemptionPolicy === 'string' && !['PreemptLowerPriority', 'Never'].includes(spec.preemptionPolicy)) {
    errs.push(notSupported(child(path, 'preemptionPolicy'), spec.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
  }
  // validateOverhead reuses the container checks with the overhead as limits (paths spec.overhead.limits[...]).
  if (isObj(spec.overhead)) errs.push(...resourceRequirementsErrors({ limits: spec.overhead }, child(path, 'overhead')));
  if (isObj(spec.os)) errs.push(...osErrors(spec, path));
  return errs;
}

/** validateOS, then validateLinux or validateWindows: the security settings the other OS has no use for. */
function osErrors(spec: Obj, path: string): FieldError[] {
  const name = spec.os.name;
  if (!name) return [required(child(child(path, 'os'), 'name'), 'cannot be empty')];
  if (!['linux', 'windows'].includes(name)) return [notSupported(child(path, 'os'), name, ['linux', 'windows'])];
  return name === 'linux' ? linuxOnlyErrors(spec, path) : windowsOnlyErrors(spec, path);
}

/** Container paths as Kubernetes visits them: init containers, containers, then ephemeral containers. */
function eachContainerPath(spec: Obj, path: string): [Obj, string][] {
  const out: [Obj, string][] = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    list(spec[field]).forEach((c, i) => { if (isObj(c)) out.push([c, index(child(path, field), i)]); });
  }
  return out;
}

const has = (v: unknown) => v !== undefined && v !== null;

function linuxOnlyErrors(spec: Obj, path: string): FieldError[] {
  const message = 'windows options cannot be set for a linux pod';
  const errs: FieldError[] = [];
  if (has(spec.securityContext?.windowsOptions)) errs.push(forbidden(child(child(path, 'securityContext'), 'windowsOptions'), message));
  for (const [c, at] of eachContainerPath(spec, path)) {
    if (has(c.securityContext?.windowsOptions)) errs.push(forbidden(child(child(at, 'securityContext'), 'windowsOptions'), message));
  }
  return errs;
}

const WINDOWS_FORBIDDEN_POD_SECURITY = ['appArmorProfile', 'seLinuxOptions', 'hostUsers', 'hostPID', 'hostIPC', 'seccompProfile', 'fsGroup', 'fsGroupChangePolicy', 'sysctls', 'shareProcessNamespace', 'runAsUser', 'runAsGroup', 'supplementalGroups', 'supplementalGroupsPolicy', 'seLinuxChangePolicy'];
const WINDOWS_FORBIDDEN_CONTAINER_SECURITY = ['appArmorProfile', 'seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup'];

function windowsOnlyErrors(spec: Obj, path: string): FieldError[] {
  const message = 'cannot be set for a windows pod';
  const errs: FieldError[] = [];
  const sc = isObj(spec.securityContext) ? spec.securityContext : {};
  const scPath = child(path, 'securityContext');
  for (const f of WINDOWS_FORBIDDEN_POD_SECURITY) {
    // Kubernetes keeps the host namespaces and process sharing in the pod's internal security context;
    // they are spec fields in v1, and are set when true (hostPID, hostIPC) or when present at all.
    switch (f) {
      case 'hostPID': case 'hostIPC': if (spec[f] === true) errs.push(forbidden(child(path, f), message)); break;
      case 'hostUsers': case 'shareProcessNamespace': if (has(spec[f])) errs.push(forbidden(child(path, f), message)); break;
      case 'sysctls': if (list(sc.sysctls).length > 0) errs.push(forbidden(child(scPath, f), message)); break;
      default: if (has(sc[f])) errs.push(forbidden(child(scPath, f), message));
    }
  }
  for (const [c, at] of eachContainerPath(spec, path)) {
    if (!isObj(c.securityContext)) continue;
    for (const f of WINDOWS_FORBIDDEN_CONTAINER_SECURITY) if (has(c.securityContext[f])) errs.push(forbidden(child(child(at, 'securityContext'), f), message));
  }
  return errs;
}

/** ValidatePodTemplateSpec: a workload's template (no pod name; image may be left to tooling). */
export function podTemplateSpecErrors(tpl: Obj | undefined, path: string): FieldError[] {
  const t = isObj(tpl) ? tpl : {};
  const meta = isObj(t.metadata) ? t.metadata : {};
  const spec = isObj(t.spec) ? t.spec : {};
  const errs = [...validateLabels(meta.labels, child(path, 'labels')), ...validateAnnotations(meta.annotations, child(path, 'annotations'))];
  errs.push(...podTemplateAnnotationErrors(t, path));
  errs.push(...podSpecErrors(spec, child(path, 'spec'), { isPod: false }));
  if (list(spec.ephemeralContainers).length > 0) errs.push(forbidden(child(child(path, 'spec'), 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  return errs;
}

/**
 * ValidatePodSpecificAnnotations of a template's annotations (the mirror pod marker, the deletion cost, the
 * deprecated seccomp and AppArmor annotations), named under `path` (`spec.template`) as Kubernetes names them.
 */
export function podTemplateAnnotationErrors(tpl: Obj, path: string, allowInvalidDeletionCost = false): FieldError[] {
  const errs = podAnnotationErrors(tpl.metadata?.annotations, isObj(tpl.spec) ? tpl.spec : {}, allowInvalidDeletionCost);
  return errs.map((e) => ({ ...e, field: e.field.replace(/^metadata\.annotations/, `${path}.annotations`) }));
}

/** The checks a pod gets beyond its spec (validatePodMetadataAndSpec, validateContainersOnlyForPod). */
export function podOnlyErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.serviceAccountName) {
    list(spec.volumes).forEach((v, vi) => {
      list(v?.projected?.sources).forEach((s, si) => {
        if (isObj(s?.serviceAccountToken)) errs.push(forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
      });
    });
  }
  for (const field of ['containers', 'initContainers']) {
    list(spec[field]).forEach((ctr, i) => {
      const image = String(ctr.image ?? '');
      if (image.trim() !== image) errs.push(invalid(`spec.${field}[${i}].image`, image, 'must not have leading or trailing whitespace'));
    });
  }
  return errs;
}

/** ValidatePodCreate's additions. */
export function podCreateErrors(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (list(spec.ephemeralContainers).length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (spec.nodeName && list(spec.schedulingGates).length > 0) errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  return errs;
}

const UPDATABLE_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
].join(',');

/** A line per top-level spec field that differs, in the spirit of the diff Kubernetes appends. */
function specDiff(oldSpec: Obj, newSpec: Obj): string {
  const lines: string[] = ['  core.PodSpec{'];
  for (const k of [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])].sort()) {
    if (deepEqual(oldSpec[k], newSpec[k])) continue;
    lines.push(`-   ${k}: ${JSON.stringify(oldSpec[k])},`, `+   ${k}: ${JSON.stringify(newSpec[k])},`);
  }
  lines.push('  }');
  return lines.join('\n');
}

function goStringMap(m: Record<string, string> | undefined): string {
  if (!isObj(m)) return 'map[string]string(nil)';
  return `map[string]string{${Object.keys(m).sort().map((k) => `${goQuote(k)}:${goQuote(String(m[k]))}`).join(', ')}}`;
}

function nodeSelectorMutationErrors(now: Record<string, string> | undefined, before: Record<string, string> | undefined): FieldError[] {
  for (const [k, v] of Object.entries(before ?? {})) {
    if (!isObj(now) || now[k] !== v) {
      return [errorWithGoValue('FieldValueInvalid', 'spec.nodeSelector', now ?? null, goStringMap(now), 'only additions to spec.nodeSelector are allowed (no mutations or deletions)')];
    }
  }
  return [];
}

/** ValidatePodUpdate's rules on what a pod's spec may change. */
export function podUpdateErrors(spec: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['containers', 'initContainers']) {
    const now = list(spec[field]), before = list(old[field]);
    if (now.length !== before.length) return [...errs, forbidden(`spec.${field}`, 'pod updates may not add or remove containers')];
  }
  const ads = spec.activeDeadlineSeconds, oldAds = old.activeDeadlineSeconds;
  if (typeof ads === 'number') {
    if (ads < 0 || ads > MAX_INT32) return [...errs, invalid('spec.activeDeadlineSeconds', ads, inclusiveRangeError(0, MAX_INT32))];
    if (typeof oldAds === 'number' && oldAds < ads) return [...errs, invalid('spec.activeDeadlineSeconds', ads, 'must be less than or equal to previous value')];
  } else if (typeof oldAds === 'number') {
    errs.push(invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  const newTol = list(spec.tolerations);
  for (const t of list(old.tolerations)) {
    const found = newTol.some((n) => deepEqual({ ...t, tolerationSeconds: n.tolerationSeconds }, n));
    if (!found) { errs.push(forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds')); break; }
  }
  const oldGates = new Set(list(old.schedulingGates).map((g) => g?.name));
  list(spec.schedulingGates).forEach((g, i) => {
    if (!oldGates.has(g?.name)) errs.push(forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${g?.name}'`));
  });
  if (deepEqual(spec, old)) return errs;
  // Compare with the fields an update may change put back to their old values.
  const munged: Obj = structuredClone(spec);
  for (const field of ['containers', 'initContainers']) {
    if (Array.isArray(munged[field])) munged[field] = munged[field].map((c: Obj, i: number) => ({ ...c, image: old[field][i]?.image }));
  }
  if (typeof oldAds === 'number') munged.activeDeadlineSeconds = oldAds; else delete munged.activeDeadlineSeconds;
  for (const field of ['schedulingGates', 'tolerations']) { if (old[field] === undefined) delete munged[field]; else munged[field] = old[field]; }
  if (typeof old.terminationGracePeriodSeconds === 'number' && old.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = old.terminationGracePeriodSeconds;
  }
  // A pod still gated may gain node selectors (mutable scheduling directives), but not lose or change them.
  if (list(old.schedulingGates).length > 0 && !deepEqual(munged.nodeSelector ?? {}, old.nodeSelector ?? {})) {
    errs.push(...nodeSelectorMutationErrors(munged.nodeSelector, old.nodeSelector));
    if (old.nodeSelector === undefined) delete munged.nodeSelector; else munged.nodeSelector = old.nodeSelector;
  }
  if (!deepEqual(munged, old)) errs.push(forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_FIELDS}\n${specDiff(old, munged)}`));
  return errs;
}
