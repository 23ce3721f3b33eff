// Shared admission webhook types (client config, rules, match conditions) and their validation and
// defaults, as Kubernetes v1.32 has them (pkg/apis/admissionregistration/validation, v1 defaults).
// Match condition expressions are CEL; without a CEL compiler here they are checked only for being present.
import { S, type ListOptions } from '../meta/schema.ts';
import { LabelSelector, type ApiObject, type LabelSelectorT } from '../meta/v1.ts';
import { type FieldError, invalid, required, notSupported, duplicate, tooMany, index, child } from '../../machinery/field-errors.ts';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName, isValidPortNum, isFullyQualifiedName, isValidLabelValue } from '../../machinery/validation/strings.ts';
import { validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { errorWithGoValue, goQuote, goStringSlice } from '../../machinery/go-format.ts';
import { inlined } from '../core/schema-helpers.ts';
import { compileCel, CelCompileError } from '../../machinery/cel.ts';
import { MATCH_CONDITION_VARIABLES } from './match-conditions.ts';

export const GROUP = 'admissionregistration.svc.io';
export const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
export const MAX_MATCH_CONDITIONS = 64;

// ---- schema ----

export const ServiceReference = S.object({
  namespace: S.string({ proto: 1, default: '', description: 'namespace is the namespace of the service. Required' }),
  name: S.string({ proto: 2, default: '', description: 'name is the name of the service. Required' }),
  path: S.string({ proto: 3, description: 'path is an optional URL path which will be sent in any request to this service.' }),
  port: S.int32({ proto: 4, description: 'If specified, the port on the service that hosting webhook. Default to 443 for backward compatibility. `port` should be a valid port number (1-65535, inclusive).' }),
}, { proto: 1, ref: 'admissionregistration.v1.ServiceReference', description: 'ServiceReference holds a reference to Service.legacy.svc.io' });

export const WebhookClientConfig = S.object({
  url: S.string({ proto: 3, description: 'url gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.\n\nThe `host` should not refer to a service running in the cluster; use the `service` field instead. The host might be resolved via external DNS in some apiservers (e.g., the API server cannot resolve in-cluster DNS as that would be a layering violation). `host` may also be an IP address.\n\nPlease note that using `localhost` or `127.0.0.1` as a `host` is risky unless you take great care to run this webhook on all hosts which run an apiserver which might need to make calls to this webhook. Such installs are likely to be non-portable, i.e., not easy to turn up in a new cluster.\n\nThe scheme must be "https"; the URL must begin with "https://".\n\nA path is optional, and if present may be any string permissible in a URL. You may use the path to pass an arbitrary string to the webhook, for example, a cluster identifier.\n\nAttempting to use a user or basic auth e.g. "user:password@" is not allowed. Fragments ("#...") and query parameters ("?...") are not allowed, either.' }),
  service: { ...ServiceReference, description: '`service` is a reference to the service for this webhook. Either `service` or `url` must be specified.\n\nIf the webhook is running within the cluster, then you should use `service`.' },
  caBundle: S.bytes({ proto: 2, description: "`caBundle` is a PEM encoded CA bundle which will be used to validate the webhook's server certificate. If unspecified, system trust roots on the apiserver are used." }),
}, { proto: 2, ref: 'admissionregistration.v1.WebhookClientConfig', description: 'WebhookClientConfig contains the information to make a TLS connection with the webhook' });

// Rule is embedded in RuleWithOperations (inline in JSON, field 2 in protobuf): its fields are numbered in Rule.
export const RuleWithOperations = S.object({
  operations: S.list(S.string(), { proto: 1, listType: 'atomic', description: "Operations is the operations the admission hook cares about - CREATE, UPDATE, DELETE, CONNECT or * for all of those operations and any future admission operations that are added. If '*' is present, the length of the slice must be one. Required." }),
  apiGroups: inlined(S.list(S.string(), { proto: 1, listType: 'atomic', description: "APIGroups is the API groups the resources belong to. '*' is all groups. If '*' is present, the length of the slice must be one. Required." }), 2),
  apiVersions: inlined(S.list(S.string(), { proto: 2, listType: 'atomic', description: "APIVersions is the API versions the resources belong to. '*' is all versions. If '*' is present, the length of the slice must be one. Required." }), 2),
  resources: inlined(S.list(S.string(), { proto: 3, listType: 'atomic', description: "Resources is a list of resources this rule applies to.\n\nFor example: 'pods' means pods. 'pods/log' means the log subresource of pods. '*' means all resources, but not subresources. 'pods/*' means all subresources of pods. '*/scale' means all scale subresources. '*/*' means all resources and their subresources.\n\nIf wildcard is present, the validation rule will ensure resources do not overlap with each other.\n\nDepending on the enclosing object, subresources might not be allowed. Required." }), 2),
  scope: inlined(S.string({ proto: 4, description: 'scope specifies the scope of this rule. Valid values are "Cluster", "Namespaced", and "*" "Cluster" means that only cluster-scoped resources will match this rule. Namespace API objects are cluster-scoped. "Namespaced" means that only namespaced resources will match this rule. "*" means that there are no scope restrictions. Subresources match the scope of their parent resource. Default is "*".' }), 2),
}, { ref: 'admissionregistration.v1.RuleWithOperations', description: 'RuleWithOperations is a tuple of Operations and Resources. It is recommended to make sure that all the tuple expansions are valid.' });

export const MatchCondition = S.object({
  name: S.string({ proto: 1, default: '', description: "Name is an identifier for this match condition, used for strategic merging of MatchConditions, as well as providing an identifier for logging purposes. A good name should be descriptive of the associated expression. Name must be a qualified name consisting of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')\n\nRequired." }),
  expression: S.string({ proto: 2, default: '', description: "Expression represents the expression which will be evaluated by CEL. Must evaluate to bool. CEL expressions have access to the contents of the AdmissionRequest and Authorizer, organized into CEL variables:\n\n'object' - The object from the incoming request. The value is null for DELETE requests. 'oldObject' - The existing object. The value is null for CREATE requests. 'request' - Attributes of the admission request(/pkg/apis/admission/types.go#AdmissionRequest). 'authorizer' - A CEL Authorizer. May be used to perform authorization checks for the principal (user or service account) of the request.\n  See https://pkg.go.dev/svc.io/apiserver/pkg/cel/library#Authz\n'authorizer.requestResource' - A CEL ResourceCheck constructed from the 'authorizer' and configured with the\n  request resource.\nDocumentation on CEL: https://platform.io/docs/reference/using-api/cel/\n\nRequired." }),
}, { ref: 'admissionregistration.v1.MatchCondition', description: 'MatchCondition represents a condition which must by fulfilled for a request to be sent to a webhook.' });

const withProtoAndDescription = <T extends object>(schema: T, proto: number, description: string): T => ({ ...schema, 'x-proto': proto, description });

/** The fields both webhook kinds share; `objectSelector` and `matchConditions` numbers differ between them. */
export function webhookProperties(numbers: { objectSelector: number; matchConditions: number }) {
  return {
    name: S.string({ proto: 1, default: '', description: 'The name of the admission webhook. Name should be fully qualified, e.g., imagepolicy.platform.io, where "imagepolicy" is the name of the webhook, and platform.io is the name of the organization. Required.' }),
    clientConfig: withProtoAndDescription(WebhookClientConfig, 2, 'ClientConfig defines how to communicate with the hook. Required'),
    rules: S.list(RuleWithOperations, { proto: 3, listType: 'atomic', description: 'Rules describes what operations on what resources/subresources the webhook cares about. The webhook cares about an operation if it matches _any_ Rule. However, in order to prevent ValidatingAdmissionWebhooks and MutatingAdmissionWebhooks from putting the cluster in a state which cannot be recovered from without completely disabling the plugin, ValidatingAdmissionWebhooks and MutatingAdmissionWebhooks are never called on admission requests for ValidatingWebhookConfiguration and MutatingWebhookConfiguration objects.' }),
    failurePolicy: S.string({ proto: 4, description: 'FailurePolicy defines how unrecognized errors from the admission endpoint are handled - allowed values are Ignore or Fail. Defaults to Fail.' }),
    matchPolicy: S.string({ proto: 9, description: 'matchPolicy defines how the "rules" list is used to match incoming requests. Allowed values are "Exact" or "Equivalent".\n\n- Exact: match a request only if it exactly matches a specified rule. For example, if deployments can be modified via apps/v1, apps/v1beta1, and extensions/v1beta1, but "rules" only included `apiGroups:["apps"], apiVersions:["v1"], resources: ["deployments"]`, a request to apps/v1beta1 or extensions/v1beta1 would not be sent to the webhook.\n\n- Equivalent: match a request if modifies a resource listed in rules, even via another API group or version. For example, if deployments can be modified via apps/v1, apps/v1beta1, and extensions/v1beta1, and "rules" only included `apiGroups:["apps"], apiVersions:["v1"], resources: ["deployments"]`, a request to apps/v1beta1 or extensions/v1beta1 would be converted to apps/v1 and sent to the webhook.\n\nDefaults to "Equivalent"' }),
    namespaceSelector: withProtoAndDescription(LabelSelector, 5, 'NamespaceSelector decides whether to run the webhook on an object based on whether the namespace for that object matches the selector. If the object itself is a namespace, the matching is performed on object.metadata.labels. If the object is another cluster scoped resource, it never skips the webhook.\n\nDefault to the empty LabelSelector, which matches everything.'),
    objectSelector: withProtoAndDescription(LabelSelector, numbers.objectSelector, 'ObjectSelector decides whether to run the webhook based on if the object has matching labels. objectSelector is evaluated against both the oldObject and newObject that would be sent to the webhook, and is considered to match if either object matches the selector. A null object (oldObject in the case of create, or newObject in the case of delete) or an object that cannot have labels (like a DeploymentRollback or a PodProxyOptions object) is not considered to match. Use the object selector only if the webhook is opt-in, because end users may skip the admission webhook by setting the labels. Default to the empty LabelSelector, which matches everything.'),
    sideEffects: S.string({ proto: 6, description: 'SideEffects states whether this webhook has side effects. Acceptable values are: None, NoneOnDryRun (webhooks created via v1beta1 may also specify Some or Unknown). Webhooks with side effects MUST implement a reconciliation system, since a request may be rejected by a future step in the admission chain and the side effects therefore need to be undone. Requests with the dryRun attribute will be auto-rejected if they match a webhook with sideEffects == Unknown or Some.' }),
    timeoutSeconds: S.int32({ proto: 7, description: 'TimeoutSeconds specifies the timeout for this webhook. After the timeout passes, the webhook call will be ignored or the API call will fail based on the failure policy. The timeout value must be between 1 and 30 seconds. Default to 10 seconds.' }),
    admissionReviewVersions: S.list(S.string(), { proto: 8, listType: 'atomic', description: 'AdmissionReviewVersions is an ordered list of preferred `AdmissionReview` versions the Webhook expects. API server will try to use first version in the list which it supports. If none of the versions specified in this list supported by API server, validation will fail for this object. If a persisted webhook configuration specifies allowed versions and does not include any versions known to the API Server, calls to the webhook will fail and be subject to the failure policy.' }),
    matchConditions: S.list(MatchCondition, { proto: numbers.matchConditions, listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'MatchConditions is a list of conditions that must be met for a request to be sent to this webhook. Match conditions filter requests that have already been matched by the rules, namespaceSelector, and objectSelector. An empty list of matchConditions matches all requests. There are a maximum of 64 match conditions allowed.\n\nThe exact matching logic is (in order):\n  1. If ANY matchCondition evaluates to FALSE, the webhook is skipped.\n  2. If ALL matchConditions evaluate to TRUE, the webhook is called.\n  3. If any matchCondition evaluates to an error (but none are FALSE):\n     - If failurePolicy=Fail, reject the request\n     - If failurePolicy=Ignore, the error is ignored and the webhook is skipped' }),
  };
}

export const WEBHOOKS_DESCRIPTION = 'Webhooks is a list of webhooks and the affected resources and operations.';
export const WEBHOOKS_LIST: ListOptions = { listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: WEBHOOKS_DESCRIPTION };

// ---- types ----

export interface RuleT { operations?: string[]; apiGroups?: string[]; apiVersions?: string[]; resources?: string[]; scope?: string }
export interface ServiceT { namespace?: string; name?: string; path?: string; port?: number }
export interface ClientConfigT { url?: string | null; service?: ServiceT | null; caBundle?: string }
export interface MatchConditionT { name?: string; expression?: string }
export interface WebhookT {
  name?: string;
  clientConfig?: ClientConfigT;
  rules?: RuleT[];
  failurePolicy?: string;
  matchPolicy?: string;
  namespaceSelector?: Partial<LabelSelectorT> | null;
  objectSelector?: Partial<LabelSelectorT> | null;
  sideEffects?: string | null;
  timeoutSeconds?: number | null;
  admissionReviewVersions?: string[];
  reinvocationPolicy?: string;
  matchConditions?: MatchConditionT[];
}

const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);
export const webhooksOf = (o: ApiObject): WebhookT[] => list(o.webhooks as WebhookT[] | undefined);

