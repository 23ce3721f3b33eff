import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deletionConditions, mergeConditions } from './namespace-conditions.ts';

const T0 = '2026-01-01T00:00:00Z';
const T1 = '2026-01-01T00:01:00Z';
const empty = () => ({ remainingByResource: new Map<string, number>(), remainingByFinalizer: new Map<string, number>(), deleteErrors: [] as string[] });

describe('namespace deletion conditions', () => {
  it('a clean pass reports every type False with its ok reason, in Kubernetes order', () => {
    const conds = deletionConditions(empty(), T0);
    assert.deepEqual(conds.map((c) => [c.type, c.status, c.reason]), [
      ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered'],
      ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions'],
      ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted'],
      ['NamespaceContentRemaining', 'False', 'ContentRemoved'],
      ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers'],
    ]);
    assert.equal(conds[3].message, 'All content successfully removed');
    assert.equal(conds[4].message, 'All content-preserving finalizers finished');
  });

  it('remaining content and finalizers are listed sorted, zero counts left out', () => {
    const t = empty();
    t.remainingByResource.set('pods.', 2).set('deployments.apps', 1).set('leases.coordination.svc.io', 0);
    t.remainingByFinalizer.set('z.io/f', 1).set('a.io/f', 3);
    const conds = deletionConditions(t, T0);
    assert.equal(conds[3].message, 'Some resources are remaining: deployments.apps has 1 resource instances, pods. has 2 resource instances');
    assert.equal(conds[3].reason, 'SomeResourcesRemain');
    assert.equal(conds[4].message, 'Some content in the namespace has finalizers remaining: a.io/f in 3 resource instances, z.io/f in 1 resource instances');
    assert.equal(conds[4].reason, 'SomeFinalizersRemain');
  });

  it('failed deletions are aggregated as Go prints them', () => {
    const one = empty(); one.deleteErrors.push('boom');
    assert.equal(deletionConditions(one, T0)[2].message, 'Failed to delete all resource types, 1 remaining: boom');
    const two = empty(); two.deleteErrors.push('a', 'b');
    const c = deletionConditions(two, T0)[2];
    assert.deepEqual([c.status, c.reason, c.message], ['True', 'ContentDeletionFailed', 'Failed to delete all resource types, 2 remaining: [a, b]']);
  });

  it('merging keeps transition times unless the status flips, and reports no change when equal', () => {
    const first = mergeConditions(undefined, deletionConditions(empty(), T0))!;
    assert.equal(first.length, 5);
    assert.equal(mergeConditions(first, deletionConditions(empty(), T1)), undefined);
    const t = empty(); t.remainingByResource.set('pods.', 1);
    const second = mergeConditions(first, deletionConditions(t, T1))!;
    assert.equal(second[3].status, 'True');
    assert.equal(second[3].lastTransitionTime, T1);
    assert.equal(second[0].lastTransitionTime, T0);
    const t2 = empty(); t2.remainingByResource.set('pods.', 2);
    const third = mergeConditions(second, deletionConditions(t2, '2026-01-01T00:02:00Z'))!;
    assert.equal(third[3].lastTransitionTime, T1, 'a message change alone keeps the transition time');
    assert.match(third[3].message!, /has 2 resource instances/);
  });
});
