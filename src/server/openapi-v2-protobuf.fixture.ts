// A reader for the /openapi/v2 protobuf, independent of the encoder, for the tests: gnostic's message
// shapes written down again (from openapiv2/OpenAPIv2.proto's field numbers) as a descriptor that
// @bufbuild/protobuf's reflection decodes with, and the decoded message turned back into Swagger JSON
// (Named* lists into objects, Any YAML into values, oneofs into their branch) to compare with the document.
import { create, createFileRegistry, fromBinary, ScalarType, toJson, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FieldDescriptorProto_Label, FieldDescriptorProto_Type } from '@bufbuild/protobuf/wkt';
import YAML from 'yaml';

type Json = Record<string, unknown>;

// `name number type`; a leading `*` marks a repeated field, a trailing `|` a member of the message's oneof.
const PRIMITIVE = (from: number) => ['type', 'format', 'items PrimitivesItems', 'collection_format', 'default Any', 'maximum double', 'exclusive_maximum bool', 'minimum double', 'exclusive_minimum bool', 'max_length int64', 'min_length int64', 'pattern', 'max_items int64', 'min_items int64', 'unique_items bool', '*enum Any', 'multiple_of double']
  .map((f, i) => { const [name, type = 'string'] = f.split(' '); return `${name} ${from + i} ${type}`; });
const SUB_SCHEMA = (allowEmpty: boolean) => {
  const head = ['required 1 bool', 'in 2 string', 'description 3 string', 'name 4 string'];
  if (allowEmpty) head.push('allow_empty_value 5 bool');
  const base = allowEmpty ? 6 : 5;
  return [...head, ...PRIMITIVE(base), `*vendor_extension ${base + 17} NamedAny`];
};
const named = (value: string) => ['name 1 string', `value 2 ${value}`];
const entries = (value: string) => [`*additional_properties 1 ${value}`];

