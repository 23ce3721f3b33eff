import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isCompactedError, isFutureRevisionError, isTransient, provesNotApplied, toStorageError } from './etcd-errors.ts';
import { StoreUnavailableError } from './interface.ts';

// gRPC's text for a deadline that passed before any member's connection was ready (the call was never sent).
const NEVER_SENT = '4 DEADLINE_EXCEEDED: Deadline exceeded after 2.001s,name resolution: 0.001s,Waiting for LB pick';
// A deadline that passed after the call was sent: etcd may still apply it.
const SENT_THEN_TIMED_OUT = '4 DEADLINE_EXCEEDED: Deadline exceeded after 2.001s,LB pick: 0.001s,remote_addr=127.0.0.1:2379';

describe('etcd errors', () => {
  it('a write is retried only when the failure proves it was never applied', () => {
    for (const text of ['14 UNAVAILABLE: No connection established', NEVER_SENT, 'etcdserver: raft proposal dropped', 'etcdserver: no leader', 'etcdserver: too many requests']) {
      assert.equal(provesNotApplied(new Error(text)), true, text);
    }
    for (const text of [SENT_THEN_TIMED_OUT, 'etcdserver: request timed out', 'etcdserver: leader changed', 'some other failure']) {
      assert.equal(provesNotApplied(new Error(text)), false, text);
    }
  });

  it('reads are retried on cluster failures, never on revision errors', () => {
    assert.equal(isTransient(new Error('etcdserver: request timed out')), true);
    assert.equal(isTransient(new Error('etcdserver: leader changed')), true);
    const compacted = new Error('etcdserver: mvcc: required revision has been compacted');
    const future = new Error('etcdserver: mvcc: required revision is a future revision');
    assert.equal(isCompactedError(compacted), true);
    assert.equal(isFutureRevisionError(future), true);
    assert.equal(isTransient(compacted), false);
    assert.equal(isTransient(future), false);
    assert.equal(isTransient('not an error'), false);
  });

  it('a cluster failure becomes StoreUnavailableError; anything else is passed on', () => {
    const unavailable = toStorageError(new Error('etcdserver: no leader'));
    assert.ok(unavailable instanceof StoreUnavailableError);
    assert.match(unavailable.message, /^etcd is unavailable: etcdserver: no leader/);
    const other = new Error('boom');
    assert.equal(toStorageError(other), other);
  });
});
