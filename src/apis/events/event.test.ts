import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { eventsEventKind as kind, toCoreEvent, fromCoreEvent } from './event.ts';
import { eventKind } from '../core/event.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import { ResourceStore } from '../../registry/store.ts';
import { SqliteStorage } from '../../storage/sqlite.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const eventTime = '2024-05-01T10:00:00.000000Z';
/** An events.svc.io/v1 Event as a client sends it. */
const v1 = (fields: Obj = {}): ApiObject => ({
  apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: `ev-${++n}`, namespace: 'ns' },
  eventTime, type: 'Normal', action: 'Pull', reason: 'Pulled', reportingController: 'example.com/ctl', reportingInstance: 'ctl-1',
  regarding: { kind: 'Pod', name: 'web-1', namespace: 'ns' }, note: 'pulled the image', ...fields,
});
// The handler converts to the stored (core) form before the registry sees the object.
const create = (obj: ApiObject) => h.create(toCoreEvent(obj));
const causes = async (obj: ApiObject) => (await rejection(create(obj))).causes;

test('declaration: events.svc.io/v1, stored as core v1 events under the same keys', () => {
  assert.equal(kind.group, 'events.svc.io');
  assert.deepEqual(kind.shortNames, ['ev']);
  assert.deepEqual(kind.storedAs && { group: kind.storedAs.group, version: kind.storedAs.version }, { group: '', version: 'v1' });
  const storage = SqliteStorage.open(':memory:');
  try {
    const a = new ResourceStore(kind, storage), b = new ResourceStore(eventKind, storage);
    assert.equal(a.key('ns', 'x'), b.key('ns', 'x'));
    assert.equal(a.storageApiVersion, 'v1');
  } finally { void storage.close(); }
  const p = (kind.versions[0]!.schema as any).properties;
  assert.deepEqual(['metadata', 'eventTime', 'series', 'reportingController', 'reportingInstance', 'action', 'reason', 'regarding', 'related', 'note', 'type', 'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount'].map((k) => p[k]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
});

test('conversion: regarding <-> involvedObject, note <-> message, reportingController <-> reportingComponent, deprecated* <-> the old fields', () => {
  const core = toCoreEvent(v1({ related: { kind: 'Node', name: 'n1' }, series: { count: 2, lastObservedTime: eventTime }, deprecatedCount: 3, deprecatedSource: { component: 'c' }, deprecatedFirstTimestamp: '2024-05-01T09:00:00Z', deprecatedLastTimestamp: '2024-05-01T09:30:00Z' }));
  assert.equal(core.apiVersion, 'v1');
  assert.deepEqual(core.involvedObject, { kind: 'Pod', name: 'web-1', namespace: 'ns' });
  assert.deepEqual([core.message, core.reportingComponent, core.count, core.source, core.firstTimestamp, core.lastTimestamp], ['pulled the image', 'example.com/ctl', 3, { component: 'c' }, '2024-05-01T09:00:00Z', '2024-05-01T09:30:00Z']);
  assert.deepEqual(core.related, { kind: 'Node', name: 'n1' });
  for (const k of ['regarding', 'note', 'reportingController', 'deprecatedCount', 'deprecatedSource']) assert.equal(core[k], undefined, k);
  const back = fromCoreEvent(core);
  assert.equal(back.apiVersion, 'events.svc.io/v1');
  assert.deepEqual(back.regarding, core.involvedObject);
  assert.deepEqual([back.note, back.reportingController, back.deprecatedCount], ['pulled the image', 'example.com/ctl', 3]);
  // A core event seen through events.svc.io/v1: zero values left out, struct fields always there.
  const legacy = fromCoreEvent({ apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: 'x' }, involvedObject: { kind: 'Pod' }, message: 'm', count: 0, source: {}, firstTimestamp: null, lastTimestamp: null, eventTime: null, reportingComponent: '', reportingInstance: '' });
  assert.deepEqual(legacy, { kind: 'Event', apiVersion: 'events.svc.io/v1', metadata: { name: 'x' }, eventTime: null, regarding: { kind: 'Pod' }, note: 'm', deprecatedSource: {}, deprecatedFirstTimestamp: null, deprecatedLastTimestamp: null });
});

test('a valid events.svc.io/v1 event is stored in the core form', async () => {
  const o = await create(v1());
  assert.equal(o.apiVersion, 'v1');
  assert.deepEqual([o.reportingComponent, o.message, o.involvedObject], ['example.com/ctl', 'pulled the image', { kind: 'Pod', name: 'web-1', namespace: 'ns' }]);
  assert.deepEqual([o.source, o.firstTimestamp, o.lastTimestamp], [{}, null, null]);
});

test('type is Normal or Warning', async () => {
  assert.deepEqual(await causes(v1({ type: 'Info' })), ['type: Invalid value: "": has invalid value: Info']);
  assert.deepEqual(await causes(v1({ type: undefined })), ['type: Invalid value: "": has invalid value: ']);
});

test('eventTime is required', async () => {
  assert.deepEqual(await causes(v1({ eventTime: undefined })), ['eventTime: Required value']);
});

test('action, reason, reportingController and reportingInstance are required', async () => {
  assert.deepEqual(await causes(v1({ action: '' })), ['action: Required value']);
  assert.deepEqual(await causes(v1({ reason: '' })), ['reason: Required value']);
  assert.deepEqual(await causes(v1({ reportingInstance: '' })), ['reportingInstance: Required value']);
  assert.equal((await causes(v1({ reportingController: '' })))[0], 'reportingController: Required value');
  assert.deepEqual(await causes(v1({ reason: 'r'.repeat(129) })), ['reason: Invalid value: "": can have at most 128 characters']);
  assert.deepEqual(await causes(v1({ note: 'n'.repeat(1025) })), ['message: Invalid value: "": can have at most 1024 characters']);
});

test('the deprecated fields must be unset; a series counts at least 2 and has a last observed time', async () => {
  assert.deepEqual(await causes(v1({ deprecatedCount: 2, deprecatedSource: { component: 'c' }, deprecatedFirstTimestamp: '2024-05-01T09:00:00Z', deprecatedLastTimestamp: '2024-05-01T09:00:00Z' })), [
    'firstTimestamp: Invalid value: "": needs to be unset',
    'lastTimestamp: Invalid value: "": needs to be unset',
    'count: Invalid value: "": needs to be unset',
    'source: Invalid value: "": needs to be unset',
  ]);
  assert.deepEqual(await causes(v1({ series: { count: 1 } })), ['series.count: Invalid value: "": should be at least 2', 'series.lastObservedTime: Required value']);
});

test('the regarding object may be in another namespace; an empty one only in default or kube-system', async () => {
  await create(v1({ regarding: { kind: 'Pod', name: 'p', namespace: 'other' } }));
  assert.deepEqual(await causes(v1({ regarding: { kind: 'Node', name: 'n1' } })), ['involvedObject.namespace: Invalid value: "": does not match event.namespace']);
});

test('updates may change the series, not what the event reports', async () => {
  const o = await create(v1());
  const grown = structuredClone(o); grown.series = { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' };
  assert.deepEqual((await h.update(grown)).series, { count: 2, lastObservedTime: '2024-05-01T10:05:00.000000Z' });
  const changed = structuredClone(o); changed.message = 'something else'; changed.reportingComponent = 'other/ctl';
  assert.deepEqual((await rejection(h.update(changed))).causes, ['message: Invalid value: "something else": field is immutable', 'reportingController: Invalid value: "other/ctl": field is immutable']);
});

test('field selectors use the events.svc.io/v1 names over the stored fields', async () => {
  const o = await create(v1({ regarding: { kind: 'Pod', name: 'web-1', namespace: 'ns', uid: 'u1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{app}' } }));
  const f = kind.fieldSelectors!;
  assert.deepEqual(Object.keys(f).sort(), ['reason', 'regarding.apiVersion', 'regarding.fieldPath', 'regarding.kind', 'regarding.name', 'regarding.namespace', 'regarding.resourceVersion', 'regarding.uid', 'reportingController', 'type']);
  assert.deepEqual(['regarding.kind', 'regarding.name', 'regarding.namespace', 'regarding.uid', 'regarding.apiVersion', 'regarding.resourceVersion', 'regarding.fieldPath', 'reason', 'reportingController', 'type'].map((k) => f[k]!(o)), [
    'Pod', 'web-1', 'ns', 'u1', 'v1', '7', 'spec.containers{app}', 'Pulled', 'example.com/ctl', 'Normal',
  ]);
});

test('table cells are the same for an event in either form', () => {
  const served = v1({ metadata: { name: 'e', namespace: 'ns' }, eventTime: new Date(Date.now() - 90_000).toISOString() });
  const fromV1 = kind.tableColumns!.map((c) => c.cell(served));
  const fromCore = kind.tableColumns!.map((c) => c.cell(toCoreEvent(served)));
  assert.deepEqual(fromV1, fromCore);
  assert.deepEqual([fromV1[1], fromV1[2], fromV1[3], fromV1[5], fromV1[6], fromV1[8]], ['Normal', 'Pulled', 'pod/web-1', 'example.com/ctl, ctl-1', 'pulled the image', 1]);
});
