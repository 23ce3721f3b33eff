import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { negotiateOpenApiV2, OpenApiV2Representations, OPENAPI_V2_PROTOBUF, OPENAPI_V2_PROTOBUF_DEPRECATED } from './openapi-v2.ts';
import { decodeOpenApiV2 } from '../openapi-v2-protobuf.fixture.ts';

const formatOf = (accept: string | undefined) => {
  const chosen = negotiateOpenApiV2(accept);
  return chosen && `${chosen.format} ${chosen.contentType}`;
};

test('the Accept header picks JSON or protobuf as kube-openapi does', () => {
  // What kubectl sends, and the current spelling: both answered with the current content type.
  assert.equal(formatOf(OPENAPI_V2_PROTOBUF_DEPRECATED), `protobuf ${OPENAPI_V2_PROTOBUF}`);
  assert.equal(formatOf(OPENAPI_V2_PROTOBUF), `protobuf ${OPENAPI_V2_PROTOBUF}`);
  assert.equal(formatOf('application/json'), 'json application/json');
  // No header, or wildcards: the first format listed, JSON.
  assert.equal(formatOf(undefined), 'json application/json');
  assert.equal(formatOf(''), 'json application/json');
  assert.equal(formatOf('*/*'), 'json application/json');
  assert.equal(formatOf('application/*'), 'json application/json');
  // The best range first.
  assert.equal(formatOf(`application/json;q=0.5, ${OPENAPI_V2_PROTOBUF}`), `protobuf ${OPENAPI_V2_PROTOBUF}`);
  assert.equal(formatOf(`${OPENAPI_V2_PROTOBUF};q=0.5, application/json`), 'json application/json');
  assert.equal(formatOf(`text/html, ${OPENAPI_V2_PROTOBUF_DEPRECATED}`), `protobuf ${OPENAPI_V2_PROTOBUF}`);
  // Nothing it serves.
  assert.equal(formatOf('text/html'), undefined);
  assert.equal(formatOf('application/yaml'), undefined);
  assert.equal(formatOf('application/vnd.platform.protobuf'), undefined);
});

test('both formats share the ETag of the JSON text and the protobuf is the same document', async () => {
  const doc = { swagger: '2.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths: {}, definitions: { A: { type: 'string', default: 'x' } } };
  const reps = new OpenApiV2Representations(doc);
  assert.equal(reps.body('json'), JSON.stringify(doc));
  assert.equal(reps.etag, `"${createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase()}"`);
  const protobuf = reps.body('protobuf') as Uint8Array;
  assert.equal(reps.body('protobuf'), protobuf, 'encoded once');
  assert.deepEqual(decodeOpenApiV2(protobuf), doc);
  const { gunzipSync } = await import('node:zlib');
  assert.deepEqual(new Uint8Array(gunzipSync(await reps.gzipped('protobuf'))), protobuf);
  assert.equal(gunzipSync(await reps.gzipped('json')).toString(), JSON.stringify(doc));
});
