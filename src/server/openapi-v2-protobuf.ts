// The Swagger 2.0 document in the protobuf form Kubernetes serves at /openapi/v2 for
// `application/com.github.proto-openapi.spec.v2.v1.0+protobuf`: gnostic's `openapi.v2.Document` message
// (openapiv2/OpenAPIv2.proto), filled as gnostic fills it from JSON. Maps become ordered lists of Named*
// entries in the document's order; `x-` keys become NamedAny vendor extensions; `default`, `example`,
// `enum` values and extensions are Any messages holding the value as YAML text; oneofs pick their branch
// the way gnostic's parser does (a parameter by `in`, `$ref` objects as JsonReference). Keys gnostic has
// no field for are left out. Fields are written in field-number order, default scalars omitted (proto3).
import YAML from 'yaml';
import { BinaryWriter, WireType } from './codecs/wire.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- scalar and repeated fields (proto3: zero values are not written) ----

function str(w: BinaryWriter, field: number, v: unknown): void {
  if (typeof v === 'string' && v !== '') w.tag(field, WireType.LengthDelimited).string(v);
}

function bool(w: BinaryWriter, field: number, v: unknown): void {
  if (v === true) w.tag(field, WireType.Varint).bool(true);
}

function int64(w: BinaryWriter, field: number, v: unknown): void {
  if (typeof v === 'number' && Number.isInteger(v) && v !== 0) w.tag(field, WireType.Varint).int64(v);
}

function double(w: BinaryWriter, field: number, v: unknown): void {
  if (typeof v === 'number' && v !== 0) w.tag(field, WireType.Bit64).double(v);
}

function strings(w: BinaryWriter, field: number, v: unknown): void {
  if (!Array.isArray(v)) return;
  for (const s of v) if (typeof s === 'string') w.tag(field, WireType.LengthDelimited).string(s);
}

/** A nested message: written even when empty, as a set message field is. */
function message(w: BinaryWriter, field: number, fill: (w: BinaryWriter) => void): void {
  w.tag(field, WireType.LengthDelimited).fork();
  fill(w);
  w.join();
}

function each<T>(w: BinaryWriter, field: number, list: unknown, fill: (w: BinaryWriter, item: T) => void, accept: (item: unknown) => item is T): void {
  if (!Array.isArray(list)) return;
  for (const item of list) if (accept(item)) message(w, field, (m) => fill(m, item));
}

/** A JSON object as gnostic's ordered (name, value) entries: `Named*{ name = 1; value = 2 }`. */
function named(w: BinaryWriter, field: number, entries: [string, unknown][], fillValue: (w: BinaryWriter, value: unknown) => void): void {
  for (const [name, value] of entries) {
    message(w, field, (m) => {
      str(m, 1, name);
      message(m, 2, (v) => fillValue(v, value));
    });
  }
}

// ---- Any and vendor extensions ----

/** The YAML gnostic stores in `Any.yaml` (block style, quoting only where YAML 1.1 would misread). */
export function yamlText(value: unknown): string {
  return YAML.stringify(value, { version: '1.1', indent: 4, lineWidth: 0 });
}

/** `Any { yaml = 2 }`. */
function anyValue(w: BinaryWriter, value: unknown): void {
  str(w, 2, yamlText(value));
}

function any(w: BinaryWriter, field: number, value: unknown): void {
  if (value !== undefined) message(w, field, (m) => anyValue(m, value));
}

function anys(w: BinaryWriter, field: number, values: unknown): void {
  if (Array.isArray(values)) for (const v of values) message(w, field, (m) => anyValue(m, v));
}

/** `repeated NamedAny vendor_extension`: every `x-` key, in order. */
function extensions(w: BinaryWriter, field: number, o: Json): void {
  named(w, field, Object.entries(o).filter(([k, v]) => k.startsWith('x-') && v !== undefined), anyValue);
}

// ---- small shared messages ----

function externalDocs(w: BinaryWriter, o: Json): void {
  str(w, 1, o.description);
  str(w, 2, o.url);
  extensions(w, 3, o);
}

function jsonReference(w: BinaryWriter, o: Json): void {
  str(w, 1, o.$ref);
  str(w, 2, o.description);
}

/**
 * The validation keywords a non-body parameter, a header and PrimitivesItems share, in this order and
 * numbered consecutively from `base` (`type` is `base`, `multipleOf` is `base + 16`).
 */
