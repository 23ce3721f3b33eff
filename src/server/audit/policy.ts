// The audit policy (`audit.svc.io/v1` Policy, also read under Kubernetes' name `audit.k8s.io/v1`): an ordered
// list of rules; the first rule that matches a request sets how much of it is recorded. Loading, validation
// and matching follow Kubernetes' apiserver audit/policy (reader, validation and checker).
import { readFile } from 'node:fs/promises';
import YAML from '../../machinery/yaml.ts';
import { fieldErrorText, invalid, notSupported, required, type FieldError } from '../../machinery/field-errors.ts';
import { isDNS1123Subdomain } from '../../machinery/validation/strings.ts';
import { renamedGroupOf } from '../group-alias.ts';
import { notAnObjectVersionKindError } from '../../machinery/go-json.ts';
import { splitApiVersion } from '../../machinery/group-version.ts';
import { goQuote } from '../../machinery/go-format.ts';

export const AUDIT_GROUP = 'audit.svc.io';
export const AUDIT_API_VERSION = `${AUDIT_GROUP}/v1`;
/** The same version under Kubernetes' name, which the policy file and --audit-log-version may use. */
export const AUDIT_API_VERSION_K8S = 'audit.k8s.io/v1';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = typeof LEVELS[number];

/** Kubernetes' Level.GreaterOrEqual: whether an event at `level` records what `wanted` records. */
export function levelIncludes(level: Level, wanted: Level): boolean {
  return LEVELS.indexOf(level) >= LEVELS.indexOf(wanted);
}
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = typeof STAGES[number];

export interface GroupResources {
  group: string;
  resources: string[];
  resourceNames: string[];
}

export interface PolicyRule {
  level: Level;
  users: string[];
  userGroups: string[];
  verbs: string[];
  resources: GroupResources[];
  namespaces: string[];
  nonResourceURLs: string[];
  omitStages: Stage[];
  omitManagedFields?: boolean;
}

export interface AuditPolicy {
  rules: PolicyRule[];
  omitStages: Stage[];
  omitManagedFields: boolean;
}

/** What a request is matched on: the authenticated user (before impersonation) and the request's attributes. */
export interface PolicyAttributes {
  user?: { username: string; groups: string[] };
  verb: string;
  isResourceRequest: boolean;
  path: string;
  namespace: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  name: string;
}

/** How one request is audited. */
export interface RequestAuditConfig {
  level: Level;
  omitStages: ReadonlySet<Stage>;
  omitManagedFields: boolean;
}

export class AuditPolicyError extends Error {}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Reads a policy document (YAML or JSON). Throws AuditPolicyError with Kubernetes' text; the caller adds
 * `loading audit policy file: ` and the file.
 */
export function parseAuditPolicy(text: string): AuditPolicy {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (err) {
    throw new AuditPolicyError(`failed decoding: ${(err as Error).message}`);
  }
  // YAML null (an empty file too) unmarshals into the Policy without error, as json.Unmarshal does.
  if (doc === null) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new AuditPolicyError(`failed decoding: ${notAnObjectVersionKindError(doc)}`);
  const d = doc as Record<string, unknown>;
  const gvk = policyKindOf(d);
  if (!gvk.version) throw new AuditPolicyError(`failed decoding: Object 'apiVersion' is missing in '${text}'`);
  const groupVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
  const internal = gvk.group === AUDIT_GROUP && gvk.version === INTERNAL_VERSION;
  if (gvk.kind !== 'Policy' || !(internal || groupVersion === AUDIT_API_VERSION || groupVersion === AUDIT_API_VERSION_K8S)) {
    throw new AuditPolicyError(`failed decoding: no kind ${goQuote(gvk.kind)} is registered for version ${goQuote(groupVersion)} in scheme "pkg/audit/scheme.go"`);
  }
  // LoadPolicyFromBytes: a document that named no version decoded into the internal type, which it refuses.
  if (internal) throw new AuditPolicyError(`unknown group version field ${gvk.group}/${gvk.version}, Kind=${gvk.kind} in policy`);
  const policy: AuditPolicy = {
    omitStages: strings(d.omitStages) as Stage[],
    omitManagedFields: d.omitManagedFields === true,
    rules: (Array.isArray(d.rules) ? d.rules : []).map((r) => readRule((r ?? {}) as Record<string, unknown>)),
  };
  const errs = validatePolicy(policy);
  if (errs.length === 1) throw new AuditPolicyError(fieldErrorText(errs[0]));
  if (errs.length > 1) throw new AuditPolicyError(`[${errs.map(fieldErrorText).join(', ')}]`);
  if (policy.rules.length === 0) throw new AuditPolicyError('loaded illegal policy with 0 rules');
  return policy;
}

/** The version every scheme type has besides its served ones; the decoder fills it in from its target. */
const INTERNAL_VERSION = '__internal';

/**
 * The group, version and kind the decoder reads from a policy document: what the document leaves out is
 * taken from the type it decodes into (the internal Policy), as the JSON serializer's gvkWithDefaults does.
 */
