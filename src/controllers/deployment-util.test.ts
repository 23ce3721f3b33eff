import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../apis/meta/v1.ts';
import {
  calculateStatus, computeHash, deploymentComplete, deploymentProgressing, deploymentTimedOut, equalIgnoreHash, findActiveOrLatest,
  intOrPercentValue, maxSurge, maxUnavailable, newRSNewReplicas, proportion, resolveFenceposts, setCondition, setNewReplicaSetAnnotations,
  type DeploymentStatus,
} from './deployment-util.ts';

type Obj = Record<string, any>;

const deployment = (replicas: number, rollingUpdate: Obj | null = { maxSurge: '25%', maxUnavailable: '25%' }, extra: Obj = {}): ApiObject => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', generation: 1, annotations: {} },
  spec: { replicas, strategy: rollingUpdate ? { type: 'RollingUpdate', rollingUpdate } : { type: 'Recreate' }, progressDeadlineSeconds: 600, ...extra },
  status: {},
});
const rs = (name: string, replicas: number, status: Obj = {}, annotations: Record<string, string> = {}, created = '2026-01-01T00:00:00Z'): ApiObject => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, uid: name, annotations, creationTimestamp: created }, spec: { replicas }, status,
});

test('int-or-percent values round surge up and unavailability down; both zero leaves one unavailable', () => {
  assert.equal(intOrPercentValue('25%', 3, true), 1);
  assert.equal(intOrPercentValue('25%', 3, false), 0);
  assert.equal(intOrPercentValue(2, 10, false), 2);
  assert.deepEqual(resolveFenceposts('0%', '1%', 2), { surge: 0, unavailable: 1 });
  assert.deepEqual(resolveFenceposts('25%', '25%', 10), { surge: 3, unavailable: 2 });
  assert.equal(maxSurge(deployment(3)), 1);
  assert.equal(maxUnavailable(deployment(3)), 0);
  assert.equal(maxUnavailable(deployment(0)), 0);
  assert.equal(maxUnavailable(deployment(2, { maxSurge: 0, maxUnavailable: 5 })), 2);
  assert.equal(maxSurge(deployment(3, null)), 0);
});

test('the new ReplicaSet grows within replicas + maxSurge, and all at once for Recreate', () => {
  const d = deployment(10); // surge 3
  const newRS = rs('new', 0);
  assert.equal(newRSNewReplicas(d, [rs('old', 10), newRS], newRS), 3);
  assert.equal(newRSNewReplicas(d, [rs('old', 13), newRS], newRS), 0);
  assert.equal(newRSNewReplicas(d, [rs('old', 1), rs('new', 9)], rs('new', 9)), 10);
  assert.equal(newRSNewReplicas(deployment(4, null), [rs('old', 4), newRS], newRS), 4);
});

test('a scaling event is shared in proportion to the ReplicaSets\' sizes', () => {
  const d = deployment(20, { maxSurge: 0, maxUnavailable: 1 });
  const a = rs('a', 6, {}, { 'deployment.platform.io/max-replicas': '10' });
  assert.equal(proportion(a, d, 10, 0), 6);
  assert.equal(proportion(a, d, 4, 0), 4);
  assert.equal(proportion(rs('z', 0), d, 4, 0), 0);
  assert.equal(proportion(a, deployment(0, { maxSurge: 0, maxUnavailable: 1 }), -6, 0), -6);
});

test('the only active ReplicaSet, or the newest one when none is active', () => {
  const older = rs('older', 0, {}, {}, '2026-01-01T00:00:00Z');
  const newer = rs('newer', 0, {}, {}, '2026-01-02T00:00:00Z');
  assert.equal(findActiveOrLatest(undefined, [older, newer])?.metadata.name, 'newer');
  assert.equal(findActiveOrLatest(undefined, [rs('active', 2), newer])?.metadata.name, 'active');
  assert.equal(findActiveOrLatest(rs('n', 1), [rs('active', 2)]), undefined);
});

test('templates equal but for the pod-template-hash label are the same rollout', () => {
  const t = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  assert.equal(equalIgnoreHash(t, { metadata: { labels: { 'pod-template-hash': 'x', app: 'a' } }, spec: { containers: [{ image: 'i', name: 'c' }] } }), true);
  assert.equal(equalIgnoreHash(t, { ...t, spec: { containers: [{ name: 'c', image: 'j' }] } }), false);
});

