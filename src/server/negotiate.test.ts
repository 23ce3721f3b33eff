import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { negotiate, parseAccept, acceptedMediaTypes, contentTypeOf } from './negotiate.ts';
import { StatusError } from '../machinery/status.ts';
import { featureGates } from '../config/feature-gates.ts';

afterEach(() => { featureGates.reset(); });

const objects = { objects: true };
const watch = { objects: true, watch: true };

function notAcceptable(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => err instanceof StatusError && err.code === 406 && err.reason === 'NotAcceptable' && err.message === message);
}

test('parseAccept: q values, wildcards ranked below specific types, more parameters first, then client order', () => {
  const ranges = parseAccept('*/*;q=0.8, application/yaml;q=0.9, application/json;as=Table;g=meta.k8s.io;v=v1, application/json, text/plain;q=0');
  assert.deepEqual(ranges.map((r) => `${r.type}/${r.subtype}${r.params.as ? ';as=' + r.params.as : ''}@${r.q}`), [
    'application/json;as=Table@1', 'application/json@1', 'application/yaml@0.9', '*/*@0.8',
  ]);
  assert.deepEqual(parseAccept('application/*, */*, application/json').map((r) => `${r.type}/${r.subtype}`), ['application/json', 'application/*', '*/*']);
  assert.deepEqual(parseAccept('').map((r) => `${r.type}/${r.subtype}`), ['*/*']);
  assert.deepEqual(parseAccept('application/json;q=abc'), []);
  assert.deepEqual(parseAccept('application/json; charset="utf-8, x"')[0].params, { charset: 'utf-8, x' });
});

test('JSON is the default; wildcards choose JSON; YAML on request', () => {
  assert.equal(negotiate(undefined, [''], objects).mediaType, 'application/json');
  assert.equal(negotiate('*/*', [''], objects).mediaType, 'application/json');
  assert.equal(negotiate('application/*', [''], objects).mediaType, 'application/json');
  assert.equal(negotiate('application/yaml', [''], objects).mediaType, 'application/yaml');
  assert.equal(negotiate('application/yaml;q=0.5, application/json;q=0.4').mediaType, 'application/yaml');
  assert.equal(negotiate('application/json;pretty=1', [''], objects).pretty, true);
});

test('protobuf under both names, answered under the name asked, with the next acceptable type as fallback', () => {
  const p = negotiate('application/vnd.platform.protobuf', [''], objects);
  assert.equal(p.mediaType, 'application/vnd.platform.protobuf');
  assert.equal(p.contentType, 'application/vnd.platform.protobuf');
  assert.equal(p.fallback, undefined);
  const k = negotiate('application/vnd.kubernetes.protobuf, application/json', [''], objects);
  assert.equal(k.contentType, 'application/vnd.kubernetes.protobuf');
  assert.equal(k.fallback?.mediaType, 'application/json');
  // Non-object endpoints (discovery, version) do not offer protobuf.
  assert.equal(negotiate('application/vnd.kubernetes.protobuf, application/json').mediaType, 'application/json');
});

test('Table has no protobuf form: the JSON table is chosen; partial metadata may be protobuf', () => {
  const allowed = ['', 'Table', 'PartialObjectMetadata', 'PartialObjectMetadataList'] as const;
  const t = negotiate('application/vnd.kubernetes.protobuf;as=Table;g=meta.k8s.io;v=v1, application/json;as=Table;g=meta.k8s.io;v=v1, application/json', [...allowed], objects);
  assert.deepEqual([t.mediaType, t.as, t.group, t.version], ['application/json', 'Table', 'meta.k8s.io', 'v1']);
  const m = negotiate('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', [...allowed], objects);
  assert.deepEqual([m.mediaType, m.as], ['application/vnd.platform.protobuf', 'PartialObjectMetadataList']);
  assert.equal(negotiate('application/json;as=Table;g=meta.k8s.io;v=v9, application/yaml', [...allowed], objects).mediaType, 'application/yaml');
  assert.equal(negotiate('application/json;as=Table;g=meta.k8s.io;v=v1, application/json', [''], objects).as, '');
});

test('406 lists what the endpoint serves', () => {
  notAcceptable(() => negotiate('text/html', [''], objects), 'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf');
  notAcceptable(() => negotiate('application/vnd.kubernetes.protobuf'), 'only the following media types are accepted: application/json, application/yaml');
  notAcceptable(() => negotiate('application/json;as=Table;g=meta.k8s.io;v=v1', [''], objects), 'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf');
  // `stream=watch` is only for watches.
  notAcceptable(() => negotiate('application/json;stream=watch', [''], objects), 'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf');
});

test('watch: no YAML stream; JSON, protobuf (stream=watch allowed) and, with the gate, CBOR sequences', () => {
  notAcceptable(() => negotiate('application/yaml', [''], watch), 'only the following media types are accepted: application/json;stream=watch, application/vnd.platform.protobuf;stream=watch');
  assert.equal(negotiate('application/yaml, application/json;q=0.1', [''], watch).mediaType, 'application/json');
  assert.equal(negotiate('application/vnd.kubernetes.protobuf;stream=watch', [''], watch).mediaType, 'application/vnd.platform.protobuf');
  assert.equal(negotiate('application/json;stream=watch', [''], watch).mediaType, 'application/json');
  notAcceptable(() => negotiate('application/json;stream=other', [''], watch), 'only the following media types are accepted: application/json;stream=watch, application/vnd.platform.protobuf;stream=watch');
  notAcceptable(() => negotiate('application/cbor-seq', [''], watch), 'only the following media types are accepted: application/json;stream=watch, application/vnd.platform.protobuf;stream=watch');
  featureGates.set({ CBORServingAndStorage: true });
  assert.equal(negotiate('application/cbor-seq', [''], watch).mediaType, 'application/cbor');
  assert.equal(negotiate('application/cbor', [''], watch).mediaType, 'application/cbor');
  assert.deepEqual(acceptedMediaTypes(watch), ['application/json;stream=watch', 'application/vnd.platform.protobuf;stream=watch', 'application/cbor;stream=watch']);
});

test('CBOR only with CBORServingAndStorage on', () => {
  notAcceptable(() => negotiate('application/cbor', [''], objects), 'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf');
  featureGates.set({ CBORServingAndStorage: true });
  assert.equal(negotiate('application/cbor', [''], objects).mediaType, 'application/cbor');
  notAcceptable(() => negotiate('application/cbor-seq', [''], objects), 'only the following media types are accepted: application/json, application/yaml, application/vnd.platform.protobuf, application/cbor');
  // Discovery and other non-object endpoints stay JSON and YAML.
  notAcceptable(() => negotiate('application/cbor'), 'only the following media types are accepted: application/json, application/yaml');
});

test('contentTypeOf drops parameters and case', () => {
  assert.equal(contentTypeOf('Application/JSON; charset=utf-8'), 'application/json');
  assert.equal(contentTypeOf(undefined), '');
});
