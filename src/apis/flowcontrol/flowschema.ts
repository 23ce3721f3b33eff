// FlowSchema (flowcontrol.apiserver.svc.io/v1, cluster-scoped): which requests (by subject, verb and
// resource) go to which priority level, and how they are split into flows.
import type { KindDefinition } from '../kind.ts';
import type { ApiObject } from '../meta/v1.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { type FieldError, invalid, required, forbidden, notSupported, index, child } from '../../machinery/field-errors.ts';
import { nameIsDNSSubdomain, nameIsDNSLabel } from '../../machinery/validation/strings.ts';
import { errorWithGoValue, goQuote, goStringSlice, goStruct } from '../../machinery/go-format.ts';
import { GROUP, withUnion, conditionSchema, statusConditionErrors } from './common.ts';

export const DEFAULT_MATCHING_PRECEDENCE = 1000;
export const MAX_MATCHING_PRECEDENCE = 10000;
export const EXEMPT = 'exempt';
const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];

const PL_NAME_DESCRIPTION = '`name` is the name of the priority level configuration being referenced Required.';
const PRECEDENCE_DESCRIPTION = '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.';
const DISTINGUISHER_DESCRIPTION = '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.';

const Subject = withUnion(S.object({
  kind: S.string({ proto: 1, default: '', description: '`kind` indicates which one of the other fields is non-empty. Required' }),
  user: S.object({
    name: S.string({ proto: 1, default: '', description: '`name` is the username that matches, or "*" to match all usernames. Required.' }),
  }, { proto: 2, ref: 'flowcontrol.v1.UserSubject', description: '`user` matches based on username.' }),
  group: S.object({
    name: S.string({ proto: 1, default: '', description: 'name is the user group that matches, or "*" to match all user groups. See https://github.com/kubernetes/apiserver/blob/master/pkg/authentication/user/user.go for some well-known group names. Required.' }),
  }, { proto: 3, ref: 'flowcontrol.v1.GroupSubject', description: '`group` matches based on user group name.' }),
  serviceAccount: S.object({
    namespace: S.string({ proto: 1, default: '', description: '`namespace` is the namespace of matching ServiceAccount objects. Required.' }),
    name: S.string({ proto: 2, default: '', description: '`name` is the name of matching ServiceAccount objects, or "*" to match regardless of name. Required.' }),
  }, { proto: 4, ref: 'flowcontrol.v1.ServiceAccountSubject', description: '`serviceAccount` matches ServiceAccounts.' }),
}, { ref: 'flowcontrol.v1.Subject', description: 'Subject matches the originator of a request, as identified by the request authentication system. There are three ways of matching an originator; by user, group, or service account.' }), 'kind', { user: 'User', group: 'Group', serviceAccount: 'ServiceAccount' });

const ResourcePolicyRule = S.object({
  verbs: S.list(S.string(), { proto: 1, listType: 'set', description: '`verbs` is a list of matching verbs and may not be empty. "*" matches all verbs and, if present, must be the only entry. Required.' }),
  apiGroups: S.list(S.string(), { proto: 2, listType: 'set', description: '`apiGroups` is a list of matching API groups and may not be empty. "*" matches all API groups and, if present, must be the only entry. Required.' }),
  resources: S.list(S.string(), { proto: 3, listType: 'set', description: '`resources` is a list of matching resources (i.e., lowercase and plural) with, if desired, subresource.  For example, [ "services", "nodes/status" ].  This list may not be empty. "*" matches all resources and, if present, must be the only entry. Required.' }),
  clusterScope: S.bool({ proto: 4, description: '`clusterScope` indicates whether to match requests that do not specify a namespace (which happens either because the resource is not namespaced or the request targets all namespaces). If this field is omitted or false then the `namespaces` field must contain a non-empty list.' }),
  namespaces: S.list(S.string(), { proto: 5, listType: 'set', description: '`namespaces` is a list of target namespaces that restricts matches.  A request that specifies a target namespace matches only if either (a) this list contains that target namespace or (b) this list contains "*".  Note that "*" matches any specified namespace but does not match a request that _does not specify_ a namespace (see the `clusterScope` field for that). This list may be empty, but only if `clusterScope` is true.' }),
}, { ref: 'flowcontrol.v1.ResourcePolicyRule', description: 'ResourcePolicyRule is a predicate that matches some resource requests, testing the request\'s verb and the target resource. A ResourcePolicyRule matches a resource request if and only if: (a) at least one member of verbs matches the request, (b) at least one member of apiGroups matches the request, (c) at least one member of resources matches the request, and (d) either (d1) the request does not specify a namespace (i.e., `Namespace==""`) and clusterScope is true or (d2) the request specifies a namespace and least one member of namespaces matches the request\'s namespace.' });