// ---- defaults (SetDefaults_ValidatingWebhook, _MutatingWebhook, _Rule, _ServiceReference) ----

export function defaultWebhooks(obj: ApiObject, mutating: boolean): void {
  for (const hook of webhooksOf(obj)) {
    if (!hook || typeof hook !== 'object') continue;
    hook.failurePolicy ??= 'Fail';
    hook.matchPolicy ??= 'Equivalent';
    hook.namespaceSelector ??= {};
    hook.objectSelector ??= {};
    hook.timeoutSeconds ??= 10;
    if (mutating) hook.reinvocationPolicy ??= 'Never';
    for (const rule of list(hook.rules)) if (rule && typeof rule === 'object') rule.scope ??= '*';
    const service = hook.clientConfig?.service;
    if (service && typeof service === 'object') service.port ??= 443;
  }
}

// ---- validation ----

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECTS_NONE = ['None', 'NoneOnDryRun'];
const SIDE_EFFECTS_ALL = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];

/** What an update tolerates because the stored object already had it (Kubernetes' validationOptions). */
export interface WebhookValidationOptions {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
}

export const CREATE_OPTIONS: WebhookValidationOptions = {
  ignoreMatchConditions: false, requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true, requireUniqueWebhookNames: true, allowInvalidLabelValueInSelector: false,
};

