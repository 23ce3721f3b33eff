import { test } from 'node:test';
import assert from 'node:assert/strict';
import { S } from '../../apis/meta/schema.ts';
import { ObjectMeta } from '../../apis/meta/v1.ts';
import { decodeObject } from './decode.ts';
import {
  cannotHandleMessage, decodeFailure, strictDecodingErrors, strictDecodingFailure, strictDecodingMessage, strictDecodingWarnings, summarizeBody, unrecognizedObjectMessage,
} from './decode-errors.ts';
import { parseJsonStrict } from './json-parse.ts';

const Deployment = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: ObjectMeta,
  spec: S.object({ replicas: S.int32(), selector: S.any(), template: S.any() }, { ref: 'apps.v1.DeploymentSpec' }),
}, { ref: 'apps.v1.Deployment' });

/** The body of the v1.32 conformance test "should detect unknown and duplicate fields of a typed object". */
const conformanceBody = `{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": { "name": "my-dep", "labels": {"app": "nginx"} },
  "spec": {
    "unknownField": "foo",
    "replicas": 2,
    "replicas": 3,
    "selector": { "matchLabels": { "app": "nginx" } },
    "template": { "metadata": { "labels": { "app": "nginx" } }, "spec": { "containers": [{ "name": "nginx", "image": "nginx:latest" }] } }
  }
}`;

test('strict decoding message matches Kubernetes for the conformance body', () => {
  const parsed = parseJsonStrict(conformanceBody);
  const decoded = decodeObject(parsed.value, Deployment, { kind: 'Deployment', apiVersion: 'apps/v1' });
  assert.equal(
    strictDecodingMessage('Deployment', 'v1', decoded.unknownFields, parsed.duplicates, parsed.positions),
    'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.unknownField", duplicate field "spec.replicas"',
  );
  const err = strictDecodingFailure('Deployment', 'v1', decoded.unknownFields, parsed.duplicates, parsed.positions);
  assert.equal(err.code, 400);
  assert.equal(err.reason, 'BadRequest');
});

test('strict errors follow the body order when positions are known', () => {
  const body = '{"spec":{"replicas":1,"replicas":2,"zzz":1},"metadata":{"a":1}}';
  const parsed = parseJsonStrict(body);
  const decoded = decodeObject(parsed.value, Deployment, { kind: 'Deployment', apiVersion: 'apps/v1' });
  assert.deepEqual(decoded.unknownFields, ['spec.zzz', 'metadata.a']);
  assert.deepEqual(strictDecodingWarnings(decoded.unknownFields, parsed.duplicates, parsed.positions), [
    'duplicate field "spec.replicas"',
    'unknown field "spec.zzz"',
    'unknown field "metadata.a"',
  ]);
});

test('without positions unknown fields come first; duplicates under unknown fields are left out', () => {
  assert.deepEqual(strictDecodingErrors(['spec.foo', 'bar'], ['spec.foo.x', 'spec.foo', 'spec.list[0].a', 'spec.fooz']), [
    'unknown field "spec.foo"',
    'unknown field "bar"',
    'duplicate field "spec.list[0].a"',
    'duplicate field "spec.fooz"',
  ]);
  assert.equal(
    strictDecodingMessage('ConfigMap', 'v1', ['spec.foo', 'bar'], []),
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "spec.foo", unknown field "bar"',
  );
  assert.equal(strictDecodingErrors(Array.from({ length: 150 }, (_, i) => `f${i}`), []).length, 100);
});

test('decode failures read like Kubernetes create errors', () => {
  assert.equal(
    cannotHandleMessage('ConfigMap', 'v1', 'json: cannot unmarshal number into Go struct field ConfigMap.data of type string'),
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
  );
  const err = decodeFailure('Secret', 'v1', 'illegal base64 data at input byte 4');
  assert.equal(err.code, 400);
  assert.equal(err.message, 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4');
  assert.equal(
    unrecognizedObjectMessage('ConfigMap', "couldn't get version/kind; json parse error: unexpected end of JSON input", '{"apiVersion":"v1","kind":"ConfigMap","metadata":'),
    `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input ({"apiVersion":"v1","kind":"Con ...)`,
  );
});

test('body summaries: a JSON object as text, anything else as hex, at most 30 bytes', () => {
  assert.equal(summarizeBody(''), '<empty>');
  assert.equal(summarizeBody('{"a":1}'), '{"a":1}');
  assert.equal(summarizeBody('xyz'), '78797a');
  assert.equal(summarizeBody('x'.repeat(31)), '78'.repeat(30) + ' ...');
  assert.equal(summarizeBody(new Uint8Array([0x7b, 0x7d])), '{}');
});

test('field names are quoted as Go %q quotes them (control characters as \\a, \\x7f; non-printable runes as \\u)', () => {
  assert.deepEqual(strictDecodingErrors(['spec.a\x07\x7f', 'b\u2028'], ['c\v']), [
    'unknown field "spec.a\\a\\x7f"',
    'unknown field "b\\u2028"',
    'duplicate field "c\\v"',
  ]);
});
