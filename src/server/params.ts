// Query parameters of the standard operations, parsed and checked once. Each verb reads the parameters the
// spec's table lists for it and ignores the others, as Kubernetes decodes only the options of the verb.
// Booleans never fail (Go's conversion: "0", "f", "false" in any case are false, anything else true);
// integers follow strconv.ParseInt; an unknown value of an enumerated parameter is a 400.
import { badRequest, invalid, type StatusError } from '../machinery/status.ts';
import { validateFieldManager } from '../machinery/validation/objectmeta.ts';
import type { FieldError } from '../machinery/field-errors.ts';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

export interface QueryParams {
  dryRun: boolean;
  fieldManager?: string;
  fieldValidation: FieldValidation;
  force?: boolean;
  gracePeriodSeconds?: number;
  propagationPolicy?: PropagationPolicy;
  orphanDependents?: boolean;
  ignoreStoreReadErrorWithClusterBreakingPotential?: boolean;
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

/** The group Kubernetes names its option kinds in (`CreateOptions.meta.k8s.io`), renamed as the spec does. */
export const META_GROUP = 'meta.svc.io';

type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

const WRITE: readonly string[] = ['create', 'update', 'patch'];
const DELETE: readonly string[] = ['delete', 'deletecollection'];
const LIST: readonly string[] = ['list', 'watch', 'deletecollection'];
const READ: readonly string[] = ['get', 'list', 'watch'];

/** Which parameters a verb reads (the spec's "Used by" column; get also reads resourceVersion). */
const USED_BY: Record<string, readonly string[]> = {
  dryRun: [...WRITE, ...DELETE],
  fieldManager: WRITE,
  fieldValidation: WRITE,
  force: ['patch'],
  gracePeriodSeconds: DELETE,
  propagationPolicy: DELETE,
  orphanDependents: DELETE,
  ignoreStoreReadErrorWithClusterBreakingPotential: DELETE,
  continue: LIST,
  limit: LIST,
  labelSelector: LIST,
  fieldSelector: LIST,
  resourceVersion: [...LIST, 'get'],
  resourceVersionMatch: LIST,
  sendInitialEvents: LIST,
  allowWatchBookmarks: ['list', 'watch'],
  timeoutSeconds: LIST,
  watch: ['list', 'watch'],
  includeObject: READ,
};

const DRY_RUN_VALUES = ['All'] as const;
/** Kubernetes lists the allowed fieldValidation values sorted, the empty default first. */
const FIELD_VALIDATION_VALUES = ['', 'Ignore', 'Strict', 'Warn'] as const;
/** As Kubernetes lists them in its message, "nil" (unset) included. */
export const PROPAGATION_VALUES = ['Foreground', 'Background', 'Orphan', 'nil'] as const;

export function isPropagationPolicy(v: string): v is PropagationPolicy {
  return v === 'Foreground' || v === 'Background' || v === 'Orphan';
}

function quoteList(values: readonly string[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/** The options kind Kubernetes decodes a verb's parameters into, and validates (422) once decoded. */
const OPTIONS_KIND: Readonly<Record<string, string>> = {
  create: 'CreateOptions', update: 'UpdateOptions', patch: 'PatchOptions', delete: 'DeleteOptions', deletecollection: 'DeleteOptions',
};

/** An unsupported dryRun, fieldValidation or propagationPolicy: the verb's options are invalid (422). */
function unsupported(name: string, shown: string, supported: readonly string[], verb: string | undefined): StatusError {
  const detail = `${shown}: supported values: ${quoteList(supported)}`;
  const kind = verb === undefined ? undefined : OPTIONS_KIND[verb];
  // The value is shown as Go prints it (a []string literal for dryRun), so it goes with the detail.
  if (kind) return invalid(META_GROUP, kind, '', [{ type: 'FieldValueNotSupported', field: name, hasValue: false, detail }]);
  return badRequest(`${name}: Unsupported value: ${detail}`);
}

/** Go's %#v of a []string: `[]string{"a", "b"}`. */
export function goStringSliceLiteral(values: readonly string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

/** Kubernetes' Convert_Slice_string_To_bool: only "0", "f" and "false" (any case) are false. */
export function parseBool(value: string): boolean {
  const v = value.toLowerCase();
  return !(v === '0' || v === 'f' || v === 'false');
}

/** strconv.ParseInt(s, 10, 64), with Go's error texts. */
export function parseInt64(value: string): number {
  if (!/^[+-]?[0-9]+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const big = BigInt(value);
  if (big > 9223372036854775807n || big < -9223372036854775808n) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  return Number(big);
}

/** The parameters of a request without a query (most of them): every option at its default. */
let noQuery: QueryParams | undefined;

export function parseQuery(q: URLSearchParams, verb?: string): QueryParams {
  if (q.size === 0) return { ...(noQuery ??= readQuery(q)) };
  return readQuery(q, verb);
}

function readQuery(q: URLSearchParams, verb?: string): QueryParams {
  const uses = (name: string) => verb === undefined || (USED_BY[name]?.includes(verb as Verb) ?? true);
  const str = (name: string): string | undefined => (uses(name) ? q.get(name) ?? undefined : undefined);
  const bool = (name: string): boolean | undefined => {
    const v = str(name);
    return v === undefined ? undefined : parseBool(v);
  };
  const int = (name: string): number | undefined => {
    const v = str(name);
    return v === undefined || v === '' ? undefined : parseInt64(v);
  };

  const dryRunValues = uses('dryRun') ? q.getAll('dryRun') : [];
  if (dryRunValues.some((d) => !(DRY_RUN_VALUES as readonly string[]).includes(d))) {
    throw unsupported('dryRun', goStringSliceLiteral(dryRunValues), DRY_RUN_VALUES, verb);
  }
  const fieldValidation = str('fieldValidation') ?? '';
  if (!(FIELD_VALIDATION_VALUES as readonly string[]).includes(fieldValidation)) {
    throw unsupported('fieldValidation', JSON.stringify(fieldValidation), FIELD_VALIDATION_VALUES, verb);
  }
  const propagationPolicy = str('propagationPolicy') || undefined;
  if (propagationPolicy !== undefined && !isPropagationPolicy(propagationPolicy)) {
    throw unsupported('propagationPolicy', JSON.stringify(propagationPolicy), PROPAGATION_VALUES, verb);
  }
  const resourceVersionMatch = str('resourceVersionMatch') || undefined;
  // Lists and watches answer an unknown value with their ListOptions validation (422, registry/list.ts).
  if (verb === 'deletecollection' && resourceVersionMatch !== undefined && resourceVersionMatch !== 'NotOlderThan' && resourceVersionMatch !== 'Exact') {
    throw unsupported('resourceVersionMatch', JSON.stringify(resourceVersionMatch), ['Exact', 'NotOlderThan'], undefined);
  }
  const includeObject = str('includeObject') || undefined;
  if (includeObject !== undefined && includeObject !== 'None' && includeObject !== 'Metadata' && includeObject !== 'Object') {
    throw badRequest(`Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(includeObject)}: must be 'Metadata', 'Object', 'None', or empty`);
  }
  const limit = int('limit');
  return {
    dryRun: dryRunValues.length > 0,
    fieldManager: str('fieldManager'),
    fieldValidation: (fieldValidation || 'Warn') as FieldValidation,
    force: bool('force'),
    gracePeriodSeconds: int('gracePeriodSeconds'),
    propagationPolicy: propagationPolicy as PropagationPolicy | undefined,
    orphanDependents: bool('orphanDependents'),
    ignoreStoreReadErrorWithClusterBreakingPotential: bool('ignoreStoreReadErrorWithClusterBreakingPotential'),
    continue: str('continue') || undefined,
    limit: limit !== undefined && limit > 0 ? limit : undefined,
    labelSelector: str('labelSelector'),
    fieldSelector: str('fieldSelector'),
    resourceVersion: str('resourceVersion'),
    resourceVersionMatch,
    sendInitialEvents: bool('sendInitialEvents'),
    allowWatchBookmarks: bool('allowWatchBookmarks'),
    timeoutSeconds: int('timeoutSeconds'),
    watch: bool('watch') ?? false,
    includeObject: (includeObject ?? 'Metadata') as QueryParams['includeObject'],
  };
}

/**
 * The 422 Kubernetes answers for CreateOptions, UpdateOptions and PatchOptions it cannot accept: a
 * `force` on a patch other than apply, a missing field manager on apply, and ValidateFieldManager (at
 * most 128 bytes, printable characters only).
 */
export function validateWriteOptions(kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', params: QueryParams, patch?: { apply: boolean }): void {
  const errs: FieldError[] = [];
  if (patch && !patch.apply && params.force !== undefined) {
    errs.push({ type: 'FieldValueForbidden', field: 'force', hasValue: false, detail: 'may not be specified for non-apply patch' });
  }
  if (patch?.apply && !params.fieldManager) {
    errs.push({ type: 'FieldValueRequired', field: 'fieldManager', hasValue: false, detail: 'is required for apply patch' });
  }
  errs.push(...validateFieldManager(params.fieldManager, 'fieldManager'));
  if (errs.length) throw invalid(META_GROUP, kind, '', errs);
}