const NonResourcePolicyRule = S.object({
  verbs: S.list(S.string(), { proto: 1, listType: 'set', description: '`verbs` is a list of matching verbs and may not be empty. "*" matches all verbs. If it is present, it must be the only entry. Required.' }),
  nonResourceURLs: S.list(S.string(), { proto: 6, listType: 'set', description: '`nonResourceURLs` is a set of url prefixes that a user should have access to and may not be empty. For example:\n  - "/healthz" is legal\n  - "/hea*" is illegal\n  - "/hea" is legal but matches nothing\n  - "/hea/*" also matches nothing\n  - "/healthz/*" matches all per-component health checks.\n"*" matches all non-resource urls. if it is present, it must be the only entry. Required.' }),
}, { ref: 'flowcontrol.v1.NonResourcePolicyRule', description: 'NonResourcePolicyRule is a predicate that matches non-resource requests according to their verb and the target non-resource URL. A NonResourcePolicyRule matches a request if and only if both (a) at least one member of verbs matches the request and (b) at least one member of nonResourceURLs matches the request.' });

const PolicyRulesWithSubjects = S.object({
  subjects: S.list(Subject, { proto: 1, listType: 'atomic', description: 'subjects is the list of normal user, serviceaccount, or group that this rule cares about. There must be at least one member in this slice. A slice that includes both the system:authenticated and system:unauthenticated user groups matches every request. Required.' }),
  resourceRules: S.list(ResourcePolicyRule, { proto: 2, listType: 'atomic', description: '`resourceRules` is a slice of ResourcePolicyRules that identify matching requests according to their verb and the target resource. At least one of `resourceRules` and `nonResourceRules` has to be non-empty.' }),
  nonResourceRules: S.list(NonResourcePolicyRule, { proto: 3, listType: 'atomic', description: '`nonResourceRules` is a list of NonResourcePolicyRules that identify matching requests according to their verb and the target non-resource URL.' }),
}, { ref: 'flowcontrol.v1.PolicyRulesWithSubjects', description: 'PolicyRulesWithSubjects prescribes a test that applies to a request to an apiserver. The test considers the subject making the request, the verb being requested, and the resource to be acted upon. This PolicyRulesWithSubjects matches a request if and only if both (a) at least one member of subjects matches the request and (b) at least one member of resourceRules or nonResourceRules matches the request.' });

const FlowSchemaSpec = S.object({
  priorityLevelConfiguration: S.object({
    name: S.string({ proto: 1, default: '', description: PL_NAME_DESCRIPTION }),
  }, { proto: 1, ref: 'flowcontrol.v1.PriorityLevelConfigurationReference', description: '`priorityLevelConfiguration` should reference a PriorityLevelConfiguration in the cluster. If the reference cannot be resolved, the FlowSchema will be ignored and marked as invalid in its status. Required.' }),
  matchingPrecedence: S.int32({ proto: 2, description: PRECEDENCE_DESCRIPTION }),
  distinguisherMethod: S.object({
    type: S.string({ proto: 1, default: '', description: '`type` is the type of flow distinguisher method The supported types are "ByUser" and "ByNamespace". Required.' }),
  }, { proto: 3, ref: 'flowcontrol.v1.FlowDistinguisherMethod', description: DISTINGUISHER_DESCRIPTION }),
  rules: S.list(PolicyRulesWithSubjects, { proto: 4, listType: 'atomic', description: '`rules` describes which requests will match this flow schema. This FlowSchema matches a request if and only if at least one member of rules matches the request. if it is an empty slice, there will be no requests matching the FlowSchema.' }),
}, { proto: 2, ref: 'flowcontrol.v1.FlowSchemaSpec', description: 'FlowSchemaSpec describes how the FlowSchema\'s specification looks like.' });

const FlowSchemaStatus = S.object({
  conditions: S.list(conditionSchema('flowcontrol.v1.FlowSchemaCondition', 'FlowSchemaCondition describes conditions for a FlowSchema.'), {
    proto: 1, listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge', description: '`conditions` is a list of the current states of FlowSchema.',
  }),
}, { proto: 3, ref: 'flowcontrol.v1.FlowSchemaStatus', description: 'FlowSchemaStatus represents the current state of a FlowSchema.' });

export const FlowSchemaSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: { ...FlowSchemaSpec, description: '`spec` is the specification of the desired behavior of a FlowSchema. More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status' },
  status: { ...FlowSchemaStatus, description: '`status` is the current status of a FlowSchema. More info: https://git.svc.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status' },
}, { ref: 'flowcontrol.v1.FlowSchema', description: 'FlowSchema defines the schema of a group of flows. Note that a flow is made up of a set of inbound API requests with similar attributes and is identified by a pair of strings: the name of the FlowSchema and a "flow distinguisher".' });

