import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deleteOptions, writeOptions } from './operation-options.ts';

test('write options: only what the client set; the default field validation left out', () => {
  assert.deepEqual(writeOptions('CreateOptions', { dryRun: false, fieldValidation: 'Warn' }), { kind: 'CreateOptions', apiVersion: 'meta.svc.io/v1' });
  assert.deepEqual(writeOptions('UpdateOptions', { dryRun: true, fieldManager: 'kubectl', fieldValidation: 'Strict' }),
    { kind: 'UpdateOptions', apiVersion: 'meta.svc.io/v1', dryRun: ['All'], fieldManager: 'kubectl', fieldValidation: 'Strict' });
});

test('delete options: the policy the client sent, or its orphanDependents', () => {
  assert.deepEqual(deleteOptions({ dryRun: false, propagationPolicy: 'Background', gracePeriodSeconds: 0, preconditions: { uid: 'u' } }),
    { kind: 'DeleteOptions', apiVersion: 'meta.svc.io/v1', gracePeriodSeconds: 0, preconditions: { uid: 'u' }, propagationPolicy: 'Background' });
  assert.deepEqual(deleteOptions({ dryRun: true, orphanDependents: true, propagationPolicy: 'Orphan' }), { kind: 'DeleteOptions', apiVersion: 'meta.svc.io/v1', orphanDependents: true, dryRun: ['All'] });
});
