import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configMapKind as kind } from './configmap.ts';
import type { RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { fieldErrorText, type FieldError } from '../../machinery/field-errors.ts';

const ctx = (): RequestContext => ({ user: { username: 'u', groups: [] }, version: 'v1', subresource: '', dryRun: false, warnings: [] });
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const cm = (extra: Record<string, unknown> = {}): ApiObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' }, ...extra });

test('declaration: core v1, namespaced, short name cm, no status, no generation', () => {
  assert.equal(kind.group, '');
  assert.equal(kind.kind, 'ConfigMap');
  assert.equal(kind.plural, 'configmaps');
  assert.equal(kind.singular, 'configmap');
  assert.equal(kind.namespaced, true);
  assert.deepEqual(kind.shortNames, ['cm']);
  assert.equal(kind.status, undefined);
  assert.equal(kind.trackGeneration, false);
  assert.equal(kind.storageVersion, 'v1');
});

test('a valid config map passes', () => {
  assert.deepEqual(kind.validate!(cm({ data: { 'a.b-c_D': 'x' }, binaryData: { bin: 'AAEC' } }), ctx()), []);
});

test('data keys must be config keys', () => {
  assert.deepEqual(texts(kind.validate!(cm({ data: { 'a b': 'x' } }), ctx())), [
    `data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
  ]);
  assert.deepEqual(texts(kind.validate!(cm({ data: { '..': 'x' } }), ctx())), [`data[..]: Invalid value: "..": must not be '..'`]);
});

test('binaryData keys must be config keys', () => {
  const errs = texts(kind.validate!(cm({ binaryData: { 'k/1': 'AA==' } }), ctx()));
  assert.equal(errs.length, 1);
  assert.match(errs[0], /^binaryData\[k\/1\]: Invalid value: "k\/1": a valid config key must consist/);
});

test('data and binaryData keys may not overlap', () => {
  assert.deepEqual(texts(kind.validate!(cm({ data: { k: 'x' }, binaryData: { k: 'AA==' } }), ctx())), [
    'data[k]: Invalid value: "k": duplicate of key present in binaryData',
  ]);
});

test('total size is limited to 1 MiB of text and decoded bytes', () => {
  const half = 'x'.repeat(512 * 1024);
  const halfBytes = Buffer.alloc(512 * 1024).toString('base64');
  assert.deepEqual(kind.validate!(cm({ data: { a: half }, binaryData: { b: halfBytes } }), ctx()), []);
  assert.deepEqual(texts(kind.validate!(cm({ data: { a: half, c: 'y' }, binaryData: { b: halfBytes } }), ctx())), [
    '[]: Too long: may not be more than 1048576 bytes',
  ]);
  // Multi-byte text counts in UTF-8 bytes.
  assert.equal(kind.validate!(cm({ data: { a: 'é'.repeat(512 * 1024 + 1) } }), ctx()).length, 1);
});

test('binaryData values must be base64', () => {
  assert.deepEqual(texts(kind.validate!(cm({ binaryData: { b: 'abc' } }), ctx())), [
    'binaryData[b]: Invalid value: "<secret contents redacted>": illegal base64 data at input byte 0',
  ]);
});

test('an immutable config map keeps its data and stays immutable', () => {
  const old = cm({ immutable: true, data: { a: '1' }, binaryData: { b: 'AA==' } });
  assert.deepEqual(kind.validateUpdate!(cm({ immutable: true, data: { a: '1' }, binaryData: { b: 'AA==' }, metadata: { name: 'c', namespace: 'ns', labels: { l: 'v' } } }), old, ctx()), []);
  assert.deepEqual(texts(kind.validateUpdate!(cm({ immutable: true, data: { a: '2' }, binaryData: { b: 'AA==' } }), old, ctx())), [
    'data: Forbidden: field is immutable when `immutable` is set',
  ]);
  assert.deepEqual(texts(kind.validateUpdate!(cm({ immutable: true, data: { a: '1' } }), old, ctx())), [
    'binaryData: Forbidden: field is immutable when `immutable` is set',
  ]);
  assert.deepEqual(texts(kind.validateUpdate!(cm({ immutable: false, data: { a: '1' }, binaryData: { b: 'AA==' } }), old, ctx())), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
  ]);
  assert.deepEqual(texts(kind.validateUpdate!(cm({ data: { a: '1' }, binaryData: { b: 'AA==' } }), old, ctx())), [
    'immutable: Forbidden: field is immutable when `immutable` is set',
  ]);
  // The same bytes spelled differently are the same data.
  assert.deepEqual(kind.validateUpdate!(cm({ immutable: true, data: { a: '1' }, binaryData: { b: 'AA\n==' } }), old, ctx()), []);
});

test('a mutable config map may change and become immutable', () => {
  const old = cm({ data: { a: '1' } });
  assert.deepEqual(kind.validateUpdate!(cm({ immutable: true, data: { a: '2' } }), old, ctx()), []);
  assert.deepEqual(kind.validateUpdate!(cm({ immutable: false, data: {} }), cm({ immutable: false, data: { a: '1' } }), ctx()), []);
});

test('update also validates the new object', () => {
  assert.deepEqual(texts(kind.validateUpdate!(cm({ data: { k: 'x' }, binaryData: { k: 'AA==' } }), cm(), ctx())), [
    'data[k]: Invalid value: "k": duplicate of key present in binaryData',
  ]);
});

test('binaryData is stored as canonical base64', () => {
  const obj = cm({ binaryData: { b: 'AAEC\r\nAwQF' } });
  kind.canonicalize!(obj);
  assert.deepEqual(obj.binaryData, { b: 'AAECAwQF' });
});

test('table: Name, Data (keys of both maps), Age', () => {
  const cols = kind.tableColumns!;
  assert.deepEqual(cols.map((c) => c.name), ['Name', 'Data', 'Age']);
  const obj = cm({ data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } });
  obj.metadata.creationTimestamp = new Date(Date.now() - 3 * 60_000 - 5_000).toISOString();
  assert.deepEqual(cols.map((c) => c.cell(obj)), ['c', 3, '3m5s']);
  assert.equal(cols[1].cell(cm()), 0);
});

test('schema carries Kubernetes protobuf field numbers', () => {
  const props = (kind.versions[0].schema as unknown as { properties: Record<string, Record<string, unknown>> }).properties;
  assert.equal(props.metadata['x-proto'], 1);
  assert.equal(props.data['x-proto'], 2);
  assert.equal(props.binaryData['x-proto'], 3);
  assert.equal(props.immutable['x-proto'], 4);
});
