// A kind's schema compiled once into the shape the binary codecs walk: which protobuf field number and wire
// form each property has (Kubernetes' numbers, from `x-proto`), and which values are bytes or floats.
import type { TSchema } from '@sinclair/typebox';
import { asSchema, deref, EMPTY_SCOPE, itemSchema, kindOf, mapValueSchema, type RefScope, scopeOf } from '../../machinery/schema/schema-kind.ts';

export type NodeKind =
  | 'message' | 'map' | 'array'
  | 'string' | 'bytes' | 'int32' | 'int64' | 'double' | 'bool'
  | 'time' | 'microtime' | 'quantity' | 'intOrString'
  /** Free-form JSON: RawExtension, FieldsV1, JSON (`message { bytes raw = 1 }` holding JSON text). */
  | 'raw';

export interface Field {
  name: string;
  /** Protobuf field number; undefined when the schema does not give one (the field cannot travel as protobuf). */
  number: number | undefined;
  node: SchemaNode;
  /**
   * A struct Go inlines into its parent's JSON (a Volume's VolumeSource, a webhook rule's Rule) but nests in
   * protobuf, at this field's number: its message (`node`) holds properties of the parent object itself.
   */
  embedded?: boolean;
  /** The catalogue's name of a sibling field (`x-alias-of`): one value under two names, on the wire only as the other. */
  alias?: boolean;
}

export interface SchemaNode {
  kind: NodeKind;
  /** message: declared properties, in protobuf field-number order (those without a number last). */
  fields: Field[];
  /** Properties by JSON name, those of embedded structs included. */
  byName: Map<string, Field>;
  /** Fields on the wire by number (an embedded struct is one field). */
  byNumber: Map<number, Field>;
  /** array items, map values. */
  item: SchemaNode | undefined;
  /** The reusable type's name (`x-ref`, `meta.v1.ObjectMeta`), when it has one. */
  ref: string | undefined;
}

const cache = new WeakMap<TSchema, SchemaNode>();

/** The compiled form of `schema` (cached per schema object). */
export function compileSchema(schema: TSchema, scope: RefScope = EMPTY_SCOPE): SchemaNode {
  const resolved = deref(schema, scope);
  const cached = cache.get(resolved);
  if (cached) return cached;
  const s = asSchema(resolved);
  const node: SchemaNode = { kind: nodeKind(resolved), fields: [], byName: new Map(), byNumber: new Map(), item: undefined, ref: s['x-ref'] };
  // Cache before the children: recursive schemas ($ref to an enclosing $id) meet this node again.
  cache.set(resolved, node);
  const inner = scopeOf(resolved, scope);
  if (node.kind === 'message') {
    const props = Object.entries(s.properties ?? {}).map(([name, child]) => {
      const annotated = child as { 'x-proto'?: number; 'x-proto-embedded'?: number | number[]; 'x-alias-of'?: string };
      const embedded = annotated['x-proto-embedded'];
      const path = embedded === undefined ? [] : Array.isArray(embedded) ? embedded : [embedded];
      const field: Field = { name, number: annotated['x-proto'], node: compileSchema(child, inner) };
      if (annotated['x-alias-of'] !== undefined) field.alias = true;
      return { path, field };
    });
    addFields(node, props);
    for (const { field } of props) node.byName.set(field.name, field);
  } else if (node.kind === 'array') {
    const items = itemSchema(resolved);
    node.item = items ? compileSchema(items, inner) : RAW;
  } else if (node.kind === 'map') {
    node.item = compileSchema(mapValueSchema(resolved)!, inner);
  }
  return node;
}

/**
 * Adds properties to a message node: those with an empty path directly, the others grouped by the first
 * number of their path (`x-proto-embedded`, outermost first) into embedded messages.
 */
function addFields(node: SchemaNode, props: { path: number[]; field: Field }[]): void {
  const groups = new Map<number, { path: number[]; field: Field }[]>();
  for (const p of props) {
    if (p.path.length === 0) {
      node.fields.push(p.field);
      if (p.field.number !== undefined) node.byNumber.set(p.field.number, p.field);
      continue;
    }
    const list = groups.get(p.path[0]) ?? [];
    list.push({ path: p.path.slice(1), field: p.field });
    groups.set(p.path[0], list);
  }
  for (const [number, members] of groups) {
    const message: SchemaNode = { kind: 'message', fields: [], byName: new Map(), byNumber: new Map(), item: undefined, ref: undefined };
    addFields(message, members);
    for (const m of members) message.byName.set(m.field.name, m.field);
    const field: Field = { name: `(embedded ${number})`, number, node: message, embedded: true };
    node.fields.push(field);
    node.byNumber.set(number, field);
  }
  node.fields.sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity));
}

const RAW: SchemaNode = { kind: 'raw', fields: [], byName: new Map(), byNumber: new Map(), item: undefined, ref: undefined };

function nodeKind(schema: TSchema): NodeKind {
  switch (kindOf(schema)) {
    case 'object': return 'message';
    case 'map': return 'map';
    case 'array': return 'array';
    case 'string': return 'string';
    case 'bytes': return 'bytes';
    case 'integer': return asSchema(schema).format === 'int32' ? 'int32' : 'int64';
    case 'number': return 'double';
    case 'boolean': return 'bool';
    case 'time': return 'time';
    case 'microtime': return 'microtime';
    case 'quantity': return 'quantity';
    case 'intOrString': return 'intOrString';
    case 'any': return 'raw';
  }
}

/**
 * An object's own apiVersion and kind (Go's inline TypeMeta) have no field in Kubernetes' messages: the
 * envelope carries them for the top object, and list items go without.
 */
const TYPE_META_FIELDS = new Set(['apiVersion', 'kind']);

/**
 * Paths of properties that have no protobuf field number (`spec.template.spec.foo`), so the kind cannot be
 * served as protobuf faithfully.
 */
export function missingProtoNumbers(schema: TSchema): string[] {
  const out: string[] = [];
  const seen = new Set<SchemaNode>();
  const walk = (node: SchemaNode, path: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    if (node.kind === 'message') {
      for (const f of node.fields) {
        // An embedded struct's properties are the parent's own in JSON.
        if (f.embedded) { walk(f.node, path); continue; }
        const p = path ? `${path}.${f.name}` : f.name;
        if (f.number === undefined && !f.alias && !TYPE_META_FIELDS.has(f.name)) out.push(p);
        walk(f.node, p);
      }
    } else if (node.item) {
      walk(node.item, `${path}[*]`);
    }
  };
  walk(compileSchema(schema), '');
  return out;
}
