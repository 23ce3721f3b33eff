import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keepManagedFieldsTimes } from './managed-fields-times.ts';

const entry = (time: string, fields: Record<string, unknown> = { 'f:rules': {} }) => ({ manager: 'm', operation: 'Apply', fieldsV1: fields, time });

test('only the times differ: the old managedFields are kept', () => {
  const old = { metadata: { name: 'a', managedFields: [entry('2024-01-01T00:00:00Z')] }, rules: null };
  const next = { metadata: { name: 'a', managedFields: [entry('2024-01-01T00:00:05Z')] }, rules: null };
  assert.equal(keepManagedFieldsTimes(next, old), true);
  assert.equal(next.metadata.managedFields, old.metadata.managedFields);
});

test('another change (the object, a field set, the entries) keeps the new times', () => {
  const old = { metadata: { managedFields: [entry('t1')] }, rules: null };
  const changed = { metadata: { managedFields: [entry('t2')] }, rules: [{ verbs: ['get'] }] };
  assert.equal(keepManagedFieldsTimes(changed, old), false);
  assert.equal(changed.metadata.managedFields[0].time, 't2');
  const otherSet = { metadata: { managedFields: [entry('t2', { 'f:metadata': {} })] }, rules: null };
  assert.equal(keepManagedFieldsTimes(otherSet, old), false);
  const more = { metadata: { managedFields: [entry('t1'), entry('t2')] }, rules: null };
  assert.equal(keepManagedFieldsTimes(more, old), false);
  assert.equal(keepManagedFieldsTimes({ metadata: {} }, old), false);
});
