// What Kubernetes v1.32 fills in and drops on a pod spec before validating it: the v1 defaulters
// (SetDefaults_PodSpec, _Container, _Probe, _Volume and friends; SetDefaults_Pod for pods only), the fields
// of features that are off by default, and the pod's QoS class.
import { canonicalizeResourceList } from './resource-quantity.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { VOLUME_SOURCES } from './volume-schema.ts';
import { defaultClaimSpec } from './persistentvolumeclaim.ts';

type Obj = Record<string, any>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_SCHEDULER = 'default-scheduler';
const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'] as const;

// docker/distribution's reference grammar: [domain[:port]/]path[:tag][@digest].
const REFERENCE = /^((?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}))?$/;

/** The tag an image reference pulls (`latest` when it names neither tag nor digest; '' when unparsable). */
export function imageTag(image: string): string {
  const m = REFERENCE.exec(image);
  if (!m) return '';
  if (!m[2] && !m[3]) return 'latest';
  return m[2] ?? '';
}

function defaultHandler(h: Obj | undefined): void {
  if (!isObj(h?.httpGet)) return;
  h.httpGet.path ||= '/';
  h.httpGet.scheme ||= 'HTTP';
}

function defaultProbe(p: unknown): void {
  if (!isObj(p)) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  defaultHandler(p);
}

function defaultFieldSelectors(item: Obj): void {
  if (isObj(item.fieldRef)) item.fieldRef.apiVersion ||= 'v1';
  // A Quantity is a struct in Go: an unset divisor serializes as "0".
  if (isObj(item.resourceFieldRef)) item.resourceFieldRef.divisor ??= '0';
}

function defaultContainer(c: Obj): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(String(c.image ?? '')) === 'latest' ? 'Always' : 'IfNotPresent';
  c.terminationMessagePath ||= '/dev/termination-log';
  c.terminationMessagePolicy ||= 'File';
  // ResourceRequirements is a struct in Go: always written, `{}` when empty.
  if (!isObj(c.resources)) c.resources = {};
  for (const p of ['livenessProbe', 'readinessProbe', 'startupProbe']) defaultProbe(c[p]);
  if (isObj(c.lifecycle)) { defaultHandler(c.lifecycle.postStart); defaultHandler(c.lifecycle.preStop); }
  for (const ev of list(c.env)) if (isObj(ev.valueFrom)) defaultFieldSelectors(ev.valueFrom);
}

/** A claim template's metadata is a struct in Go: it always serializes, with a null creationTimestamp. */
export function templateMetadata(holder: Obj): void {
  const meta = isObj(holder.metadata) ? holder.metadata : (holder.metadata = {});
  if (meta.creationTimestamp === undefined) meta.creationTimestamp = null;
}

function defaultVolume(v: Obj): void {
  if (!VOLUME_SOURCES.some((k) => isObj(v[k]))) v.emptyDir = {};
  for (const k of ['secret', 'configMap', 'downwardAPI', 'projected']) if (isObj(v[k])) v[k].defaultMode ??= DEFAULT_FILE_MODE;
  if (isObj(v.hostPath)) v.hostPath.type ??= '';
  if (isObj(v.azureDisk)) {
    v.azureDisk.cachingMode ??= 'ReadWrite';
    v.azureDisk.fsType ??= 'ext4';
    v.azureDisk.readOnly ??= false;
    v.azureDisk.kind ??= 'Shared';
  }
  if (isObj(v.downwardAPI)) for (const item of list(v.downwardAPI.items)) defaultFieldSelectors(item);
  if (isObj(v.projected)) {
    for (const src of list(v.projected.sources)) {
      if (isObj(src.serviceAccountToken)) src.serviceAccountToken.expirationSeconds ??= 3600;
      if (isObj(src.downwardAPI)) for (const item of list(src.downwardAPI.items)) defaultFieldSelectors(item);
    }
  }
  const tpl = v.ephemeral?.volumeClaimTemplate;
  if (isObj(tpl)) {
    templateMetadata(tpl);
    if (isObj(tpl.spec)) defaultClaimSpec(tpl.spec);
  }
}

/** SetDefaults_PodSpec and the defaulters of what it holds: for pods and pod templates alike. */
export function defaultPodSpec(spec: Obj): void {
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  if (!isObj(spec.securityContext)) spec.securityContext = {};
  spec.terminationGracePeriodSeconds ??= 30;
  spec.schedulerName ||= DEFAULT_SCHEDULER;
  // serviceAccount is the deprecated alias: it fills serviceAccountName and always reads back as it.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  for (const field of CONTAINER_LISTS) for (const c of list(spec[field])) defaultContainer(c);
  for (const v of list(spec.volumes)) defaultVolume(v);
  // Non-pointer fields Go always writes.
  for (const c of list(spec.topologySpreadConstraints)) {
    c.maxSkew ??= 0;
    c.topologyKey ??= '';
    c.whenUnsatisfiable ??= '';
  }
}

/** SetDefaults_Pod: what only a pod (not a template) gets. */
export function defaultPodOnly(spec: Obj): void {
  for (const field of ['containers', 'initContainers']) {
    for (const c of list(spec[field])) {
      const limits = c.resources?.limits;
      if (!isObj(limits)) continue;
      const requests = isObj(c.resources.requests) ? c.resources.requests : (c.resources.requests = {});
      for (const [name, q] of Object.entries(limits)) if (!Object.hasOwn(requests, name)) requests[name] = q;
    }
  }
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork === true) {
    for (const field of ['containers', 'initContainers']) {
      for (const c of list(spec[field])) for (const p of list(c.ports)) if (!p.hostPort) p.hostPort = p.containerPort;
    }
  }
}

