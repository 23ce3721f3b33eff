// The shape of a new object as its creation's field set sees it. A create is compared with the empty
// object, which holds nothing but nulls and empty by-value structs: whether a field is added depends on
// the keys the object has and on the kind of each value (null, string, number, boolean, map, list), and
// not on the values themselves, except inside lists, whose items are named by their values (associative
// list keys, set members). Objects of one shape therefore record the same fields, and creates of many
// objects of one shape (a template's pods, a client's ConfigMaps) work them out once (created-fields.ts).

/**
 * A text that differs for any two objects whose creation could record different fields: the keys of every
 * map with the kind of each value, and lists whole with their values. Keys are length-prefixed, so no key
 * can be mistaken for structure.
 */
export function shapeOf(value: unknown): string {
  return shape(value, false);
}

function shape(v: unknown, inList: boolean): string {
  switch (typeof v) {
    case 'string': return inList ? 's' + v.length + ':' + v : 's';
    case 'number': return inList ? 'n' + String(v) + ';' : 'n';
    case 'boolean': return v ? 't' : 'f';
    case 'undefined': return 'u';
    case 'object': {
      if (v === null) return '0';
      if (Array.isArray(v)) {
        let s = '[';
        for (let i = 0; i < v.length; i++) s += shape(v[i], true) + ',';
        return s + ']';
      }
      let s = '{';
      for (const k in v) s += k.length + ':' + k + shape((v as Record<string, unknown>)[k], inList);
      return s + '}';
    }
    default:
      // Functions, symbols, big integers: not JSON, never the same shape as anything.
      return '?' + String(Math.random());
  }
}

/** A shape kept to compare other objects with (hasShape), without making their shape text: scalars by their
 *  tag, maps by their keys in order, lists by their shape text. */
export type ShapeNode = string | { readonly keys: readonly string[]; readonly kids: readonly ShapeNode[] } | { readonly list: string };

export function shapeNodeOf(v: unknown): ShapeNode {
  if (v === null || typeof v !== 'object') return shape(v, false);
  if (Array.isArray(v)) return { list: shape(v, false) };
  const keys: string[] = [];
  const kids: ShapeNode[] = [];
  for (const k in v) {
    keys.push(k);
    kids.push(shapeNodeOf((v as Record<string, unknown>)[k]));
  }
  return { keys, kids };
}

/** Whether `v` has the shape `node` was made from: shapeOf(v) === shapeOf(the object of `node`). */
export function hasShape(v: unknown, node: ShapeNode): boolean {
  if (typeof node === 'string') return (v === null || typeof v !== 'object') && shape(v, false) === node;
  if (v === null || typeof v !== 'object') return false;
  if ('list' in node) return Array.isArray(v) && shape(v, false) === node.list;
  if (Array.isArray(v)) return false;
  let i = 0;
  for (const k in v) {
    if (i >= node.keys.length || k !== node.keys[i] || !hasShape((v as Record<string, unknown>)[k], node.kids[i])) return false;
    i++;
  }
  return i === node.keys.length;
}
