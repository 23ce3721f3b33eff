// Pod volume validation as Kubernetes v1.32 does it (validateVolumes, validateVolumeSource and the per-source
// checks), with its field paths and messages, quirks included: downward API items are reported without
// their index, a projected token's missing path at `projected.path`.
import { type FieldError, invalid, required, forbidden, notSupported, duplicate, child, index } from '../../machinery/field-errors.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../machinery/validation/strings.ts';
import { validateAnnotations, validateLabels, validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { resourceQuantityErrors } from './resource-quantity.ts';
import { VOLUME_SOURCES } from './volume-schema.ts';
import { claimSpecErrors } from './persistentvolumeclaim.ts';
import { csiDriverNameErrors, flexVolumeOptionErrors } from './persistentvolume-sources.ts';
import { errorWithGoValue, goStringSlice } from '../../machinery/go-format.ts';

type Obj = Record<string, any>;

export const FILE_MODE_ERROR = 'must be a number between 0 and 0777 (octal), both inclusive';

export const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

/** Fields of the downward API a volume file may select (validVolumeDownwardAPIFieldPathExpressions). */
export const VOLUME_DOWNWARD_FIELDS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
/** Fields of the downward API an environment variable may select. */
export const ENV_DOWNWARD_FIELDS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
const CONVERTIBLE_POD_FIELDS = new Set(['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.restartPolicy', 'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs']);

export const RESOURCE_FIELD_EXPRESSIONS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const HUGEPAGES_FIELD_PREFIXES = ['requests.hugepages-', 'limits.hugepages-'];
const CPU_DIVISORS = new Set(['1m', '1']);
const MEMORY_DIVISORS = new Set(['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei']);
const MEMORY_DIVISORS_TEXT = "1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei";

const list = <T = Obj>(v: unknown): T[] => (Array.isArray(v) ? v : []);
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

export function dns1123LabelErrors(value: string, path: string): FieldError[] {
  return isDNS1123Label(value).map((m) => invalid(path, value, m));
}

export function dns1123SubdomainErrors(value: string, path: string): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => invalid(path, value, m));
}

export function fileModeErrors(mode: unknown, path: string): FieldError[] {
  if (typeof mode === 'number' && (mode > 0o777 || mode < 0)) return [invalid(path, mode, FILE_MODE_ERROR)];
  return [];
}

function isAbsolute(p: string): boolean {
  return p.startsWith('/');
}

/** validatePathNoBacksteps: no `..` element. */
export function noBackstepErrors(target: string, path: string): FieldError[] {
  return target.split('/').includes('..') ? [invalid(path, target, "must not contain '..'")] : [];
}

/** validateLocalDescendingPath: relative and without backsteps. */
export function localDescendingPathErrors(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isAbsolute(target)) errs.push(invalid(path, target, 'must be a relative path'));
  errs.push(...noBackstepErrors(target, path));
  return errs;
}