function selectorHasInvalidValue(sel: Partial<LabelSelectorT> | null | undefined): boolean {
  return list(sel?.matchExpressions).some((e) => list(e?.values).some((v) => isValidLabelValue(v).length > 0));
}

export function updateOptions(obj: ApiObject, old: ApiObject): WebhookValidationOptions {
  const hooks = webhooksOf(obj), oldHooks = webhooksOf(old);
  const names = oldHooks.map((h) => h?.name ?? '').filter((n) => n);
  return {
    ignoreMatchConditions: hooks.length === oldHooks.length && hooks.every((h, i) => deepEqual(h?.matchConditions ?? null, oldHooks[i]?.matchConditions ?? null)),
    requireNoSideEffects: oldHooks.every((h) => SIDE_EFFECTS_NONE.includes(h?.sideEffects ?? '')),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => list(h?.admissionReviewVersions).some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v))),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: oldHooks.some((h) => selectorHasInvalidValue(h?.namespaceSelector) || selectorHasInvalidValue(h?.objectSelector)),
  };
}

const goSlice = (field: string, values: string[], detail: string) => errorWithGoValue('FieldValueInvalid', field, values, goStringSlice(values), detail);

function resourcesErrors(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path, ''));
  const wildcardSubresources = new Set<string>();
  const wildcardResources = new Set<string>();
  let doubleWildcard = false, singleWildcard = false, plainResource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') { errs.push(required(index(path, i), '')); return; }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) { plainResource = resSub !== '*'; return; }
    const res = resSub.slice(0, slash), sub = resSub.slice(slash + 1);
    if (wildcardSubresources.has(res)) errs.push(invalid(index(path, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (wildcardResources.has(sub)) errs.push(invalid(index(path, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') wildcardSubresources.add(res);
    if (res === '*') wildcardResources.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(goSlice(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && plainResource) errs.push(goSlice(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function ruleErrors(rule: RuleT, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = list(rule.operations);
  if (ops.length === 0) errs.push(required(child(path, 'operations'), ''));
  if (ops.length > 1 && ops.includes('*')) errs.push(goSlice(child(path, 'operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => { if (!OPERATIONS.includes(op)) errs.push(notSupported(index(child(path, 'operations'), i), op, OPERATIONS)); });
  const groups = list(rule.apiGroups), versions = list(rule.apiVersions);
  if (groups.length === 0) errs.push(required(child(path, 'apiGroups'), ''));
  if (groups.length > 1 && groups.includes('*')) errs.push(goSlice(child(path, 'apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  if (versions.length === 0) errs.push(required(child(path, 'apiVersions'), ''));
  if (versions.length > 1 && versions.includes('*')) errs.push(goSlice(child(path, 'apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => { if (v === '') errs.push(required(index(child(path, 'apiVersions'), i), '')); });
  errs.push(...resourcesErrors(list(rule.resources), child(path, 'resources')));
  if (rule.scope !== undefined && rule.scope !== null && !SCOPES.includes(rule.scope)) errs.push(notSupported(child(path, 'scope'), rule.scope, SCOPES));
  return errs;
}

/** A URL split as Go's net/url parses it, or the parse error. */
function parseUrl(raw: string): { scheme: string; user?: string; host: string; query: string; fragment: string } | { error: string } {
  if (/[\x00-\x1f\x7f]/.test(raw)) return { error: `parse ${goQuote(raw)}: net/url: invalid control character in URL` };
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) { fragment = rest.slice(hash + 1); rest = rest.slice(0, hash); }
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) { query = rest.slice(q + 1); rest = rest.slice(0, q); }
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (m) { scheme = m[1]!.toLowerCase(); rest = rest.slice(m[0].length); }
  else if (rest.startsWith(':')) return { error: `parse ${goQuote(raw)}: missing protocol scheme` };
  let host = '', user: string | undefined;
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    let authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) { user = authority.slice(0, at); authority = authority.slice(at + 1); }
    host = authority;
    const port = /^(?:\[[^\]]*\]|[^:]*)(:.*)?$/.exec(host)?.[1];
    if (port && !/^:\d*$/.test(port)) return { error: `parse ${goQuote(raw)}: invalid port ${goQuote(port)} after host` };
  }
  return { scheme, user, host, query, fragment };
}

const URL_FORM = '; desired format: https://host[/path]';

/** ValidateWebhookURL with https required. */
function urlErrors(raw: string, path: string): FieldError[] {
  const u = parseUrl(raw);
  if ('error' in u) return [required(path, 'url must be a valid URL: ' + u.error + URL_FORM)];
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(invalid(path, u.scheme, "'https' is the only allowed URL scheme" + URL_FORM));
  if (!u.host) errs.push(invalid(path, u.host, 'host must be specified' + URL_FORM));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query) errs.push(invalid(path, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** ValidateWebhookService: name, namespace, port, and a path of DNS-subdomain segments. */
function serviceErrors(svc: ServiceT, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!svc.name) errs.push(required(child(path, 'name'), 'service name is required'));
  if (!svc.namespace) errs.push(required(child(path, 'namespace'), 'service namespace is required'));
  const port = svc.port ?? 443;
  const portErrs = isValidPortNum(port);
  if (portErrs.length) errs.push(invalid(child(path, 'port'), port, 'port is not valid: ' + portErrs.join(', ')));
  const p = svc.path;
  if (p === undefined || p === null || p === '' || p === '/') return errs;
  const at = child(path, 'path');
  if (p === '//') return [...errs, invalid(at, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(invalid(at, p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) { errs.push(invalid(at, p, `segment[${i}] may not be empty`)); return; }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(at, p, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/**
 * A match condition's expression compiled as webhooks will evaluate it (with `object`, `oldObject`, `request`
 * and `authorizer`), so that one that cannot run is refused now rather than failing each request. As in
 * Kubernetes, the expression (trimmed) must check as a bool: a `dyn` result is refused too.
 */
function expressionErrors(expression: string, path: string): FieldError[] {
  let program;
  try {
    program = compileCel(expression, MATCH_CONDITION_VARIABLES);
  } catch (err) {
    if (!(err instanceof CelCompileError)) throw err;
    return [invalid(path, expression, `compilation failed: ${err.message}`)];
  }
  return program.type.kind === 'bool' ? [] : [invalid(path, expression, 'must evaluate to bool')];
}

function matchConditionErrors(conditions: MatchConditionT[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const at = index(path, i);
    const expression = (typeof c?.expression === 'string' ? c.expression : '').trim();
    if (!expression) errs.push(required(child(at, 'expression'), ''));
    else errs.push(...expressionErrors(expression, child(at, 'expression')));
    const name = c?.name ?? '';
    if (!name) errs.push(required(child(at, 'name'), ''));
    else for (const msg of isQualifiedName(name)) errs.push(invalid(child(at, 'name'), name, msg));
    if (name) {
      if (names.has(name)) errs.push(duplicate(child(at, 'name'), name));
      names.add(name);
    }
  });
  return errs;
}

function reviewVersionErrors(versions: string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length < 1) return [required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) { errs.push(invalid(index(path, i), v, 'duplicate version')); return; }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalid(index(path, i), v, msg));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(goSlice(path, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function webhookErrors(hook: WebhookT, mutating: boolean, opts: WebhookValidationOptions, path: string): FieldError[] {
  const errs = isFullyQualifiedName(child(path, 'name'), hook.name ?? '');
  list(hook.rules).forEach((r, i) => errs.push(...ruleErrors(r ?? {}, index(child(path, 'rules'), i))));
  if (hook.failurePolicy !== undefined && hook.failurePolicy !== null && !FAILURE_POLICIES.includes(hook.failurePolicy)) errs.push(notSupported(child(path, 'failurePolicy'), hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && hook.matchPolicy !== null && !MATCH_POLICIES.includes(hook.matchPolicy)) errs.push(notSupported(child(path, 'matchPolicy'), hook.matchPolicy, MATCH_POLICIES));
  const sideEffects = opts.requireNoSideEffects ? SIDE_EFFECTS_NONE : SIDE_EFFECTS_ALL;
  if (hook.sideEffects === undefined || hook.sideEffects === null) errs.push(required(child(path, 'sideEffects'), `must specify one of ${sideEffects.join(', ')}`));
  else if (!sideEffects.includes(hook.sideEffects)) errs.push(notSupported(child(path, 'sideEffects'), hook.sideEffects, sideEffects));
  if (typeof hook.timeoutSeconds === 'number' && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(invalid(child(path, 'timeoutSeconds'), hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  if (mutating && hook.reinvocationPolicy !== undefined && hook.reinvocationPolicy !== null && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    errs.push(notSupported(child(path, 'reinvocationPolicy'), hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  const selectorOpts = { allowInvalidLabelValueInSelector: opts.allowInvalidLabelValueInSelector };
  if (hook.namespaceSelector) errs.push(...validateLabelSelector(hook.namespaceSelector, child(path, 'namespaceSelector'), selectorOpts));
  if (hook.objectSelector) errs.push(...validateLabelSelector(hook.objectSelector, child(path, 'objectSelector'), selectorOpts));
  const cc = hook.clientConfig ?? {};
  const hasUrl = cc.url !== undefined && cc.url !== null, hasService = cc.service !== undefined && cc.service !== null;
  if (hasUrl === hasService) errs.push(required(child(path, 'clientConfig'), 'exactly one of url or service is required'));
  else if (hasUrl) errs.push(...urlErrors(cc.url!, child(path, 'clientConfig.url')));
  else errs.push(...serviceErrors(cc.service!, child(path, 'clientConfig.service')));
  if (!opts.ignoreMatchConditions) errs.push(...matchConditionErrors(list(hook.matchConditions), child(path, 'matchConditions')));
  return errs;
}

/** validateMutatingWebhookConfiguration / validateValidatingWebhookConfiguration. */
export function webhookConfigurationErrors(obj: ApiObject, mutating: boolean, opts: WebhookValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  webhooksOf(obj).forEach((hook, i) => {
    const at = index('webhooks', i);
    errs.push(...webhookErrors(hook ?? {}, mutating, opts, at));
    errs.push(...reviewVersionErrors(list(hook?.admissionReviewVersions), opts.requireRecognizedAdmissionReviewVersion, child(at, 'admissionReviewVersions')));
    const name = hook?.name ?? '';
    if (opts.requireUniqueWebhookNames && name) {
      if (names.has(name)) errs.push(duplicate(child(at, 'name'), name));
      else names.add(name);
    }
  });
  return errs;
}

export const webhookCount = (o: ApiObject) => webhooksOf(o).length;
