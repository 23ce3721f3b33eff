// Resource lists (node capacity and allocatable) as Kubernetes treats them: values rounded up to milli
// precision and stored in canonical form, never negative, whole numbers for countable resources.
import { type FieldError, invalid } from '../../machinery/field-errors.ts';
import { isQualifiedName } from '../../machinery/validation/strings.ts';
import { Quantity, quantityFromJSON } from '../../machinery/quantity.ts';

function parsed(value: unknown): Quantity | undefined {
  try {
    return quantityFromJSON(value);
  } catch {
    // Malformed quantities are refused while decoding the request; nothing to add here.
    return undefined;
  }
}

// Resources counted in whole units (pkg/apis/core/helper: IsIntegerResourceName).
const integerResources = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
]);

function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('platform.io/');
}

/** Extended resources: domain-prefixed, outside platform.io, usable as `requests.<name>` in quotas. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return isQualifiedName('requests.' + name).length === 0;
}

export function isIntegerResourceName(name: string): boolean {
  return integerResources.has(name) || isExtendedResourceName(name);
}

/** ValidateResourceQuantityValue for the value at `path` of resource `name`. */
export function resourceQuantityErrors(path: string, name: string, value: unknown): FieldError[] {
  const q = parsed(value);
  if (!q) return [];
  const errs: FieldError[] = [];
  if (q.isNegative()) errs.push(invalid(path, q.toString(), 'must be greater than or equal to 0'));
  if (isIntegerResourceName(name) && q.scaledValue(-3) % 1000n !== 0n) errs.push(invalid(path, q.toString(), 'must be an integer'));
  return errs;
}

/** SetDefaults_ResourceList then serialization: round up to milli precision, write the canonical text. */
export function canonicalizeResourceList(list: Record<string, unknown> | undefined): void {
  if (!list || typeof list !== 'object') return;
  for (const [name, value] of Object.entries(list)) {
    const q = parsed(value);
    if (!q) continue;
    const rounded = q.nanos % 1_000_000n === 0n ? q : Quantity.fromMilli(q.scaledValue(-3), q.format);
    list[name] = rounded.toString();
  }
}
