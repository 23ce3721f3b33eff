// What the storage.svc.io kinds share: the group, provisioner and parameter rules (StorageClass and
// VolumeAttributesClass), and topology selector terms.
import { S } from '../meta/schema.ts';
import { type FieldError, invalid, required, duplicate, tooLong, index, child } from '../../machinery/field-errors.ts';
import { isQualifiedName, byteLength } from '../../machinery/validation/strings.ts';
import { validateLabelName } from '../../machinery/validation/objectmeta.ts';

export const GROUP = 'storage.svc.io';
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

export const TopologySelectorTerm = S.object({
  matchLabelExpressions: S.list(S.object({
    key: S.string({ proto: 1, default: '', description: 'The label key that the selector applies to.' }),
    values: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'An array of string values. One value must match the label to be selected. Each entry in Values is ORed.' }),
  }, { ref: 'core.v1.TopologySelectorLabelRequirement', description: 'A topology selector requirement is a selector that matches given label. This is an alpha feature and may change in the future.' }), { proto: 1, listType: 'atomic', description: 'A list of topology selector requirements by labels.' }),
}, { atomic: true, ref: 'core.v1.TopologySelectorTerm', description: 'A topology selector term represents the result of label queries. A null or empty topology selector term matches no objects. The requirements of them are ANDed. It provides a subset of functionality as NodeSelectorTerm. This is an alpha feature and may change in the future.' });

/** A provisioner or driver name: required, a qualified name (compared in lower case). */
export function provisionerErrors(value: string, path: string): FieldError[] {
  if (!value) return [required(path, '')];
  const lower = value.toLowerCase();
  return isQualifiedName(lower).map((msg) => invalid(path, lower, msg));
}

/** Parameters: non-empty keys, at most 512 of them and 256 KiB in all; `allowEmpty` false needs one. */
export function parametersErrors(params: Record<string, string> | undefined | null, allowEmpty: boolean, path: string): FieldError[] {
  const entries = Object.entries(params ?? {});
  if (entries.length > MAX_PARAMETERS) return [tooLong(path, '', MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k.length < 1) errs.push(invalid(path, k, 'field can not be empty.'));
    size += byteLength(k) + byteLength(v ?? '');
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(tooLong(path, '', MAX_PARAMETERS_SIZE));
  if (!allowEmpty && entries.length === 0) errs.push(required(path, 'must contain at least one key/value pair'));
  return errs;
}

interface Term { matchLabelExpressions?: { key?: string; values?: string[] }[] }

/** validateAllowedTopologies: each term valid; no two terms alike. */
export function allowedTopologiesErrors(terms: Term[] | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen: string[] = [];
  (Array.isArray(terms) ? terms : []).forEach((term, i) => {
    const at = index(path, i);
    const exprs = new Map<string, string[]>();
    (term?.matchLabelExpressions ?? []).forEach((rq, j) => {
      const rqAt = index(child(at, 'matchLabelExpressions'), j);
      const values = rq?.values ?? [];
      if (values.length === 0) errs.push(required(child(rqAt, 'values'), ''));
      const valueSet = new Set<string>();
      values.forEach((v, k) => { if (valueSet.has(v)) errs.push(duplicate(index(child(rqAt, 'values'), k), v)); valueSet.add(v); });
      errs.push(...validateLabelName(rq?.key ?? '', child(rqAt, 'key')));
      if (exprs.has(rq?.key ?? '')) errs.push(duplicate(child(rqAt, 'key'), rq?.key ?? ''));
      exprs.set(rq?.key ?? '', [...valueSet].sort());
    });
    const signature = JSON.stringify([...exprs.entries()].sort());
    if (seen.includes(signature)) errs.push(duplicate(child(at, 'matchLabelExpressions'), ''));
    seen.push(signature);
  });
  return errs;
}
