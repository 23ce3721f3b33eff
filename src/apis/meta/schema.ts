// Schema builders for kinds. Each returns a TypeBox schema (plain JSON Schema with our extensions), so one
// declaration yields the TypeScript type, defaulting, structural validation, OpenAPI and merge markers.
import { Type, type TSchema, type TObject, type TProperties, type TArray, type TRecord, type TString, type TInteger, type TBoolean, type TUnknown, type TNumber } from '@sinclair/typebox';

export interface FieldOptions {
  description?: string;
  default?: unknown;
  /** Protobuf field number in Kubernetes' generated.proto for this field. */
  proto?: number;
  /** The name the catalogue gives a sibling field that Kubernetes names otherwise: the two carry one value
   *  (the kind keeps them in step), and only Kubernetes' field travels as protobuf. */
  aliasOf?: string;
}

export interface ListOptions extends FieldOptions {
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  patchMergeKey?: string;
  patchStrategy?: 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';
}

export interface ObjectOptions extends FieldOptions {
  /** `x-platform-map-type` / struct type: atomic objects are replaced whole by apply. */
  atomic?: boolean;
  /** Properties that must be present (structural validation says `Required value`). */
  required?: string[];
  /** Keep fields the schema does not declare (free-form objects such as RawExtension). */
  preserveUnknownFields?: boolean;
  /** Name of the definition in OpenAPI (`io.k8s.api.core.v1.ConfigMap` style, renamed). */
  ref?: string;
}

function ext(o: FieldOptions & Partial<ListOptions> & Partial<ObjectOptions>): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  if (o.description !== undefined) r.description = o.description;
  if (o.default !== undefined) r.default = o.default;
  if (o.proto !== undefined) r['x-proto'] = o.proto;
  if (o.aliasOf !== undefined) r['x-alias-of'] = o.aliasOf;
  if (o.listType) r['x-platform-list-type'] = o.listType;
  if (o.listMapKeys) r['x-platform-list-map-keys'] = o.listMapKeys;
  if (o.patchMergeKey) r['x-platform-patch-merge-key'] = o.patchMergeKey;
  if (o.patchStrategy) r['x-platform-patch-strategy'] = o.patchStrategy;
  if (o.atomic) r['x-platform-map-type'] = 'atomic';
  if (o.preserveUnknownFields) r['x-platform-preserve-unknown-fields'] = true;
  if (o.ref) r['x-ref'] = o.ref;
  return r;
}

export const S = {
  object<T extends TProperties>(props: T, o: ObjectOptions = {}): TObject<T> {
    const schema = Type.Object(props, ext(o)) as TObject<T> & { required?: string[] };
    // TypeBox marks every non-optional property required; Kubernetes objects treat nearly all as optional,
    // so `required` lists only what the caller names.
    if (o.required?.length) schema.required = o.required; else delete schema.required;
    return schema;
  },
  string(o: FieldOptions & { enum?: string[]; format?: string; maxLength?: number; pattern?: string } = {}): TString {
    const extra: Record<string, unknown> = ext(o);
    if (o.enum) extra.enum = o.enum;
    if (o.format) extra.format = o.format;
    if (o.maxLength !== undefined) extra.maxLength = o.maxLength;
    if (o.pattern) extra.pattern = o.pattern;
    return Type.String(extra);
  },
  int32(o: FieldOptions & { minimum?: number; maximum?: number } = {}): TInteger {
    return Type.Integer({ format: 'int32', ...ext(o), ...(o.minimum !== undefined ? { minimum: o.minimum } : {}), ...(o.maximum !== undefined ? { maximum: o.maximum } : {}) });
  },
  int64(o: FieldOptions & { minimum?: number; maximum?: number } = {}): TInteger {
    return Type.Integer({ format: 'int64', ...ext(o), ...(o.minimum !== undefined ? { minimum: o.minimum } : {}), ...(o.maximum !== undefined ? { maximum: o.maximum } : {}) });
  },
  number(o: FieldOptions = {}): TNumber {
    return Type.Number({ format: 'double', ...ext(o) });
  },
  bool(o: FieldOptions = {}): TBoolean {
    return Type.Boolean(ext(o));
  },
  /** `map[string]X`, granular unless atomic. */
  map<T extends TSchema>(value: T, o: FieldOptions & { atomic?: boolean } = {}): TRecord<TString, T> {
    return Type.Record(Type.String(), value, ext(o)) as TRecord<TString, T>;
  },
  /** A list: atomic unless it declares a list type, or a merge patch strategy (then, as in Kubernetes,
   *  apply derives its semantics from the strategy and merge key). */
  list<T extends TSchema>(items: T, o: ListOptions = {}): TArray<T> {
    return Type.Array(items, ext({ ...o, listType: o.listType ?? (o.patchStrategy?.includes('merge') ? undefined : 'atomic') }));
  },
  /** `[]byte`: base64 text. */
  bytes(o: FieldOptions = {}): TString {
    return Type.String({ format: 'byte', ...ext(o) });
  },
  time(o: FieldOptions = {}): TString {
    return Type.String({ format: 'date-time', 'x-platform-type': 'Time', ...ext(o) });
  },
  microTime(o: FieldOptions = {}): TString {
    return Type.String({ format: 'date-time', 'x-platform-type': 'MicroTime', ...ext(o) });
  },
  /** A resource Quantity: a string such as `500m` or `1Gi` (numbers are accepted and kept as text). */
  quantity(o: FieldOptions = {}): TUnknown {
    return Type.Unknown({ 'x-platform-int-or-string': true, 'x-platform-type': 'Quantity', ...ext(o) });
  },
  intOrString(o: FieldOptions = {}): TUnknown {
    return Type.Unknown({ 'x-platform-int-or-string': true, 'x-platform-type': 'IntOrString', format: 'int-or-string', ...ext(o) });
  },
  /** Any JSON value kept as given (RawExtension, free-form fields). */
  any(o: FieldOptions = {}): TUnknown {
    return Type.Unknown({ 'x-platform-preserve-unknown-fields': true, ...ext(o) });
  },
};

export type { Static } from '@sinclair/typebox';
