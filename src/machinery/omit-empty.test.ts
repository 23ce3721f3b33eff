import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dropEmptyFields, dropEmptyMetadata } from './omit-empty.ts';

test('ObjectMeta: empty labels, annotations, ownerReferences and finalizers are left out; others stay', () => {
  const meta: Record<string, unknown> = { name: 'a', labels: {}, annotations: {}, ownerReferences: [], finalizers: [], generation: 0 };
  dropEmptyMetadata(meta);
  assert.deepEqual(meta, { name: 'a', generation: 0 });
  // An empty managedFields asks the field manager to clear ownership: it stays for it to read.
  const reset: Record<string, unknown> = { name: 'a', managedFields: [] };
  dropEmptyMetadata(reset);
  assert.deepEqual(reset, { name: 'a', managedFields: [] });
  const full: Record<string, unknown> = { name: 'b', labels: { a: '' }, finalizers: ['x'] };
  dropEmptyMetadata(full);
  assert.deepEqual(full, { name: 'b', labels: { a: '' }, finalizers: ['x'] });
  dropEmptyMetadata(undefined);
});

test('named fields: only an empty map or list goes; null, strings and other fields are not touched', () => {
  const obj: Record<string, unknown> = { data: {}, binaryData: [], other: {}, s: '' };
  dropEmptyFields(obj, ['data', 'binaryData', 's', 'missing']);
  assert.deepEqual(obj, { other: {}, s: '' });
  const kept: Record<string, unknown> = { data: { k: 'v' }, binaryData: null };
  dropEmptyFields(kept, ['data', 'binaryData']);
  assert.deepEqual(kept, { data: { k: 'v' }, binaryData: null });
});
