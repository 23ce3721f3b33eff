import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { eventRecorder } from './events.ts';
import { ResourceStore } from '../registry/store.ts';
import { SqliteStorage } from '../storage/sqlite.ts';
import { eventKind } from '../apis/core/event.ts';
import type { ApiObject } from '../apis/meta/v1.ts';

const storage = SqliteStorage.open(':memory:');
const events = new ResourceStore(eventKind, storage);
before(async () => { await events.cache.start(); });
after(async () => { events.cache.stop(); await storage.close(); });

const deployment: ApiObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'ns', uid: 'u-1', resourceVersion: '7' } };
const stored = async (ns = 'ns') => {
  await events.readNow(ns, 'x'); // the cache caught up with storage
  return events.cache.list(events.listPrefix(ns)).map((c) => c.object as Record<string, any>);
};

test('an event is a core/v1 Event about the object, from the controller; a repeat counts instead of adding another', async () => {
  let clock = Date.parse('2026-03-04T05:06:07.500Z');
  const errors: string[] = [];
  const recorder = eventRecorder(events, 'deployment-controller', (l) => errors.push(l), () => clock);
  recorder.event(deployment, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set web-abc to 3');
  await new Promise((r) => setTimeout(r, 50));
  let all = await stored();
  assert.equal(all.length, 1);
  const [e] = all;
  assert.equal(e.metadata.name, `web.${(BigInt(clock) * 1_000_000n).toString(16)}`);
  assert.deepEqual(e.involvedObject, { kind: 'Deployment', namespace: 'ns', name: 'web', uid: 'u-1', apiVersion: 'apps/v1', resourceVersion: '7' });
  assert.deepEqual([e.type, e.reason, e.message, e.count, e.firstTimestamp, e.lastTimestamp], ['Normal', 'ScalingReplicaSet', 'Scaled up replica set web-abc to 3', 1, '2026-03-04T05:06:07Z', '2026-03-04T05:06:07Z']);
  assert.deepEqual([e.source, e.reportingComponent, e.reportingInstance], [{ component: 'deployment-controller' }, 'deployment-controller', '']);
  clock += 60_000;
  recorder.event(deployment, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set web-abc to 3');
  await new Promise((r) => setTimeout(r, 50));
  all = await stored();
  assert.equal(all.length, 1);
  assert.deepEqual([all[0].count, all[0].firstTimestamp, all[0].lastTimestamp], [2, '2026-03-04T05:06:07Z', '2026-03-04T05:07:07Z']);
  // Another message, or the same after the aggregation window, is another event.
  recorder.event(deployment, 'Warning', 'ReplicaSetCreateError', 'Failed to create new replica set "web-def": quota');
  clock += 11 * 60_000;
  recorder.event(deployment, 'Normal', 'ScalingReplicaSet', 'Scaled up replica set web-abc to 3');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal((await stored()).length, 3);
  assert.deepEqual(errors, []);
});

test('a cluster-scoped object\'s events go to the default namespace; a failure is logged, not thrown', async () => {
  const errors: string[] = [];
  const recorder = eventRecorder(events, 'x-controller', (l) => errors.push(l));
  recorder.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', uid: 'n' } }, 'Normal', 'Seen', 'seen');
  recorder.event({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'Not Valid!', uid: 'n' } }, 'Normal', 'Seen', 'seen');
  await new Promise((r) => setTimeout(r, 50));
  const list = await stored('default');
  assert.deepEqual(list.map((e) => [e.involvedObject.name, e.involvedObject.namespace]), [['n1', undefined]]);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^x-controller: event Seen for undefined\/Not Valid! not recorded: /);
});
