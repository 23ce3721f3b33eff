// How the schema machinery reads one TypeBox / JSON Schema node: which kind of value it describes, where
// its children are, and how `$ref` (TypeBox recursive schemas) resolves to an enclosing `$id`.
import type { TSchema } from '@sinclair/typebox';

export type SchemaKind =
  | 'object' // struct: declared properties (unknown fields dropped unless preserved)
  | 'map' // map[string]X: patternProperties / additionalProperties
  | 'array'
  | 'string'
  | 'bytes' // []byte as base64 text
  | 'integer'
  | 'number'
  | 'boolean'
  | 'time'
  | 'microtime'
  | 'quantity'
  | 'intOrString'
  | 'any'; // free-form JSON kept as given

/** Schema keys this machinery reads; TypeBox schemas are plain objects carrying them. */
export interface SchemaLike {
  type?: string | string[];
  format?: string;
  properties?: Record<string, TSchema>;
  patternProperties?: Record<string, TSchema>;
  additionalProperties?: boolean | TSchema;
  items?: TSchema | TSchema[];
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  $id?: string;
  $ref?: string;
  'x-ref'?: string;
  'x-platform-type'?: string;
  'x-platform-int-or-string'?: boolean;
  'x-platform-preserve-unknown-fields'?: boolean;
}

export function asSchema(schema: TSchema): SchemaLike {
  return schema as unknown as SchemaLike;
}

/** Enclosing schemas by `$id`, for resolving `$ref`. */
export type RefScope = ReadonlyMap<string, TSchema>;

export const EMPTY_SCOPE: RefScope = new Map();

/** The scope for the children of `schema`. */
export function scopeOf(schema: TSchema, scope: RefScope): RefScope {
  const id = asSchema(schema).$id;
  if (!id || scope.get(id) === schema) return scope;
  return new Map(scope).set(id, schema);
}

/** Follows `$ref` to the enclosing schema with that `$id`; an unresolvable ref reads as free-form. */
export function deref(schema: TSchema, scope: RefScope): TSchema {
  let s = schema;
  for (let hops = 0; hops < 16; hops++) {
    const ref = asSchema(s).$ref;
    if (ref === undefined) return s;
    const target = scope.get(ref) ?? scope.get(ref.replace(/^#\/\$defs\//, ''));
    if (!target) return ANY;
    s = target;
  }
  return ANY;
}

const ANY = { 'x-platform-preserve-unknown-fields': true } as unknown as TSchema;

export function kindOf(schema: TSchema): SchemaKind {
  const s = asSchema(schema);
  const platformType = s['x-platform-type'];
  if (platformType === 'Quantity') return 'quantity';
  if (platformType === 'IntOrString' || (s['x-platform-int-or-string'] && s.type === undefined)) return 'intOrString';
  if (platformType === 'Time') return 'time';
  if (platformType === 'MicroTime') return 'microtime';
  const type = Array.isArray(s.type) ? undefined : s.type;
  switch (type) {
    case 'object':
      if (s.properties) return 'object';
      if (mapValueSchema(schema)) return 'map';
      return s['x-platform-preserve-unknown-fields'] ? 'any' : 'object';
    case 'array':
      return 'array';
    case 'string':
      return s.format === 'byte' ? 'bytes' : 'string';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'any';
  }
}

/** The value schema of a map: the single patternProperties entry or a schema-valued additionalProperties. */
export function mapValueSchema(schema: TSchema): TSchema | undefined {
  const s = asSchema(schema);
  if (s.patternProperties) {
    const values = Object.values(s.patternProperties);
    if (values.length) return values[0];
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object') return s.additionalProperties;
  return undefined;
}

export function itemSchema(schema: TSchema): TSchema | undefined {
  const items = asSchema(schema).items;
  if (items === undefined || Array.isArray(items)) return undefined;
  return items;
}

export function preservesUnknown(schema: TSchema): boolean {
  return asSchema(schema)['x-platform-preserve-unknown-fields'] === true;
}
