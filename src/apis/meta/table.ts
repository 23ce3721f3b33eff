// Table columns every kind shares (NAME, AGE) and the age text kubectl shows, as Kubernetes' printers build
// them (pkg/printers/internalversion: translateTimestampSince, apimachinery util/duration.HumanDuration).
import type { TableColumn } from '../kind.ts';
import type { ApiObject } from './v1.ts';

/** ObjectMeta's documentation of `name`, the description Kubernetes gives its Name column. */
export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://platform.io/docs/concepts/overview/working-with-objects/names#names';

/** ObjectMeta's documentation of `creationTimestamp`, the description of the Age column. */
export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * A succinct duration with two or three significant figures (`5s`, `3m20s`, `2d3h`, `4y12d`), or
 * `<invalid>` for a moment more than a second in the future. `ms` is the duration in milliseconds.
 */
export function humanDuration(ms: number): string {
  // Up to two seconds in the future still reads as "now": clocks of client and server drift.
  const seconds = Math.trunc(ms / SECOND);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  const years = Math.trunc(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${years}y`;
}

/** The age of a timestamp as kubectl prints it; `<unknown>` when there is none. */
export function translateTimestampSince(timestamp: string | undefined | null, now: number = Date.now()): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

export const nameColumn: TableColumn = {
  name: 'Name',
  type: 'string',
  format: 'name',
  description: NAME_DESCRIPTION,
  cell: (obj: ApiObject) => obj.metadata?.name ?? '',
};

/** How Go prints a zero metav1.Time in RFC 3339 (an object without creationTimestamp, such as a bookmark). */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** The creation time itself, not an age: RBAC roles and Kubernetes' default table (kinds without printers). */
export const createdAtColumn: TableColumn = {
  name: 'Created At',
  type: 'date',
  description: CREATION_TIMESTAMP_DESCRIPTION,
  cell: (obj: ApiObject) => obj.metadata?.creationTimestamp ?? ZERO_TIME,
};

export const ageColumn: TableColumn = {
  name: 'Age',
  type: 'string',
  description: CREATION_TIMESTAMP_DESCRIPTION,
  cell: (obj: ApiObject) => translateTimestampSince(obj.metadata?.creationTimestamp),
};