interface SubjectT { kind?: string; user?: { name?: string } | null; group?: { name?: string } | null; serviceAccount?: { namespace?: string; name?: string } | null }
interface ResourceRuleT { verbs?: string[]; apiGroups?: string[]; resources?: string[]; clusterScope?: boolean; namespaces?: string[] }
interface NonResourceRuleT { verbs?: string[]; nonResourceURLs?: string[] }
interface RuleT { subjects?: SubjectT[]; resourceRules?: ResourceRuleT[]; nonResourceRules?: NonResourceRuleT[] }
interface Spec { priorityLevelConfiguration?: { name?: string }; matchingPrecedence?: number; distinguisherMethod?: { type?: string } | null; rules?: RuleT[] }

const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);
const specOf = (o: ApiObject) => (o.spec ?? {}) as Spec;
const goSlice = (path: string, values: string[], detail: string) => errorWithGoValue('FieldValueInvalid', path, values, goStringSlice(values), detail);

function verbErrors(verbs: string[], path: string): FieldError[] {
  if (verbs.length === 0) return [required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [goSlice(path, verbs, "if '*' is present, must not specify other verbs")] : [];
  if (verbs.some((v) => !VERBS.includes(v))) {
    return [{ ...errorWithGoValue('FieldValueNotSupported', path, verbs, goStringSlice(verbs)), detail: `${goStringSlice(verbs)}: supported values: ${VERBS.map(goQuote).join(', ')}` }];
  }
  return [];
}

/** A non-resource URL: `/`-rooted, no blanks or `//`, and `*` only as a final `/*`. */
function nonResourceURLError(url: string, path: string): FieldError | undefined {
  if (url.length === 0) return invalid(path, url, 'must not be empty');
  if (url === '/') return undefined;
  if (!url.startsWith('/')) return invalid(path, url, 'must start with slash');
  if (url.includes(' ')) return invalid(path, url, 'must not contain white-space');
  if (url.includes('//')) return invalid(path, url, 'must not contain double slash');
  const stars = url.split('*').length - 1;
  if (stars > 1 || (stars === 1 && url.slice(-2) !== '/*')) return invalid(path, url, 'wildcard can only do suffix glob matching');
  return undefined;
}

function subjectErrors(s: SubjectT, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const notUser = () => { if (s.user) errs.push(forbidden(child(path, 'user'), "user is forbidden when subject kind is not 'User'")); };
  const notGroup = () => { if (s.group) errs.push(forbidden(child(path, 'group'), "group is forbidden when subject kind is not 'Group'")); };
  const notSA = () => { if (s.serviceAccount) errs.push(forbidden(child(path, 'serviceAccount'), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'")); };
  switch (s.kind) {
    case 'ServiceAccount': {
      const sa = s.serviceAccount;
      const at = child(path, 'serviceAccount');
      if (!sa) errs.push(required(at, "serviceAccount is required when subject kind is 'ServiceAccount'"));
      else {
        if (!sa.name) errs.push(required(child(at, 'name'), ''));
        else if (sa.name !== '*') for (const msg of nameIsDNSSubdomain(sa.name, false)) errs.push(invalid(child(at, 'name'), sa.name, msg));
        if (sa.namespace) for (const msg of nameIsDNSLabel(sa.namespace, false)) errs.push(invalid(child(at, 'namespace'), sa.namespace, msg));
        else errs.push(required(child(at, 'namespace'), 'must specify namespace for service account'));
      }
      notUser(); notGroup();
      break;
    }
    case 'User':
      if (!s.user) errs.push(required(child(path, 'user'), "user is required when subject kind is 'User'"));
      else if (!s.user.name) errs.push(required(child(path, 'user.name'), ''));
      notSA(); notGroup();
      break;
    case 'Group':
      if (!s.group) errs.push(required(child(path, 'group'), "group is required when subject kind is 'Group'"));
      else if (!s.group.name) errs.push(required(child(path, 'group.name'), ''));
      notSA(); notUser();
      break;
    default:
      errs.push(notSupported(child(path, 'kind'), s.kind ?? '', SUBJECT_KINDS));
  }
  return errs;
}

const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

function resourceRuleErrors(r: ResourceRuleT, path: string): FieldError[] {
  const errs = verbErrors(list(r.verbs), child(path, 'verbs'));
  const groups = list(r.apiGroups), resources = list(r.resources), namespaces = list(r.namespaces);
  if (groups.length === 0) errs.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && groups.includes('*')) errs.push(goSlice(child(path, 'apiGroups'), groups, "if '*' is present, must not specify other api groups"));
  if (resources.length === 0) errs.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && resources.includes('*')) errs.push(goSlice(child(path, 'resources'), resources, "if '*' is present, must not specify other resources"));
  if (namespaces.length === 0 && !r.clusterScope) errs.push(required(child(path, 'namespaces'), 'resource rules that are not cluster scoped must supply at least one namespace'));
  else if (namespaces.includes('*')) { if (namespaces.length > 1) errs.push(goSlice(child(path, 'namespaces'), namespaces, "if '*' is present, must not specify other namespaces")); }
  else namespaces.forEach((ns, i) => { for (const msg of nameIsDNSLabel(ns, false)) errs.push(invalid(index(child(path, 'namespaces'), i), ns, NS_INTRO + msg)); });
  return errs;
}

function nonResourceRuleErrors(r: NonResourceRuleT, path: string): FieldError[] {
  const errs = verbErrors(list(r.verbs), child(path, 'verbs'));
  const urls = list(r.nonResourceURLs);
  if (urls.length === 0) errs.push(required(child(path, 'nonResourceURLs'), 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) { if (urls.length > 1) errs.push(goSlice(child(path, 'nonResourceURLs'), urls, "if '*' is present, must not specify other non-resource URLs")); }
  else urls.forEach((u, i) => { const e = nonResourceURLError(u, index(child(path, 'nonResourceURLs'), i)); if (e) errs.push(e); });
  return errs;
}

function ruleErrors(rule: RuleT, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = list(rule.subjects);
  if (subjects.length) subjects.forEach((s, i) => errs.push(...subjectErrors(s ?? {}, index(child(path, 'subjects'), i))));
  else errs.push(required(child(path, 'subjects'), 'subjects must contain at least one value'));
  const resourceRules = list(rule.resourceRules), nonResourceRules = list(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  resourceRules.forEach((r, i) => errs.push(...resourceRuleErrors(r ?? {}, index(child(path, 'resourceRules'), i))));
  nonResourceRules.forEach((r, i) => errs.push(...nonResourceRuleErrors(r ?? {}, index(child(path, 'nonResourceRules'), i))));
  return errs;
}

/** ValidateFlowSchemaSpec. */
function specErrors(obj: ApiObject): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  const precedence = spec.matchingPrecedence ?? 0;
  if (precedence <= 0) errs.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) errs.push(invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && obj.metadata?.name !== EXEMPT) errs.push(invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const method = spec.distinguisherMethod;
  if (method && !DISTINGUISHER_METHODS.includes(method.type ?? '')) {
    const rendered = goStruct('flowcontrol.FlowDistinguisherMethod', [['Type', goQuote(method.type ?? '')]]);
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.distinguisherMethod.type', value: method, hasValue: false, detail: `${rendered}: supported values: ${DISTINGUISHER_METHODS.map(goQuote).join(', ')}` });
  }
  const pl = spec.priorityLevelConfiguration?.name ?? '';
  if (pl) for (const msg of nameIsDNSSubdomain(pl, false)) errs.push(invalid('spec.priorityLevelConfiguration.name', pl, msg));
  else errs.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  list(spec.rules).forEach((r, i) => errs.push(...ruleErrors(r ?? {}, index('spec.rules', i))));
  return errs;
}

const validate = (obj: ApiObject) => [...specErrors(obj), ...statusConditionErrors(obj)];

const missingPriorityLevel = (o: ApiObject) =>
  ((o.status as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? []).find((c) => c?.type === 'Dangling')?.status ?? '?';

export const flowSchemaKind: KindDefinition = {
  group: GROUP,
  kind: 'FlowSchema',
  plural: 'flowschemas',
  singular: 'flowschema',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: FlowSchemaSchema }],
  storageVersion: 'v1',
  status: {},
  trackGeneration: true,

  defaults(obj) {
    const spec = (obj.spec ??= {}) as Spec;
    obj.status ??= {};
    spec.priorityLevelConfiguration ??= { name: '' };
    if (!spec.matchingPrecedence) spec.matchingPrecedence = DEFAULT_MATCHING_PRECEDENCE;
  },
  prepareForCreate(obj) {
    obj.status = {};
  },
  validate,
  validateUpdate: (obj, _old, ctx) => (ctx.subresource === 'status' ? statusConditionErrors(obj) : validate(obj)),

  tableColumns: [
    nameColumn,
    { name: 'PriorityLevel', type: 'string', description: PL_NAME_DESCRIPTION, cell: (o) => specOf(o).priorityLevelConfiguration?.name ?? '' },
    { name: 'MatchingPrecedence', type: 'string', description: PRECEDENCE_DESCRIPTION, cell: (o) => specOf(o).matchingPrecedence ?? 0 },
    { name: 'DistinguisherMethod', type: 'string', description: DISTINGUISHER_DESCRIPTION, cell: (o) => specOf(o).distinguisherMethod?.type ?? '<none>' },
    ageColumn,
    { name: 'MissingPL', type: 'string', description: 'references a broken or non-existent PriorityLevelConfiguration', cell: missingPriorityLevel },
  ],
};
