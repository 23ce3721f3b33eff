// The warnings Kubernetes sends back when a pod or a workload's pod template is written (pkg/api/pod's
// GetWarningsForPod and GetWarningsForPodTemplate, and the strategies' name checks): deprecated node labels,
// annotations and volume plugins, fractional byte quantities, duplicates that apply would drop, ports that
// collide, and settings that have no effect. Warnings never refuse a write.
import type { ApiObject } from '../meta/v1.ts';
import { goQuote } from '../../machinery/go-format.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { isDNS1123Label } from '../../machinery/validation/strings.ts';
import { deprecatedNodeLabelMessage, nodeSelectorTermWarnings } from './node-label-warnings.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const isSet = (v: unknown) => v !== undefined && v !== null;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);

export const SECCOMP_POD_ANNOTATION = 'seccomp.security.alpha.platform.io/pod';
export const SECCOMP_CONTAINER_ANNOTATION_PREFIX = 'container.seccomp.security.alpha.platform.io/';
export const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.platform.io/';

const APPARMOR_DEPRECATED = 'deprecated since v1.30; use the "appArmorProfile" field instead';
const SECCOMP_DEPRECATED = 'non-functional in v1.27+; use the "seccompProfile" field instead';

/** Annotations that no longer do anything, with what Kubernetes says of each. */
const DEPRECATED_ANNOTATIONS: [key: string, message: string][] = [
  ['scheduler.alpha.platform.io/critical-pod', 'non-functional in v1.16+; use the "priorityClassName" field instead'],
  ['security.alpha.platform.io/sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
  ['security.alpha.platform.io/unsafe-sysctls', 'non-functional in v1.11+; use the "sysctls" field instead'],
];

/** Volume plugins that are deprecated or gone, in the order Kubernetes checks them (ephemeral sits between glusterfs and cephfs). */
const PLUGINS_BEFORE_EPHEMERAL: [source: string, note: string][] = [
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['gitRepo', 'deprecated in v1.11'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['flocker', 'deprecated in v1.22, non-functional in v1.25+'],
  ['storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['quobyte', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
];
const PLUGINS_AFTER_EPHEMERAL: [source: string, note: string][] = [
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

/** A field path under an optional prefix (a template's `spec.template`; nothing for a pod). */
const under = (prefix: string, rest: string) => (prefix ? `${prefix}.${rest}` : rest);

/** `<path>: fractional byte value "<q>" is invalid, must be an integer` when a byte quantity has a fraction. */
function fractionalByteWarning(path: string, value: unknown): string[] {
  if (!isSet(value)) return [];
  try {
    const q = quantityFromJSON(value);
    return q.milliValue() % 1000 !== 0 ? [`${path}: fractional byte value ${goQuote(q.toString())} is invalid, must be an integer`] : [];
  } catch {
    return [];
  }
}

/** The containers of a spec with their paths, in Kubernetes' visiting order (init, regular, ephemeral). */
function containersWithPaths(spec: Obj, specPath: string): [Obj, string][] {
  const out: [Obj, string][] = [];
  for (const field of ['initContainers', 'containers', 'ephemeralContainers']) {
    list(spec[field]).forEach((c, i) => out.push([c, `${specPath}.${field}[${i}]`]));
  }
  return out;
}

/** pvcutil.GetWarningsForPersistentVolumeClaimSpec: fractional storage requests and limits. */
export function claimSpecWarnings(spec: Obj | undefined, path: string): string[] {
  const resources = isObj(spec?.resources) ? spec.resources : {};
  return [
    ...fractionalByteWarning(`${path}.resources.requests[storage]`, resources.requests?.storage),
    ...fractionalByteWarning(`${path}.resources.limits[storage]`, resources.limits?.storage),
  ];
}

function nodeWarnings(spec: Obj, prefix: string): string[] {
  const warnings: string[] = [];
  const specPath = under(prefix, 'spec');
  for (const key of Object.keys(isObj(spec.nodeSelector) ? spec.nodeSelector : {})) {
    const note = deprecatedNodeLabelMessage(key);
    if (note) warnings.push(`${specPath}.nodeSelector[${key}]: ${note}`);
  }
  const nodeAffinity = spec.affinity?.nodeAffinity;
  if (isObj(nodeAffinity)) {
    const affinityPath = `${specPath}.affinity.nodeAffinity`;
    list(nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).forEach((term, i) => {
      warnings.push(...nodeSelectorTermWarnings(term, `${affinityPath}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`));
    });
    list(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution).forEach((term, i) => {
      warnings.push(...nodeSelectorTermWarnings(term.preference, `${affinityPath}.preferredDuringSchedulingIgnoredDuringExecution[${i}].preference`));
    });
  }
  list(spec.topologySpreadConstraints).forEach((c, i) => {
    const path = `${specPath}.topologySpreadConstraints[${i}]`;
    const note = deprecatedNodeLabelMessage(String(c.topologyKey ?? ''));
    if (note) warnings.push(`${path}.topologyKey: ${c.topologyKey} is ${note}`);
    if (!isSet(c.labelSelector)) warnings.push(`${path}.labelSelector: a null labelSelector results in matching no pod`);
  });
  return warnings;
}

function volumeWarnings(spec: Obj, prefix: string): string[] {
  const warnings: string[] = [];
  const volumes = list(spec.volumes);
  volumes.forEach((v, i) => {
    const path = `${under(prefix, 'spec')}.volumes[${i}]`;
    for (const [source, note] of PLUGINS_BEFORE_EPHEMERAL) if (isSet(v[source])) warnings.push(`${path}.${source}: ${note}`);
    const claimTemplate = v.ephemeral?.volumeClaimTemplate;
    if (isObj(claimTemplate)) warnings.push(...claimSpecWarnings(claimTemplate.spec, `${path}.ephemeral.volumeClaimTemplate.spec`));
    for (const [source, note] of PLUGINS_AFTER_EPHEMERAL) if (isSet(v[source])) warnings.push(`${path}.${source}: ${note}`);
  });

  // A projected file at a service account token's path would be shadowed by (or shadow) the token.
  const tokenPaths = new Set<string>();
  for (const v of volumes) for (const s of list(v.projected?.sources)) if (isObj(s.serviceAccountToken)) tokenPaths.add(String(s.serviceAccountToken.path ?? ''));
  if (tokenPaths.size === 0) return warnings;
  volumes.forEach((v, i) => {
    const sourcesPath = `${under(prefix, 'spec')}.volumes[${i}].projected.sources`;
    for (const s of list(v.projected?.sources)) {
      const clash = (path: unknown) => tokenPaths.has(String(path ?? ''));
      const message = (path: unknown) => `has duplicated path with ServiceAccountToken ${goQuote(String(path ?? ''))}`;
      if (isObj(s.configMap)) list(s.configMap.items).forEach((item, j) => { if (clash(item.path)) warnings.push(`${sourcesPath}.configMap[${j}]: ${message(item.path)}`); });
      if (isObj(s.secret)) list(s.secret.items).forEach((item, j) => { if (clash(item.path)) warnings.push(`${sourcesPath}.secrets[${j}]: ${message(item.path)}`); });
      if (isObj(s.downwardAPI)) list(s.downwardAPI.items).forEach((item, j) => { if (clash(item.path)) warnings.push(`${sourcesPath}.downwardAPI[${j}]: ${message(item.path)}`); });
      if (isObj(s.clusterTrustBundle) && clash(s.clusterTrustBundle.path)) warnings.push(`${sourcesPath}.ClusterTrustBundle: ${message(s.clusterTrustBundle.path)}`);
    }
  });
  return warnings;
}

function duplicateListWarnings(spec: Obj, prefix: string): string[] {
  const warnings: string[] = [];
  const specPath = under(prefix, 'spec');
  const ips = new Set<string>();
  list(spec.hostAliases).forEach((alias, i) => {
    const ip = String(alias.ip ?? '');
    if (ips.has(ip)) warnings.push(`${specPath}.hostAliases[${i}].ip: duplicate ip ${goQuote(ip)}`);
    else ips.add(ip);
  });
  const secrets = list(spec.imagePullSecrets);
  const names = new Set<string>();
  secrets.forEach((ref, i) => {
    const name = String(ref.name ?? '');
    if (names.has(name)) warnings.push(`${specPath}.imagePullSecrets[${i}].name: duplicate name ${goQuote(name)}`);
    else names.add(name);
  });
  secrets.forEach((ref, i) => {
    if (!ref.name) warnings.push(`${specPath}.imagePullSecrets[${i}].name: invalid empty name ""`);
  });
  const overhead = isObj(spec.overhead) ? spec.overhead : {};
  warnings.push(...fractionalByteWarning(`${specPath}.overhead[memory]`, overhead.memory));
  warnings.push(...fractionalByteWarning(`${specPath}.overhead[ephemeral-storage]`, overhead['ephemeral-storage']));
  return warnings;
}

/** A second definition of an env var hides the first unless it builds on it (`X=$(X)...`, not just `$(X)`). */
function envWarnings(container: Obj, path: string): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  list(container.env).forEach((item, i) => {
    const name = String(item.name ?? '');
    if (!seen.has(name)) { seen.add(name); return; }
    const value = String(item.value ?? '');
    const ref = `$(${name})`;
    if (isSet(item.valueFrom) || value === ref || !value.includes(ref)) {
      warnings.push(`${path}.env[${i}]: hides previous definition of ${goQuote(name)}, which may be dropped when using apply`);
    }
  });
  return warnings;
}

function containerWarnings(spec: Obj, meta: Obj, prefix: string): string[] {
  const warnings: string[] = [];
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  const annotationsPath = under(prefix, 'metadata.annotations');
  const podAppArmor = isSet(spec.securityContext?.appArmorProfile);
  for (const [c, path] of containersWithPaths(spec, under(prefix, 'spec'))) {
    const name = String(c.name ?? '');
    if (!isSet(c.securityContext?.seccompProfile) && Object.hasOwn(annotations, SECCOMP_CONTAINER_ANNOTATION_PREFIX + name)) {
      warnings.push(`${annotationsPath}[${SECCOMP_CONTAINER_ANNOTATION_PREFIX}${name}]: ${SECCOMP_DEPRECATED}`);
    }
    // A pod reports its AppArmor annotations when it is created (appArmorCreateWarnings); a template here.
    if (prefix && !podAppArmor && !isSet(c.securityContext?.appArmorProfile) && Object.hasOwn(annotations, APPARMOR_ANNOTATION_PREFIX + name)) {
      warnings.push(`${annotationsPath}[${APPARMOR_ANNOTATION_PREFIX}${name}]: ${APPARMOR_DEPRECATED}`);
    }
    const resources = isObj(c.resources) ? c.resources : {};
    warnings.push(...fractionalByteWarning(`${path}.resources.limits[memory]`, resources.limits?.memory));
    warnings.push(...fractionalByteWarning(`${path}.resources.requests[memory]`, resources.requests?.memory));
    warnings.push(...fractionalByteWarning(`${path}.resources.limits[ephemeral-storage]`, resources.limits?.['ephemeral-storage']));
    warnings.push(...fractionalByteWarning(`${path}.resources.requests[ephemeral-storage]`, resources.requests?.['ephemeral-storage']));
    warnings.push(...envWarnings(c, path));
  }
  return warnings;
}

/** Go's `%+v` of a core.ContainerPort. */
function goContainerPort(p: Obj): string {
  return `{Name:${p.name ?? ''} HostPort:${p.hostPort ?? 0} ContainerPort:${p.containerPort ?? 0} Protocol:${p.protocol ?? ''} HostIP:${p.hostIP ?? ''}}`;
}

/** Ports across all containers that repeat or overlap one another, and host IPs without a host port. */
function portWarnings(spec: Obj, prefix: string): string[] {
  const warnings: string[] = [];
  const seen = new Map<string, { path: string; hostIP: string; hostPort: number }[]>();
  for (const [c, containerPath] of containersWithPaths(spec, under(prefix, 'spec'))) {
    list(c.ports).forEach((port, i) => {
      const path = `${containerPath}.ports[${i}]`;
      const hostIP = String(port.hostIP ?? ''), hostPort = Number(port.hostPort ?? 0);
      if (hostIP !== '' && hostPort === 0) warnings.push(`${path}: hostIP set without hostPort: ${goContainerPort(port)}`);
      const key = `${port.containerPort ?? 0}/${port.protocol ?? ''}`;
      const others = seen.get(key) ?? [];
      for (const other of others) {
        if (hostIP === other.hostIP && hostPort === other.hostPort) warnings.push(`${path}: duplicate port definition with ${other.path}`);
        else if (hostPort === 0 || other.hostPort === 0) warnings.push(`${path}: overlapping port definition with ${other.path}`);
        else if (hostPort === other.hostPort && (hostIP === '') !== (other.hostIP === '')) warnings.push(`${path}: dangerously ambiguous port definition with ${other.path}`);
      }
      seen.set(key, [...others, { path, hostIP, hostPort }]);
    });
  }
  return warnings;
}

function podAffinityWarnings(spec: Obj, prefix: string): string[] {
  const warnings: string[] = [];
  const affinity = isObj(spec.affinity) ? spec.affinity : {};
  for (const kind of ['podAffinity', 'podAntiAffinity']) {
    if (!isObj(affinity[kind])) continue;
    const path = `${under(prefix, 'spec')}.affinity.${kind}`;
    list(affinity[kind].requiredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      if (!isSet(t.labelSelector)) warnings.push(`${path}.requiredDuringSchedulingIgnoredDuringExecution[${i}].labelSelector: a null labelSelector results in matching no pod`);
    });
    list(affinity[kind].preferredDuringSchedulingIgnoredDuringExecution).forEach((t, i) => {
      if (!isSet(t.podAffinityTerm?.labelSelector)) warnings.push(`${path}.preferredDuringSchedulingIgnoredDuringExecution[${i}].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod`);
    });
  }
  return warnings;
}

/** warningsForPodSpecAndMeta: `prefix` is where the template sits (`spec.template`), empty for a pod. */
function specAndMetaWarnings(spec: Obj, meta: Obj, prefix: string): string[] {
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  const annotationsPath = under(prefix, 'metadata.annotations');
  const warnings = nodeWarnings(spec, prefix);
  for (const [key, message] of DEPRECATED_ANNOTATIONS) {
    if (Object.hasOwn(annotations, key)) warnings.push(`${annotationsPath}[${key}]: ${message}`);
  }
  warnings.push(...volumeWarnings(spec, prefix), ...duplicateListWarnings(spec, prefix));
  if (!isSet(spec.securityContext?.seccompProfile) && Object.hasOwn(annotations, SECCOMP_POD_ANNOTATION)) {
    warnings.push(`${annotationsPath}[${SECCOMP_POD_ANNOTATION}]: ${SECCOMP_DEPRECATED}`);
  }
  warnings.push(...containerWarnings(spec, meta, prefix), ...portWarnings(spec, prefix));
  if (typeof spec.terminationGracePeriodSeconds === 'number' && spec.terminationGracePeriodSeconds < 0) {
    warnings.push(`${under(prefix, 'spec.terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`);
  }
  warnings.push(...podAffinityWarnings(spec, prefix));
  return warnings;
}

/** The AppArmor profile an annotation value stands for, or undefined for a value that names none. */
function appArmorProfileFor(annotation: string): Obj | undefined {
  if (annotation === 'unconfined') return { type: 'Unconfined' };
  if (annotation === 'runtime/default') return { type: 'RuntimeDefault' };
  if (annotation.startsWith('localhost/')) {
    const profile = annotation.slice('localhost/'.length);
    if (profile.trim() !== '') return { type: 'Localhost', localhostProfile: profile };
  }
  return undefined;
}

const sameProfile = (a: Obj | undefined, b: unknown) =>
  isObj(b) && a?.type === b.type && (a?.localhostProfile ?? undefined) === (b.localhostProfile ?? undefined);

/**
 * applyAppArmorVersionSkew's warnings: a new (non-Windows) pod's AppArmor annotation for a container without
 * its own profile field warns unless it names exactly the pod-level profile.
 */
function appArmorCreateWarnings(spec: Obj, meta: Obj): string[] {
  if (spec.os?.name === 'windows') return [];
  const annotations = isObj(meta.annotations) ? meta.annotations : {};
  const podProfile = spec.securityContext?.appArmorProfile;
  const warnings: string[] = [];
  for (const [c] of containersWithPaths(spec, 'spec')) {
    const key = APPARMOR_ANNOTATION_PREFIX + String(c.name ?? '');
    if (!Object.hasOwn(annotations, key) || isSet(c.securityContext?.appArmorProfile)) continue;
    const derived = appArmorProfileFor(String(annotations[key]));
    if (!derived || !sameProfile(derived, podProfile)) warnings.push(`metadata.annotations[${key}]: ${APPARMOR_DEPRECATED}`);
  }
  return warnings;
}

/** GetWarningsForPodTemplate: a workload's pod template at `prefix` (e.g. `spec.template`). */
export function podTemplateWarnings(template: unknown, prefix: string): string[] {
  if (!isObj(template)) return [];
  return specAndMetaWarnings(isObj(template.spec) ? template.spec : {}, isObj(template.metadata) ? template.metadata : {}, prefix);
}

/** The pod strategy's WarningsOnCreate (Kubernetes gives none on a pod's update). */
export function podCreateWarnings(pod: ApiObject): string[] {
  const spec = isObj(pod.spec) ? pod.spec : {};
  const meta = pod.metadata as Obj;
  const warnings = appArmorCreateWarnings(spec, meta);
  const nameProblems = isDNS1123Label(String(meta.name ?? ''));
  if (nameProblems.length) {
    warnings.push(`metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${nameProblems.join(' ')}]`);
  }
  warnings.push(...specAndMetaWarnings(spec, meta, ''));
  return warnings;
}

/** A workload's WarningsOnCreate (Deployment, ReplicaSet): its name becomes pods' names, then its template. */
export function workloadCreateWarnings(obj: ApiObject): string[] {
  const warnings: string[] = [];
  const nameProblems = isDNS1123Label(String(obj.metadata.name ?? ''));
  if (nameProblems.length) {
    warnings.push(`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${nameProblems.join(' ')}]`);
  }
  warnings.push(...podTemplateWarnings((obj.spec as Obj | undefined)?.template, 'spec.template'));
  return warnings;
}

/** A workload's WarningsOnUpdate: its template again, only when the update made a new generation. */
export function workloadUpdateWarnings(obj: ApiObject, old: ApiObject): string[] {
  if (obj.metadata.generation === old.metadata.generation) return [];
  return podTemplateWarnings((obj.spec as Obj | undefined)?.template, 'spec.template');
}
