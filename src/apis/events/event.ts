// Event (events.svc.io/v1, namespaced): the same stored objects as core v1 Events, seen through the newer
// API: `regarding` is `involvedObject`, `note` is `message`, `deprecated*` are the old timestamps, count and
// source. Events created or updated here are validated strictly (type, action, reason, reporting fields,
// eventTime required; the old fields unset).
import type { KindDefinition, TableColumn } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, ObjectReference } from '../meta/v1.ts';
import { type FieldError, invalid, required } from '../../machinery/field-errors.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { withProto, described } from '../core/schema-helpers.ts';
import {
  CoreEventSchema, EventSource, fillEventZeroValues, legacyEventErrors, seriesErrors, eventImmutableErrors,
  eventTableColumns, eventFieldGetters,
} from '../core/event.ts';

export const GROUP = 'events.svc.io';
export const EVENT_TYPES = ['Normal', 'Warning'];

type Obj = Record<string, any>;

const EventSeries = S.object({
  count: S.int32({ proto: 1, description: 'count is the number of occurrences in this series up to the last heartbeat time.' }),
  lastObservedTime: S.microTime({ proto: 2, description: 'lastObservedTime is the time when last Event from the series was seen before last heartbeat.' }),
}, { required: ['count', 'lastObservedTime'], ref: 'events.v1.EventSeries', description: 'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters. The default event reporter in "svc.io/client-go/tools/events/event_broadcaster.go" shows how this struct is updated on heartbeats and can guide customized reporter implementations.' });

export const EventSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  eventTime: S.microTime({ proto: 2, description: 'eventTime is the time when this Event was first observed. It is required.' }),
  series: withProto(EventSeries, 3),
  reportingController: S.string({ proto: 4, description: 'reportingController is the name of the controller that emitted this Event, e.g. `platform.io/node-agent`. This field cannot be empty for new Events.' }),
  reportingInstance: S.string({ proto: 5, description: 'reportingInstance is the ID of the controller instance, e.g. `node-agent-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.' }),
  action: S.string({ proto: 6, description: 'action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.' }),
  reason: S.string({ proto: 7, description: 'reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.' }),
  regarding: described(ObjectReference, 8, "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object."),
  related: described(ObjectReference, 9, 'related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.'),
  note: S.string({ proto: 10, description: 'note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.' }),
  type: S.string({ proto: 11, description: 'type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.' }),
  deprecatedSource: described(EventSource, 12, 'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.'),
  deprecatedFirstTimestamp: S.time({ proto: 13, description: 'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.' }),
  deprecatedLastTimestamp: S.time({ proto: 14, description: 'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.' }),
  deprecatedCount: S.int32({ proto: 15, description: 'deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.' }),
}, { required: ['eventTime'], ref: 'events.v1.Event', description: 'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.' });

/** events.svc.io/v1 field -> core v1 field, in events.svc.io/v1 field order. */
const FIELD_MAP: [string, string][] = [
  ['eventTime', 'eventTime'], ['series', 'series'], ['reportingController', 'reportingComponent'], ['reportingInstance', 'reportingInstance'],
  ['action', 'action'], ['reason', 'reason'], ['regarding', 'involvedObject'], ['related', 'related'], ['note', 'message'], ['type', 'type'],
  ['deprecatedSource', 'source'], ['deprecatedFirstTimestamp', 'firstTimestamp'], ['deprecatedLastTimestamp', 'lastTimestamp'], ['deprecatedCount', 'count'],
];

/** Fields Go writes even when empty, in events.svc.io/v1. */
const ALWAYS_WRITTEN = new Set(['eventTime', 'regarding', 'deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp']);

export function toCoreEvent(obj: ApiObject): ApiObject {
  const out: ApiObject = { apiVersion: 'v1', kind: obj.kind, metadata: obj.metadata };
  for (const [v1, core] of FIELD_MAP) if (obj[v1] !== undefined) out[core] = obj[v1];
  return out;
}

export function fromCoreEvent(obj: ApiObject): ApiObject {
  const out: ApiObject = { kind: obj.kind, apiVersion: `${GROUP}/v1`, metadata: obj.metadata };
  for (const [v1, core] of FIELD_MAP) {
    const v = obj[core];
    const empty = v === undefined || v === null || v === '' || v === 0;
    if (!empty) out[v1] = v;
    else if (ALWAYS_WRITTEN.has(v1)) out[v1] = v1 === 'regarding' || v1 === 'deprecatedSource' ? (v ?? {}) : null;
  }
  return out;
}

/** ValidateEventCreate for requests to events.svc.io/v1, on the stored (core) form. */
function strictErrors(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [...legacyEventErrors(obj), ...seriesErrors(obj)];
  const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';
  if (!isSet(obj.eventTime)) errs.push(required('eventTime'));
  if (!EVENT_TYPES.includes(obj.type as string)) errs.push(invalid('type', '', `has invalid value: ${obj.type ?? ''}`));
  if (isSet(obj.firstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (isSet(obj.lastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (Number(obj.count ?? 0) !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  const source = (obj.source ?? {}) as Obj;
  if (source.component || source.host) errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

const regarding = (f: string) => eventFieldGetters[`involvedObject.${f}`];

/** Tables are built from objects as this group serves them (no involvedObject): cells read them in the core form. */
const columns: TableColumn[] = eventTableColumns.map((c) => ({ ...c, cell: (o: ApiObject) => c.cell(o.involvedObject === undefined ? toCoreEvent(o) : o) }));

export const eventsEventKind: KindDefinition = {
  group: GROUP,
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  versions: [{ name: 'v1', stability: 'stable', schema: EventSchema, toStorage: toCoreEvent, fromStorage: fromCoreEvent }],
  storageVersion: 'v1',
  storedAs: { group: '', version: 'v1', schema: CoreEventSchema },
  trackGeneration: false,
  // Kubernetes' event strategy lets a PUT create a missing Event (AllowCreateOnUpdate).
  allowCreateOnUpdate: true,

  defaults: fillEventZeroValues,
  validate: strictErrors,
  validateUpdate(obj, old) {
    const errs = legacyEventErrors(obj);
    if (!deepEqual(obj.series ?? null, old.series ?? null)) errs.push(...seriesErrors(obj));
    return [...errs, ...eventImmutableErrors(obj, old)];
  },

  // Kubernetes' field label conversion for events.svc.io/v1 selects on the stored core fields.
  fieldSelectors: {
    'regarding.kind': regarding('kind'),
    'regarding.namespace': regarding('namespace'),
    'regarding.name': regarding('name'),
    'regarding.uid': regarding('uid'),
    'regarding.apiVersion': regarding('apiVersion'),
    'regarding.resourceVersion': regarding('resourceVersion'),
    'regarding.fieldPath': regarding('fieldPath'),
    reason: eventFieldGetters.reason,
    reportingController: eventFieldGetters.reportingComponent,
    type: eventFieldGetters.type,
  },
  tableColumns: columns,
};
