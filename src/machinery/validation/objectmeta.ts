// ObjectMeta validation with Kubernetes' rules and messages (apimachinery pkg/api/validation/objectmeta.go
// and pkg/apis/meta/v1/validation).
import {
  type FieldError, child, duplicate, forbidden, immutable, index, invalid, notSupported, required, tooLong,
} from '../field-errors.ts';
import { byteLength, isQualifiedName, isValidLabelValue, nameIsDNSLabel, regexError, type NameValidator } from './strings.ts';
import { isGoPrintable } from '../go-format.ts';
import { parseGroupVersion } from '../group-version.ts';

// Loose input shapes: validation sees whatever the client sent, so every field may be missing.
export interface OwnerReferenceInput {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntryInput {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

export interface ObjectMetaInput {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReferenceInput[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntryInput[];
}

export interface LabelSelectorRequirementInput {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface LabelSelectorInput {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirementInput[];
}

export interface ConditionInput {
  type?: string;
  status?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export const TotalAnnotationSizeLimitB = 256 * (1 << 10);
export const FieldManagerMaxLength = 128;
export const MaxSubresourceNameLength = 256;
export const IsNegativeErrorMsg = 'must be greater than or equal to 0';
export const FieldImmutableErrorMsg = 'field is immutable';

export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

/** Go's %#v of a []string, as Kubernetes prints it in a few messages. */
export function goStringSlice(values: readonly string[] | undefined | null): string {
  if (values === undefined || values === null) return '[]string(nil)';
  return '[]string{' + values.map((v) => JSON.stringify(v)).join(', ') + '}';
}

function sortedKeys(m: Record<string, string> | undefined | null): string[] {
  return m ? Object.keys(m).sort() : [];
}

export function validateNonnegativeField(value: number | undefined | null, path: string): FieldError[] {
  if (typeof value === 'number' && value < 0) return [invalid(path, value, IsNegativeErrorMsg)];
  return [];
}

export function validateLabelName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

export function validateLabels(labels: Record<string, string> | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of sortedKeys(labels)) {
    errs.push(...validateLabelName(k, path));
    const v = labels![k];
    for (const msg of isValidLabelValue(String(v))) errs.push(invalid(path, v, msg));
  }
  return errs;
}

export function validateAnnotations(annotations: Record<string, string> | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let total = 0;
  for (const k of sortedKeys(annotations)) {
    // Annotation keys are qualified names compared without regard to case.
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, msg));
    total += byteLength(k) + byteLength(String(annotations![k] ?? ''));
  }
  if (total > TotalAnnotationSizeLimitB) errs.push(tooLong(path, '', TotalAnnotationSizeLimitB));
  return errs;
}

function validateOwnerReference(ref: OwnerReferenceInput, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const gv = parseGroupVersion(ref.apiVersion ?? '') ?? { group: '', version: '' };
  const kind = ref.kind ?? '';
  if (gv.version.length === 0) errs.push(invalid(child(path, 'apiVersion'), ref.apiVersion ?? '', 'version must not be empty'));
  if (kind.length === 0) errs.push(invalid(child(path, 'kind'), kind, 'must not be empty'));
  if (!ref.name) errs.push(invalid(child(path, 'name'), ref.name ?? '', 'must not be empty'));
  if (!ref.uid) errs.push(invalid(child(path, 'uid'), ref.uid ?? '', 'must not be empty'));
  // Events may not own anything (BannedOwners).
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(invalid(path, ref, '/v1, Kind=Event is disallowed from being an owner'));
  }
  return errs;
}

export function validateOwnerReferences(refs: readonly OwnerReferenceInput[] | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller === true) {
      const current = `${ref.kind ?? ''}/${ref.name ?? ''}`;
      if (firstController !== '') {
        errs.push(invalid(path, refs,
          `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`));
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

export function validateFinalizerName(name: string, path: string): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

/** Finalizer names must be qualified names, and orphan and foregroundDeletion exclude each other. Duplicates are allowed. */
export function validateFinalizers(finalizers: readonly string[] | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let orphan = false;
  let foreground = false;
  for (const f of finalizers ?? []) {
    errs.push(...validateFinalizerName(f, path));
    if (f === FinalizerOrphanDependents) orphan = true;
    if (f === FinalizerDeleteDependents) foreground = true;
  }
  if (orphan && foreground) {
    errs.push(invalid(path, finalizers, `finalizer ${FinalizerOrphanDependents} and ${FinalizerDeleteDependents} cannot be both set`));
  }
  return errs;
}

const standardFinalizers = new Set([FinalizerOrphanDependents, FinalizerDeleteDependents, 'kubernetes']);

/**
 * Warnings Kubernetes gives for custom-resource finalizers: invalid names, and names without a domain
 * prefix that are not one of the standard finalizers.
 */
export function finalizerWarnings(finalizers: readonly string[] | undefined | null, path: string): string[] {
  const warnings: string[] = [];
  for (const f of finalizers ?? []) {
    for (const msg of isQualifiedName(f)) warnings.push(`${path}: ${JSON.stringify(f)}: ${msg}`);
    if (f.split('/').length === 1 && !standardFinalizers.has(f)) {
      warnings.push(`${path}: ${JSON.stringify(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`);
    }
  }
  return warnings;
}

/** Go's %#U of a rune that is not printable: `U+0009`. */
function goRune(cp: number): string {
  return 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
}

/** Printable ASCII: printable for unicode.IsPrint too, and one byte a character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function validateFieldManager(manager: string | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const m = manager ?? '';
  if (byteLength(m) > FieldManagerMaxLength) errs.push(tooLong(path, m, FieldManagerMaxLength));
  if (PRINTABLE_ASCII.test(m)) return errs;
  let pos = 0;
  for (const ch of m) {
    const cp = ch.codePointAt(0)!;
    if (!isGoPrintable(cp)) errs.push(invalid(path, m, `invalid character ${goRune(cp)} (at position ${pos})`));
    pos += byteLength(ch);
  }
  return errs;
}

export function validateManagedFields(entries: readonly ManagedFieldsEntryInput[] | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((e, i) => {
    const p = index(path, i);
    if (e.operation !== 'Apply' && e.operation !== 'Update') {
      errs.push(invalid(child(p, 'operation'), e.operation ?? '', 'must be `Apply` or `Update`'));
    }
    if (e.fieldsType && e.fieldsType !== 'FieldsV1') errs.push(invalid(child(p, 'fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(e.manager, child(p, 'manager')));
    if (e.subresource && byteLength(e.subresource) > MaxSubresourceNameLength) {
      errs.push(tooLong(child(p, 'subresource'), e.subresource, MaxSubresourceNameLength));
    }
  });
  return errs;
}

export interface ObjectMetaValidationOptions {
  /** True for namespaced kinds: metadata.namespace is required; false: it is forbidden. */
  namespaced: boolean;
  /** The kind's name rule, e.g. nameIsDNSSubdomain; prefix=true is used for generateName. */
  nameFn: NameValidator;
  /** validateObjectMetaUpdate checked this metadata already: its checks (labels, annotations, owner
   *  references, managed fields) are not made again (the registry answers each error text once anyway). */
  updateChecked?: boolean;
}

/**
 * ValidateObjectMeta for create (name generation already done): generateName, name, namespace,
 * generation, labels, annotations, ownerReferences, finalizers, managedFields, in Kubernetes' order.
 */
export function validateObjectMeta(meta: ObjectMetaInput | undefined | null, opts: ObjectMetaValidationOptions, path = 'metadata'): FieldError[] {
  const m: ObjectMetaInput = meta ?? {};
  const errs: FieldError[] = [];
  if (m.generateName) {
    for (const msg of opts.nameFn(m.generateName, true)) errs.push(invalid(child(path, 'generateName'), m.generateName, msg));
  }
  if (!m.name) {
    errs.push(required(child(path, 'name'), 'name or generateName is required'));
  } else {
    for (const msg of opts.nameFn(m.name, false)) errs.push(invalid(child(path, 'name'), m.name, msg));
  }
  errs.push(...validateMetaCommon(m, opts.namespaced, path, !!opts.updateChecked));
  return errs;
}

function validateMetaCommon(m: ObjectMetaInput, namespaced: boolean, path: string, updateChecked: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const nsPath = child(path, 'namespace');
  if (namespaced) {
    if (!m.namespace) errs.push(required(nsPath, ''));
    else for (const msg of nameIsDNSLabel(m.namespace, false)) errs.push(invalid(nsPath, m.namespace, msg));
  } else if (m.namespace) {
    errs.push(forbidden(nsPath, 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(m.generation, child(path, 'generation')));
  if (!updateChecked) errs.push(...validateLabels(m.labels, child(path, 'labels')));
  if (!updateChecked) errs.push(...validateAnnotations(m.annotations, child(path, 'annotations')));
  if (!updateChecked) errs.push(...validateOwnerReferences(m.ownerReferences, child(path, 'ownerReferences')));
  errs.push(...validateFinalizers(m.finalizers, child(path, 'finalizers')));
  if (!updateChecked) errs.push(...validateManagedFields(m.managedFields, child(path, 'managedFields')));
  return errs;
}

function sameTime(a: string | undefined | null, b: string | undefined | null): boolean {
  if (!a || !b) return !a && !b;
  if (a === b) return true;
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return !Number.isNaN(ta) && ta === tb;
}

export function validateImmutableField(newVal: unknown, oldVal: unknown, path: string): FieldError[] {
  const same = (newVal ?? '') === (oldVal ?? '');
  return same ? [] : [immutable(path, newVal)];
}

export function validateNoNewFinalizers(newF: readonly string[] | undefined | null, oldF: readonly string[] | undefined | null, path: string): FieldError[] {
  const old = new Set(oldF ?? []);
  const extra = [...new Set((newF ?? []).filter((f) => !old.has(f)))].sort();
  if (extra.length === 0) return [];
  return [forbidden(path, `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`)];
}

/**
 * ValidateObjectMetaUpdate: no new finalizers while deleting, resourceVersion given, generation not
 * decreased, identity and deletion fields immutable, and the new labels, annotations, owner references
 * and managed fields valid.
 */
export function validateObjectMetaUpdate(newMeta: ObjectMetaInput | undefined | null, oldMeta: ObjectMetaInput | undefined | null, path = 'metadata'): FieldError[] {
  const n: ObjectMetaInput = newMeta ?? {};
  const o: ObjectMetaInput = oldMeta ?? {};
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) errs.push(...validateNoNewFinalizers(n.finalizers, o.finalizers, child(path, 'finalizers')));
  if (!n.resourceVersion) errs.push(invalid(child(path, 'resourceVersion'), n.resourceVersion ?? '', 'must be specified for an update'));
  if ((n.generation ?? 0) < (o.generation ?? 0)) errs.push(invalid(child(path, 'generation'), n.generation ?? 0, 'must not be decremented'));
  errs.push(...validateImmutableField(n.name, o.name, child(path, 'name')));
  errs.push(...validateImmutableField(n.namespace, o.namespace, child(path, 'namespace')));
  errs.push(...validateImmutableField(n.uid, o.uid, child(path, 'uid')));
  if (!sameTime(n.creationTimestamp, o.creationTimestamp)) errs.push(immutable(child(path, 'creationTimestamp'), n.creationTimestamp ?? null));
  if (!sameTime(n.deletionTimestamp, o.deletionTimestamp)) errs.push(immutable(child(path, 'deletionTimestamp'), n.deletionTimestamp ?? null));
  if ((n.deletionGracePeriodSeconds ?? null) !== (o.deletionGracePeriodSeconds ?? null)) {
    errs.push(immutable(child(path, 'deletionGracePeriodSeconds'), n.deletionGracePeriodSeconds ?? null));
  }
  errs.push(...validateLabels(n.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(n.annotations, child(path, 'annotations')));
  errs.push(...validateOwnerReferences(n.ownerReferences, child(path, 'ownerReferences')));
  errs.push(...validateManagedFields(n.managedFields, child(path, 'managedFields')));
  return errs;
}

export interface LabelSelectorValidationOptions {
  /** Kubernetes allows invalid values on update when the old selector already had them. */
  allowInvalidLabelValueInSelector?: boolean;
}

/** metav1 LabelSelector: matchLabels as labels; matchExpressions with In/NotIn/Exists/DoesNotExist. */
export function validateLabelSelector(sel: LabelSelectorInput | undefined | null, path: string, opts: LabelSelectorValidationOptions = {}): FieldError[] {
  if (!sel) return [];
  const errs: FieldError[] = [];
  errs.push(...validateLabels(sel.matchLabels, child(path, 'matchLabels')));
  (sel.matchExpressions ?? []).forEach((expr, i) => {
    const p = index(child(path, 'matchExpressions'), i);
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(invalid(child(p, 'operator'), expr.operator ?? '', 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(expr.key ?? '', child(p, 'key')));
    if (!opts.allowInvalidLabelValueInSelector) {
      values.forEach((v, j) => {
        for (const msg of isValidLabelValue(v)) errs.push(invalid(index(child(p, 'values'), j), v, msg));
      });
    }
  });
  return errs;
}

const conditionReasonFmt = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const conditionReasonRe = new RegExp('^(?:' + conditionReasonFmt + ')$');
const conditionReasonErrMsg =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

/** metav1.Condition lists: unique types, qualified-name type, True/False/Unknown status, reason and message limits. */
export function validateConditions(conditions: readonly ConditionInput[] | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (conditions ?? []).forEach((c, i) => {
    const p = index(path, i);
    const type = c.type ?? '';
    if (seen.has(type)) errs.push(duplicate(child(p, 'type'), type));
    else seen.add(type);
    errs.push(...validateLabelName(type, child(p, 'type')));
    if (!['False', 'True', 'Unknown'].includes(c.status ?? '')) errs.push(notSupported(child(p, 'status'), c.status ?? '', ['False', 'True', 'Unknown']));
    if (typeof c.observedGeneration === 'number' && c.observedGeneration < 0) {
      errs.push(invalid(child(p, 'observedGeneration'), c.observedGeneration, 'must be greater than or equal to zero'));
    }
    if (!c.lastTransitionTime) errs.push(required(child(p, 'lastTransitionTime'), 'must be set'));
    const reason = c.reason ?? '';
    if (reason.length === 0) {
      errs.push(required(child(p, 'reason'), 'must be set'));
    } else {
      if (!conditionReasonRe.test(reason)) {
        errs.push(invalid(child(p, 'reason'), reason,
          regexError(conditionReasonErrMsg, conditionReasonFmt, 'my_name', 'MY_NAME', 'MyName', 'ReasonA,ReasonB', 'ReasonA:ReasonB')));
      }
      if (byteLength(reason) > 1024) errs.push(tooLong(child(p, 'reason'), reason, 1024));
    }
    if (byteLength(c.message ?? '') > 32 * 1024) errs.push(tooLong(child(p, 'message'), c.message, 32 * 1024));
  });
  return errs;
}
