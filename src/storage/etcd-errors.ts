// How errors from etcd (through the etcd3 client and gRPC) are told apart.

import { isRecoverableError } from 'etcd3';
import { StorageError, StoreUnavailableError } from './interface.ts';

/** etcd's text for a read or watch below the compacted revision, and for compacting it again. */
export function isCompactedError(err: unknown): boolean {
  return messageOf(err).includes('required revision has been compacted');
}

/** etcd's text for a read or compaction above the current revision. */
export function isFutureRevisionError(err: unknown): boolean {
  return messageOf(err).includes('required revision is a future revision');
}

/** Failures of the connection or of the cluster (no leader, no quorum, timeouts): worth another try. */
export function isTransient(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (isCompactedError(err) || isFutureRevisionError(err)) return false;
  if (isRecoverableError(err)) return true;
  const message = err.message;
  return TRANSIENT_ETCD_MESSAGES.some((m) => message.includes(m));
}

/** Failures that prove a write never reached the cluster, so sending it again cannot apply it twice. */
export function provesNotApplied(err: unknown): boolean {
  const message = messageOf(err);
  return NOT_APPLIED_MESSAGES.some((m) => message.includes(m));
}

/** The storage error a failed etcd call becomes; revision errors are handled by the caller. */
export function toStorageError(err: unknown): Error {
  if (err instanceof StorageError) return err;
  if (isTransient(err) || messageOf(err).includes('client was already closed')) {
    return new StoreUnavailableError(`etcd is unavailable: ${messageOf(err)}`);
  }
  return err instanceof Error ? err : new Error(String(err));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const TRANSIENT_ETCD_MESSAGES = [
  'etcdserver: leader changed',
  'etcdserver: no leader',
  'etcdserver: request timed out',
  'etcdserver: server stopped',
  'etcdserver: too many requests',
  'etcdserver: not capable',
  'raft proposal dropped',
];

// gRPC fails a call with "No connection established" before sending it when no connection to the
// member could be made; etcd drops a proposal without a leader ("raft proposal dropped") and refuses
// requests before proposing them when it has no leader or is overloaded. A deadline that passed while the
// call was "Waiting for LB pick" passed before the call had a connection to be sent on.
const NOT_APPLIED_MESSAGES = [
  'No connection established',
  'Waiting for LB pick',
  'raft proposal dropped',
  'etcdserver: no leader',
  'etcdserver: too many requests',
  'etcdserver: not capable',
];