/** ValidateLocalNonReservedPath: a relative, descending path that does not start with `..`. */
export function localNonReservedPathErrors(target: string, path: string): FieldError[] {
  const errs = localDescendingPathErrors(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(invalid(path, target, "must not start with '..'"));
  return errs;
}

function keyToPathErrors(kp: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (kp.key === '') errs.push(required(child(path, 'key')));
  if (kp.path === '') errs.push(required(child(path, 'path')));
  errs.push(...localNonReservedPathErrors(String(kp.path ?? ''), child(path, 'path')));
  errs.push(...fileModeErrors(kp.mode, child(path, 'mode')));
  return errs;
}

/** podshelper.ConvertDownwardAPIFieldLabel: the internal field path, or the error text. */
function convertDownwardField(apiVersion: string, fieldPath: string): { path: string; subscript?: string } | { error: string } {
  if (apiVersion !== 'v1') return { error: `unsupported pod version: ${apiVersion}` };
  const m = /^(metadata\.(?:annotations|labels))\['(.*)'\]$/.exec(fieldPath);
  if (m) return { path: m[1], subscript: m[2] };
  if (fieldPath.includes('[')) {
    const base = fieldPath.slice(0, fieldPath.indexOf('['));
    if (base === 'metadata.annotations' || base === 'metadata.labels') return { error: `field label not supported: ${fieldPath}` };
  }
  if (CONVERTIBLE_POD_FIELDS.has(fieldPath)) return { path: fieldPath };
  return { error: `field label not supported: ${fieldPath}` };
}

/** validateObjectFieldSelector against the allowed expressions. */
export function objectFieldSelectorErrors(fs: Obj, allowed: string[], path: string): FieldError[] {
  const apiVersion = String(fs.apiVersion ?? '');
  const fieldPath = String(fs.fieldPath ?? '');
  if (!apiVersion) return [required(child(path, 'apiVersion'))];
  if (!fieldPath) return fs.fieldPath === '' ? [required(child(path, 'fieldPath'))] : [];
  const converted = convertDownwardField(apiVersion, fieldPath);
  if ('error' in converted) return [invalid(child(path, 'fieldPath'), fieldPath, `error converting fieldPath: ${converted.error}`)];
  if (converted.subscript !== undefined) {
    const name = converted.path === 'metadata.annotations' ? converted.subscript.toLowerCase() : converted.subscript;
    return isQualifiedName(name).map((m) => invalid(path, name, m));
  }
  if (!allowed.includes(converted.path)) return [notSupported(child(path, 'fieldPath'), converted.path, allowed)];
  return [];
}

function divisorErrors(resource: string, divisor: unknown, path: string): FieldError[] {
  if (divisor === undefined || divisor === null) return [];
  let text: string;
  try {
    const q = quantityFromJSON(divisor);
    if (q.isZero()) return [];
    text = q.toString();
  } catch {
    return [];
  }
  const at = child(path, 'divisor');
  switch (resource) {
    case 'limits.cpu':
    case 'requests.cpu':
      return CPU_DIVISORS.has(text) ? [] : [invalid(at, resource, "only divisor's values 1m and 1 are supported with the cpu resource")];
    case 'limits.memory':
    case 'requests.memory':
      return MEMORY_DIVISORS.has(text) ? [] : [invalid(at, resource, `only divisor's values ${MEMORY_DIVISORS_TEXT} are supported with the memory resource`)];
    case 'limits.ephemeral-storage':
    case 'requests.ephemeral-storage':
      return MEMORY_DIVISORS.has(text) ? [] : [invalid(at, resource, `only divisor's values ${MEMORY_DIVISORS_TEXT} are supported with the local ephemeral storage resource`)];
  }
  if (HUGEPAGES_FIELD_PREFIXES.some((p) => resource.startsWith(p)) && !MEMORY_DIVISORS.has(text)) {
    return [invalid(at, resource, `only divisor's values ${MEMORY_DIVISORS_TEXT} are supported with the hugepages resource`)];
  }
  return [];
}

/** validateContainerResourceFieldSelector; `volume` requires a container name. */
export function resourceFieldSelectorErrors(fs: Obj, path: string, volume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = String(fs.resource ?? '');
  if (volume && !fs.containerName) errs.push(required(child(path, 'containerName')));
  else if (!resource) { if (fs.resource === '') errs.push(required(child(path, 'resource'))); }
  else if (!RESOURCE_FIELD_EXPRESSIONS.includes(resource) && !HUGEPAGES_FIELD_PREFIXES.some((p) => resource.startsWith(p))) {
    errs.push(notSupported(child(path, 'resource'), resource, RESOURCE_FIELD_EXPRESSIONS));
  }
  errs.push(...divisorErrors(resource, fs.divisor, path));
  return errs;
}

/** validateDownwardAPIVolumeFile; Kubernetes reports an item's problems at the source's path, not the item's. */
function downwardAPIFileErrors(file: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (file.path === '') errs.push(required(child(path, 'path')));
  errs.push(...localNonReservedPathErrors(String(file.path ?? ''), child(path, 'path')));
  if (isObj(file.fieldRef)) {
    errs.push(...objectFieldSelectorErrors(file.fieldRef, VOLUME_DOWNWARD_FIELDS, child(path, 'fieldRef')));
    if (isObj(file.resourceFieldRef)) errs.push(invalid(path, 'resource', 'fieldRef and resourceFieldRef can not be specified simultaneously'));
  } else if (isObj(file.resourceFieldRef)) {
    errs.push(...resourceFieldSelectorErrors(file.resourceFieldRef, child(path, 'resourceFieldRef'), true));
  } else {
    errs.push(required(path, 'one of fieldRef and resourceFieldRef is required'));
  }
  errs.push(...fileModeErrors(file.mode, child(path, 'mode')));
  return errs;
}

function secretSourceErrors(s: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.secretName) errs.push(required(child(path, 'secretName')));
  errs.push(...fileModeErrors(s.defaultMode, child(path, 'defaultMode')));
  list(s.items).forEach((kp, i) => errs.push(...keyToPathErrors(kp, index(child(path, 'items'), i))));
  return errs;
}

