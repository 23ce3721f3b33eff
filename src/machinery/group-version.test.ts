import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGroupVersion, splitApiVersion } from './group-version.ts';

test('parseGroupVersion reads as Go\'s schema.ParseGroupVersion', () => {
  assert.deepEqual(parseGroupVersion(''), { group: '', version: '' });
  assert.deepEqual(parseGroupVersion('/'), { group: '', version: '' });
  assert.deepEqual(parseGroupVersion('v1'), { group: '', version: 'v1' });
  assert.deepEqual(parseGroupVersion('apps/v1'), { group: 'apps', version: 'v1' });
  assert.equal(parseGroupVersion('a/b/c'), undefined);
});

test('splitApiVersion splits at the first slash', () => {
  assert.deepEqual(splitApiVersion('v1'), { group: '', version: 'v1' });
  assert.deepEqual(splitApiVersion('rbac.authorization.svc.io/v1'), { group: 'rbac.authorization.svc.io', version: 'v1' });
  assert.deepEqual(splitApiVersion('a/b/c'), { group: 'a', version: 'b/c' });
});