function primitiveFields(w: BinaryWriter, base: number, o: Json): void {
  str(w, base, o.type);
  str(w, base + 1, o.format);
  if (isObject(o.items)) message(w, base + 2, (m) => primitivesItems(m, o.items as Json));
  str(w, base + 3, o.collectionFormat);
  any(w, base + 4, o.default);
  double(w, base + 5, o.maximum);
  bool(w, base + 6, o.exclusiveMaximum);
  double(w, base + 7, o.minimum);
  bool(w, base + 8, o.exclusiveMinimum);
  int64(w, base + 9, o.maxLength);
  int64(w, base + 10, o.minLength);
  str(w, base + 11, o.pattern);
  int64(w, base + 12, o.maxItems);
  int64(w, base + 13, o.minItems);
  bool(w, base + 14, o.uniqueItems);
  anys(w, base + 15, o.enum);
  double(w, base + 16, o.multipleOf);
}

function primitivesItems(w: BinaryWriter, o: Json): void {
  primitiveFields(w, 1, o);
  extensions(w, 18, o);
}

function header(w: BinaryWriter, o: Json): void {
  primitiveFields(w, 1, o);
  str(w, 18, o.description);
  extensions(w, 19, o);
}

// ---- schemas ----

function schema(w: BinaryWriter, s: Json): void {
  str(w, 1, s.$ref);
  str(w, 2, s.format);
  str(w, 3, s.title);
  str(w, 4, s.description);
  any(w, 5, s.default);
  double(w, 6, s.multipleOf);
  double(w, 7, s.maximum);
  bool(w, 8, s.exclusiveMaximum);
  double(w, 9, s.minimum);
  bool(w, 10, s.exclusiveMinimum);
  int64(w, 11, s.maxLength);
  int64(w, 12, s.minLength);
  str(w, 13, s.pattern);
  int64(w, 14, s.maxItems);
  int64(w, 15, s.minItems);
  bool(w, 16, s.uniqueItems);
  int64(w, 17, s.maxProperties);
  int64(w, 18, s.minProperties);
  strings(w, 19, s.required);
  anys(w, 20, s.enum);
  // AdditionalPropertiesItem: oneof { Schema schema = 1; bool boolean = 2 } (a oneof's false is still set).
  if (isObject(s.additionalProperties)) message(w, 21, (m) => message(m, 1, (x) => schema(x, s.additionalProperties as Json)));
  else if (typeof s.additionalProperties === 'boolean') message(w, 21, (m) => m.tag(2, WireType.Varint).bool(s.additionalProperties as boolean));
  // TypeItem { repeated string value = 1 }: one name or a list of names.
  if (typeof s.type === 'string') message(w, 22, (m) => strings(m, 1, [s.type]));
  else if (Array.isArray(s.type)) message(w, 22, (m) => strings(m, 1, s.type));
  // ItemsItem { repeated Schema schema = 1 }: one schema or a list of them.
  if (isObject(s.items)) message(w, 23, (m) => message(m, 1, (x) => schema(x, s.items as Json)));
  else if (Array.isArray(s.items)) message(w, 23, (m) => each(m, 1, s.items, schema, isObject));
  each(w, 24, s.allOf, schema, isObject);
  if (isObject(s.properties)) message(w, 25, (m) => named(m, 1, Object.entries(s.properties as Json).filter(([, v]) => isObject(v)), (x, v) => schema(x, v as Json)));
  str(w, 26, s.discriminator);
  bool(w, 27, s.readOnly);
  if (isObject(s.xml)) message(w, 28, (m) => xml(m, s.xml as Json));
  if (isObject(s.externalDocs)) message(w, 29, (m) => externalDocs(m, s.externalDocs as Json));
  any(w, 30, s.example);
  extensions(w, 31, s);
}

function xml(w: BinaryWriter, o: Json): void {
  str(w, 1, o.name);
  str(w, 2, o.namespace);
  str(w, 3, o.prefix);
  bool(w, 4, o.attribute);
  bool(w, 5, o.wrapped);
  extensions(w, 6, o);
}

function fileSchema(w: BinaryWriter, s: Json): void {
  str(w, 1, s.format);
  str(w, 2, s.title);
  str(w, 3, s.description);
  any(w, 4, s.default);
  strings(w, 5, s.required);
  str(w, 6, s.type);
  bool(w, 7, s.readOnly);
  if (isObject(s.externalDocs)) message(w, 8, (m) => externalDocs(m, s.externalDocs as Json));
  any(w, 9, s.example);
  extensions(w, 10, s);
}

// ---- parameters ----

/** NonBodyParameter's branches, by `in`: the oneof field number and whether `allowEmptyValue` (5) comes before the rest. */
const NON_BODY: Record<string, { branch: number; allowEmpty: boolean }> = {
  header: { branch: 1, allowEmpty: false },
  formData: { branch: 2, allowEmpty: true },
  query: { branch: 3, allowEmpty: true },
  path: { branch: 4, allowEmpty: false },
};