function configMapSourceErrors(s: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(required(child(path, 'name')));
  errs.push(...fileModeErrors(s.defaultMode, child(path, 'defaultMode')));
  list(s.items).forEach((kp, i) => errs.push(...keyToPathErrors(kp, index(child(path, 'items'), i))));
  return errs;
}

function downwardAPISourceErrors(s: Obj, path: string): FieldError[] {
  const errs = fileModeErrors(s.defaultMode, child(path, 'defaultMode'));
  for (const file of list(s.items)) errs.push(...downwardAPIFileErrors(file, path));
  return errs;
}

function projectedSourceErrors(p: Obj, path: string): FieldError[] {
  const errs = fileModeErrors(p.defaultMode, child(path, 'defaultMode'));
  const paths = new Set<string>();
  const claim = (target: string, value: string) => {
    if (paths.has(target)) errs.push(invalid(path, value, 'conflicting duplicate paths'));
    else paths.add(target);
  };
  list(p.sources).forEach((src, i) => {
    const srcPath = index(child(path, 'sources'), i);
    let count = 0;
    for (const kind of ['secret', 'configMap'] as const) {
      const s = src?.[kind];
      if (!isObj(s)) continue;
      count++;
      const at = child(srcPath, kind);
      if (!s.name) errs.push(required(child(at, 'name')));
      list(s.items).forEach((kp, j) => {
        errs.push(...keyToPathErrors(kp, index(child(at, 'items'), j)));
        if (kp.path) claim(kp.path, String(s.name ?? ''));
      });
    }
    if (isObj(src?.downwardAPI)) {
      count++;
      const at = child(srcPath, 'downwardAPI');
      for (const file of list(src.downwardAPI.items)) {
        errs.push(...downwardAPIFileErrors(file, at));
        if (file.path) claim(file.path, file.path);
      }
    }
    if (isObj(src?.serviceAccountToken)) {
      count++;
      const at = child(srcPath, 'serviceAccountToken');
      const seconds = Number(src.serviceAccountToken.expirationSeconds ?? 0);
      if (seconds < 600) errs.push(invalid(child(at, 'expirationSeconds'), seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32) errs.push(invalid(child(at, 'expirationSeconds'), seconds, 'may not specify a duration larger than 2^32 seconds'));
      // Kubernetes reports the token path at the volume's `projected.path`; since 1.30 it must be local.
      const tokenPath = String(src.serviceAccountToken.path ?? '');
      if (tokenPath === '') errs.push(required(child(path, 'path')));
      else errs.push(...localNonReservedPathErrors(tokenPath, child(path, 'path')));
    }
    if (isObj(src?.clusterTrustBundle)) {
      count++;
      // Kubernetes names this source's errors `clusterTrustBundlePEM`.
      errs.push(...clusterTrustBundleErrors(src.clusterTrustBundle, child(srcPath, 'clusterTrustBundlePEM'), claim));
    }
    if (count > 1) errs.push(forbidden(srcPath, 'may not specify more than 1 volume type'));
  });
  return errs;
}

function clusterTrustBundleErrors(ctb: Obj, at: string, claim: (target: string, value: string) => void): FieldError[] {
  const errs: FieldError[] = [];
  const usingName = typeof ctb.name === 'string';
  const usingSigner = typeof ctb.signerName === 'string';
  if (usingName && usingSigner) errs.push(invalid(at, ctb, 'only one of name and signerName may be used'));
  else if (usingName) {
    if (ctb.name === '') errs.push(required(child(at, 'name'), 'must be a valid object name'));
    if (ctb.labelSelector) errs.push(invalid(child(at, 'labelSelector'), ctb.labelSelector, 'labelSelector must be unset if name is specified'));
  } else if (usingSigner) {
    if (ctb.signerName === '') errs.push(required(child(at, 'signerName'), 'must be a valid signer name'));
    errs.push(...validateLabelSelector(ctb.labelSelector, child(at, 'labelSelector')));
  } else {
    errs.push(required(at, 'either name or signerName must be specified'));
  }
  if (ctb.path === '') errs.push(required(child(at, 'path')));
  errs.push(...localNonReservedPathErrors(String(ctb.path ?? ''), child(at, 'path')));
  claim(String(ctb.path ?? ''), String(ctb.path ?? ''));
  return errs;
}

function hostPathErrors(hp: Obj, path: string): FieldError[] {
  // Without a path Kubernetes reports only that, not the type.
  if (!hp.path) return [required(child(path, 'path'))];
  const errs = noBackstepErrors(String(hp.path), child(path, 'path'));
  const type = hp.type ?? '';
  if (!HOST_PATH_TYPES.includes(type)) errs.push(notSupported(child(path, 'type'), type, HOST_PATH_TYPES));
  return errs;
}

function emptyDirErrors(ed: Obj, path: string): FieldError[] {
  if (ed.sizeLimit === undefined || ed.sizeLimit === null) return [];
  try {
    if (quantityFromJSON(ed.sizeLimit).isNegative()) return [forbidden(child(path, 'sizeLimit'), 'SizeLimit field must be a valid resource quantity')];
  } catch {
    // malformed quantities are refused while decoding
  }
  return [];
}

const IQN = /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/;
const EUI = /^eui.[A-Za-z0-9]{16}$/;
const NAA = /^naa.[A-Za-z0-9]{32}$/;

function iscsiNameErrors(value: string, path: string): FieldError[] {
  if (!value.startsWith('iqn') && !value.startsWith('eui') && !value.startsWith('naa')) return [invalid(path, value, 'must be valid format starting with iqn, eui, or naa')];
  const re = value.startsWith('iqn') ? IQN : value.startsWith('eui') ? EUI : NAA;
  return re.test(value) ? [] : [invalid(path, value, 'must be valid format')];
}

function iscsiErrors(s: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.targetPortal) errs.push(required(child(path, 'targetPortal')));
  if (!s.iqn) errs.push(required(child(path, 'iqn')));
  else if (typeof s.iqn === 'string') errs.push(...iscsiNameErrors(s.iqn, child(path, 'iqn')));
  if (typeof s.lun === 'number' && (s.lun < 0 || s.lun > 255)) errs.push(invalid(child(path, 'lun'), s.lun, 'must be between 0 and 255, inclusive'));
  if ((s.chapAuthDiscovery || s.chapAuthSession) && !s.secretRef) errs.push(required(child(path, 'secretRef')));
  if (typeof s.initiatorName === 'string') errs.push(...iscsiNameErrors(s.initiatorName, child(path, 'initiatorName')));
  return errs;
}

