// Query parameters of the standard operations, parsed and checked once: a bad value is a 400.
import { badRequest } from '../machinery/status.ts';

export interface QueryParams {
  pretty: boolean;
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  force?: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
  continue?: string;
  limit?: number;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  sendInitialEvents?: boolean;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number;
  watch: boolean;
  includeObject: 'None' | 'Metadata' | 'Object';
}

function bool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v === '' || v === 'true' || v === '1' || v === 'True' || v === 'TRUE' || v === 't' || v === 'T') return true;
  if (v === 'false' || v === '0' || v === 'False' || v === 'FALSE' || v === 'f' || v === 'F') return false;
  throw badRequest(`invalid boolean value for ${name}: ${JSON.stringify(v)}`);
}

function int(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?[0-9]+$/.test(v)) throw badRequest(`invalid integer value for ${name}: ${JSON.stringify(v)}`);
  return Number(v);
}

function oneOf<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[]): T | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: supported values: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
  }
  return v as T;
}

export function parseQuery(q: URLSearchParams): QueryParams {
  const dryRun = q.getAll('dryRun');
  for (const d of dryRun) {
    if (d !== 'All') throw badRequest(`invalid value for dryRun: ${JSON.stringify(d)}: supported values: "All"`);
  }
  const limit = int(q, 'limit');
  return {
    pretty: bool(q, 'pretty') ?? false,
    dryRun: dryRun.length > 0,
    fieldManager: q.get('fieldManager') ?? undefined,
    fieldValidation: oneOf(q, 'fieldValidation', ['Strict', 'Warn', 'Ignore'] as const) ?? 'Warn',
    force: bool(q, 'force'),
    gracePeriodSeconds: int(q, 'gracePeriodSeconds'),
    propagationPolicy: oneOf(q, 'propagationPolicy', ['Orphan', 'Background', 'Foreground'] as const),
    orphanDependents: bool(q, 'orphanDependents'),
    continue: q.get('continue') || undefined,
    limit: limit !== undefined && limit > 0 ? limit : undefined,
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: oneOf(q, 'resourceVersionMatch', ['NotOlderThan', 'Exact'] as const),
    sendInitialEvents: bool(q, 'sendInitialEvents'),
    allowWatchBookmarks: bool(q, 'allowWatchBookmarks'),
    timeoutSeconds: int(q, 'timeoutSeconds'),
    watch: bool(q, 'watch') ?? false,
    includeObject: oneOf(q, 'includeObject', ['None', 'Metadata', 'Object'] as const) ?? 'Metadata',
  };
}