function policyKindOf(d: Record<string, unknown>): { group: string; version: string; kind: string } {
  const apiVersion = typeof d.apiVersion === 'string' ? d.apiVersion : '';
  let { group, version } = splitApiVersion(apiVersion);
  const kind = (typeof d.kind === 'string' && d.kind) || 'Policy';
  if (!version && (!group || group === AUDIT_GROUP)) {
    group = AUDIT_GROUP;
    version = INTERNAL_VERSION;
  }
  return { group, version, kind };
}

function readRule(r: Record<string, unknown>): PolicyRule {
  return {
    level: (typeof r.level === 'string' ? r.level : '') as Level,
    users: strings(r.users),
    userGroups: strings(r.userGroups),
    verbs: strings(r.verbs),
    resources: (Array.isArray(r.resources) ? r.resources : []).map((g) => {
      const gr = (g ?? {}) as Record<string, unknown>;
      return { group: typeof gr.group === 'string' ? gr.group : '', resources: strings(gr.resources), resourceNames: strings(gr.resourceNames) };
    }),
    namespaces: strings(r.namespaces),
    nonResourceURLs: strings(r.nonResourceURLs),
    omitStages: strings(r.omitStages) as Stage[],
    omitManagedFields: typeof r.omitManagedFields === 'boolean' ? r.omitManagedFields : undefined,
  };
}

/** Kubernetes' ValidatePolicy. */
export function validatePolicy(p: AuditPolicy): FieldError[] {
  const errs: FieldError[] = [...validateOmitStages(p.omitStages, 'omitStages')];
  p.rules.forEach((rule, i) => {
    const path = `rules[${i}]`;
    if (!rule.level) errs.push(required(`${path}.level`));
    else if (!(LEVELS as readonly string[]).includes(rule.level)) errs.push(notSupported(`${path}.level`, rule.level, LEVELS));
    rule.nonResourceURLs.forEach((url, j) => {
      if (url === '*') return;
      if (!url.startsWith('/')) errs.push(invalid(`${path}.nonResourceURLs[${j}]`, url, "non-resource URL rules must begin with a '/' character"));
      if (url !== '' && url.slice(0, -1).includes('*')) errs.push(invalid(`${path}.nonResourceURLs[${j}]`, url, "non-resource URL wildcards '*' must be the final character of the rule"));
    });
    for (const gr of rule.resources) {
      const groupErrors = gr.group ? isDNS1123Subdomain(gr.group) : [];
      if (groupErrors.length) errs.push(invalid(`${path}.resources.group`, gr.group, groupErrors.join(',')));
      if (gr.resourceNames.length && !gr.resources.length) errs.push(invalid(`${path}.resources.resourceNames`, gr.resourceNames, 'using resourceNames requires at least one resource'));
    }
    errs.push(...validateOmitStages(rule.omitStages, `${path}.omitStages`));
    if (rule.nonResourceURLs.length && (rule.resources.length || rule.namespaces.length)) {
      errs.push(invalid(`${path}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
  });
  return errs;
}

function validateOmitStages(stages: readonly string[], path: string): FieldError[] {
  return stages.flatMap((s, i) => ((STAGES as readonly string[]).includes(s) ? [] : [invalid(`${path}[${i}]`, s, `allowed stages are ${STAGES.join(',')}`)]));
}

export async function loadAuditPolicy(path: string): Promise<AuditPolicy> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`loading audit policy file: failed to read file path ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  try {
    return parseAuditPolicy(text);
  } catch (err) {
    if (!(err instanceof AuditPolicyError)) throw err;
    throw new Error(`loading audit policy file: ${err.message}: from file ${path}`);
  }
}

/** The first matching rule's level and stages (the policy's omitted stages added); `None` when none matches. */
export function evaluatePolicy(p: AuditPolicy, attrs: PolicyAttributes): RequestAuditConfig {
  for (const rule of p.rules) {
    if (!ruleMatches(rule, attrs)) continue;
    return { level: rule.level, omitStages: new Set([...p.omitStages, ...rule.omitStages]), omitManagedFields: rule.omitManagedFields ?? p.omitManagedFields };
  }
  return { level: 'None', omitStages: new Set(p.omitStages), omitManagedFields: p.omitManagedFields };
}

function ruleMatches(r: PolicyRule, a: PolicyAttributes): boolean {
  if (r.users.length && (!a.user || !r.users.includes(a.user.username))) return false;
  if (r.userGroups.length && (!a.user || !a.user.groups.some((g) => r.userGroups.includes(g)))) return false;
  if (r.verbs.length && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces.length || r.resources.length) return resourceMatches(r, a);
  if (r.nonResourceURLs.length) return !a.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

/** A rule's group in the server's names: Kubernetes' `rbac.authorization.k8s.io` is `rbac.authorization.svc.io` here. */
function servedGroup(group: string): string {
  return renamedGroupOf(group) ?? group;
}

function resourceMatches(r: PolicyRule, a: PolicyAttributes): boolean {
  if (!a.isResourceRequest) return false;
  // Cluster-scoped resources have the empty namespace.
  if (r.namespaces.length && !r.namespaces.includes(a.namespace)) return false;
  if (!r.resources.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of r.resources) {
    if (servedGroup(gr.group) !== a.apiGroup) continue;
    if (!gr.resources.length) return true;
    if (gr.resourceNames.length && !gr.resourceNames.includes(a.name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === a.resource) return true;
    }
  }
  return false;
}