function bodyParameter(w: BinaryWriter, p: Json): void {
  str(w, 1, p.description);
  str(w, 2, p.name);
  str(w, 3, p.in);
  bool(w, 4, p.required);
  if (isObject(p.schema)) message(w, 5, (m) => schema(m, p.schema as Json));
  extensions(w, 6, p);
}

function nonBodySubSchema(w: BinaryWriter, p: Json, allowEmpty: boolean): void {
  bool(w, 1, p.required);
  str(w, 2, p.in);
  str(w, 3, p.description);
  str(w, 4, p.name);
  if (allowEmpty) bool(w, 5, p.allowEmptyValue);
  const base = allowEmpty ? 6 : 5;
  primitiveFields(w, base, p);
  extensions(w, base + 17, p);
}

/** `Parameter { oneof { BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2 } }`. */
function parameter(w: BinaryWriter, p: Json): void {
  if (p.in === 'body') return message(w, 1, (m) => bodyParameter(m, p));
  const kind = NON_BODY[p.in as string];
  if (kind) message(w, 2, (m) => message(m, kind.branch, (x) => nonBodySubSchema(x, p, kind.allowEmpty)));
}

/** `ParametersItem { oneof { Parameter parameter = 1; JsonReference json_reference = 2 } }`. */
function parametersItem(w: BinaryWriter, p: Json): void {
  if (typeof p.$ref === 'string') message(w, 2, (m) => jsonReference(m, p));
  else message(w, 1, (m) => parameter(m, p));
}

// ---- operations and paths ----

function response(w: BinaryWriter, r: Json): void {
  str(w, 1, r.description);
  // SchemaItem { oneof { Schema schema = 1; FileSchema file_schema = 2 } }
  if (isObject(r.schema)) {
    const s = r.schema as Json;
    message(w, 2, (m) => (s.type === 'file' ? message(m, 2, (x) => fileSchema(x, s)) : message(m, 1, (x) => schema(x, s))));
  }
  if (isObject(r.headers)) message(w, 3, (m) => named(m, 1, Object.entries(r.headers as Json).filter(([, v]) => isObject(v)), (x, v) => header(x, v as Json)));
  if (isObject(r.examples)) message(w, 4, (m) => named(m, 1, Object.entries(r.examples as Json), anyValue));
  extensions(w, 5, r);
}

/** `Responses { repeated NamedResponseValue response_code = 1; repeated NamedAny vendor_extension = 2 }`. */
function responses(w: BinaryWriter, rs: Json): void {
  const codes = Object.entries(rs).filter(([k, v]) => (/^[0-9]{3}$/.test(k) || k === 'default') && isObject(v));
  // ResponseValue { oneof { Response response = 1; JsonReference json_reference = 2 } }
  named(w, 1, codes, (m, v) => {
    const r = v as Json;
    if (typeof r.$ref === 'string') message(m, 2, (x) => jsonReference(x, r));
    else message(m, 1, (x) => response(x, r));
  });
  extensions(w, 2, rs);
}

function securityRequirements(w: BinaryWriter, field: number, list: unknown): void {
  // SecurityRequirement { repeated NamedStringArray additional_properties = 1 }, StringArray { repeated string value = 1 }
  each(w, field, list, (m, req: Json) => named(m, 1, Object.entries(req), (x, v) => strings(x, 1, v)), isObject);
}

function operation(w: BinaryWriter, op: Json): void {
  strings(w, 1, op.tags);
  str(w, 2, op.summary);
  str(w, 3, op.description);
  if (isObject(op.externalDocs)) message(w, 4, (m) => externalDocs(m, op.externalDocs as Json));
  str(w, 5, op.operationId);
  strings(w, 6, op.produces);
  strings(w, 7, op.consumes);
  each(w, 8, op.parameters, parametersItem, isObject);
  if (isObject(op.responses)) message(w, 9, (m) => responses(m, op.responses as Json));
  strings(w, 10, op.schemes);
  bool(w, 11, op.deprecated);
  securityRequirements(w, 12, op.security);
  extensions(w, 13, op);
}

const METHODS = [['get', 2], ['put', 3], ['post', 4], ['delete', 5], ['options', 6], ['head', 7], ['patch', 8]] as const;

function pathItem(w: BinaryWriter, item: Json): void {
  str(w, 1, item.$ref);
  for (const [method, field] of METHODS) if (isObject(item[method])) message(w, field, (m) => operation(m, item[method] as Json));
  each(w, 9, item.parameters, parametersItem, isObject);
  extensions(w, 10, item);
}

// ---- security definitions ----

