import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBody, storedConfigMap, configMapData, mergePatchBody, stampPatchBody, indexedName, configMapPath } from './configmap.ts';

test('payloads carry about 1 KB of data', () => {
  const dataBytes = JSON.stringify(configMapData()).length;
  assert.ok(dataBytes > 900 && dataBytes < 1100, `data is ${dataBytes} bytes`);
  const stored = JSON.stringify(storedConfigMap('default', 'x'));
  assert.ok(stored.length > 1000 && stored.length < 1400, `stored is ${stored.length} bytes`);
});

test('create body uses generateName unless a name is given', () => {
  assert.deepEqual((createBody('default').metadata as Record<string, unknown>).generateName, 'bench-');
  const named = createBody('ns', 'a').metadata as Record<string, unknown>;
  assert.equal(named.name, 'a');
  assert.equal(named.generateName, undefined);
});

test('patch bodies change with their counter and stamp', () => {
  assert.notEqual(mergePatchBody(1), mergePatchBody(2));
  assert.deepEqual(JSON.parse(stampPatchBody(123)), { metadata: { annotations: { 'bench/stamp': '123' } } });
  assert.equal(indexedName('get-', 42), 'get-000042');
  assert.equal(configMapPath('d', 'n'), '/api/v1/namespaces/d/configmaps/n');
  assert.equal(configMapPath('d'), '/api/v1/namespaces/d/configmaps');
});
