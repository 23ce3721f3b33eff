// What PersistentVolume and PersistentVolumeClaim share: access modes, volume modes, class names, node
// selectors (a volume's node affinity) and the storage feature gates they obey, as Kubernetes v1.32 has them.
import { S } from '../meta/schema.ts';
import { type FieldError, invalid, required, forbidden, notSupported, index, child } from '../../machinery/field-errors.ts';
import { isValidLabelValue, nameIsDNSSubdomain } from '../../machinery/validation/strings.ts';
import { validateLabelName } from '../../machinery/validation/objectmeta.ts';
import { featureGates } from '../../config/feature-gates.ts';

/**
 * Storage feature gates these kinds obey (from --feature-gates). VolumeAttributesClass is beta and off by
 * default: `volumeAttributesClassName` is dropped on write unless the stored object already has it, and may
 * not change.
 */
export const storageFeatureGates = {
  get VolumeAttributesClass(): boolean { return featureGates.enabled('VolumeAttributesClass'); },
};

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
export const VOLUME_MODES = ['Block', 'Filesystem'];
/** Beta annotation naming a claim's or volume's class before storageClassName existed. */
export const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.platform.io/storage-class';

export const NodeSelectorRequirement = S.object({
  key: S.string({ proto: 1, default: '', description: 'The label key that the selector applies to.' }),
  operator: S.string({ proto: 2, default: '', description: "Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt." }),
  values: S.list(S.string(), { proto: 3, listType: 'atomic', description: 'An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. If the operator is Gt or Lt, the values array must have a single element, which will be interpreted as an integer. This array is replaced during a strategic merge patch.' }),
}, { ref: 'core.v1.NodeSelectorRequirement', description: 'A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.' });

export const NodeSelectorTerm = S.object({
  matchExpressions: S.list(NodeSelectorRequirement, { proto: 1, listType: 'atomic', description: "A list of node selector requirements by node's labels." }),
  matchFields: S.list(NodeSelectorRequirement, { proto: 2, listType: 'atomic', description: "A list of node selector requirements by node's fields." }),
}, { atomic: true, ref: 'core.v1.NodeSelectorTerm', description: 'A null or empty node selector term matches no objects. The requirements of them are ANDed. The TopologySelectorTerm type implements a subset of the NodeSelectorTerm.' });

export const NodeSelector = S.object({
  nodeSelectorTerms: S.list(NodeSelectorTerm, { proto: 1, listType: 'atomic', description: 'Required. A list of node selector terms. The terms are ORed.' }),
}, { atomic: true, ref: 'core.v1.NodeSelector', description: 'A node selector represents the union of the results of one or more label queries over a set of nodes; that is, it represents the OR of the selectors represented by the node selector terms.' });

export const VolumeNodeAffinity = S.object({
  required: { ...NodeSelector, 'x-proto': 1, description: 'required specifies hard node constraints that must be met.' },
}, { ref: 'core.v1.VolumeNodeAffinity', description: 'VolumeNodeAffinity defines constraints that limit what nodes this volume can be accessed from.' });

interface Requirement { key?: string; operator?: string; values?: string[] }
interface Term { matchExpressions?: Requirement[]; matchFields?: Requirement[] }
export interface NodeSelectorT { nodeSelectorTerms?: Term[] }

const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);

function requirementErrors(rq: Requirement, allowInvalidLabelValue: boolean, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = list(rq.values);
  switch (rq.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(child(at, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(child(at, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    case 'Gt':
    case 'Lt':
      if (values.length !== 1) errs.push(required(child(at, 'values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
      break;
    default:
      errs.push(invalid(child(at, 'operator'), rq.operator ?? '', 'not a valid selector operator'));
  }
  errs.push(...validateLabelName(rq.key ?? '', child(at, 'key')));
  if (!allowInvalidLabelValue) {
    values.forEach((v, i) => { for (const msg of isValidLabelValue(v)) errs.push(invalid(index(child(at, 'values'), i), v, msg)); });
  }
  return errs;
}

function fieldRequirementErrors(rq: Requirement, at: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = list(rq.values);
  if (rq.operator === 'In' || rq.operator === 'NotIn') {
    if (values.length !== 1) errs.push(required(child(at, 'values'), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
  } else {
    errs.push(invalid(child(at, 'operator'), rq.operator ?? '', 'not a valid selector operator'));
  }
  // Only the node name can be selected by field.
  if (rq.key !== 'metadata.name') errs.push(invalid(child(at, 'key'), rq.key ?? '', 'not a valid field selector key'));
  else values.forEach((v, i) => { for (const msg of nameIsDNSSubdomain(v, false)) errs.push(invalid(index(child(at, 'values'), i), v, msg)); });
  return errs;
}

/** ValidateNodeSelector: at least one term; each term's expressions and fields valid. */
export function nodeSelectorErrors(sel: NodeSelectorT, allowInvalidLabelValue: boolean, at: string): FieldError[] {
  const terms = list(sel.nodeSelectorTerms);
  const termsAt = child(at, 'nodeSelectorTerms');
  if (terms.length === 0) return [required(termsAt, 'must have at least one node selector term')];
  const errs: FieldError[] = [];
  terms.forEach((term, i) => {
    const t = index(termsAt, i);
    list(term?.matchExpressions).forEach((rq, j) => errs.push(...requirementErrors(rq ?? {}, allowInvalidLabelValue, index(child(t, 'matchExpressions'), j))));
    list(term?.matchFields).forEach((rq, j) => errs.push(...fieldRequirementErrors(rq ?? {}, index(child(t, 'matchFields'), j))));
  });
  return errs;
}

/** Access modes: required, known, and ReadWriteOncePod alone. */
export function accessModeErrors(modes: string[], at: string, requiredDetail: string): FieldError[] {
  const errs: FieldError[] = [];
  if (modes.length === 0) errs.push(required(at, requiredDetail));
  let rwop = false, other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) errs.push(notSupported(at, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(forbidden(at, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

/** GetPersistentVolumeClass and GetPersistentVolumeClaimClass: the beta annotation when it is there, else
 *  spec.storageClassName; "" for none. */
export function storageClassOf(obj: { metadata?: unknown; spec?: unknown }): string {
  const annotations = (obj.metadata as { annotations?: Record<string, string> | null } | undefined)?.annotations;
  if (annotations && Object.hasOwn(annotations, BETA_STORAGE_CLASS_ANNOTATION)) return annotations[BETA_STORAGE_CLASS_ANNOTATION] ?? '';
  return (obj.spec as { storageClassName?: string | null } | undefined)?.storageClassName ?? '';
}

/** kubectl's short form of access modes: RWO, ROX, RWX, RWOP, in that order. */
export function accessModesText(modes: string[] | undefined): string {
  const set = new Set(modes ?? []);
  return ([['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']] as const)
    .filter(([m]) => set.has(m)).map(([, s]) => s).join(',');
}

export function classNameErrors(name: string, at: string): FieldError[] {
  return nameIsDNSSubdomain(name, false).map((msg) => invalid(at, name, msg));
}
