// Typing an apply body against its schema. Kubernetes types the body before merging it (structured-merge-diff's
// validation of the patch object) and any error fails the apply whatever fieldValidation says:
// - a field a struct does not declare: `field not declared in schema` (that struct's walk stops there; a
//   struct that keeps unknown fields takes any);
// - a value of the wrong shape or scalar type, printed as Go prints the decoded value;
// - a list item its associative list cannot name (that list's walk stops there), or two items with one key.
// Scalars are typed as Kubernetes' OpenAPI types them: integers and numbers numeric, plain and byte strings
// string, booleans boolean; int-or-string, quantities, times and strings of another format any scalar; an
// int-or-string without a declared type (a custom resource's) anything at all.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, kindOf } from '../schema/schema-kind.ts';
import { goSprintSharpV, goSprintV, goTypeName } from '../go-value.ts';
import { fieldElement, indexElement, pathElementString, pathString, type PathElement } from './path.ts';
import { fieldType, resolve, type Atom, type TypeRef } from './schema-view.ts';
import { listItemElement, TypedValueError } from './tofieldset.ts';
import { isObject } from './value.ts';

type ScalarType = 'numeric' | 'string' | 'boolean' | 'untyped' | 'any';

/** Each typing error of `value` as `<path>: <message>`, in body order. */
export function typingErrors(value: unknown, tr: TypeRef): string[] {
  const out: string[] = [];
  walk(value, tr, [], out);
  return out;
}

/** The errors joined as structured-merge-diff joins several ("errors:" and one indented line each). */
export function typingErrorsMessage(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => '  ' + e)].join('\n');
}

function report(path: readonly PathElement[], message: string, out: string[]): void {
  out.push(path.length ? `${pathString(path)}: ${message}` : message);
}

function walk(value: unknown, tr: TypeRef, path: PathElement[], out: string[]): void {
  // Null is a valid value of every type.
  if (value === null || value === undefined || tr === 'deduced' || tr === 'none') return;
  const atom = resolve(tr);
  switch (atom.kind) {
    case 'map':
      if (!isObject(value)) return report(path, `expected map, got &{${goSprintV(value)}}`, out);
      return walkMap(value, atom, path, out);
    case 'list':
      if (!Array.isArray(value)) return report(path, `expected list, got &{${goSprintV(value)}}`, out);
      return walkList(value, atom, path, out);
    case 'scalar': {
      const message = scalarError(scalarType(tr), value);
      if (message) report(path, message, out);
      return;
    }
    default:
      return; // free-form: anything goes
  }
}

function walkMap(value: Record<string, unknown>, atom: Extract<Atom, { kind: 'map' }>, path: PathElement[], out: string[]): void {
  for (const key of Object.keys(value)) {
    path.push(fieldElement(key));
    if (atom.fields && !atom.fields.has(key) && atom.elem === null) {
      report(path, 'field not declared in schema', out);
      path.pop();
      return;
    }
    walk(value[key], fieldType(atom, key), path, out);
    path.pop();
  }
}

function walkList(value: unknown[], atom: Extract<Atom, { kind: 'list' }>, path: PathElement[], out: string[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    let pe: PathElement;
    if (atom.atomic) {
      pe = indexElement(i);
    } else {
      if ((item === null || item === undefined) && !atom.keys.length) {
        return report(path, `element ${i}: associative list without keys has an element that's an explicit null`, out);
      }
      try {
        pe = listItemElement(atom, item, i, path);
      } catch (err) {
        if (!(err instanceof TypedValueError)) throw err;
        out.push(err.message);
        return;
      }
      if (seen.has(pe.id)) report(path, `duplicate entries for key ${pathElementString(pe)}`, out);
      seen.add(pe.id);
    }
    path.push(pe);
    walk(item, atom.elem, path, out);
    path.pop();
  }
}

/** The message for a scalar of the wrong type, as structured-merge-diff prints the value it holds. */
function scalarError(type: ScalarType, v: unknown): string | undefined {
  switch (type) {
    case 'numeric':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeName(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSprintSharpV(v)}}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got &{${goSprintV(v)}}`;
    case 'untyped':
      return typeof v === 'object' ? `expected any scalar, got &{${goSprintV(v)}}` : undefined;
    default:
      return undefined;
  }
}

const scalarTypes = new WeakMap<object, ScalarType>();

function scalarType(tr: Exclude<TypeRef, 'deduced' | 'none'>): ScalarType {
  let t = scalarTypes.get(tr);
  if (t === undefined) {
    t = scalarTypeOf(deref(tr.schema, tr.scope));
    scalarTypes.set(tr, t);
  }
  return t;
}

function scalarTypeOf(schema: TSchema): ScalarType {
  switch (kindOf(schema)) {
    case 'integer':
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'bytes':
      return 'string';
    case 'string': {
      const format = asSchema(schema).format;
      return format === undefined || format === '' ? 'string' : 'untyped';
    }
    case 'intOrString':
      // Kubernetes' own int-or-string is a string of that format; a custom resource's has no type.
      return asSchema(schema)['x-platform-type'] === 'IntOrString' ? 'untyped' : 'any';
    case 'time':
    case 'microtime':
    case 'quantity':
      return 'untyped';
    default:
      return 'any';
  }
}
