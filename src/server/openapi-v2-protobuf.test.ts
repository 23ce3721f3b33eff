import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { encodeOpenApiV2Protobuf, yamlText } from './openapi-v2-protobuf.ts';
import { openApiV2Document } from './openapi.ts';
import { servedKinds } from './openapi.fixture.ts';
import { decodeOpenApiV2, decodeOpenApiV2Message, withoutZeroFields } from './openapi-v2-protobuf.fixture.ts';

type Json = Record<string, any>;

test('the served v2 document reads back whole from its protobuf, in the same order', () => {
  const doc = openApiV2Document(servedKinds());
  const back = decodeOpenApiV2(encodeOpenApiV2Protobuf(doc));
  assert.deepEqual(back, withoutZeroFields(doc));
  assert.deepEqual(Object.keys(back.paths as Json), Object.keys(doc.paths));
  assert.deepEqual(Object.keys(back.definitions as Json), Object.keys(doc.definitions));
  const cm = 'io.svc.api.core.v1.ConfigMap';
  assert.deepEqual(Object.keys((back.definitions as Json)[cm].properties), Object.keys(doc.definitions[cm]!.properties as Json));
});

test('operations carry their parameters in the oneof branch their `in` names and the GVK as YAML', () => {
  const doc = openApiV2Document(servedKinds());
  const message = decodeOpenApiV2Message(encodeOpenApiV2Protobuf(doc)) as Json;
  assert.equal(message.swagger, '2.0');
  assert.deepEqual(message.info, { title: 'Kubernetes', version: 'v1.32.0' });
  const item = message.paths.path.find((p: Json) => p.name === '/api/v1/namespaces/{namespace}/configmaps/{name}').value;

  // What kubectl's query-param verifier looks for: a PATCH whose GVK matches, with a fieldValidation query parameter.
  const patch = item.patch;
  const ext = Object.fromEntries(patch.vendor_extension.map((e: Json) => [e.name, e.value.yaml]));
  assert.equal(ext['x-kubernetes-group-version-kind'], 'group: ""\nkind: ConfigMap\nversion: v1\n');
  assert.equal(ext['x-kubernetes-action'], 'patch\n');
  const body = patch.parameters[0].parameter.body_parameter;
  assert.deepEqual(body, { name: 'body', in: 'body', required: true, schema: { _ref: '#/definitions/io.svc.apimachinery.pkg.apis.meta.v1.Patch' } });
  const query = patch.parameters.map((p: Json) => p.parameter.non_body_parameter?.query_parameter_sub_schema).filter(Boolean);
  assert.deepEqual(query.map((q: Json) => q.name), ['dryRun', 'fieldManager', 'fieldValidation', 'force']);
  assert.deepEqual(query.find((q: Json) => q.name === 'force'), { in: 'query', description: (doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}'] as Json).patch.parameters[4].description, name: 'force', type: 'boolean', unique_items: true });
  assert.deepEqual(patch.consumes, ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
  assert.deepEqual(patch.responses.response_code.map((r: Json) => r.name), ['200', '201', '401']);
  assert.deepEqual(patch.responses.response_code[2].value, { response: { description: 'Unauthorized' } });

  // The path item's own parameters: name and namespace are required path parameters, pretty a query one.
  const params = item.parameters.map((p: Json) => p.parameter.non_body_parameter);
  assert.equal(params[0].path_parameter_sub_schema.name, 'name');
  assert.equal(params[0].path_parameter_sub_schema.required, true);
  assert.equal(params[0].path_parameter_sub_schema.type, 'string');
  assert.equal(params[1].path_parameter_sub_schema.name, 'namespace');
  assert.equal(params[2].query_parameter_sub_schema.name, 'pretty');

  const defs = Object.fromEntries(message.definitions.additional_properties.map((e: Json) => [e.name, e.value]));
  const gvkList = defs['io.svc.api.core.v1.ConfigMap'].vendor_extension.find((e: Json) => e.name === 'x-kubernetes-group-version-kind');
  assert.equal(gvkList.value.yaml, '- group: ""\n  kind: ConfigMap\n  version: v1\n');
  assert.deepEqual(message.security, [{ additional_properties: [{ name: 'BearerToken', value: {} }] }]);
  assert.deepEqual(message.security_definitions.additional_properties[0], {
    name: 'BearerToken',
    value: { api_key_security: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } },
  });
});

/** A document touching the shapes the served one does not use. */
const EVERY_SHAPE: Json = {
  swagger: '2.0',
  info: { title: 'T', version: '1', description: 'd', termsOfService: 'tos', contact: { name: 'n', url: 'u', email: 'e', 'x-c': 1 }, license: { name: 'L', url: 'lu' }, 'x-info': { a: [1, 2] } },
  host: 'example.test',
  basePath: '/base',
  schemes: ['https', 'http'],
  consumes: ['application/json'],
  produces: ['application/json', 'application/yaml'],
  paths: {
    'x-paths': 'yes',
    '/things/{id}': {
      $ref: '#/x',
      get: {
        tags: ['t'], summary: 's', description: 'd', externalDocs: { url: 'https://docs' }, operationId: 'getThing',
        parameters: [
          { $ref: '#/parameters/shared' },
          { in: 'header', name: 'X-H', type: 'array', items: { type: 'integer', format: 'int32', items: { type: 'string' }, enum: [1, 2], maximum: 9 }, collectionFormat: 'csv', required: true },
          { in: 'formData', name: 'f', type: 'file', allowEmptyValue: true, 'x-form': true },
          { in: 'query', name: 'q', type: 'string', default: 'on', enum: ['on', 'off', ''], pattern: '^o', minLength: 1, maxLength: 3, multipleOf: 0.5, exclusiveMinimum: true, minimum: -1.25 },
          { in: 'body', name: 'b', description: 'the body', schema: { type: 'object', additionalProperties: true } },
        ],
        responses: {
          '200': { description: 'ok', schema: { type: 'file', description: 'raw' }, headers: { 'X-Rate': { type: 'integer', description: 'left', 'x-h': 'v' } }, examples: { 'application/json': { a: 1 } } },
          '404': { $ref: '#/responses/notFound' },
          default: { description: 'other' },
          'x-responses': [null],
        },
        schemes: ['https'],
        deprecated: true,
        security: [{ oauth: ['read', 'write'] }, {}],
      },
      delete: { responses: { '204': { description: 'gone' } } },
      options: { responses: {} },
      head: { responses: {} },
      parameters: [{ in: 'path', name: 'id', required: true, type: 'string' }],
      'x-item': 'i',
    },
  },
  definitions: {
    Zeta: {
      type: ['object', 'null'],
      title: 'Z', description: 'zd', format: 'f',
      required: ['a', 'b'],
      properties: {
        b: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], maxItems: 4, minItems: 1, uniqueItems: true },
        a: { $ref: '#/definitions/Alpha', description: 'see Alpha', readOnly: true },
        m: { type: 'object', additionalProperties: false, maxProperties: 3, minProperties: 1 },
        s: { type: 'object', additionalProperties: { type: 'string', default: '' } },
        x: { allOf: [{ $ref: '#/definitions/Alpha' }, { type: 'object' }], discriminator: 'kind', xml: { name: 'x', namespace: 'ns', prefix: 'p', attribute: true, wrapped: true } },
        n: { type: 'number', maximum: 10.5, exclusiveMaximum: true, minimum: 0.5, multipleOf: 0.25, default: 1.5, example: { nested: ['y', 'n', 'true', '1'] } },
      },
      externalDocs: { description: 'more', url: 'https://more' },
      'x-kubernetes-preserve-unknown-fields': false,
    },
    Alpha: { type: 'string', enum: ['A', 'yes', null, 3], 'x-kubernetes-int-or-string': true },
  },
  parameters: { shared: { in: 'query', name: 'shared', type: 'boolean' }, raw: { in: 'body', name: 'raw', schema: { type: 'string' } } },
  responses: { notFound: { description: 'not found', schema: { $ref: '#/definitions/Alpha' } } },
  security: [{ basic: [] }],
  securityDefinitions: {
    basic: { type: 'basic', description: 'b' },
    key: { type: 'apiKey', name: 'k', in: 'query' },
    implicit: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'https://a', scopes: { read: 'reads' } },
    password: { type: 'oauth2', flow: 'password', tokenUrl: 'https://t', scopes: {} },
    application: { type: 'oauth2', flow: 'application', tokenUrl: 'https://t', scopes: { w: 'writes' }, 'x-app': 1 },
    oauth: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://a', tokenUrl: 'https://t', scopes: { read: 'r', write: 'w' }, description: 'code' },
  },
  tags: [{ name: 't', description: 'td', externalDocs: { url: 'https://t' }, 'x-tag': 't' }],
  externalDocs: { url: 'https://top' },
  'x-top': { nested: { deep: true } },
};

