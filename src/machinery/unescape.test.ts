import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unescaped } from './unescape.ts';

test('percent-escapes are decoded; a text without any, or with a malformed one, stays as it is', () => {
  assert.equal(unescaped('acme.com%2fproject'), 'acme.com/project');
  assert.equal(unescaped('/api/v1/namespaces/a%20b'), '/api/v1/namespaces/a b');
  assert.equal(unescaped('plain'), 'plain');
  assert.equal(unescaped('50%zz'), '50%zz');
});
