// ResourceQuota (core v1, namespaced): aggregate limits per namespace. Quantities are stored canonical;
// status (the enforced hard limits and observed usage) changes only through /status.
import type { KindDefinition, RequestContext } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { type FieldError, invalid, required, key } from '../../machinery/field-errors.ts';
import { quantityFromJSON } from '../../machinery/quantity.ts';
import { withProto } from './schema-helpers.ts';
import { resourceQuantityErrors, canonicalizeResourceList } from './resource-quantity.ts';
import { resourceNameErrors } from './pod-validation.ts';
import { goQuote, goStringSlice, goStruct, errorWithGoValue } from '../../machinery/go-format.ts';

type Obj = Record<string, any>;
const list = <T = Obj>(v: unknown): T[] => (Array.isArray(v) ? v : []);

export const QUOTA_SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
const STANDARD_QUOTA_RESOURCES = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers', 'requests.cpu', 'requests.memory', 'requests.storage', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'cpu', 'memory', 'storage', 'ephemeral-storage']);
const POD_COUNT = new Set(['pods']);
const POD_COMPUTE = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

const HARD_DESCRIPTION = 'hard is the set of desired hard limits for each named resource. More info: https://platform.io/docs/concepts/policy/resource-quotas/';

const ScopedResourceSelectorRequirement = S.object({
  scopeName: S.string({ proto: 1, description: 'The name of the scope that the selector applies to.' }),
  operator: S.string({ proto: 2, description: "Represents a scope's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist." }),
  values: S.list(S.string(), { proto: 3, listType: 'atomic', description: 'An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.' }),
}, { required: ['scopeName', 'operator'], ref: 'core.v1.ScopedResourceSelectorRequirement', description: 'A scoped-resource selector requirement is a selector that contains values, a scope name, and an operator that relates the scope name and values.' });

export const ResourceQuotaSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    hard: S.map(S.quantity(), { proto: 1, description: HARD_DESCRIPTION }),
    scopes: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'A collection of filters that must match each object tracked by a quota. If not specified, the quota matches all objects.' }),
    scopeSelector: S.object({
      matchExpressions: S.list(ScopedResourceSelectorRequirement, { proto: 1, listType: 'atomic', description: 'A list of scope selector requirements by scope of the resources.' }),
    }, { proto: 3, atomic: true, ref: 'core.v1.ScopeSelector', description: 'A scope selector represents the AND of the selectors represented by the scoped-resource selector requirements.' }),
  }, { proto: 2, ref: 'core.v1.ResourceQuotaSpec', description: 'ResourceQuotaSpec defines the desired hard limits to enforce for Quota.' }),
  status: S.object({
    hard: S.map(S.quantity(), { proto: 1, description: 'Hard is the set of enforced hard limits for each named resource. More info: https://platform.io/docs/concepts/policy/resource-quotas/' }),
    used: S.map(S.quantity(), { proto: 2, description: 'Used is the current observed total usage of the resource in the namespace.' }),
  }, { proto: 3, ref: 'core.v1.ResourceQuotaStatus', description: 'ResourceQuotaStatus defines the enforced hard limits and observed use.' }),
}, { ref: 'core.v1.ResourceQuota', description: 'ResourceQuota sets aggregate quota restrictions enforced per namespace' });

const isQuotaHugePages = (name: string) => name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');

function isStandardQuotaResource(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePages(name);
}

function scopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating': case 'NotTerminating': case 'NotBestEffort': case 'PriorityClass': case 'CrossNamespacePodAffinity':
      return POD_COUNT.has(resource) || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return POD_COUNT.has(resource);
    default:
      return true;
  }
}

/** ValidateResourceQuotaResourceName. */
function quotaResourceNameErrors(name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes('/') && !isStandardQuotaResource(name)) errs.push(invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

function resourceListErrors(m: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!m || typeof m !== 'object') return errs;
  for (const [name, q] of Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    errs.push(...quotaResourceNameErrors(name, key(path, name)), ...resourceQuantityErrors(key(path, name), name, q));
  }
  return errs;
}

function scopesGoValue(scopes: string[]): string {
  return '[]core.ResourceQuotaScope{' + scopes.map(goQuote).join(', ') + '}';
}

const CONFLICTING = [['BestEffort', 'NotBestEffort'], ['Terminating', 'NotTerminating']];

function scopeErrors(spec: Obj): FieldError[] {
  const scopes = list<string>(spec.scopes);
  if (scopes.length === 0) return [];
  const hard = Object.keys(spec.hard ?? {}).sort();
  const errs: FieldError[] = [];
  const value = scopesGoValue(scopes);
  for (const scope of scopes) {
    if (!QUOTA_SCOPES.includes(scope)) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.scopes', scopes, value, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResource(k) && !scopeValidForResource(scope, k)) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.scopes', scopes, value, 'unsupported scope applied to resource'));
    }
  }
  for (const pair of CONFLICTING) if (pair.every((p) => scopes.includes(p))) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.scopes', scopes, value, 'conflicting scopes'));
  return errs;
}

/** `%#v` of the internal core.ScopeSelector, which Kubernetes prints as the offending value. */
function scopeSelectorGoValue(sel: Obj): string {
  const reqs = list(sel.matchExpressions).map((r) => goStruct('core.ScopedResourceSelectorRequirement', [
    ['ScopeName', goQuote(String(r.scopeName ?? ''))],
    ['Operator', goQuote(String(r.operator ?? ''))],
    ['Values', goStringSlice(Array.isArray(r.values) ? r.values : undefined)],
  ]));
  const exprs = Array.isArray(sel.matchExpressions) ? '[]core.ScopedResourceSelectorRequirement{' + reqs.join(', ') + '}' : '[]core.ScopedResourceSelectorRequirement(nil)';
  return goStruct('core.ScopeSelector', [['MatchExpressions', exprs]]);
}

