// Event (core v1, namespaced): a report of something that happened to an object. The same stored objects
// are served as events.svc.io/v1 (see ../events/event.ts), which validates new events strictly; the rules
// both share are here, as Kubernetes has them (legacyValidateEvent, ValidateEventCreate/Update).
import type { KindDefinition, TableColumn } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta, ObjectReference } from '../meta/v1.ts';
import { nameColumn, translateTimestampSince, NAME_DESCRIPTION } from '../meta/table.ts';
import { type FieldError, invalid, required } from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain, isQualifiedName, byteLength } from '../../machinery/validation/strings.ts';
import { goQuote, errorWithGoValue } from '../../machinery/go-format.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { withProto, described } from './schema-helpers.ts';

type Obj = Record<string, any>;

export const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
export const ACTION_LENGTH_LIMIT = 128;
export const REASON_LENGTH_LIMIT = 128;
export const NOTE_LENGTH_LIMIT = 1024;

const D = {
  involvedObject: 'The object that this event is about.',
  reason: "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
  message: 'A human-readable description of the status of this operation.',
  source: 'The component reporting this event. Should be a short machine understandable string.',
  firstTimestamp: 'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
  lastTimestamp: 'The time at which the most recent occurrence of this event was recorded.',
  count: 'The number of times this event has occurred.',
  type: 'Type of this event (Normal, Warning), new types could be added in the future',
  fieldPath: 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.',
};

export const CoreEventSeries = S.object({
  count: S.int32({ proto: 1, description: 'Number of occurrences in this series up to the last heartbeat time' }),
  lastObservedTime: S.microTime({ proto: 2, description: 'Time of the last occurrence observed' }),
}, { ref: 'core.v1.EventSeries', description: 'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time.' });

export const EventSource = S.object({
  component: S.string({ proto: 1, description: 'Component from which the event is generated.' }),
  host: S.string({ proto: 2, description: 'Node name on which the event is generated.' }),
}, { ref: 'core.v1.EventSource', description: 'EventSource contains information for an event.' });

export const CoreEventSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  involvedObject: described(ObjectReference, 2, D.involvedObject),
  reason: S.string({ proto: 3, description: D.reason }),
  message: S.string({ proto: 4, description: D.message }),
  source: described(EventSource, 5, D.source),
  firstTimestamp: S.time({ proto: 6, description: D.firstTimestamp }),
  lastTimestamp: S.time({ proto: 7, description: D.lastTimestamp }),
  count: S.int32({ proto: 8, description: D.count }),
  type: S.string({ proto: 9, description: D.type }),
  eventTime: S.microTime({ proto: 10, description: 'Time when this Event was first observed.' }),
  series: described(CoreEventSeries, 11, "Data about the Event series this event represents or nil if it's a singleton Event."),
  action: S.string({ proto: 12, description: 'What action was taken/failed regarding to the Regarding object.' }),
  related: described(ObjectReference, 13, 'Optional secondary object for more complex actions.'),
  reportingComponent: S.string({ proto: 14, default: '', description: 'Name of the controller that emitted this Event, e.g. `platform.io/node-agent`.' }),
  reportingInstance: S.string({ proto: 15, default: '', description: 'ID of the controller instance, e.g. `node-agent-xyzf`.' }),
}, { required: ['metadata', 'involvedObject'], ref: 'core.v1.Event', description: 'Event is a report of an event somewhere in the cluster.  Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.  Events should be treated as informative, best-effort, supplemental data.' });

