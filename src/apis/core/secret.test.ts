import { test } from 'node:test';
import assert from 'node:assert/strict';
import { secretKind as kind, SecretTypes } from './secret.ts';
import { CERT_A, KEY_A, KEY_B } from './testdata/tls.ts';
import type { RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { fieldErrorText, type FieldError } from '../../machinery/field-errors.ts';

const ctx = (): RequestContext => ({ user: { username: 'u', groups: [] }, version: 'v1', subresource: '', dryRun: false, warnings: [] });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const secret = (extra: Record<string, unknown> = {}): ApiObject => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'ns' }, type: 'Opaque', ...extra });
const valid = (obj: ApiObject) => kind.validate!(obj, ctx());

test('declaration: core v1, namespaced, no short name, field selector type', () => {
  assert.equal(kind.kind, 'Secret');
  assert.equal(kind.plural, 'secrets');
  assert.equal(kind.namespaced, true);
  assert.equal(kind.shortNames, undefined);
  assert.equal(kind.trackGeneration, false);
  assert.equal(kind.fieldSelectors!.type(secret({ type: SecretTypes.tls })), 'platform.io/tls');
});

test('type defaults to Opaque in the schema and in defaults()', () => {
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  assert.equal(props.type.default, 'Opaque');
  const obj: ApiObject = { metadata: { name: 's' }, type: '' };
  kind.defaults!(obj);
  assert.equal(obj.type, 'Opaque');
});

test('stringData is merged into data while defaulting (as Kubernetes decodes it), overriding, and dropped', () => {
  const obj = secret({ data: { a: b64('old'), b: b64('keep') }, stringData: { a: 'new', c: 'é' } });
  kind.defaults!(obj);
  assert.deepEqual(obj.data, { a: b64('new'), b: b64('keep'), c: b64('é') });
  assert.equal('stringData' in obj, false);
  const only = secret({ stringData: { x: 'y' } });
  kind.defaults!(only);
  assert.deepEqual(only.data, { x: b64('y') });
});

test('an empty type on update keeps the old one', () => {
  const obj = secret({ type: '', data: { a: b64('1') } });
  kind.prepareForUpdate!(obj, secret({ type: SecretTypes.basicAuth }), ctx());
  assert.equal(obj.type, SecretTypes.basicAuth);
});

test('stringData keys are validated as data keys after the merge', () => {
  const obj = secret({ stringData: { 'bad key': 'v' } });
  kind.defaults!(obj);
  assert.match(texts(valid(obj))[0], /^data\[bad key\]: Invalid value: "bad key": a valid config key/);
});

test('data keys must be config keys and values base64', () => {
  assert.deepEqual(valid(secret({ data: { 'tls.crt': b64('x'), A_b: b64('y') } })), []);
  assert.match(texts(valid(secret({ data: { 'a:b': b64('x') } })))[0], /^data\[a:b\]: Invalid value: "a:b": a valid config key/);
  assert.deepEqual(texts(valid(secret({ data: { a: 'aGVsbG8' } }))), ['data[a]: Invalid value: "<secret contents redacted>": illegal base64 data at input byte 4']);
});

test('total data is limited to 1 MiB of decoded bytes', () => {
  assert.deepEqual(valid(secret({ data: { a: b64(Buffer.alloc(1024 * 1024)) } })), []);
  assert.deepEqual(texts(valid(secret({ data: { a: b64(Buffer.alloc(1024 * 1024)), b: b64('x') } }))), ['data: Too long: may not be more than 1048576 bytes']);
});

test('type is immutable', () => {
  assert.deepEqual(texts(kind.validateUpdate!(secret({ type: SecretTypes.opaque }), secret({ type: 'custom/type' }), ctx())), [
    'type: Invalid value: "Opaque": field is immutable',
  ]);
});

