// metadata.managedFields in and out: one entry per (manager, operation, apiVersion, subresource), keyed
// internally by Kubernetes' manager identifier (the entry's identifying fields as JSON; Apply entries leave
// apiVersion out, so an applier keeps one entry across versions).
import { FieldSet, FieldsV1Error } from './fieldset.ts';
import { compareStrings, goJsonString } from './value.ts';

export type Operation = 'Apply' | 'Update';

export interface ManagerSet {
  set: FieldSet;
  apiVersion: string;
  /** Owned by an Apply (as opposed to an Update). */
  applied: boolean;
}

/** The managers of an object: field sets and times, by manager identifier. */
export interface Managed {
  fields: Map<string, ManagerSet>;
  times: Map<string, string>;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

export const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';

export function emptyManaged(): Managed {
  return { fields: new Map(), times: new Map() };
}

export interface ManagerInfo {
  manager: string;
  operation: Operation;
  apiVersion: string;
  subresource: string;
}

/** The identifier: `{"manager":"kubectl","operation":"Apply"}`, `{"manager":"x","operation":"Update","apiVersion":"v1"}`. */
export function managerIdentifier(info: ManagerInfo): string {
  let s = '';
  if (info.manager) s += ',"manager":' + goJsonString(info.manager);
  if (info.operation) s += ',"operation":' + goJsonString(info.operation);
  if (info.apiVersion && info.operation !== 'Apply') s += ',"apiVersion":' + goJsonString(info.apiVersion);
  if (info.subresource) s += ',"subresource":' + goJsonString(info.subresource);
  return '{' + s.slice(1) + '}';
}

/** Identifiers parsed before: a server sees the same few managers over and over. */
const parsedIdentifiers = new Map<string, ManagerInfo>();

export function parseManagerIdentifier(id: string): Readonly<ManagerInfo> {
  let info = parsedIdentifiers.get(id);
  if (!info) {
    info = Object.freeze(parseIdentifier(id));
    if (parsedIdentifiers.size >= 1000) parsedIdentifiers.clear();
    parsedIdentifiers.set(id, info);
  }
  return info;
}

function parseIdentifier(id: string): ManagerInfo {
  try {
    const o = JSON.parse(id) as Partial<ManagerInfo>;
    return { manager: o.manager ?? '', operation: (o.operation ?? 'Update') as Operation, apiVersion: o.apiVersion ?? '', subresource: o.subresource ?? '' };
  } catch {
    return { manager: id, operation: 'Update', apiVersion: '', subresource: '' };
  }
}

export class ManagedFieldsError extends Error {}

/** True for `[]` or `[{}]`, a client's way of clearing every entry (an absent list keeps them). */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  if (entries.length !== 1) return false;
  const e = entries[0];
  return e !== null && typeof e === 'object' && !Array.isArray(e) && Object.values(e).every((v) => v === undefined || v === null || v === '');
}

/** Reads managedFields; throws ManagedFieldsError for an entry Kubernetes would not decode. */
export function decodeManagedFields(entries: unknown): Managed {
  const managed = emptyManaged();
  if (entries === undefined || entries === null) return managed;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((raw, i) => {
    const e = (raw ?? {}) as ManagedFieldsEntry;
    if (e.operation !== 'Apply' && e.operation !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (!e.apiVersion) throw new ManagedFieldsError('apiVersion must not be empty');
    if (!e.fieldsType) throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    const id = managerIdentifier({ manager: e.manager ?? '', operation: e.operation, apiVersion: e.apiVersion, subresource: e.subresource ?? '' });
    let set: FieldSet;
    try {
      set = FieldSet.fromFieldsV1(e.fieldsV1);
    } catch (err) {
      if (err instanceof FieldsV1Error) throw new ManagedFieldsError(`error decoding versioned set: ${err.message}`);
      throw err;
    }
    managed.fields.set(id, { set, apiVersion: e.apiVersion, applied: e.operation === 'Apply' });
    const t = normalizeTime(e.time);
    if (t) managed.times.set(id, t); else managed.times.delete(id);
  });
  return managed;
}

let lastSecond = NaN;
let lastFormatted = '';

/** RFC 3339 at second precision, in UTC, as metav1.Time writes it. */
export function formatTime(d: Date): string {
  return formatTimeMs(d.getTime());
}

/** formatTime of a time in milliseconds since the epoch. */
export function formatTimeMs(ms: number): string {
  // Writes of the same second share the text.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastFormatted = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    lastSecond = second;
  }
  return lastFormatted;
}

let lastTimeIn: string | undefined;
let lastTimeOut: string | undefined;

function normalizeTime(t: unknown): string | undefined {
  if (typeof t !== 'string' || !t) return undefined;
  if (t === lastTimeIn) return lastTimeOut;
  const ms = Date.parse(t);
  const out = Number.isNaN(ms) ? undefined : formatTimeMs(ms);
  lastTimeIn = t;
  lastTimeOut = out;
  return out;
}

function seconds(t: string | undefined): number {
  return t ? Math.floor(Date.parse(t) / 1000) : 0;
}

/** The entries to store, in Kubernetes' order: Apply before Update, then by time, manager, apiVersion, subresource. */
export function encodeManagedFields(managed: Managed): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const [id, vs] of managed.fields) {
    const info = parseManagerIdentifier(id);
    const e: ManagedFieldsEntry = {};
    if (info.manager) e.manager = info.manager;
    e.operation = vs.applied ? 'Apply' : info.operation;
    e.apiVersion = vs.apiVersion;
    const t = managed.times.get(id);
    if (t) e.time = t;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = vs.set.toFieldsV1();
    if (info.subresource) e.subresource = info.subresource;
    out.push(e);
  }
  return out.sort((p, q) => {
    if (p.operation !== q.operation) return compareStrings(p.operation!, q.operation!);
    const ps = seconds(p.time), qs = seconds(q.time);
    if (ps !== qs) return ps < qs ? -1 : 1;
    return compareStrings(p.manager ?? '', q.manager ?? '') || compareStrings(p.apiVersion ?? '', q.apiVersion ?? '') || compareStrings(p.subresource ?? '', q.subresource ?? '');
  });
}

/**
 * Keeps at most `max` Update entries: the oldest are merged, per apiVersion, into an `ancient-changes`
 * entry, which takes the time of the newest entry merged into it.
 */
export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  if (managed.fields.size <= max) return;
  const updaters = [...managed.fields.entries()].filter(([, vs]) => !vs.applied).map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => {
    const as = seconds(managed.times.get(a)), bs = seconds(managed.times.get(b));
    if (as !== bs) return as < bs ? -1 : 1;
    return compareStrings(a, b);
  });
  const firstByVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = managed.fields.get(id)!;
    const time = managed.times.get(id);
    const version = vs.apiVersion;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version, subresource: '' });
    const first = firstByVersion.get(version);
    if (first === undefined) { firstByVersion.set(version, id); continue; }
    if (!managed.fields.has(bucket)) {
      managed.fields.set(bucket, managed.fields.get(first)!);
      managed.fields.delete(first);
    }
    managed.fields.set(bucket, { set: vs.set.union(managed.fields.get(bucket)!.set), apiVersion: vs.apiVersion, applied: vs.applied });
    managed.fields.delete(id);
    length--;
    if (time) managed.times.set(bucket, time); else managed.times.delete(bucket);
  }
}
