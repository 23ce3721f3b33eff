// The fields a creation records, by the shape of the object created (shape.ts): worked out once per shape,
// type and endpoint, and shared (the sets are never changed, and write back the same FieldsV1 object).
import type { FieldSet } from './fieldset.ts';
import type { TypeRef } from './schema-view.ts';
import { hasShape, shapeNodeOf, shapeOf, type ShapeNode } from './shape.ts';

/** Shapes remembered per type and endpoint; the oldest goes first. */
const MAX_SHAPES = 256;

interface Shapes {
  bytext: Map<string, FieldSet>;
  /** The last shape seen: an object of it is recognised without making its shape text. */
  last?: { node: ShapeNode; set: FieldSet };
}

const byType = new WeakMap<object, Map<FieldSet | undefined, Shapes>>();

/**
 * The field set a creation of `obj` records, with `ignored` the fields its endpoint resets: `compute()`'s
 * answer for the first object of its shape, the same set for the next ones.
 */
export function createdFields(type: TypeRef, ignored: FieldSet | undefined, obj: unknown, compute: () => FieldSet): FieldSet {
  if (typeof type !== 'object') return compute();
  let byEndpoint = byType.get(type);
  if (!byEndpoint) { byEndpoint = new Map(); byType.set(type, byEndpoint); }
  let shapes = byEndpoint.get(ignored);
  if (!shapes) { shapes = { bytext: new Map() }; byEndpoint.set(ignored, shapes); }
  if (shapes.last && hasShape(obj, shapes.last.node)) return shapes.last.set;
  const shape = shapeOf(obj);
  let set = shapes.bytext.get(shape);
  if (!set) {
    set = compute();
    // Every object of the shape shares the set's FieldsV1: frozen, so that a change to one throws instead of
    // changing the others.
    deepFreeze(set.toFieldsV1());
    if (shapes.bytext.size >= MAX_SHAPES) shapes.bytext.delete(shapes.bytext.keys().next().value!);
    shapes.bytext.set(shape, set);
  }
  shapes.last = { node: shapeNodeOf(obj), set };
  return set;
}

function deepFreeze(node: Record<string, unknown>): void {
  for (const k in node) deepFreeze(node[k] as Record<string, unknown>);
  Object.freeze(node);
}