test('an immutable secret keeps its data and stays immutable', () => {
  const old = secret({ immutable: true, data: { a: b64('1') } });
  assert.deepEqual(kind.validateUpdate!(secret({ immutable: true, data: { a: b64('1') }, metadata: { name: 's', namespace: 'ns', annotations: { x: 'y' } } }), old, ctx()), []);
  assert.deepEqual(texts(kind.validateUpdate!(secret({ immutable: true, data: { a: b64('2') } }), old, ctx())), [
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
  assert.deepEqual(texts(kind.validateUpdate!(secret({ data: { a: b64('1') } }), old, ctx())), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
  ]);
  // A stringData write that changes data is caught after the merge.
  const viaStringData = secret({ immutable: true, data: { a: b64('1') }, stringData: { a: 'other' } });
  kind.defaults!(viaStringData);
  assert.deepEqual(texts(kind.validateUpdate!(viaStringData, old, ctx())), ['data: Forbidden: field is immutable when `immutable` is set']);
});

test('service account token secrets need the service account name annotation', () => {
  const t = SecretTypes.serviceAccountToken;
  assert.deepEqual(texts(valid(secret({ type: t }))), ['metadata.annotations[platform.io/service-account.name]: Required value']);
  assert.deepEqual(valid(secret({ type: t, metadata: { name: 's', annotations: { 'platform.io/service-account.name': 'default' } } })), []);
});

test('dockercfg secrets need .dockercfg holding a JSON object', () => {
  const t = SecretTypes.dockercfg;
  assert.deepEqual(texts(valid(secret({ type: t }))), ['data[.dockercfg]: Required value']);
  assert.deepEqual(valid(secret({ type: t, data: { '.dockercfg': b64('{"r.example":{"auth":"x"}}') } })), []);
  assert.deepEqual(texts(valid(secret({ type: t, data: { '.dockercfg': b64('{bad') } }))), [
    `data[.dockercfg]: Invalid value: "<secret contents redacted>": invalid character 'b' looking for beginning of object key string`,
  ]);
});

test('dockerconfigjson secrets need .dockerconfigjson holding a JSON object', () => {
  const t = SecretTypes.dockerConfigJson;
  assert.deepEqual(texts(valid(secret({ type: t }))), ['data[.dockerconfigjson]: Required value']);
  assert.deepEqual(valid(secret({ type: t, data: { '.dockerconfigjson': b64('{"auths":{}}') } })), []);
  assert.deepEqual(texts(valid(secret({ type: t, data: { '.dockerconfigjson': b64('[]') } }))), [
    'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
  ]);
  assert.deepEqual(texts(valid(secret({ type: t, data: { '.dockerconfigjson': '' } }))), [
    'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input',
  ]);
});

test('basic-auth secrets need a username or a password', () => {
  const t = SecretTypes.basicAuth;
  assert.deepEqual(texts(valid(secret({ type: t }))), ['data[username]: Required value', 'data[password]: Required value']);
  assert.deepEqual(valid(secret({ type: t, data: { username: '' } })), []);
  assert.deepEqual(valid(secret({ type: t, data: { password: b64('p') } })), []);
});

test('ssh-auth secrets need a non-empty ssh-privatekey', () => {
  const t = SecretTypes.sshAuth;
  assert.deepEqual(texts(valid(secret({ type: t }))), ['data[ssh-privatekey]: Required value']);
  assert.deepEqual(texts(valid(secret({ type: t, data: { 'ssh-privatekey': '' } }))), ['data[ssh-privatekey]: Required value']);
  assert.deepEqual(valid(secret({ type: t, data: { 'ssh-privatekey': b64('k') } })), []);
});

test('tls secrets need tls.crt and tls.key', () => {
  const t = SecretTypes.tls;
  assert.deepEqual(texts(valid(secret({ type: t }))), ['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
  assert.deepEqual(texts(valid(secret({ type: t, data: { 'tls.key': '' } }))), ['data[tls.crt]: Required value']);
});

test('Opaque, bootstrap token and custom types have no required keys', () => {
  for (const t of ['Opaque', SecretTypes.bootstrapToken, 'example.com/custom']) assert.deepEqual(valid(secret({ type: t })), []);
});

test('a tls secret whose key does not match its certificate is accepted with a warning', () => {
  const good = secret({ type: SecretTypes.tls, data: { 'tls.crt': b64(CERT_A), 'tls.key': b64(KEY_A) } });
  const c1 = ctx();
  assert.deepEqual(kind.validate!(good, c1), []);
  assert.deepEqual(c1.warnings, []);
  const bad = secret({ type: SecretTypes.tls, data: { 'tls.crt': b64(CERT_A), 'tls.key': b64(KEY_B) } });
  const c2 = ctx();
  assert.deepEqual(kind.validate!(bad, c2), []);
  assert.deepEqual(c2.warnings, ['tls: private key does not match public key']);
  const c3 = ctx();
  assert.deepEqual(kind.validateUpdate!(bad, good, c3), []);
  assert.deepEqual(c3.warnings, ['tls: private key does not match public key']);
  const c4 = ctx();
  kind.validate!(secret({ type: SecretTypes.tls, data: { 'tls.crt': '', 'tls.key': '' } }), c4);
  assert.deepEqual(c4.warnings, ['tls: failed to find any PEM data in certificate input']);
});

test('data is stored as canonical base64', () => {
  const obj = secret({ data: { a: 'aGVs\nbG8=' } });
  kind.canonicalize!(obj);
  assert.deepEqual(obj.data, { a: 'aGVsbG8=' });
});

test('table: Name, Type, Data, Age', () => {
  const cols = kind.tableColumns!;
  assert.deepEqual(cols.map((c) => c.name), ['Name', 'Type', 'Data', 'Age']);
  const obj = secret({ type: SecretTypes.tls, data: { 'tls.crt': '', 'tls.key': '' } });
  obj.metadata.creationTimestamp = new Date(Date.now() - 50 * 3600_000).toISOString();
  assert.deepEqual(cols.map((c) => c.cell(obj)), ['s', 'platform.io/tls', 2, '2d2h']);
});

test('schema carries Kubernetes protobuf field numbers', () => {
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  assert.deepEqual([props.metadata, props.data, props.type, props.stringData, props.immutable].map((p) => p['x-proto']), [1, 2, 3, 4, 5]);
});
