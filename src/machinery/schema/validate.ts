// Structural validation of what a schema can say by itself: required properties, enums, numeric bounds,
// string length and pattern, list length. Kind-specific rules live with the kind. Texts follow
// Kubernetes: `spec.replicas: Invalid value: -1: must be greater than or equal to 0`, `Required value`,
// `Unsupported value: "x": supported values: "a", "b"`, `Too long: may not be more than 63 bytes`.
// A plan is built once per schema (cached by schema object) and holds only the checks that exist.
import type { TSchema } from '@sinclair/typebox';
import { child, type FieldError, index, invalid, key, notSupported, required, tooLong, tooMany } from '../field-errors.ts';
import { asSchema, EMPTY_SCOPE } from './schema-kind.ts';
import { planCompiler, type PlanNode } from './plan.ts';

type Check = (v: unknown, path: string, errs: FieldError[]) => void;

interface Plan extends PlanNode<Plan> {
  checks: Check[];
  required: string[];
}

const compile = planCompiler<Plan>({
  blank: (resolved) => ({ kind: 'none', checks: scalarChecks(resolved), required: asSchema(resolved).required ?? [], children: [], item: null, empty: false }),
  doesNothing: (plan) => plan.checks.length === 0 && plan.required.length === 0,
});

/** Code points, as Go counts a string's length for maxLength. */
function runeLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; }
    }
  }
  return n;
}

function compilePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

function scalarChecks(schema: TSchema): Check[] {
  const s = asSchema(schema);
  const checks: Check[] = [];
  const allowed = s.enum ?? (s.const !== undefined ? [s.const] : undefined);
  if (allowed) {
    const texts = allowed.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)));
    checks.push((v, path, errs) => {
      if (typeof v === 'object') return;
      if (!allowed.includes(v)) errs.push(notSupported(path, v, texts));
    });
  }
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = s;
  if (minimum !== undefined) {
    const strict = exclusiveMinimum === true;
    checks.push((v, path, errs) => {
      if (typeof v !== 'number') return;
      if (strict ? v <= minimum : v < minimum) errs.push(invalid(path, v, strict ? `must be greater than ${minimum}` : `must be greater than or equal to ${minimum}`));
    });
  }
  if (typeof exclusiveMinimum === 'number') {
    checks.push((v, path, errs) => {
      if (typeof v === 'number' && v <= exclusiveMinimum) errs.push(invalid(path, v, `must be greater than ${exclusiveMinimum}`));
    });
  }
  if (maximum !== undefined) {
    const strict = exclusiveMaximum === true;
    checks.push((v, path, errs) => {
      if (typeof v !== 'number') return;
      if (strict ? v >= maximum : v > maximum) errs.push(invalid(path, v, strict ? `must be less than ${maximum}` : `must be less than or equal to ${maximum}`));
    });
  }
  if (typeof exclusiveMaximum === 'number') {
    checks.push((v, path, errs) => {
      if (typeof v === 'number' && v >= exclusiveMaximum) errs.push(invalid(path, v, `must be less than ${exclusiveMaximum}`));
    });
  }
  const { minLength, maxLength, pattern } = s;
  if (maxLength !== undefined) {
    checks.push((v, path, errs) => {
      if (typeof v === 'string' && v.length > maxLength && runeLength(v) > maxLength) errs.push(tooLong(path, v, maxLength));
    });
  }
  if (minLength !== undefined) {
    checks.push((v, path, errs) => {
      if (typeof v === 'string' && runeLength(v) < minLength) errs.push(invalid(path, v, `should be at least ${minLength} chars long`));
    });
  }
  if (pattern !== undefined) {
    const re = compilePattern(pattern);
    checks.push((v, path, errs) => {
      if (typeof v === 'string' && !re.test(v)) errs.push(invalid(path, v, `should match '${pattern}'`));
    });
  }
  const { minItems, maxItems } = s;
  if (maxItems !== undefined) {
    checks.push((v, path, errs) => {
      if (Array.isArray(v) && v.length > maxItems) errs.push(tooMany(path, v.length, maxItems));
    });
  }
  if (minItems !== undefined) {
    checks.push((v, path, errs) => {
      if (Array.isArray(v) && v.length < minItems) errs.push(invalid(path, v.length, `should have at least ${minItems} items`));
    });
  }
  return checks;
}

function run(v: unknown, plan: Plan, path: string, errs: FieldError[]): void {
  if (v === undefined || v === null) return;
  for (const check of plan.checks) check(v, path, errs);
  if (typeof v !== 'object') return;
  if (plan.kind === 'object') {
    if (Array.isArray(v)) return;
    const o = v as Record<string, unknown>;
    for (const r of plan.required) if (o[r] === undefined || o[r] === null) errs.push(required(child(path, r)));
    for (const p of plan.children) {
      const x = o[p.key];
      if (x !== undefined && x !== null && !p.plan.empty) run(x, p.plan, child(path, p.key), errs);
    }
  } else if (plan.kind === 'array') {
    if (!Array.isArray(v) || !plan.item || plan.item.empty) return;
    for (let i = 0; i < v.length; i++) run(v[i], plan.item, index(path, i), errs);
  } else if (plan.kind === 'map') {
    if (Array.isArray(v) || !plan.item || plan.item.empty) return;
    const o = v as Record<string, unknown>;
    for (const k in o) run(o[k], plan.item, key(path, k), errs);
  }
}

/**
 * The structural errors a kind's own checks leave to the schema. Kubernetes checks a built-in kind's
 * required fields in the kind's validation, each with its own error (`name part must be non-empty`, `kind
 * is required`); the schema's `required` lists only feed OpenAPI there. So a structural `Required value`
 * stands only where the kind said nothing about that field or anything within it. List indexes are left
 * out of the comparison: some of Kubernetes' errors name a list's field without its index.
 */
export function uncoveredStructuralErrors(structural: readonly FieldError[], specific: readonly FieldError[]): FieldError[] {
  if (specific.length === 0) return [...structural];
  const reported = specific.map((e) => withoutIndexes(e.field));
  const covers = (field: string) => reported.some((r) => r === field || r.startsWith(`${field}.`) || r.startsWith(`${field}[`));
  return structural.filter((e) => e.type !== 'FieldValueRequired' || !covers(withoutIndexes(e.field)));
}

function withoutIndexes(field: string): string {
  return field.replace(/\[\d+\]/g, '');
}

/** The structural errors of `obj` against `schema`, with field paths below `path`. */
export function validateStructure(obj: unknown, schema: TSchema, path = ''): FieldError[] {
  const plan = compile(schema, EMPTY_SCOPE);
  const errs: FieldError[] = [];
  if (!plan.empty) run(obj, plan, path, errs);
  return errs;
}
