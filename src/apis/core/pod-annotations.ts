// The annotations a pod's validation reads (ValidatePodSpecificAnnotations and its update rules): the mirror
// pod marker, the pod deletion cost, and the deprecated seccomp and AppArmor annotations.
import { type FieldError, invalid, forbidden, child, key } from '../../machinery/field-errors.ts';
import { goQuote } from '../../machinery/go-format.ts';
import { localDescendingPathErrors } from './volume-validation.ts';
import { SECCOMP_POD_ANNOTATION, SECCOMP_CONTAINER_ANNOTATION_PREFIX, APPARMOR_ANNOTATION_PREFIX } from './pod-warnings.ts';

type Obj = Record<string, any>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);

export const MIRROR_POD_ANNOTATION = 'platform.io/config.mirror';
export const POD_DELETION_COST_ANNOTATION = 'controller.platform.io/pod-deletion-cost';
const ANNOTATIONS_PATH = 'metadata.annotations';

/** GetDeletionCostFromPodAnnotations' test: a decimal int32, no plus sign, no leading zero unless after a minus. */
export function isValidDeletionCost(value: string): boolean {
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
}

function seccompProfileErrors(profile: string, path: string): FieldError[] {
  if (profile === 'runtime/default' || profile === 'docker/default' || profile === 'unconfined') return [];
  if (profile.startsWith('localhost/')) return localDescendingPathErrors(profile.slice('localhost/'.length), path);
  return [invalid(path, profile, 'must be a valid seccomp profile')];
}

function appArmorProfileFormatError(profile: string): string | undefined {
  if (profile === '' || profile === 'runtime/default' || profile === 'unconfined' || profile.startsWith('localhost/')) return undefined;
  return `invalid AppArmor profile name: ${goQuote(profile)}`;
}

function hasContainer(spec: Obj, name: string): boolean {
  return ['initContainers', 'containers', 'ephemeralContainers'].some((f) => list(spec[f]).some((c) => c.name === name));
}

/** ValidatePodSpecificAnnotations; an invalid deletion cost passes on update when the old pod had one. */
export function podAnnotationErrors(annotations: Record<string, string> | undefined, spec: Obj, allowInvalidDeletionCost = false): FieldError[] {
  const a = annotations ?? {};
  const errs: FieldError[] = [];
  if (Object.hasOwn(a, MIRROR_POD_ANNOTATION) && !spec.nodeName) {
    errs.push(invalid(key(ANNOTATIONS_PATH, MIRROR_POD_ANNOTATION), a[MIRROR_POD_ANNOTATION], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  if (!allowInvalidDeletionCost && Object.hasOwn(a, POD_DELETION_COST_ANNOTATION) && !isValidDeletionCost(a[POD_DELETION_COST_ANNOTATION])) {
    errs.push(invalid(key(ANNOTATIONS_PATH, POD_DELETION_COST_ANNOTATION), a[POD_DELETION_COST_ANNOTATION], 'must be a 32bit integer'));
  }
  // Kubernetes names these with Child, not Key: metadata.annotations.seccomp.security.alpha.platform.io/pod.
  if (Object.hasOwn(a, SECCOMP_POD_ANNOTATION)) errs.push(...seccompProfileErrors(a[SECCOMP_POD_ANNOTATION], child(ANNOTATIONS_PATH, SECCOMP_POD_ANNOTATION)));
  const keys = Object.keys(a).sort();
  for (const k of keys) if (k.startsWith(SECCOMP_CONTAINER_ANNOTATION_PREFIX)) errs.push(...seccompProfileErrors(a[k], child(ANNOTATIONS_PATH, k)));
  for (const k of keys) {
    if (!k.startsWith(APPARMOR_ANNOTATION_PREFIX)) continue;
    const container = k.slice(APPARMOR_ANNOTATION_PREFIX.length);
    if (!hasContainer(spec, container)) errs.push(invalid(key(ANNOTATIONS_PATH, k), container, 'container not found'));
    const formatError = appArmorProfileFormatError(a[k]);
    if (formatError) errs.push(invalid(key(ANNOTATIONS_PATH, k), a[k], formatError));
  }
  return errs;
}

/** Whether a pod's stored deletion cost is one its updates may keep though invalid (AllowInvalidPodDeletionCost). */
export function hasInvalidDeletionCost(annotations: Record<string, string> | undefined): boolean {
  const cost = annotations?.[POD_DELETION_COST_ANNOTATION];
  return cost !== undefined && !isValidDeletionCost(cost);
}

/**
 * ValidatePodSpecificAnnotationUpdates' own rules: the mirror marker and AppArmor annotations are fixed at
 * creation. (It then re-runs podAnnotationErrors, whose repeats Kubernetes' error aggregate drops.)
 */
export function podAnnotationUpdateErrors(annotations: Record<string, string> | undefined, old: Record<string, string> | undefined): FieldError[] {
  const now = annotations ?? {}, before = old ?? {};
  const errs: FieldError[] = [];
  for (const k of Object.keys(before).sort()) {
    if (Object.hasOwn(now, k) && now[k] === before[k]) continue;
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX)) errs.push(forbidden(key(ANNOTATIONS_PATH, k), 'may not remove or update AppArmor annotations'));
    if (k === MIRROR_POD_ANNOTATION) errs.push(forbidden(key(ANNOTATIONS_PATH, k), 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(now).sort()) {
    if (Object.hasOwn(before, k)) continue;
    if (k.startsWith(APPARMOR_ANNOTATION_PREFIX)) errs.push(forbidden(key(ANNOTATIONS_PATH, k), 'may not add AppArmor annotations'));
    if (k === MIRROR_POD_ANNOTATION) errs.push(forbidden(key(ANNOTATIONS_PATH, k), 'may not add mirror pod annotation'));
  }
  return errs;
}