test('every Swagger shape reads back from its protobuf', () => {
  const back = decodeOpenApiV2(encodeOpenApiV2Protobuf(EVERY_SHAPE));
  assert.deepEqual(back, withoutZeroFields(EVERY_SHAPE));
  assert.deepEqual(Object.keys((back.definitions as Json).Zeta.properties), ['b', 'a', 'm', 's', 'x', 'n']);
  assert.deepEqual(Object.keys(back.definitions as Json), ['Zeta', 'Alpha']);
});

test('oneof branches: $ref parameters and responses are JsonReferences, a file response a FileSchema', () => {
  const message = decodeOpenApiV2Message(encodeOpenApiV2Protobuf(EVERY_SHAPE)) as Json;
  const get = message.paths.path[0].value.get;
  assert.deepEqual(get.parameters[0], { json_reference: { _ref: '#/parameters/shared' } });
  assert.ok(get.parameters[1].parameter.non_body_parameter.header_parameter_sub_schema);
  assert.ok(get.parameters[2].parameter.non_body_parameter.form_data_parameter_sub_schema);
  assert.ok(get.parameters[3].parameter.non_body_parameter.query_parameter_sub_schema);
  assert.ok(get.parameters[4].parameter.body_parameter);
  const codes = Object.fromEntries(get.responses.response_code.map((r: Json) => [r.name, r.value]));
  assert.deepEqual(codes['404'], { json_reference: { _ref: '#/responses/notFound' } });
  assert.deepEqual(codes['200'].response.schema, { file_schema: { type: 'file', description: 'raw' } });
  assert.deepEqual(get.responses.vendor_extension, [{ name: 'x-responses', value: { yaml: '- null\n' } }]);
  assert.deepEqual(message.paths.vendor_extension, [{ name: 'x-paths', value: { yaml: '"yes"\n' } }]);
  const alpha = message.definitions.additional_properties[1].value;
  assert.deepEqual(alpha.enum, [{ yaml: 'A\n' }, { yaml: '"yes"\n' }, { yaml: 'null\n' }, { yaml: '3\n' }]);
  assert.deepEqual(alpha.type, { value: ['string'] });
  const zeta = message.definitions.additional_properties[0].value;
  assert.deepEqual(zeta.type, { value: ['object', 'null'] });
  const m = zeta.properties.additional_properties.find((p: Json) => p.name === 'm').value;
  assert.deepEqual(m.additional_properties, { boolean: false });
  assert.equal(m.max_properties, '3');
});