/** The struct fields Go always writes for a core v1 Event (zero times are null). */
export function fillEventZeroValues(obj: ApiObject): void {
  obj.involvedObject ??= {};
  obj.source ??= {};
  if (obj.firstTimestamp === undefined) obj.firstTimestamp = null;
  if (obj.lastTimestamp === undefined) obj.lastTimestamp = null;
  if (obj.eventTime === undefined) obj.eventTime = null;
  obj.reportingComponent ??= '';
  obj.reportingInstance ??= '';
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const isSet = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * legacyValidateEvent: what every event passes, whichever API wrote it. Kubernetes names the reporting
 * controller by its internal name (`reportingController`) in both APIs, core v1's `reportingComponent` too.
 */
export function legacyEventErrors(obj: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const ns = str(obj.metadata.namespace);
  const involved = (obj.involvedObject ?? {}) as Obj;
  const involvedNs = str(involved.namespace);
  if (!isSet(obj.eventTime)) {
    if (!involvedNs) {
      if (ns !== '' && ns !== 'default') errs.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    } else if (ns !== involvedNs) {
      errs.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (!involvedNs && ns !== 'default' && ns !== 'kube-system') errs.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    const controller = str(obj.reportingComponent);
    if (!controller) errs.push(required('reportingController'));
    errs.push(...isQualifiedName(controller).map((m) => invalid('reportingController', controller, m)));
    const instance = str(obj.reportingInstance);
    if (!instance) errs.push(required('reportingInstance'));
    if (byteLength(instance) > REPORTING_INSTANCE_LENGTH_LIMIT) errs.push(invalid('reportingInstance', '', `can have at most ${REPORTING_INSTANCE_LENGTH_LIMIT} characters`));
    const action = str(obj.action);
    if (!action) errs.push(required('action'));
    if (byteLength(action) > ACTION_LENGTH_LIMIT) errs.push(invalid('action', '', `can have at most ${ACTION_LENGTH_LIMIT} characters`));
    const reason = str(obj.reason);
    if (!reason) errs.push(required('reason'));
    if (byteLength(reason) > REASON_LENGTH_LIMIT) errs.push(invalid('reason', '', `can have at most ${REASON_LENGTH_LIMIT} characters`));
    if (byteLength(str(obj.message)) > NOTE_LENGTH_LIMIT) errs.push(invalid('message', '', `can have at most ${NOTE_LENGTH_LIMIT} characters`));
  }
  errs.push(...isDNS1123Subdomain(ns).map((m) => invalid('namespace', ns, m)));
  return errs;
}

/** validateV1EventSeries. */
export function seriesErrors(obj: ApiObject): FieldError[] {
  const series = obj.series as Obj | undefined | null;
  if (!series) return [];
  const errs: FieldError[] = [];
  if (Number(series.count ?? 0) < 2) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (!isSet(series.lastObservedTime)) errs.push(required('series.lastObservedTime'));
  return errs;
}

/** The fields an events.svc.io/v1 update may not change, in Kubernetes' order (which checks reason twice). */
export const EVENT_IMMUTABLE_FIELDS = ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'type', 'eventTime', 'action', 'related', 'reportingComponent', 'reportingInstance'];

/** Go's time.Time.String() of a serialized (UTC) time: `2024-01-02 03:04:05.5 +0000 UTC`; unset is Go's zero time. */
export function goTimeString(v: unknown): string {
  const d = typeof v === 'string' && v ? new Date(v) : undefined;
  if (!d || Number.isNaN(d.getTime())) return '0001-01-01 00:00:00 +0000 UTC';
  const iso = d.toISOString();
  // Date keeps milliseconds; the micro-time's own digits are read from the text.
  const frac = (/\.(\d+)/.exec(String(v))?.[1] ?? '').replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? '.' + frac : ''} +0000 UTC`;
}

const goObjectReference = (r: Obj) => 'core.ObjectReference{' + [
  ['Kind', r.kind], ['Namespace', r.namespace], ['Name', r.name], ['UID', r.uid], ['APIVersion', r.apiVersion], ['ResourceVersion', r.resourceVersion], ['FieldPath', r.fieldPath],
].map(([k, v]) => `${k}:${goQuote(str(v))}`).join(', ') + '}';

/** The new value of an immutable field as ValidateImmutableField prints it (the internal Go type). */
function immutableError(f: string, v: unknown): FieldError {
  const path = f === 'reportingComponent' ? 'reportingController' : f;
  const go = (rendered: string) => errorWithGoValue('FieldValueInvalid', path, v, rendered, 'field is immutable');
  switch (f) {
    case 'involvedObject': return go(goObjectReference((v ?? {}) as Obj));
    case 'related': return v ? go(goObjectReference(v as Obj)) : invalid(path, null, 'field is immutable');
    case 'source': { const src = (v ?? {}) as Obj; return go(`core.EventSource{Component:${goQuote(str(src.component))}, Host:${goQuote(str(src.host))}}`); }
    case 'firstTimestamp': case 'lastTimestamp': case 'eventTime': return go(goTimeString(v));
    case 'count': return invalid(path, Number(v ?? 0), 'field is immutable');
    default: return invalid(path, str(v), 'field is immutable');
  }
}

export function eventImmutableErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of EVENT_IMMUTABLE_FIELDS) if (!deepEqual(obj[f] ?? null, old[f] ?? null)) errs.push(immutableError(f, obj[f]));
  return errs;
}

function timeSince(t: unknown): string {
  return isSet(t) ? translateTimestampSince(String(t)) : '<unknown>';
}

/** printEvent's cells, computed once per row. */
function eventCells(o: ApiObject): { last: string; first: string; count: number; target: string; source: string } {
  let first = timeSince(o.firstTimestamp);
  if (!isSet(o.firstTimestamp)) first = timeSince(o.eventTime);
  let last = isSet(o.lastTimestamp) ? timeSince(o.lastTimestamp) : first;
  let count = Number(o.count ?? 0);
  const series = o.series as Obj | null | undefined;
  if (series) {
    last = timeSince(series.lastObservedTime);
    count = Number(series.count ?? 0);
  } else if (count === 0) {
    // Singleton events of the new API have no count.
    count = 1;
  }
  const involved = (o.involvedObject ?? {}) as Obj;
  const kind = str(involved.kind).toLowerCase();
  const target = involved.name ? `${kind}/${involved.name}` : kind;
  const src = (o.source ?? {}) as Obj;
  const component = str(src.component) || str(o.reportingComponent);
  const host = str(src.host) || str(o.reportingInstance);
  return { last, first, count, target, source: host ? `${component}, ${host}` : component };
}

/** kubectl's event columns, shared by both groups that serve events. */
export const eventTableColumns: TableColumn[] = [
  { name: 'Last Seen', type: 'string', description: D.lastTimestamp, cell: (o) => eventCells(o).last },
  { name: 'Type', type: 'string', description: D.type, cell: (o) => str(o.type) },
  { name: 'Reason', type: 'string', description: D.reason, cell: (o) => str(o.reason) },
  { name: 'Object', type: 'string', description: D.involvedObject, cell: (o) => eventCells(o).target },
  { name: 'Subobject', type: 'string', priority: 1, description: D.fieldPath, cell: (o) => str((o.involvedObject as Obj | undefined)?.fieldPath) },
  { name: 'Source', type: 'string', priority: 1, description: D.source, cell: (o) => eventCells(o).source },
  { name: 'Message', type: 'string', description: D.message, cell: (o) => str(o.message).trim() },
  { name: 'First Seen', type: 'string', priority: 1, description: D.firstTimestamp, cell: (o) => eventCells(o).first },
  { name: 'Count', type: 'string', priority: 1, description: D.count, cell: (o) => eventCells(o).count },
  { ...nameColumn, name: 'Name', priority: 1, description: NAME_DESCRIPTION },
];

const involved = (o: ApiObject, f: string) => str((o.involvedObject as Obj | undefined)?.[f]);

/** EventToSelectableFields (core names). */
export const eventFieldGetters: Record<string, (o: ApiObject) => string> = {
  'involvedObject.kind': (o) => involved(o, 'kind'),
  'involvedObject.namespace': (o) => involved(o, 'namespace'),
  'involvedObject.name': (o) => involved(o, 'name'),
  'involvedObject.uid': (o) => involved(o, 'uid'),
  'involvedObject.apiVersion': (o) => involved(o, 'apiVersion'),
  'involvedObject.resourceVersion': (o) => involved(o, 'resourceVersion'),
  'involvedObject.fieldPath': (o) => involved(o, 'fieldPath'),
  reason: (o) => str(o.reason),
  reportingComponent: (o) => str(o.reportingComponent),
  source: (o) => str((o.source as Obj | undefined)?.component) || str(o.reportingComponent),
  type: (o) => str(o.type),
};

export const eventKind: KindDefinition = {
  group: '',
  kind: 'Event',
  plural: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  versions: [{ name: 'v1', stability: 'stable', schema: CoreEventSchema }],
  storageVersion: 'v1',
  trackGeneration: false,
  // Kubernetes' event strategy lets a PUT create a missing Event (AllowCreateOnUpdate).
  allowCreateOnUpdate: true,

  defaults: fillEventZeroValues,
  validate: legacyEventErrors,
  validateUpdate: legacyEventErrors,

  fieldSelectors: eventFieldGetters,
  tableColumns: eventTableColumns,
};
