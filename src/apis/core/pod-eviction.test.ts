import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evictionSubresource } from './pod-eviction.ts';
import type { ViewTarget } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import * as status from '../../machinery/status.ts';

/** A pod that a racing writer changes `races` times between an eviction's read and its delete. */
function target(phase: string | undefined, races = 0, extra: Partial<ApiObject['metadata']> = {}) {
  let rv = 10;
  const deletes: (Record<string, any> | undefined)[] = [];
  const t: ViewTarget = {
    namespace: 'ns', name: 'p',
    ctx: { user: { username: 'u', groups: [] }, version: 'v1', subresource: 'eviction', dryRun: false, warnings: [] },
    read: async () => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns', resourceVersion: String(rv), ...extra }, ...(phase ? { status: { phase } } : {}) }),
    async delete(options) {
      deletes.push(options);
      const wanted = (options?.preconditions as { resourceVersion?: string } | undefined)?.resourceVersion;
      if (races > 0) { races--; rv++; }
      if (wanted !== undefined && wanted !== String(rv)) throw status.conflict({ group: '', resource: 'pods' }, 'p', 'the object has been modified');
    },
    update: async () => { throw new Error('an eviction does not update'); },
  };
  return { t, deletes };
}

const evict = (t: ViewTarget, body: Record<string, unknown> = {}) => evictionSubresource.create!({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' }, ...body }, t);

test('a pending pod is deleted at the version read, and read again when a write got in between', async () => {
  const { t, deletes } = target('Pending', 2);
  assert.deepEqual(await evict(t), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  assert.deepEqual(deletes.map((d) => d?.preconditions?.resourceVersion), ['10', '11', '12']);
});

test('a running pod (no budget selects it) is deleted with the Eviction\'s own options, once', async () => {
  const { t, deletes } = target('Running', 1);
  await evict(t, { deleteOptions: { gracePeriodSeconds: 0 } });
  assert.deepEqual(deletes, [{ gracePeriodSeconds: 0 }]);
});

test('a version the caller named is kept, and its conflict is not retried', async () => {
  const { t, deletes } = target('Pending', 1);
  await assert.rejects(evict(t, { deleteOptions: { preconditions: { resourceVersion: '10' } } }), (e: unknown) => status.isConflict(e));
  assert.equal(deletes.length, 1);
});

test('terminal and terminating pods are deleted as they are', async () => {
  for (const [phase, extra] of [['Succeeded', {}], ['Failed', {}], ['Running', { deletionTimestamp: '2024-01-01T00:00:00Z' }]] as const) {
    const { t, deletes } = target(phase, 0, extra);
    await evict(t);
    assert.deepEqual(deletes, [undefined], phase);
  }
});

test('a name other than the URL\'s is a 400 and deletes nothing', async () => {
  const { t, deletes } = target('Pending');
  await assert.rejects(evictionSubresource.create!({ metadata: { name: 'q' } }, t), (e: unknown) => e instanceof status.StatusError && e.code === 400 && e.message === 'name in URL does not match name in Eviction object');
  assert.equal(deletes.length, 0);
});

test('a race that never ends gives up after Kubernetes\' twenty attempts with the conflict', async () => {
  const { t, deletes } = target('Pending', 100);
  await assert.rejects(evict(t), (e: unknown) => status.isConflict(e));
  assert.equal(deletes.length, 20);
});