const MESSAGES: Record<string, string[]> = {
  AdditionalPropertiesItem: ['schema 1 Schema|', 'boolean 2 bool|'],
  Any: ['yaml 2 string'],
  ApiKeySecurity: ['type 1 string', 'name 2 string', 'in 3 string', 'description 4 string', '*vendor_extension 5 NamedAny'],
  BasicAuthenticationSecurity: ['type 1 string', 'description 2 string', '*vendor_extension 3 NamedAny'],
  BodyParameter: ['description 1 string', 'name 2 string', 'in 3 string', 'required 4 bool', 'schema 5 Schema', '*vendor_extension 6 NamedAny'],
  Contact: ['name 1 string', 'url 2 string', 'email 3 string', '*vendor_extension 4 NamedAny'],
  Definitions: entries('NamedSchema'),
  Document: ['swagger 1 string', 'info 2 Info', 'host 3 string', 'base_path 4 string', '*schemes 5 string', '*consumes 6 string', '*produces 7 string', 'paths 8 Paths', 'definitions 9 Definitions', 'parameters 10 ParameterDefinitions', 'responses 11 ResponseDefinitions', '*security 12 SecurityRequirement', 'security_definitions 13 SecurityDefinitions', '*tags 14 Tag', 'external_docs 15 ExternalDocs', '*vendor_extension 16 NamedAny'],
  Examples: entries('NamedAny'),
  ExternalDocs: ['description 1 string', 'url 2 string', '*vendor_extension 3 NamedAny'],
  FileSchema: ['format 1 string', 'title 2 string', 'description 3 string', 'default 4 Any', '*required 5 string', 'type 6 string', 'read_only 7 bool', 'external_docs 8 ExternalDocs', 'example 9 Any', '*vendor_extension 10 NamedAny'],
  FormDataParameterSubSchema: SUB_SCHEMA(true),
  Header: [...PRIMITIVE(1), 'description 18 string', '*vendor_extension 19 NamedAny'],
  HeaderParameterSubSchema: SUB_SCHEMA(false),
  Headers: entries('NamedHeader'),
  Info: ['title 1 string', 'version 2 string', 'description 3 string', 'terms_of_service 4 string', 'contact 5 Contact', 'license 6 License', '*vendor_extension 7 NamedAny'],
  ItemsItem: ['*schema 1 Schema'],
  JsonReference: ['_ref 1 string', 'description 2 string'],
  License: ['name 1 string', 'url 2 string', '*vendor_extension 3 NamedAny'],
  NamedAny: named('Any'),
  NamedHeader: named('Header'),
  NamedParameter: named('Parameter'),
  NamedPathItem: named('PathItem'),
  NamedResponse: named('Response'),
  NamedResponseValue: named('ResponseValue'),
  NamedSchema: named('Schema'),
  NamedSecurityDefinitionsItem: named('SecurityDefinitionsItem'),
  NamedString: named('string'),
  NamedStringArray: named('StringArray'),
  NonBodyParameter: ['header_parameter_sub_schema 1 HeaderParameterSubSchema|', 'form_data_parameter_sub_schema 2 FormDataParameterSubSchema|', 'query_parameter_sub_schema 3 QueryParameterSubSchema|', 'path_parameter_sub_schema 4 PathParameterSubSchema|'],
  Oauth2AccessCodeSecurity: ['type 1 string', 'flow 2 string', 'scopes 3 Oauth2Scopes', 'authorization_url 4 string', 'token_url 5 string', 'description 6 string', '*vendor_extension 7 NamedAny'],
  Oauth2ApplicationSecurity: ['type 1 string', 'flow 2 string', 'scopes 3 Oauth2Scopes', 'token_url 4 string', 'description 5 string', '*vendor_extension 6 NamedAny'],
  Oauth2ImplicitSecurity: ['type 1 string', 'flow 2 string', 'scopes 3 Oauth2Scopes', 'authorization_url 4 string', 'description 5 string', '*vendor_extension 6 NamedAny'],
  Oauth2PasswordSecurity: ['type 1 string', 'flow 2 string', 'scopes 3 Oauth2Scopes', 'token_url 4 string', 'description 5 string', '*vendor_extension 6 NamedAny'],
  Oauth2Scopes: entries('NamedString'),
  Operation: ['*tags 1 string', 'summary 2 string', 'description 3 string', 'external_docs 4 ExternalDocs', 'operation_id 5 string', '*produces 6 string', '*consumes 7 string', '*parameters 8 ParametersItem', 'responses 9 Responses', '*schemes 10 string', 'deprecated 11 bool', '*security 12 SecurityRequirement', '*vendor_extension 13 NamedAny'],
  Parameter: ['body_parameter 1 BodyParameter|', 'non_body_parameter 2 NonBodyParameter|'],
  ParameterDefinitions: entries('NamedParameter'),
  ParametersItem: ['parameter 1 Parameter|', 'json_reference 2 JsonReference|'],
  PathItem: ['_ref 1 string', 'get 2 Operation', 'put 3 Operation', 'post 4 Operation', 'delete 5 Operation', 'options 6 Operation', 'head 7 Operation', 'patch 8 Operation', '*parameters 9 ParametersItem', '*vendor_extension 10 NamedAny'],
  PathParameterSubSchema: SUB_SCHEMA(false),
  Paths: ['*vendor_extension 1 NamedAny', '*path 2 NamedPathItem'],
  PrimitivesItems: [...PRIMITIVE(1), '*vendor_extension 18 NamedAny'],
  Properties: entries('NamedSchema'),
  QueryParameterSubSchema: SUB_SCHEMA(true),
  Response: ['description 1 string', 'schema 2 SchemaItem', 'headers 3 Headers', 'examples 4 Examples', '*vendor_extension 5 NamedAny'],
  ResponseDefinitions: entries('NamedResponse'),
  ResponseValue: ['response 1 Response|', 'json_reference 2 JsonReference|'],
  Responses: ['*response_code 1 NamedResponseValue', '*vendor_extension 2 NamedAny'],
  Schema: ['_ref 1 string', 'format 2 string', 'title 3 string', 'description 4 string', 'default 5 Any', 'multiple_of 6 double', 'maximum 7 double', 'exclusive_maximum 8 bool', 'minimum 9 double', 'exclusive_minimum 10 bool', 'max_length 11 int64', 'min_length 12 int64', 'pattern 13 string', 'max_items 14 int64', 'min_items 15 int64', 'unique_items 16 bool', 'max_properties 17 int64', 'min_properties 18 int64', '*required 19 string', '*enum 20 Any', 'additional_properties 21 AdditionalPropertiesItem', 'type 22 TypeItem', 'items 23 ItemsItem', '*all_of 24 Schema', 'properties 25 Properties', 'discriminator 26 string', 'read_only 27 bool', 'xml 28 Xml', 'external_docs 29 ExternalDocs', 'example 30 Any', '*vendor_extension 31 NamedAny'],
  SchemaItem: ['schema 1 Schema|', 'file_schema 2 FileSchema|'],
  SecurityDefinitions: entries('NamedSecurityDefinitionsItem'),
  SecurityDefinitionsItem: ['basic_authentication_security 1 BasicAuthenticationSecurity|', 'api_key_security 2 ApiKeySecurity|', 'oauth2_implicit_security 3 Oauth2ImplicitSecurity|', 'oauth2_password_security 4 Oauth2PasswordSecurity|', 'oauth2_application_security 5 Oauth2ApplicationSecurity|', 'oauth2_access_code_security 6 Oauth2AccessCodeSecurity|'],
  SecurityRequirement: entries('NamedStringArray'),
  StringArray: ['*value 1 string'],
  Tag: ['name 1 string', 'description 2 string', 'external_docs 3 ExternalDocs', '*vendor_extension 4 NamedAny'],
  TypeItem: ['*value 1 string'],
  Xml: ['name 1 string', 'namespace 2 string', 'prefix 3 string', 'attribute 4 bool', 'wrapped 5 bool', '*vendor_extension 6 NamedAny'],
};

const SCALARS: Record<string, FieldDescriptorProto_Type> = {
  string: FieldDescriptorProto_Type.STRING,
  bool: FieldDescriptorProto_Type.BOOL,
  int64: FieldDescriptorProto_Type.INT64,
  double: FieldDescriptorProto_Type.DOUBLE,
};

