import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { FloorWatches, collectionOf, isWatchRequest, watchEventLine, type WatchResponse } from './floor-watch.ts';
import { stampPatchBody } from './lib/configmap.ts';

class RecordingResponse extends EventEmitter implements WatchResponse {
  status = 0;
  headers: Record<string, string> = {};
  chunks: Uint8Array[] = [];
  writeHead(status: number, headers: Record<string, string>) { this.status = status; this.headers = headers; }
  write(chunk: Uint8Array) { this.chunks.push(chunk); return true; }
}

test('watch requests and collections are read from the path', () => {
  assert.equal(isWatchRequest('/api/v1/namespaces/a/configmaps?watch=1&resourceVersion=3'), true);
  assert.equal(isWatchRequest('/api/v1/namespaces/a/configmaps?resourceVersion=3&watch=true'), true);
  assert.equal(isWatchRequest('/api/v1/namespaces/a/configmaps?watch=0'), false);
  assert.equal(isWatchRequest('/api/v1/namespaces/a/configmaps?limit=1'), false);
  assert.equal(collectionOf('/api/v1/namespaces/a/configmaps?watch=1', false), '/api/v1/namespaces/a/configmaps');
  assert.equal(collectionOf('/api/v1/namespaces/a/configmaps/x', true), '/api/v1/namespaces/a/configmaps');
});

test('the event line is a MODIFIED ConfigMap as an API server sends it, with the patch\'s annotations', () => {
  const line = watchEventLine('ns', 'obj', 42, JSON.parse(stampPatchBody(1700000000000)));
  const text = line.toString();
  assert.ok(text.endsWith('}\n'));
  assert.ok(text.includes('"bench/stamp":"1700000000000"'));
  // As long as the event a real server sends for the writer's patch (its managedFields included).
  assert.ok(line.length > 1400 && line.length < 1800, `${line.length} bytes`);
  const event = JSON.parse(text);
  assert.equal(event.type, 'MODIFIED');
  assert.deepEqual(
    { name: event.object.metadata.name, namespace: event.object.metadata.namespace, resourceVersion: event.object.metadata.resourceVersion },
    { name: 'obj', namespace: 'ns', resourceVersion: '42' },
  );
  assert.ok(event.object.metadata.managedFields[0].fieldsV1['f:metadata']['f:annotations']['f:bench/stamp']);
  // A patch without annotations still makes a well-formed event.
  assert.deepEqual(JSON.parse(watchEventLine('ns', 'obj', 43, null).toString()).object.metadata.annotations, {});
});

test('a publish goes, as the same bytes, to every open watch of the object\'s collection and to no other', () => {
  const hub = new FloorWatches();
  const a = new RecordingResponse();
  const b = new RecordingResponse();
  const other = new RecordingResponse();
  hub.open('/api/v1/namespaces/w/configmaps', a);
  hub.open('/api/v1/namespaces/w/configmaps', b);
  hub.open('/api/v1/namespaces/x/configmaps', other);
  assert.equal(a.status, 200);
  assert.equal(a.headers['content-type'], 'application/json');
  assert.equal(hub.publish('/api/v1/namespaces/w/configmaps/o1', JSON.parse(stampPatchBody(5))), 2);
  assert.equal(a.chunks.length, 1);
  assert.equal(a.chunks[0], b.chunks[0]);
  assert.equal(other.chunks.length, 0);
  assert.equal(JSON.parse(a.chunks[0].toString()).object.metadata.name, 'o1');

  // A closed watch is forgotten; the next event has a newer resourceVersion.
  b.emit('close');
  assert.equal(hub.count('/api/v1/namespaces/w/configmaps'), 1);
  assert.equal(hub.publish('/api/v1/namespaces/w/configmaps/o2', {}), 1);
  assert.equal(b.chunks.length, 1);
  const [e1, e2] = a.chunks.map((c) => JSON.parse(c.toString()));
  assert.ok(Number(e2.object.metadata.resourceVersion) > Number(e1.object.metadata.resourceVersion));
  a.emit('close');
  assert.equal(hub.count('/api/v1/namespaces/w/configmaps'), 0);
  assert.equal(hub.publish('/api/v1/namespaces/w/configmaps/o3', {}), 0);
  assert.equal(hub.publish('/api/v1/namespaces/nobody/configmaps/o', {}), 0);
});