test('the pod-template-hash: safe alphabet, stable, changed by the template and by the collision count', () => {
  const t = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  const h = computeHash(t, undefined);
  assert.match(h, /^[bcdfghjklmnpqrstvwxz2456789]{6,10}$/);
  assert.equal(computeHash(structuredClone(t), undefined), h);
  assert.notEqual(computeHash({ ...t, spec: { containers: [{ name: 'c', image: 'j' }] } }, undefined), h);
  assert.notEqual(computeHash(t, 1), h);
  assert.notEqual(computeHash(t, 0), h);
});

test('a ReplicaSet rolled back to gets the new revision and keeps its old ones in the history annotation', () => {
  const d = deployment(1);
  d.metadata.annotations = { team: 'a', 'deployment.platform.io/revision': '9', 'deployment.kubernetes.io/revision': '9', 'kubectl.kubernetes.io/last-applied-configuration': '{}' };
  const target = rs('r', 1, {}, { 'deployment.platform.io/revision': '2', 'deployment.platform.io/revision-history': '1' });
  assert.equal(setNewReplicaSetAnnotations(d, target, 5, true), true);
  assert.deepEqual(target.metadata.annotations, { 'deployment.platform.io/revision': '5', 'deployment.platform.io/revision-history': '1,2', team: 'a', 'deployment.kubernetes.io/revision': '5' });
  assert.equal(setNewReplicaSetAnnotations(d, target, 5, true), false);
  const created = rs('c', 0);
  setNewReplicaSetAnnotations(d, created, 1, false);
  assert.deepEqual(created.metadata.annotations, {
    team: 'a', 'deployment.platform.io/revision': '1', 'deployment.kubernetes.io/revision': '1', 'deployment.platform.io/desired-replicas': '1', 'deployment.platform.io/max-replicas': '2',
  });
});

test('status: counts from the ReplicaSets (zeros left out), the Available condition, completion and progress', () => {
  const d = deployment(3, { maxSurge: 1, maxUnavailable: 1 });
  const newRS = rs('n', 3, { replicas: 3, readyReplicas: 2, availableReplicas: 2 });
  const status = calculateStatus([rs('o', 0), newRS], newRS, d, Date.parse('2026-01-01T00:00:00Z'));
  assert.deepEqual({ ...status, conditions: undefined }, { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2, unavailableReplicas: 1, conditions: undefined });
  assert.deepEqual(status.conditions, [{ type: 'Available', status: 'True', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }]);
  assert.equal(deploymentComplete(d, status), false);
  assert.equal(deploymentComplete(d, { ...status, availableReplicas: 3 }), true);
  assert.equal(deploymentProgressing({ ...d, status: { replicas: 3, updatedReplicas: 3, readyReplicas: 1, availableReplicas: 1 } }, status), true);
  assert.equal(deploymentProgressing({ ...d, status: { ...status } }, status), false);
  // 25% of 3 unavailable rounds down to none: two available of three is not enough.
  const strict = calculateStatus([newRS], newRS, deployment(3), 0);
  assert.equal(strict.conditions![0].reason, 'MinimumReplicasUnavailable');
});

test('a condition keeps its transition time while its status stays, and the Progressing deadline counts from its last update', () => {
  const status: DeploymentStatus = {};
  setCondition(status, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' });
  setCondition(status, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: '2026-01-01T00:01:00Z', lastTransitionTime: '2026-01-01T00:01:00Z' });
  assert.deepEqual(status.conditions, [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastUpdateTime: '2026-01-01T00:01:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }]);
  const d = deployment(1, null, { progressDeadlineSeconds: 60 });
  assert.equal(deploymentTimedOut(d, status, Date.parse('2026-01-01T00:02:00Z')), false);
  assert.equal(deploymentTimedOut(d, status, Date.parse('2026-01-01T00:02:01Z')), true);
  assert.equal(deploymentTimedOut(deployment(1, null, { progressDeadlineSeconds: 2 ** 31 - 1 }), status, Date.parse('2030-01-01T00:00:00Z')), false);
});
