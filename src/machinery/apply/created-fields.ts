// The fields a creation records, by the shape of the object created (shape.ts): worked out once per shape,
// type and endpoint, and shared (the sets are never changed, and write back the same FieldsV1 object).
import type { FieldSet } from './fieldset.ts';
import type { TypeRef } from './schema-view.ts';
import { shapeOf } from './shape.ts';

/** Shapes remembered per type and endpoint; the oldest goes first. */
const MAX_SHAPES = 256;

const byType = new WeakMap<object, Map<FieldSet | undefined, Map<string, FieldSet>>>();

/**
 * The field set a creation of `obj` records, with `ignored` the fields its endpoint resets: `compute()`'s
 * answer for the first object of its shape, the same set for the next ones.
 */
export function createdFields(type: TypeRef, ignored: FieldSet | undefined, obj: unknown, compute: () => FieldSet): FieldSet {
  if (typeof type !== 'object') return compute();
  let byEndpoint = byType.get(type);
  if (!byEndpoint) { byEndpoint = new Map(); byType.set(type, byEndpoint); }
  let shapes = byEndpoint.get(ignored);
  if (!shapes) { shapes = new Map(); byEndpoint.set(ignored, shapes); }
  const shape = shapeOf(obj);
  let set = shapes.get(shape);
  if (!set) {
    set = compute();
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
    shapes.set(shape, set);
  }
  return set;
}