function securityScheme(w: BinaryWriter, s: Json): void {
  // SecurityDefinitionsItem's branches: basic = 1, apiKey = 2, oauth2 by flow = 3..6.
  if (s.type === 'basic') {
    return message(w, 1, (m) => { str(m, 1, s.type); str(m, 2, s.description); extensions(m, 3, s); });
  }
  if (s.type === 'apiKey') {
    return message(w, 2, (m) => { str(m, 1, s.type); str(m, 2, s.name); str(m, 3, s.in); str(m, 4, s.description); extensions(m, 5, s); });
  }
  if (s.type !== 'oauth2') return;
  // Oauth2Scopes { repeated NamedString additional_properties = 1 }: the value is a plain string.
  const scopes = (m: BinaryWriter, field: number) => {
    if (!isObject(s.scopes)) return;
    message(m, field, (x) => {
      for (const [name, value] of Object.entries(s.scopes as Json)) message(x, 1, (e) => { str(e, 1, name); str(e, 2, value); });
    });
  };
  const common = (m: BinaryWriter) => { str(m, 1, s.type); str(m, 2, s.flow); scopes(m, 3); };
  if (s.flow === 'implicit') return message(w, 3, (m) => { common(m); str(m, 4, s.authorizationUrl); str(m, 5, s.description); extensions(m, 6, s); });
  if (s.flow === 'password') return message(w, 4, (m) => { common(m); str(m, 4, s.tokenUrl); str(m, 5, s.description); extensions(m, 6, s); });
  if (s.flow === 'application') return message(w, 5, (m) => { common(m); str(m, 4, s.tokenUrl); str(m, 5, s.description); extensions(m, 6, s); });
  if (s.flow === 'accessCode') return message(w, 6, (m) => { common(m); str(m, 4, s.authorizationUrl); str(m, 5, s.tokenUrl); str(m, 6, s.description); extensions(m, 7, s); });
}

// ---- the document ----

function info(w: BinaryWriter, o: Json): void {
  str(w, 1, o.title);
  str(w, 2, o.version);
  str(w, 3, o.description);
  str(w, 4, o.termsOfService);
  if (isObject(o.contact)) {
    const c = o.contact as Json;
    message(w, 5, (m) => { str(m, 1, c.name); str(m, 2, c.url); str(m, 3, c.email); extensions(m, 4, c); });
  }
  if (isObject(o.license)) {
    const l = o.license as Json;
    message(w, 6, (m) => { str(m, 1, l.name); str(m, 2, l.url); extensions(m, 3, l); });
  }
  extensions(w, 7, o);
}

function objectEntries(o: unknown): [string, Json][] {
  return isObject(o) ? Object.entries(o).filter((e): e is [string, Json] => isObject(e[1])) : [];
}

/** Encodes a Swagger 2.0 document (as JSON data) into gnostic's `openapi.v2.Document` wire format. */
export function encodeOpenApiV2Protobuf(doc: object): Uint8Array {
  const d = doc as Json;
  const w = new BinaryWriter();
  str(w, 1, d.swagger);
  if (isObject(d.info)) message(w, 2, (m) => info(m, d.info as Json));
  str(w, 3, d.host);
  str(w, 4, d.basePath);
  strings(w, 5, d.schemes);
  strings(w, 6, d.consumes);
  strings(w, 7, d.produces);
  if (isObject(d.paths)) {
    const paths = d.paths as Json;
    // Paths { repeated NamedAny vendor_extension = 1; repeated NamedPathItem path = 2 }: keys starting with `/`.
    message(w, 8, (m) => {
      extensions(m, 1, paths);
      named(m, 2, objectEntries(paths).filter(([k]) => k.startsWith('/')), (x, v) => pathItem(x, v as Json));
    });
  }
  if (isObject(d.definitions)) message(w, 9, (m) => named(m, 1, objectEntries(d.definitions), (x, v) => schema(x, v as Json)));
  if (isObject(d.parameters)) message(w, 10, (m) => named(m, 1, objectEntries(d.parameters), (x, v) => parameter(x, v as Json)));
  if (isObject(d.responses)) message(w, 11, (m) => named(m, 1, objectEntries(d.responses), (x, v) => response(x, v as Json)));
  securityRequirements(w, 12, d.security);
  if (isObject(d.securityDefinitions)) message(w, 13, (m) => named(m, 1, objectEntries(d.securityDefinitions), (x, v) => securityScheme(x, v as Json)));
  each(w, 14, d.tags, (m, t: Json) => {
    str(m, 1, t.name);
    str(m, 2, t.description);
    if (isObject(t.externalDocs)) message(m, 3, (x) => externalDocs(x, t.externalDocs as Json));
    extensions(m, 4, t);
  }, isObject);
  if (isObject(d.externalDocs)) message(w, 15, (m) => externalDocs(m, d.externalDocs as Json));
  extensions(w, 16, d);
  return w.finish();
}
