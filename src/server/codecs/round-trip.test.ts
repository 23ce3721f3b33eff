// Every built-in kind, its list kind and the meta types survive JSON -> protobuf -> JSON and
// JSON -> CBOR -> JSON unchanged, starting from an object with every field set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TSchema } from '@sinclair/typebox';
import { allKinds } from '../../apis/index.ts';
import { apiVersionOf, listKindOf } from '../../apis/kind.ts';
import { decodeProtobufObject, encodeProtobufObject, builtInTypes } from './protobuf-objects.ts';
import { decodeCborValue, encodeCborValue } from './cbor-json.ts';
import { missingProtoNumbers } from './schema-nodes.ts';
import { sampleObject } from './schema-sample.ts';
import { DeleteOptionsSchema, PartialObjectMetadataListSchema, PartialObjectMetadataSchema, StatusSchema } from './meta-schemas.ts';

interface Case { apiVersion: string; kind: string; schema: TSchema }

function cases(): Case[] {
  const out: Case[] = [];
  for (const def of allKinds()) {
    for (const version of def.versions) {
      const apiVersion = apiVersionOf(def.group, version.name);
      out.push({ apiVersion, kind: def.kind, schema: version.schema });
      out.push({ apiVersion, kind: listKindOf(def), schema: builtInTypes().schemaFor(apiVersion, listKindOf(def))! });
    }
    // The kinds sub-resources take and answer (Scale, Eviction), once each.
    for (const view of def.views ?? []) {
      const apiVersion = apiVersionOf(view.group, view.version);
      if (view.schema && !out.some((c) => c.apiVersion === apiVersion && c.kind === view.kind)) out.push({ apiVersion, kind: view.kind, schema: view.schema });
    }
  }
  out.push(
    { apiVersion: 'v1', kind: 'Status', schema: StatusSchema },
    { apiVersion: 'v1', kind: 'DeleteOptions', schema: DeleteOptionsSchema },
    { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', schema: PartialObjectMetadataSchema },
    { apiVersion: 'meta.svc.io/v1', kind: 'PartialObjectMetadataList', schema: PartialObjectMetadataListSchema },
  );
  return out;
}

test('every property of every built-in kind has a protobuf field number', () => {
  const missing: string[] = [];
  for (const c of cases()) for (const path of missingProtoNumbers(c.schema)) missing.push(`${c.apiVersion} ${c.kind}: ${path}`);
  assert.deepEqual(missing, [], `properties without x-proto:\n${missing.join('\n')}`);
});

test('JSON -> protobuf -> JSON gives the same object, for every kind', () => {
  for (const c of cases()) {
    const sample = sampleObject(c.schema, c);
    const bytes = encodeProtobufObject(sample);
    assert.deepEqual(decodeProtobufObject(bytes), sample, `${c.apiVersion} ${c.kind}`);
  }
});

test('JSON -> CBOR -> JSON gives the same object, for every kind', () => {
  for (const c of cases()) {
    const sample = sampleObject(c.schema, c);
    const bytes = encodeCborValue(sample, c.schema);
    assert.deepEqual(bytes.subarray(0, 3), Uint8Array.of(0xd9, 0xd9, 0xf7));
    assert.deepEqual(decodeCborValue(bytes, c.schema), sample, `${c.apiVersion} ${c.kind}`);
  }
});

test('protobuf encoding is deterministic: map keys sorted, so key order in JSON does not matter', () => {
  const a = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { b: '2', a: '1' } }, data: { z: '1', y: '2', 'é': '3', '\u{1F600}': '4', '\uFFFD': '5' } };
  const b = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: '1', b: '2' } }, data: { '\uFFFD': '5', '\u{1F600}': '4', 'é': '3', y: '2', z: '1' } };
  assert.deepEqual(encodeProtobufObject(a), encodeProtobufObject(b));
});
