// The fields of an apply body its schema does not declare. Kubernetes types an apply body against the
// schema before merging it, and that typing fails on any such field whatever fieldValidation says
// (structured-merge-diff: "field not declared in schema"); a struct that keeps unknown fields takes any.
import { fieldElement, indexElement, pathString, type PathElement } from './path.ts';
import { atomFor, fieldType, type TypeRef } from './schema-view.ts';
import { listItemElement } from './tofieldset.ts';
import { isObject } from './value.ts';

/** Each undeclared field of `value` as `<path>: field not declared in schema`, in body order. */
export function undeclaredFields(value: unknown, tr: TypeRef): string[] {
  const out: string[] = [];
  walk(value, tr, [], out);
  return out;
}

/** The errors joined as structured-merge-diff joins several ("errors:" and one indented line each). */
export function undeclaredFieldsMessage(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => '  ' + e)].join('\n');
}

function walk(value: unknown, tr: TypeRef, path: PathElement[], out: string[]): void {
  const atom = atomFor(tr, value);
  if (atom.kind === 'map' && isObject(value)) {
    for (const key of Object.keys(value)) {
      path.push(fieldElement(key));
      // A struct stops at its first undeclared field, as the typing does.
      if (atom.fields && !atom.fields.has(key) && atom.elem === null) {
        out.push(`${pathString(path)}: field not declared in schema`);
        path.pop();
        return;
      }
      walk(value[key], fieldType(atom, key), path, out);
      path.pop();
    }
  } else if (atom.kind === 'list' && Array.isArray(value)) {
    value.forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = atom.atomic ? indexElement(i) : listItemElement(atom, item, i, path);
      } catch {
        return; // an item without its key fails the merge itself, with its own message
      }
      path.push(pe);
      walk(item, atom.elem, path, out);
      path.pop();
    });
  }
}
