// Kubernetes computes a write's warnings (WarningsOnCreate/WarningsOnUpdate) only once the object has
// passed validation; the kinds that warn wrap their validation with this.
import type { RequestContext } from './kind.ts';
import type { FieldError } from '../machinery/field-errors.ts';

/** Returns `errs`; when there are none, adds the write's `warnings()` to the request's. */
export function warnWhenValid(errs: FieldError[], ctx: RequestContext, warnings: () => string[]): FieldError[] {
  if (errs.length === 0) ctx.warnings.push(...warnings());
  return errs;
}
