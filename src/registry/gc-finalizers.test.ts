import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KindDefinition } from '../apis/kind.ts';
import { defaultGcPolicy, deletionFinalizers, namespaceDeletionFinalizers, FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from './gc-finalizers.ts';

const kind = (group: string, kindName: string, plural: string, extra: Partial<KindDefinition> = {}) =>
  ({ group, kind: kindName, plural, singular: plural, namespaced: true, versions: [], storageVersion: 'v1', ...extra }) as KindDefinition;
const configMap = kind('', 'ConfigMap', 'configmaps');

test('default policy: most kinds delete dependents; old workload versions orphan; Events are not collected', () => {
  assert.equal(defaultGcPolicy(configMap, 'v1'), 'DeleteDependents');
  assert.equal(defaultGcPolicy(kind('apps', 'Deployment', 'deployments'), 'v1'), 'DeleteDependents');
  assert.equal(defaultGcPolicy(kind('apps', 'Deployment', 'deployments'), 'v1beta2'), 'OrphanDependents');
  assert.equal(defaultGcPolicy(kind('', 'ReplicationController', 'replicationcontrollers'), 'v1'), 'OrphanDependents');
  assert.equal(defaultGcPolicy(kind('batch', 'Job', 'jobs'), 'v1'), 'OrphanDependents');
  assert.equal(defaultGcPolicy(kind('batch', 'CronJob', 'cronjobs'), 'v1'), 'DeleteDependents');
  assert.equal(defaultGcPolicy(kind('', 'Event', 'events'), 'v1'), 'Unsupported');
  assert.equal(defaultGcPolicy(kind('events.svc.io', 'Event', 'events', { storedAs: { group: '', version: 'v1', schema: {} as never } }), 'v1'), 'Unsupported');
});

test('the propagation policy sets the GC finalizers, keeping the others', () => {
  const run = (finalizers: string[] | undefined, propagationPolicy?: 'Orphan' | 'Background' | 'Foreground') =>
    deletionFinalizers({ def: configMap, version: 'v1', finalizers, propagationPolicy });
  assert.deepEqual(run(undefined, 'Orphan'), { changed: true, finalizers: [ORPHAN_FINALIZER] });
  assert.deepEqual(run(['example.com/hold'], 'Foreground'), { changed: true, finalizers: ['example.com/hold', FOREGROUND_FINALIZER] });
  assert.deepEqual(run(undefined, 'Background'), { changed: false, finalizers: [] });
  assert.deepEqual(run(undefined), { changed: false, finalizers: [] });
  // An explicit policy replaces the GC finalizer already there.
  assert.deepEqual(run([FOREGROUND_FINALIZER, 'a'], 'Orphan'), { changed: true, finalizers: ['a', ORPHAN_FINALIZER] });
  assert.deepEqual(run([FOREGROUND_FINALIZER], 'Background'), { changed: true, finalizers: [] });
  // Without one, a GC finalizer on the object stands, in the order it has.
  assert.deepEqual(run(['a', ORPHAN_FINALIZER]), { changed: false, finalizers: ['a', ORPHAN_FINALIZER] });
  assert.deepEqual(run([ORPHAN_FINALIZER, 'a'], 'Orphan'), { changed: false, finalizers: [ORPHAN_FINALIZER, 'a'] });
});

test('a kind that orphans by default gets the orphan finalizer unless told otherwise; Events never get one', () => {
  const rc = kind('', 'ReplicationController', 'replicationcontrollers');
  assert.deepEqual(deletionFinalizers({ def: rc, version: 'v1', finalizers: undefined, propagationPolicy: undefined }), { changed: true, finalizers: [ORPHAN_FINALIZER] });
  assert.deepEqual(deletionFinalizers({ def: rc, version: 'v1', finalizers: undefined, propagationPolicy: 'Background' }), { changed: false, finalizers: [] });
  assert.deepEqual(deletionFinalizers({ def: rc, version: 'v1', finalizers: [FOREGROUND_FINALIZER], propagationPolicy: undefined }), { changed: false, finalizers: [FOREGROUND_FINALIZER] });
  const event = kind('', 'Event', 'events');
  assert.deepEqual(deletionFinalizers({ def: event, version: 'v1', finalizers: undefined, propagationPolicy: 'Foreground' }), { changed: false, finalizers: [] });
});

test('a namespace takes only an explicit policy', () => {
  assert.deepEqual(namespaceDeletionFinalizers(undefined, undefined), { changed: false, finalizers: [] });
  assert.deepEqual(namespaceDeletionFinalizers([ORPHAN_FINALIZER], undefined), { changed: false, finalizers: [ORPHAN_FINALIZER] });
  assert.deepEqual(namespaceDeletionFinalizers(undefined, 'Foreground'), { changed: true, finalizers: [FOREGROUND_FINALIZER] });
  assert.deepEqual(namespaceDeletionFinalizers([ORPHAN_FINALIZER], 'Background'), { changed: true, finalizers: [] });
});