/** The simple vendor sources: required fields Kubernetes checks, in its order. */
const REQUIRED_FIELDS: Record<string, string[]> = {
  glusterfs: ['endpoints', 'path'], rbd: ['monitors', 'image'], cinder: ['volumeID'], cephfs: ['monitors'], azureFile: ['secretName', 'shareName'],
  vsphereVolume: ['volumePath'], photonPersistentDisk: ['pdID'], portworxVolume: ['volumeID'], scaleIO: ['gateway', 'system'],
};

/** Go's zero value: what Kubernetes sees when a field is absent. */
function emptyField(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function vendorErrors(kind: string, s: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of REQUIRED_FIELDS[kind] ?? []) if (emptyField(s[f])) errs.push(required(child(path, f)));
  switch (kind) {
    case 'scaleIO':
      if (!s.volumeName) errs.push(required(child(path, 'volumeName')));
      break;
    case 'gcePersistentDisk':
    case 'awsElasticBlockStore': {
      const idField = kind === 'gcePersistentDisk' ? 'pdName' : 'volumeID';
      if (!s[idField]) errs.push(required(child(path, idField)));
      if (typeof s.partition === 'number' && (s.partition < 0 || s.partition > 255)) errs.push(invalid(child(path, 'partition'), s.partition, 'must be between 1 and 255, inclusive'));
      break;
    }
    case 'gitRepo':
      if (!s.repository) errs.push(required(child(path, 'repository')));
      errs.push(...localNonReservedPathErrors(String(s.directory ?? ''), child(path, 'directory')));
      break;
    case 'nfs':
      if (!s.server) errs.push(required(child(path, 'server')));
      if (!s.path) errs.push(required(child(path, 'path')));
      if (!isAbsolute(String(s.path ?? ''))) errs.push(invalid(child(path, 'path'), String(s.path ?? ''), 'must be an absolute path'));
      break;
    case 'iscsi':
      errs.push(...iscsiErrors(s, path));
      break;
    case 'flocker':
      if (!s.datasetName && !s.datasetUUID) errs.push(required(path, 'one of datasetName and datasetUUID is required'));
      if (s.datasetName && s.datasetUUID) errs.push(invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
      if (String(s.datasetName ?? '').includes('/')) errs.push(invalid(child(path, 'datasetName'), s.datasetName, "must not contain '/'"));
      break;
    case 'flexVolume':
      if (!s.driver) errs.push(required(child(path, 'driver')));
      errs.push(...flexVolumeOptionErrors(s.options, path));
      break;
    case 'fc': {
      const wwns = list<string>(s.targetWWNs), wwids = list<string>(s.wwids);
      if (wwns.length < 1 && wwids.length < 1) errs.push(required(child(path, 'targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
      if (wwns.length && wwids.length) errs.push(errorWithGoValue('FieldValueInvalid', child(path, 'targetWWNs'), wwns, goStringSlice(wwns), 'targetWWNs and wwids can not be specified simultaneously'));
      if (wwns.length) {
        if (typeof s.lun !== 'number') errs.push(required(child(path, 'lun'), 'lun is required if targetWWNs is specified'));
        else if (s.lun < 0 || s.lun > 255) errs.push(invalid(child(path, 'lun'), s.lun, 'must be between 0 and 255, inclusive'));
      }
      break;
    }
    case 'quobyte':
      if (!s.registry) errs.push(required(child(path, 'registry'), 'must be a host:port pair or multiple pairs separated by commas'));
      else if (String(s.tenant ?? '').length >= 65) errs.push(required(child(path, 'tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
      else for (const pair of String(s.registry).split(',')) {
        if (!/^[^:]*:[^:]*$|^\[[^\]]*\]:[^:]*$/.test(pair)) errs.push(invalid(child(path, 'registry'), s.registry, 'must be a host:port pair or multiple pairs separated by commas'));
      }
      if (!s.volume) errs.push(required(child(path, 'volume')));
      break;
    case 'azureDisk':
      if (!s.diskName) errs.push(required(child(path, 'diskName')));
      if (!s.diskURI) errs.push(required(child(path, 'diskURI')));
      if (s.cachingMode !== undefined && !['None', 'ReadOnly', 'ReadWrite'].includes(s.cachingMode)) errs.push(notSupported(child(path, 'cachingMode'), s.cachingMode, ['None', 'ReadOnly', 'ReadWrite']));
      if (s.kind !== undefined && !['Dedicated', 'Managed', 'Shared'].includes(s.kind)) errs.push(notSupported(child(path, 'kind'), s.kind, ['Dedicated', 'Managed', 'Shared']));
      if (s.kind === 'Managed' && !String(s.diskURI ?? '').startsWith('/subscriptions/')) errs.push(notSupported(child(path, 'diskURI'), s.diskURI, ['/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}']));
      if (s.kind !== undefined && s.kind !== 'Managed' && !String(s.diskURI ?? '').startsWith('https://')) errs.push(notSupported(child(path, 'diskURI'), s.diskURI, ['https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd']));
      break;
    case 'storageos':
      if (!s.volumeName) errs.push(required(child(path, 'volumeName')));
      else errs.push(...dns1123LabelErrors(s.volumeName, child(path, 'volumeName')));
      if (s.volumeNamespace) errs.push(...dns1123LabelErrors(s.volumeNamespace, child(path, 'volumeNamespace')));
      if (isObj(s.secretRef) && !s.secretRef.name) errs.push(required(child(child(path, 'secretRef'), 'name')));
      break;
  }
  return errs;
}

function csiErrors(csi: Obj, path: string): FieldError[] {
  // ValidateCSIDriverName, as for a persistent volume: an empty driver is both required and no subdomain.
  const errs = csiDriverNameErrors(String(csi.driver ?? ''), child(path, 'driver'));
  if (isObj(csi.nodePublishSecretRef)) {
    const name = String(csi.nodePublishSecretRef.name ?? '');
    if (!name) errs.push(required(child(child(path, 'nodePublishSecretRef'), 'name')));
    else errs.push(...isDNS1123Subdomain(name).map((m) => invalid(child(path, 'name'), name, m)));
  }
  return errs;
}

/** ValidateTemplateObjectMeta: only labels and annotations may be set on a claim template. */
function templateMetaErrors(meta: Obj | undefined, path: string): FieldError[] {
  if (!isObj(meta)) return [];
  const errs = [...validateAnnotations(meta.annotations, child(path, 'annotations')), ...validateLabels(meta.labels, child(path, 'labels'))];
  for (const [k, v] of Object.entries(meta)) {
    if (k === 'labels' || k === 'annotations' || v === undefined || v === null) continue;
    if (v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0)) continue;
    errs.push(forbidden(child(path, k), 'cannot be set for an ephemeral volume'));
  }
  return errs;
}

function ephemeralErrors(eph: Obj, path: string): FieldError[] {
  const tpl = eph.volumeClaimTemplate;
  if (!isObj(tpl)) return [required(child(path, 'volumeClaimTemplate'))];
  const at = child(path, 'volumeClaimTemplate');
  return [...templateMetaErrors(tpl.metadata, child(at, 'metadata')), ...claimSpecErrors(isObj(tpl.spec) ? tpl.spec : {}, child(at, 'spec'))];
}

export interface PodMetaForVolumes { name?: string }

/** validateVolumeSource: exactly one source (later ones are refused by name), checked as Kubernetes does. */
function volumeSourceErrors(vol: Obj, path: string, podMeta: PodMetaForVolumes | undefined): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of VOLUME_SOURCES) {
    const src = vol[kind];
    if (!isObj(src)) continue;
    const at = child(path, kind);
    if (count > 0) { errs.push(forbidden(at, 'may not specify more than 1 volume type')); continue; }
    count++;
    switch (kind) {
      case 'emptyDir': errs.push(...emptyDirErrors(src, at)); break;
      case 'hostPath': errs.push(...hostPathErrors(src, at)); break;
      case 'secret': errs.push(...secretSourceErrors(src, at)); break;
      case 'configMap': errs.push(...configMapSourceErrors(src, at)); break;
      case 'downwardAPI': errs.push(...downwardAPISourceErrors(src, at)); break;
      case 'projected': errs.push(...projectedSourceErrors(src, at)); break;
      case 'persistentVolumeClaim': if (src.claimName === '') errs.push(required(child(at, 'claimName'))); break;
      case 'csi': errs.push(...csiErrors(src, at)); break;
      case 'ephemeral': {
        errs.push(...ephemeralErrors(src, at));
        // The claim `<pod>-<volume>` must be a valid object name; templates (no pod name) skip this.
        const volName = String(vol.name ?? '');
        if (podMeta?.name && volName) {
          const claimName = `${podMeta.name}-${volName}`;
          for (const msg of isDNS1123Subdomain(claimName)) errs.push(invalid(child(path, 'name'), volName, `PVC name ${JSON.stringify(claimName)}: ${msg}`));
        }
        break;
      }
      case 'image': break;
      default: errs.push(...vendorErrors(kind, src, at));
    }
  }
  if (count === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** validateVolumes: the valid volumes by name, and the errors. */
export function validateVolumes(volumes: unknown, path: string, podMeta: PodMetaForVolumes | undefined): { errs: FieldError[]; byName: Map<string, Obj> } {
  const errs: FieldError[] = [];
  const byName = new Map<string, Obj>();
  list(volumes).forEach((vol, i) => {
    const at = index(path, i);
    const namePath = child(at, 'name');
    const el = volumeSourceErrors(isObj(vol) ? vol : {}, at, podMeta);
    const name = vol?.name;
    if (name === '') el.push(required(namePath));
    else if (typeof name === 'string') el.push(...dns1123LabelErrors(name, namePath));
    if (typeof name === 'string' && byName.has(name)) el.push(duplicate(namePath, name));
    if (el.length === 0) byName.set(name, vol);
    else errs.push(...el);
  });
  return { errs, byName };
}

/** ValidateReadOnlyPersistentDisks: replicated pods may share a GCE disk only read-only. */
export function readOnlyPersistentDiskErrors(volumes: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(volumes).forEach((vol, i) => {
    if (isObj(vol?.gcePersistentDisk) && !vol.gcePersistentDisk.readOnly) {
      errs.push(invalid(child(child(index(path, i), 'gcePersistentDisk'), 'readOnly'), false, 'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only'));
    }
  });
  return errs;
}