/** Pod status entries Go writes with their zero values. */
export function defaultPodStatus(status: Obj | undefined): void {
  if (!isObj(status)) return;
  for (const field of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses']) {
    for (const s of list(status[field])) {
      s.ready ??= false;
      s.restartCount ??= 0;
      s.image ??= '';
      s.imageID ??= '';
      for (const st of [s.state, s.lastState]) if (isObj(st?.terminated)) st.terminated.exitCode ??= 0;
    }
  }
}

const has = (v: unknown) => v !== undefined && v !== null;

/**
 * Fields of features that are off by default in v1.32 (pod-level resources, user namespaces, dynamic
 * resource allocation, supplemental groups policy, SELinux change policy, cluster trust bundle projection,
 * image volumes, in-place resize) are dropped unless the old spec already used them.
 */
export function dropDisabledPodSpecFields(spec: Obj, old: Obj | undefined): void {
  const o = old ?? {};
  if (!has(o.resources)) delete spec.resources;
  if (!has(o.hostUsers)) delete spec.hostUsers;
  if (!list(o.resourceClaims).length) {
    delete spec.resourceClaims;
    for (const field of CONTAINER_LISTS) for (const c of list(spec[field])) if (isObj(c.resources)) delete c.resources.claims;
  }
  if (isObj(spec.securityContext)) {
    if (!has(o.securityContext?.supplementalGroupsPolicy)) delete spec.securityContext.supplementalGroupsPolicy;
    if (!has(o.securityContext?.seLinuxChangePolicy)) delete spec.securityContext.seLinuxChangePolicy;
  }
  const oldVolumes = list(o.volumes);
  const usedCTB = oldVolumes.some((v) => list(v.projected?.sources).some((s) => has(s.clusterTrustBundle)));
  const usedImage = oldVolumes.some((v) => has(v.image));
  for (const v of list(spec.volumes)) {
    if (!usedImage) delete v.image;
    if (!usedCTB && isObj(v.projected)) for (const s of list(v.projected.sources)) delete s.clusterTrustBundle;
  }
  const usedResize = CONTAINER_LISTS.some((f) => list(o[f]).some((c) => list(c.resizePolicy).length > 0));
  if (!usedResize) for (const field of CONTAINER_LISTS) for (const c of list(spec[field])) delete c.resizePolicy;
}

/** The same for status fields of features that are off. */
export function dropDisabledPodStatusFields(status: Obj | undefined, old: Obj | undefined): void {
  if (!isObj(status)) return;
  const o = old ?? {};
  if (!has(o.resize)) delete status.resize;
  if (!list(o.resourceClaimStatuses).length) delete status.resourceClaimStatuses;
  for (const field of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses']) {
    const before = list(o[field]);
    for (const s of list(status[field])) {
      if (!before.some((b) => has(b.resources))) delete s.resources;
      if (!before.some((b) => has(b.allocatedResources))) delete s.allocatedResources;
      if (!before.some((b) => has(b.user))) delete s.user;
      if (!before.some((b) => has(b.allocatedResourcesStatus))) delete s.allocatedResourcesStatus;
    }
  }
}

/** Resource quantities in their canonical form, rounded up to milli precision (SetDefaults_ResourceList). */
export function canonicalizePodSpec(spec: Obj): void {
  for (const field of CONTAINER_LISTS) {
    for (const c of list(spec[field])) {
      canonicalizeResourceList(c.resources?.limits);
      canonicalizeResourceList(c.resources?.requests);
    }
  }
  canonicalizeResourceList(spec.overhead);
}

function positive(q: unknown): boolean {
  try { return quantityFromJSON(q).sign() > 0; } catch { return false; }
}

function sum(a: unknown, b: unknown): string {
  return quantityFromJSON(a).add(quantityFromJSON(b)).toString();
}

/** ComputePodQOS: Guaranteed, Burstable or BestEffort, from the cpu and memory of every container. */
export function podQOSClass(spec: Obj): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const requests: Record<string, string> = {}, limits: Record<string, string> = {};
  let guaranteed = true;
  for (const c of [...list(spec.containers), ...list(spec.initContainers)]) {
    for (const [name, q] of Object.entries(isObj(c.resources?.requests) ? c.resources.requests : {})) {
      if ((name === 'cpu' || name === 'memory') && positive(q)) requests[name] = name in requests ? sum(requests[name], q) : String(quantityFromJSON(q));
    }
    const found = new Set<string>();
    for (const [name, q] of Object.entries(isObj(c.resources?.limits) ? c.resources.limits : {})) {
      if ((name === 'cpu' || name === 'memory') && positive(q)) {
        found.add(name);
        limits[name] = name in limits ? sum(limits[name], q) : String(quantityFromJSON(q));
      }
    }
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, r] of Object.entries(requests)) {
      if (!(name in limits) || quantityFromJSON(limits[name]).cmp(quantityFromJSON(r)) !== 0) { guaranteed = false; break; }
    }
  }
  return guaranteed && Object.keys(requests).length === Object.keys(limits).length ? 'Guaranteed' : 'Burstable';
}
