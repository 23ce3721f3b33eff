import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBody, decodePatchedObject, parseBody } from './decode-body.ts';
import { configMapKind } from '../apis/core/configmap.ts';
import { leaseKind } from '../apis/coordination/lease.ts';
import { StatusError } from '../machinery/status.ts';

const v1 = configMapKind.versions[0];
const decode = (text: string, fv: 'Strict' | 'Warn' | 'Ignore' = 'Warn') => decodeBody(Buffer.from(text), 'application/json', configMapKind, v1, fv);

function refusal(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof StatusError) return { code: err.code, message: err.message };
    throw err;
  }
  assert.fail('accepted');
}

test('apiVersion and kind default to the URL\'s and are set on the object', () => {
  const { object, warnings } = decode('{"metadata":{"name":"a"}}');
  assert.equal(object.apiVersion, 'v1');
  assert.equal(object.kind, 'ConfigMap');
  assert.deepEqual(warnings, []);
  assert.deepEqual(decode('null').object.metadata, {});
  // An apiVersion Go cannot parse counts as absent.
  assert.equal(decode('{"apiVersion":"a/b/c","metadata":{}}').object.apiVersion, 'v1');
});

test('strict errors are in the order Go meets them: a duplicate before a later unknown field', () => {
  const text = '{"metadata":{"name":"a"},"data":{"x":"1"},"data":{"x":"2"},"zzz":1,"metadata":{"name":"b"}}';
  assert.deepEqual(decode(text).warnings, ['duplicate field "data"', 'unknown field "zzz"', 'duplicate field "metadata"']);
  assert.equal(refusal(() => decode(text, 'Strict')).message,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data", unknown field "zzz", duplicate field "metadata"');
  assert.deepEqual(decode(text, 'Ignore').warnings, []);
  assert.deepEqual(decode(text).object.data, { x: '2' });
});

test('a type error wins over strict errors', () => {
  assert.equal(refusal(() => decode('{"zzz":1,"data":[]}', 'Strict')).message,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.data of type map[string]string');
});

test('a body the URL does not serve', () => {
  assert.equal(refusal(() => decode('{"apiVersion":"coordination.svc.io/v1","kind":"Lease"}')).message,
    'Lease in version "v1" cannot be handled as a ConfigMap: converting (v1.Lease) to (core.ConfigMap): unknown conversion');
  assert.equal(refusal(() => decodeBody(Buffer.from('{"kind":"ConfigMap","apiVersion":"v1"}'), 'application/json', leaseKind, leaseKind.versions[0], 'Warn')).message,
    'ConfigMap in version "v1" cannot be handled as a Lease: converting (v1.ConfigMap) to (coordination.Lease): unknown conversion');
  assert.equal(refusal(() => decode('{"kind":"ConfigMapList"}')).message,
    'ConfigMapList in version "v1" cannot be handled as a ConfigMap: converting (v1.ConfigMapList) to (core.ConfigMap): unknown conversion');
  assert.equal(refusal(() => decode('{"kind":"Gad\\u0007get"}')).message,
    'Gad\x07get in version "v1" cannot be handled as a ConfigMap: no kind "Gad\\aget" is registered for version "v1" in scheme "pkg/api/legacyscheme/scheme.go:30"');
  assert.match(refusal(() => decode('{"kind":7}')).message, /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: json: cannot unmarshal number into Go struct field \.kind of type string \(\{"kind":7\}\)$/);
});

test('parse errors and media types', () => {
  assert.equal(refusal(() => parseBody(Buffer.from('{"a":1,}'), 'application/json', 'Secret')).message,
    'the object provided is unrecognized (must be of type Secret): couldn\'t get version/kind; json parse error: invalid character \'}\' looking for beginning of object key string ({"a":1,})');
  assert.equal(refusal(() => parseBody(Buffer.from('a: [1'), 'application/yaml', 'Secret')).code, 400);
  assert.deepEqual(parseBody(Buffer.from('a: 1\n'), 'application/yaml', 'Secret').value, { a: 1 });
  const unknown = refusal(() => parseBody(Buffer.from('{}'), 'text/plain', 'Secret'));
  assert.equal(unknown.code, 415);
  assert.match(unknown.message, /^the body of the request was in an unknown format - accepted media types include: application\/json, application\/yaml/);
});

test('a patched object: 422 on decoding failures, patch strict errors first', () => {
  const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } };
  const ok = decodePatchedObject({ ...base, extra: 1 }, configMapKind, v1, 'Warn', ['json patch unknown field "[0].x"']);
  assert.deepEqual(ok.warnings, ['json patch unknown field "[0].x"', 'unknown field "extra"']);
  const strict = refusal(() => decodePatchedObject({ ...base, extra: 1 }, configMapKind, v1, 'Strict', []));
  assert.equal(strict.code, 422);
  assert.equal(strict.message, ` "" is invalid: patch: Invalid value: ${JSON.stringify(JSON.stringify({ ...base, extra: 1 }))}: strict decoding error: unknown field "extra"`);
  const typed = refusal(() => decodePatchedObject({ ...base, data: { a: 1 } }, configMapKind, v1, 'Ignore', []));
  assert.match(typed.message, /: json: cannot unmarshal number into Go struct field ConfigMap\.data of type string$/);
  assert.deepEqual(decodePatchedObject({ ...base, extra: 1 }, configMapKind, v1, 'Ignore', ['ignored']).warnings, []);
});

test('Kubernetes\' name of a renamed group reads as the group; another group is refused', () => {
  const lv1 = leaseKind.versions.find((v) => v.name === 'v1')!;
  const lease = (apiVersion: string) => decodeBody(Buffer.from(JSON.stringify({ apiVersion, kind: 'Lease', metadata: { name: 'l' } })), 'application/json', leaseKind, lv1, 'Strict');
  assert.equal(lease('coordination.k8s.io/v1').object.apiVersion, 'coordination.svc.io/v1');
  assert.equal(lease('coordination.svc.io/v1').object.apiVersion, 'coordination.svc.io/v1');
  assert.equal(refusal(() => lease('networking.k8s.io/v1')).code, 400);
  const patched = decodePatchedObject({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' } }, leaseKind, lv1, 'Strict', []);
  assert.equal(patched.object.apiVersion, 'coordination.svc.io/v1');
});