test('additionalProperties: false is written as a set oneof boolean', () => {
  const bytes = encodeOpenApiV2Protobuf({ definitions: { A: { additionalProperties: false } } });
  // Document.definitions (9) > NamedSchema (1) { name "A", value (2) Schema { additional_properties (21) { boolean (2) false } } }
  assert.deepEqual([...bytes], [0x4a, 0x0c, 0x0a, 0x0a, 0x0a, 0x01, 0x41, 0x12, 0x05, 0xaa, 0x01, 0x02, 0x10, 0x00]);
});

test('fields are written in field-number order with zero values left out', () => {
  const reader = new BinaryReader(encodeOpenApiV2Protobuf({ swagger: '2.0', info: { title: '', version: 'v' }, paths: {}, basePath: '' }));
  const seen: number[] = [];
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    assert.equal(wireType, WireType.LengthDelimited);
    seen.push(field);
    const bytes = reader.bytes();
    if (field === 1) assert.equal(new TextDecoder().decode(bytes), '2.0');
    if (field === 2) assert.deepEqual([...bytes], [0x12, 0x01, 0x76]);
    if (field === 8) assert.equal(bytes.length, 0);
  }
  assert.deepEqual(seen, [1, 2, 8]);
});

test('values held as YAML are written the way gnostic writes them', () => {
  assert.equal(yamlText('TCP'), 'TCP\n');
  assert.equal(yamlText(''), '""\n');
  assert.equal(yamlText(0), '0\n');
  assert.equal(yamlText(false), 'false\n');
  // YAML 1.1 would read these as booleans, so they are quoted.
  assert.equal(yamlText('yes'), '"yes"\n');
  assert.equal(yamlText('off'), '"off"\n');
  assert.equal(yamlText(['name', 'protocol']), '- name\n- protocol\n');
  assert.equal(yamlText({ group: 'apps', kind: 'Deployment', version: 'v1' }), 'group: apps\nkind: Deployment\nversion: v1\n');
});
