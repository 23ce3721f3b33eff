import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestSource } from './requests.ts';

test('named creates count up; generated creates repeat one body', () => {
  const named = requestSource({ type: 'create-named', namespace: 'ns', namePrefix: 'a-', start: 7 });
  const first = named();
  const second = named();
  assert.equal(first.method, 'POST');
  assert.equal(first.path, '/api/v1/namespaces/ns/configmaps');
  assert.equal(JSON.parse(first.body!).metadata.name, 'a-000007');
  assert.equal(JSON.parse(second.body!).metadata.name, 'a-000008');
  const generated = requestSource({ type: 'create-generated', namespace: 'default' });
  assert.equal(generated().body, generated().body);
  assert.equal(JSON.parse(generated().body!).metadata.generateName, 'bench-');
});

test('random gets and patches stay within the seeded names', () => {
  const get = requestSource({ type: 'get-random', namespace: 'g', namePrefix: 'get-', count: 3 });
  const patch = requestSource({ type: 'patch-random', namespace: 'g', namePrefix: 'get-', count: 3 });
  const allowed = new Set(['get-000000', 'get-000001', 'get-000002'].map((n) => `/api/v1/namespaces/g/configmaps/${n}`));
  for (let i = 0; i < 50; i++) {
    assert.ok(allowed.has(get().path));
    const p = patch();
    assert.ok(allowed.has(p.path));
    assert.equal(p.method, 'PATCH');
    assert.equal(p.headers['content-type'], 'application/merge-patch+json');
  }
  assert.notEqual(patch().body, patch().body);
});