function scopeSelectorErrors(spec: Obj): FieldError[] {
  const sel = spec.scopeSelector;
  if (!sel || typeof sel !== 'object') return [];
  const hard = Object.keys(spec.hard ?? {}).sort();
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const req of list(sel.matchExpressions)) {
    const scope = String(req.scopeName ?? ''), op = String(req.operator ?? '');
    const values = list<string>(req.values);
    if (!QUOTA_SCOPES.includes(scope)) errs.push(invalid('spec.scopeSelector.matchExpressions.scopeName', scope, 'unsupported scope'));
    for (const k of hard) {
      if (isStandardQuotaResource(k) && !scopeValidForResource(scope, k)) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.scopeSelector.matchExpressions', sel, scopeSelectorGoValue(sel), 'unsupported scope applied to resource'));
    }
    if (['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(scope) && op !== 'Exists') {
      errs.push(invalid('spec.scopeSelector.matchExpressions.operator', op, "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity"));
    }
    switch (op) {
      case 'In': case 'NotIn':
        if (values.length === 0) errs.push(required('spec.scopeSelector.matchExpressions.values', "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists': case 'DoesNotExist':
        if (values.length !== 0) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.scopeSelector.matchExpressions.values', values, goStringSlice(values), "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errs.push(invalid('spec.scopeSelector.matchExpressions.operator', op, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  // Kubernetes reports this with the (unrelated) `scopes` list as the value.
  const scopes = list<string>(spec.scopes);
  for (const pair of CONFLICTING) {
    if (pair.every((p) => seen.has(p))) errs.push(errorWithGoValue('FieldValueInvalid', 'spec.scopeSelector.matchExpressions', scopes, spec.scopes === undefined ? '[]core.ResourceQuotaScope(nil)' : scopesGoValue(scopes), 'conflicting scopes'));
  }
  return errs;
}

function validateQuota(obj: ApiObject): FieldError[] {
  const spec = (obj.spec ?? {}) as Obj;
  const status = (obj.status ?? {}) as Obj;
  return [
    ...resourceListErrors(spec.hard, 'spec.hard'),
    ...scopeErrors(spec),
    ...scopeSelectorErrors(spec),
    ...resourceListErrors(status.hard, 'status.hard'),
    ...resourceListErrors(status.used, 'status.used'),
  ];
}

/** ValidateResourceQuotaUpdate: the scopes (as a set) may not change. */
function validateQuotaUpdate(obj: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateQuota(obj);
  const spec = (obj.spec ?? {}) as Obj, oldSpec = (old.spec ?? {}) as Obj;
  const now = new Set(list<string>(spec.scopes)), before = new Set(list<string>(oldSpec.scopes));
  if (now.size !== before.size || [...now].some((s) => !before.has(s))) {
    const scopes = list<string>(spec.scopes);
    errs.push(errorWithGoValue('FieldValueInvalid', 'spec.scopes', scopes, spec.scopes === undefined ? '[]core.ResourceQuotaScope(nil)' : scopesGoValue(scopes), 'field is immutable'));
  }
  return errs;
}

function quantityText(v: unknown): string {
  try { return quantityFromJSON(v).toString(); } catch { return '0'; }
}

/** printResourceQuota: `name: used/hard` pairs, limits.* in the LIMIT column and the rest in REQUEST. */
export function quotaColumns(obj: ApiObject): { request: string; limit: string } {
  const status = (obj.status ?? {}) as Obj;
  const hard = (status.hard ?? {}) as Record<string, unknown>;
  const used = (status.used ?? {}) as Record<string, unknown>;
  const request: string[] = [], limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const text = `${name}: ${quantityText(used[name] ?? '0')}/${quantityText(hard[name])}`;
    const pieces = name.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(text);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

function canonicalize(obj: ApiObject): void {
  const spec = obj.spec as Obj | undefined, status = obj.status as Obj | undefined;
  canonicalizeResourceList(spec?.hard);
  canonicalizeResourceList(status?.hard);
  canonicalizeResourceList(status?.used);
}

export const resourceQuotaKind: KindDefinition = {
  group: '',
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  singular: 'resourcequota',
  namespaced: true,
  shortNames: ['quota'],
  versions: [{ name: 'v1', stability: 'stable', schema: ResourceQuotaSchema }],
  storageVersion: 'v1',
  deleteReturnsObject: true,
  status: {},
  trackGeneration: false,

  defaults(obj) {
    // Spec and status are structs in Go: always written.
    obj.spec ??= {};
    obj.status ??= {};
  },
  prepareForCreate(obj) {
    obj.status = {};
  },
  prepareForUpdate(obj, old, ctx: RequestContext) {
    if (ctx.subresource === 'status') obj.spec = structuredClone(old.spec);
  },
  validate: validateQuota,
  validateUpdate: (obj, old, ctx) => (ctx.subresource === 'status' ? validateQuota(obj) : validateQuotaUpdate(obj, old)),
  canonicalize,

  tableColumns: [
    nameColumn,
    ageColumn,
    { name: 'Request', type: 'string', description: 'Request represents a minimum amount of cpu/memory that a container may consume.', cell: (o) => quotaColumns(o).request },
    { name: 'Limit', type: 'string', description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.', cell: (o) => quotaColumns(o).limit },
  ],
};
