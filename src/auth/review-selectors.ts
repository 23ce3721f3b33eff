// Validation of the field and label selectors an access review's resourceAttributes may carry (Kubernetes
// v1.32, AuthorizeWithSelectors): a raw selector or requirements, not both and not neither; requirement
// operators newer than this server are let through, as a newer client may send them.
import { type FieldError, forbidden, invalid, required } from '../machinery/field-errors.ts';
import { validateLabelName } from '../machinery/validation/objectmeta.ts';
import { isValidLabelValue } from '../machinery/validation/strings.ts';

type Obj = Record<string, any>;

const VALUES_REQUIRED = "must be specified when `operator` is 'In' or 'NotIn'";
const VALUES_FORBIDDEN = "may not be specified when `operator` is 'Exists' or 'DoesNotExist'";

function operatorErrors(req: Obj, path: string): FieldError[] {
  const values = Array.isArray(req.values) ? req.values : [];
  if ((req.operator === 'In' || req.operator === 'NotIn') && !values.length) return [required(`${path}.values`, VALUES_REQUIRED)];
  if ((req.operator === 'Exists' || req.operator === 'DoesNotExist') && values.length) return [forbidden(`${path}.values`, VALUES_FORBIDDEN)];
  return [];
}

function shapeErrors(selector: Obj, path: string): FieldError[] {
  const raw = typeof selector.rawSelector === 'string' ? selector.rawSelector : '';
  const requirements = Array.isArray(selector.requirements) ? selector.requirements : [];
  const errs: FieldError[] = [];
  if (raw && requirements.length) errs.push(invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
  if (!raw && !requirements.length) errs.push(required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  return errs;
}

function fieldRequirementErrors(req: Obj, path: string): FieldError[] {
  const errs: FieldError[] = req.key ? [] : [required(`${path}.key`, 'must be specified')];
  return [...errs, ...operatorErrors(req, path)];
}

function labelRequirementErrors(req: Obj, path: string): FieldError[] {
  const errs = [...operatorErrors(req, path), ...validateLabelName(typeof req.key === 'string' ? req.key : '', `${path}.key`)];
  (Array.isArray(req.values) ? req.values : []).forEach((v: unknown, j: number) => {
    for (const msg of isValidLabelValue(String(v))) errs.push(invalid(`${path}.values[${j}]`, v, msg));
  });
  return errs;
}

/** A selector's shape errors, then each requirement's. */
function selectorErrors(selector: unknown, path: string, requirementErrors: (req: Obj, path: string) => FieldError[]): FieldError[] {
  if (!selector || typeof selector !== 'object') return [];
  const errs = shapeErrors(selector as Obj, path);
  const requirements: unknown[] = Array.isArray((selector as Obj).requirements) ? (selector as Obj).requirements : [];
  requirements.forEach((req, i) => errs.push(...requirementErrors((req ?? {}) as Obj, `${path}.requirements[${i}]`)));
  return errs;
}

/** The errors of spec.resourceAttributes' fieldSelector and labelSelector, in Kubernetes' order. */
export function selectorAttributeErrors(ra: Obj | undefined): FieldError[] {
  if (!ra || typeof ra !== 'object') return [];
  return [
    ...selectorErrors(ra.fieldSelector, 'spec.resourceAttributes.fieldSelector', fieldRequirementErrors),
    ...selectorErrors(ra.labelSelector, 'spec.resourceAttributes.labelSelector', labelRequirementErrors),
  ];
}
