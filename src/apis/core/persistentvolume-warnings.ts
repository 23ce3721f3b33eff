// What Kubernetes says about a persistent volume besides validation: warnings for deprecated annotations,
// reclaim policy, node labels and volume plugins, and the volume-plugin check of the mount-options
// annotation (pkg/volume/validation).
import type { ApiObject } from '../meta/v1.ts';
import { type FieldError, forbidden } from '../../machinery/field-errors.ts';
import { BETA_STORAGE_CLASS_ANNOTATION } from './persistentvolume-common.ts';
import { nodeSelectorTermWarnings } from './node-label-warnings.ts';

export const MOUNT_OPTIONS_ANNOTATION = 'volume.beta.platform.io/mount-options';

/** Volume plugins that no longer work, in the order Kubernetes checks them. */
const DEPRECATED_PLUGINS: [source: string, note: string][] = [
  ['cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
  ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'],
  ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'],
  ['storageOS', 'deprecated in v1.22, non-functional in v1.25+'],
  ['glusterfs', 'deprecated in v1.25, non-functional in v1.26+'],
  ['rbd', 'deprecated in v1.28, non-functional in v1.31+'],
];

/** Sources whose plugins take mount options; the annotation is refused on any other. */
const MOUNT_OPTION_SOURCES = [
  'gcePersistentDisk', 'awsElasticBlockStore', 'glusterfs', 'nfs', 'rbd', 'quobyte', 'iscsi', 'cinder',
  'cephfs', 'azureFile', 'vsphereVolume', 'azureDisk', 'photonPersistentDisk',
];

type Obj = Record<string, any>;
const isSet = (v: unknown) => v !== undefined && v !== null;

/** GetWarningsForPersistentVolume. */
export function persistentVolumeWarnings(obj: ApiObject): string[] {
  const warnings: string[] = [];
  const annotations = obj.metadata.annotations ?? {};
  const spec = (obj.spec ?? {}) as Obj;
  if (Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) {
    warnings.push(`metadata.annotations[${BETA_STORAGE_CLASS_ANNOTATION}]: deprecated since v1.8; use "storageClassName" attribute instead`);
  }
  if (Object.hasOwn(annotations, MOUNT_OPTIONS_ANNOTATION)) {
    warnings.push(`metadata.annotations[${MOUNT_OPTIONS_ANNOTATION}]: deprecated since v1.31; use "mountOptions" attribute instead`);
  }
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') {
    warnings.push('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.');
  }
  const terms = spec.nodeAffinity?.required?.nodeSelectorTerms;
  (Array.isArray(terms) ? terms : []).forEach((term: Obj | null, i: number) => {
    warnings.push(...nodeSelectorTermWarnings(term, `spec.nodeAffinity.required.nodeSelectorTerms[${i}]`));
  });
  for (const [source, note] of DEPRECATED_PLUGINS) {
    if (isSet(spec[source])) warnings.push(`spec.${source}: ${note}`);
  }
  return warnings;
}

/** volumevalidation.ValidatePersistentVolume: the mount-options annotation only on plugins that take them. */
export function mountOptionAnnotationErrors(obj: ApiObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Obj;
  if (MOUNT_OPTION_SOURCES.some((s) => isSet(spec[s]))) return [];
  if (!Object.hasOwn(obj.metadata.annotations ?? {}, MOUNT_OPTIONS_ANNOTATION)) return [];
  // Kubernetes joins the annotation name to the path as a child, not as a key.
  return [forbidden(`metadata.annotations.${MOUNT_OPTIONS_ANNOTATION}`, 'may not specify mount options for this volume type')];
}
