import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPodActive, isPodAvailable, isPodReady, podAvailableAfter, podReadySince } from './pod-state.ts';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const pod = (status: Record<string, unknown> = {}, deletionTimestamp?: string) => ({
  metadata: { name: 'p', ...(deletionTimestamp ? { deletionTimestamp } : {}) },
  status,
});
const ready = (since: number | null, status = 'True') => pod({ phase: 'Running', conditions: [{ type: 'Ready', status, lastTransitionTime: since === null ? null : at(since) }] });

test('active: not finished and not being deleted', () => {
  assert.equal(isPodActive(pod({ phase: 'Pending' })), true);
  assert.equal(isPodActive(pod({ phase: 'Running' })), true);
  assert.equal(isPodActive(pod({ phase: 'Unknown' })), true);
  assert.equal(isPodActive(pod({})), true);
  assert.equal(isPodActive(pod({ phase: 'Succeeded' })), false);
  assert.equal(isPodActive(pod({ phase: 'Failed' })), false);
  assert.equal(isPodActive(pod({ phase: 'Running' }, at(T0))), false);
});

test('ready: the first Ready condition is True', () => {
  assert.equal(isPodReady(ready(T0)), true);
  assert.equal(isPodReady(ready(T0, 'False')), false);
  assert.equal(isPodReady(ready(T0, 'Unknown')), false);
  assert.equal(isPodReady(pod({ phase: 'Running' })), false);
  assert.equal(isPodReady(pod({ conditions: [{ type: 'ContainersReady', status: 'True' }] })), false);
  // Kubernetes reads the first condition of the type.
  assert.equal(isPodReady(pod({ conditions: [{ type: 'Ready', status: 'False' }, { type: 'Ready', status: 'True' }] })), false);
  assert.equal(podReadySince(ready(T0)), T0);
  assert.equal(podReadySince(ready(T0, 'False')), undefined);
  assert.equal(podReadySince(ready(null)), undefined);
});

test('available: ready, and for strictly more than minReadySeconds', () => {
  assert.equal(isPodAvailable(ready(T0), 0, T0), true);
  assert.equal(isPodAvailable(ready(null), 0, T0), true);
  assert.equal(isPodAvailable(ready(T0, 'False'), 0, T0), false);
  assert.equal(isPodAvailable(ready(T0), 10, T0 + 9_999), false);
  assert.equal(isPodAvailable(ready(T0), 10, T0 + 10_000), false);
  assert.equal(isPodAvailable(ready(T0), 10, T0 + 10_001), true);
  // Ready without a transition time never becomes available when minReadySeconds is set.
  assert.equal(isPodAvailable(ready(null), 10, T0 + 3_600_000), false);
  assert.equal(podAvailableAfter(ready(T0), 10), T0 + 10_000);
  assert.equal(podAvailableAfter(ready(T0), 0), -Infinity);
  assert.equal(podAvailableAfter(ready(T0, 'False'), 10), undefined);
});