function registry() {
  const messageType = Object.entries(MESSAGES).map(([name, fields]) => {
    const hasOneof = fields.some((f) => f.endsWith('|'));
    return {
      name,
      oneofDecl: hasOneof ? [{ name: 'oneof' }] : [],
      field: fields.map((spec) => {
        const inOneof = spec.endsWith('|');
        const [rawName, number, type] = spec.replace(/\|$/, '').split(' ') as [string, string, string];
        const repeated = rawName.startsWith('*');
        const scalar = SCALARS[type];
        return {
          name: rawName.replace(/^\*/, ''),
          number: Number(number),
          label: repeated ? FieldDescriptorProto_Label.REPEATED : FieldDescriptorProto_Label.OPTIONAL,
          type: scalar ?? FieldDescriptorProto_Type.MESSAGE,
          ...(scalar === undefined ? { typeName: `.openapi.v2.${type}` } : {}),
          ...(inOneof ? { oneofIndex: 0 } : {}),
        };
      }),
    };
  });
  const file = create(FileDescriptorProtoSchema, { name: 'openapiv2/OpenAPIv2.proto', package: 'openapi.v2', syntax: 'proto3', messageType });
  return createFileRegistry(file, () => undefined);
}

let cached: ReturnType<typeof registry> | undefined;

/** The decoded `openapi.v2.Document`, as protobuf JSON with the .proto's field names. */
export function decodeOpenApiV2Message(bytes: Uint8Array): Json {
  cached ??= registry();
  const desc = cached.getMessage('openapi.v2.Document')!;
  return toJson(desc, fromBinary(desc, bytes), { useProtoFieldName: true }) as Json;
}

/** Which message each field of a decoded message holds, from the same descriptor. */
function fieldMessage(desc: DescMessage, field: string): DescMessage | undefined {
  return desc.fields.find((f) => f.name === field)?.message;
}

const camel = (name: string) => (name === '_ref' ? '$ref' : name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));

/** Turns a decoded message back into the Swagger JSON it was made from. */
function toSwagger(desc: DescMessage, value: Json): unknown {
  const type = desc.name;
  if (type === 'Any') return YAML.parse(value.yaml as string, { version: '1.1' });
  if (type === 'TypeItem' || type === 'StringArray') {
    const list = (value.value as string[] | undefined) ?? [];
    return type === 'TypeItem' && list.length === 1 ? list[0] : list;
  }
  if (type === 'ItemsItem') {
    const list = ((value.schema as Json[] | undefined) ?? []).map((s) => toSwagger(fieldMessage(desc, 'schema')!, s));
    return list.length === 1 ? list[0] : list;
  }
  if (desc.oneofs.length) {
    const [branch, inner] = Object.entries(value)[0]!;
    const message = fieldMessage(desc, branch);
    return message ? toSwagger(message, inner as Json) : inner;
  }
  if (desc.fields.length === 1 && desc.fields[0]!.name === 'additional_properties') {
    const entry = desc.fields[0]!.message!;
    return namedToObject(entry, value.additional_properties as Json[] | undefined);
  }
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    const field = desc.fields.find((f) => f.name === key)!;
    if (key === 'vendor_extension') { Object.assign(out, namedToObject(field.message!, v as Json[])); continue; }
    if (key === 'path' && type === 'Paths') { Object.assign(out, namedToObject(field.message!, v as Json[])); continue; }
    if (key === 'response_code') { Object.assign(out, namedToObject(field.message!, v as Json[])); continue; }
    const convert = (x: unknown) => (field.message ? toSwagger(field.message, x as Json) : field.scalar === ScalarType.INT64 ? Number(x) : x);
    out[camel(key)] = Array.isArray(v) ? v.map(convert) : convert(v);
  }
  return out;
}

function namedToObject(entry: DescMessage, list: Json[] | undefined): Json {
  const valueMessage = fieldMessage(entry, 'value');
  const out: Json = {};
  for (const e of list ?? []) out[e.name as string] = valueMessage ? toSwagger(valueMessage, (e.value ?? {}) as Json) : e.value ?? '';
  return out;
}

/** Decodes the protobuf and rebuilds the Swagger JSON document from it. */
export function decodeOpenApiV2(bytes: Uint8Array): Json {
  cached ??= registry();
  const desc = cached.getMessage('openapi.v2.Document')!;
  return toSwagger(desc, decodeOpenApiV2Message(bytes)) as Json;
}

/**
 * The document as protobuf can carry it: proto3 does not write a field's zero value, so `false`, `""` and
 * `0` fields read back absent (except in a oneof, like `additionalProperties: false`, and inside values
 * held as YAML: `default`, `example`, `enum` and `x-` extensions).
 */
export function withoutZeroFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutZeroFields);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'default' || k === 'example' || k === 'enum' || k.startsWith('x-')) { out[k] = v; continue; }
    if ((v === false || v === '' || v === 0) && k !== 'additionalProperties') continue;
    out[k] = withoutZeroFields(v);
  }
  return out;
}
