import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { eventKind as kind } from './event.ts';
import { kindHarness, rejection, type KindHarness } from '../kind-harness.ts';
import type { ApiObject } from '../meta/v1.ts';

let h: KindHarness;
before(async () => { h = await kindHarness(kind); });
after(async () => { await h.close(); });

type Obj = Record<string, any>;
let n = 0;
const ev = (fields: Obj = {}, namespace = 'ns'): ApiObject => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name: `ev-${++n}`, namespace },
  involvedObject: { kind: 'Pod', name: 'web-1', namespace }, reason: 'Pulled', message: 'pulled', type: 'Normal', ...fields,
});
const causes = async (obj: ApiObject) => (await rejection(h.create(obj))).causes;
const cells = (o: ApiObject) => kind.tableColumns!.map((c) => c.cell(o));

test('declaration: core v1 events, short name ev, no category, columns led by LAST SEEN, field selectors', () => {
  assert.equal(kind.group, '');
  assert.equal(kind.plural, 'events');
  assert.deepEqual(kind.shortNames, ['ev']);
  assert.equal(kind.categories, undefined);
  assert.equal(kind.status, undefined);
  assert.deepEqual(kind.tableColumns!.map((c) => [c.name, c.priority ?? 0]), [
    ['Last Seen', 0], ['Type', 0], ['Reason', 0], ['Object', 0], ['Subobject', 1], ['Source', 1], ['Message', 0], ['First Seen', 1], ['Count', 1], ['Name', 1],
  ]);
  assert.deepEqual(Object.keys(kind.fieldSelectors!).sort(), [
    'involvedObject.apiVersion', 'involvedObject.fieldPath', 'involvedObject.kind', 'involvedObject.name', 'involvedObject.namespace', 'involvedObject.resourceVersion', 'involvedObject.uid',
    'reason', 'reportingComponent', 'source', 'type',
  ]);
  const p = (kind.versions[0]!.schema as any).properties;
  assert.deepEqual(['metadata', 'involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'series', 'action', 'related', 'reportingComponent', 'reportingInstance'].map((k) => p[k]['x-proto']), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
});

test('defaults: the struct fields Go always writes', async () => {
  const o = await h.create(ev());
  assert.deepEqual([o.source, o.firstTimestamp, o.lastTimestamp, o.eventTime, o.reportingComponent, o.reportingInstance], [{}, null, null, null, '', '']);
});

test('legacy events: the involved object is in the event namespace (or unset in default)', async () => {
  assert.deepEqual(await causes(ev({ involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } })), ['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
  assert.deepEqual(await causes(ev({ involvedObject: { kind: 'Node', name: 'n1' } })), ['involvedObject.namespace: Invalid value: "": does not match event.namespace']);
  const cluster = await h.create(ev({ involvedObject: { kind: 'Node', name: 'n1' } }, 'default'));
  assert.equal(cluster.metadata.namespace, 'default');
});

test('events with an eventTime name their reporter, action and reason, within length limits', async () => {
  const eventTime = '2024-05-01T10:00:00.000000Z';
  // As in Kubernetes, an empty reporter is also reported as an invalid qualified name.
  assert.deepEqual(await causes(ev({ eventTime, reason: '' })), [
    'reportingController: Required value',
    'reportingController: Invalid value: "": name part must be non-empty',
    "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    'reportingInstance: Required value',
    'action: Required value',
    'reason: Required value',
  ]);
  assert.deepEqual(await causes(ev({ eventTime, reportingComponent: 'bad name!', reportingInstance: 'x'.repeat(129), action: 'a'.repeat(129) })), [
    "reportingController: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    'reportingInstance: Invalid value: "": can have at most 128 characters',
    'action: Invalid value: "": can have at most 128 characters',
  ]);
  // Another namespace may be named; only an empty one must be default or kube-system.
  const o = await h.create(ev({ eventTime, reportingComponent: 'example.com/ctl', reportingInstance: 'i-1', action: 'Pull', involvedObject: { kind: 'Pod', name: 'p', namespace: 'other' } }));
  assert.equal(o.reportingComponent, 'example.com/ctl');
});

test('core events accept any type and the deprecated fields (no strict validation)', async () => {
  const o = await h.create(ev({ type: 'Info', count: 3, source: { component: 'node-agent', host: 'n1' }, firstTimestamp: '2024-05-01T10:00:00Z', lastTimestamp: '2024-05-01T10:05:00Z' }));
  assert.equal(o.count, 3);
  const next = structuredClone(o); next.count = 4; next.message = 'again';
  assert.deepEqual([(await h.update(next)).count, (await h.update(next)).message], [4, 'again']);
});

test('field selectors read the involved object, reason, reporter, source and type', async () => {
  const o = await h.create(ev({ involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'ns', uid: 'u1', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{app}' }, source: { component: 'node-agent' } }));
  const f = kind.fieldSelectors!;
  assert.deepEqual(['involvedObject.kind', 'involvedObject.name', 'involvedObject.namespace', 'involvedObject.uid', 'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath', 'reason', 'type', 'source', 'reportingComponent'].map((k) => f[k]!(o)), [
    'Pod', 'web-1', 'ns', 'u1', 'v1', '7', 'spec.containers{app}', 'Pulled', 'Normal', 'node-agent', '',
  ]);
});

test('table: last and first seen, object, source, count (1 for a singleton, the series count otherwise)', () => {
  const now = Date.now();
  const ago = (s: number) => new Date(now - s * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const base: ApiObject = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'web-1.17a', namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'web-1', fieldPath: 'spec.containers{app}' }, reason: 'BackOff', message: ' Back-off restarting \n', type: 'Warning' };
  assert.deepEqual(cells({ ...base, firstTimestamp: ago(600), lastTimestamp: ago(30), count: 5, source: { component: 'node-agent', host: 'n1' } }), [
    '30s', 'Warning', 'BackOff', 'pod/web-1', 'spec.containers{app}', 'node-agent, n1', 'Back-off restarting', '10m', 5, 'web-1.17a',
  ]);
  const single = cells({ ...base, eventTime: ago(120), reportingComponent: 'ctl', reportingInstance: 'i-1' });
  assert.deepEqual([single[0], single[5], single[7], single[8]], ['2m', 'ctl, i-1', '2m', 1]);
  const series = cells({ ...base, eventTime: ago(3600), series: { count: 9, lastObservedTime: ago(60) } });
  assert.deepEqual([series[0], series[8]], ['60s', 9]);
  assert.equal(cells({ ...base })[0], '<unknown>');
});

test('goTimeString prints a serialized time as Go time.Time.String() does', async () => {
  const { goTimeString } = await import('./event.ts');
  assert.equal(goTimeString('2024-01-02T03:04:05Z'), '2024-01-02 03:04:05 +0000 UTC');
  assert.equal(goTimeString('2024-01-02T03:04:05.120000Z'), '2024-01-02 03:04:05.12 +0000 UTC');
  assert.equal(goTimeString(null), '0001-01-01 00:00:00 +0000 UTC');
});
