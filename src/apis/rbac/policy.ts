// Shared RBAC types (PolicyRule, AggregationRule, Subject, RoleRef) and their validation, as Kubernetes
// v1.32 has them (pkg/apis/rbac/validation): roles hold rules, bindings tie subjects to a role.
import { S } from '../meta/schema.ts';
import { LabelSelector, type ApiObject, type LabelSelectorT } from '../meta/v1.ts';
import { type FieldError, invalid, required, notSupported, index, child } from '../../machinery/field-errors.ts';
import { isValidPathSegmentName, nameIsDNSSubdomain } from '../../machinery/validation/strings.ts';
import { validateLabelSelector } from '../../machinery/validation/objectmeta.ts';
import { labelSelectorFromObject } from '../../machinery/labels.ts';
import { errorWithGoValue, goQuote, goStringSlice, goStruct } from '../../machinery/go-format.ts';

export const GROUP = 'rbac.authorization.svc.io';

export const PolicyRule = S.object({
  verbs: S.list(S.string(), { proto: 1, listType: 'atomic', description: "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs." }),
  apiGroups: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.' }),
  resources: S.list(S.string(), { proto: 3, listType: 'atomic', description: "Resources is a list of resources this rule applies to. '*' represents all resources." }),
  resourceNames: S.list(S.string(), { proto: 4, listType: 'atomic', description: 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.' }),
  nonResourceURLs: S.list(S.string(), { proto: 5, listType: 'atomic', description: 'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.' }),
}, { ref: 'rbac.v1.PolicyRule', description: 'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.' });

export const AggregationRule = S.object({
  clusterRoleSelectors: S.list(LabelSelector, { proto: 1, listType: 'atomic', description: "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added" }),
}, { proto: 3, ref: 'rbac.v1.AggregationRule', description: 'AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole' });

export const Subject = S.object({
  kind: S.string({ proto: 1, description: 'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount". If the Authorizer does not recognized the kind value, the Authorizer should report an error.' }),
  apiGroup: S.string({ proto: 2, description: 'APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.svc.io" for User and Group subjects.' }),
  name: S.string({ proto: 3, description: 'Name of the object being referenced.' }),
  namespace: S.string({ proto: 4, description: 'Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.' }),
}, { atomic: true, ref: 'rbac.v1.Subject', description: 'Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.' });

export const RoleRef = S.object({
  apiGroup: S.string({ proto: 1, default: '', description: 'APIGroup is the group for the resource being referenced' }),
  kind: S.string({ proto: 2, default: '', description: 'Kind is the type of resource being referenced' }),
  name: S.string({ proto: 3, default: '', description: 'Name is the name of resource being referenced' }),
}, { proto: 3, atomic: true, ref: 'rbac.v1.RoleRef', description: 'RoleRef contains information that points to the role being used' });

export const SUBJECTS_DESCRIPTION = 'Subjects holds references to the objects the role applies to.';

export interface PolicyRuleT { verbs?: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] }
export interface SubjectT { kind?: string; apiGroup?: string; name?: string; namespace?: string }
export interface RoleRefT { apiGroup?: string; kind?: string; name?: string }

const list = <T>(v: T[] | undefined | null): T[] => (Array.isArray(v) ? v : []);

export const rulesOf = (o: ApiObject) => list(o.rules as PolicyRuleT[] | undefined);
export const subjectsOf = (o: ApiObject) => list(o.subjects as SubjectT[] | undefined);
export const roleRefOf = (o: ApiObject) => (o.roleRef ?? {}) as RoleRefT;

/** Role and binding names: any path segment (Kubernetes' ValidateRBACName). */
export function rbacNameErrors(name: string): string[] {
  return isValidPathSegmentName(name);
}

/**
 * A non-resource URL may end in `*` only as its whole last segment (`/apis/*`, `*`): the star is a prefix
 * match over whole path segments, not a glob.
 */
function nonResourceURLErrors(urls: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  urls.forEach((url, i) => {
    const star = url.indexOf('*');
    if (star < 0) return;
    const wholeLast = star === url.length - 1 && (url.length === 1 || url[star - 1] === '/');
    if (!wholeLast) errs.push(invalid(index(path, i), url, "'*' is only allowed as the full, final segment of the path"));
  });
  return errs;
}

/** ValidatePolicyRule: verbs required; a rule names resources or non-resource URLs, never both. */
export function policyRuleErrors(rule: PolicyRuleT, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list(rule.verbs).length === 0) errs.push(required(child(path, 'verbs'), 'verbs must contain at least one value'));
  const urls = list(rule.nonResourceURLs);
  if (urls.length > 0) {
    const at = child(path, 'nonResourceURLs');
    if (namespaced) errs.push(errorWithGoValue('FieldValueInvalid', at, urls, goStringSlice(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule.apiGroups).length > 0 || list(rule.resources).length > 0 || list(rule.resourceNames).length > 0) {
      errs.push(errorWithGoValue('FieldValueInvalid', at, urls, goStringSlice(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    if (!namespaced) errs.push(...nonResourceURLErrors(urls, at));
    return errs;
  }
  if (list(rule.apiGroups).length === 0) errs.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  if (list(rule.resources).length === 0) errs.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  return errs;
}

export function rulesErrors(obj: ApiObject, namespaced: boolean): FieldError[] {
  return rulesOf(obj).flatMap((r, i) => policyRuleErrors(r ?? {}, namespaced, index('rules', i)));
}

/** An aggregation rule needs at least one valid selector. */
export function aggregationRuleErrors(obj: ApiObject, allowInvalidLabelValue: boolean): FieldError[] {
  const rule = obj.aggregationRule as { clusterRoleSelectors?: LabelSelectorT[] } | undefined | null;
  if (!rule) return [];
  const path = 'aggregationRule.clusterRoleSelectors';
  const selectors = list(rule.clusterRoleSelectors);
  const errs: FieldError[] = [];
  if (selectors.length === 0) errs.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((sel, i) => {
    const at = index(path, i);
    errs.push(...validateLabelSelector(sel, at, { allowInvalidLabelValueInSelector: allowInvalidLabelValue }));
    // Kubernetes also reports a selector it cannot convert; the value it shows is the nil result.
    try { labelSelectorFromObject(sel); } catch { errs.push(invalid(at, 'null', 'invalid label selector.')); }
  });
  return errs;
}

/** True when a selector of the stored role already had a value the label rules reject (tolerated on update). */
export function hasInvalidSelectorValue(obj: ApiObject): boolean {
  const rule = obj.aggregationRule as { clusterRoleSelectors?: LabelSelectorT[] } | undefined | null;
  return list(rule?.clusterRoleSelectors).some((sel) =>
    list(sel?.matchExpressions).some((e) => list(e?.values).some((v) => validateLabelSelector({ matchExpressions: [{ key: 'k', operator: 'In', values: [v] }] }, '').length > 0)));
}

const SERVICE_ACCOUNT = 'ServiceAccount', USER = 'User', GROUP_KIND = 'Group';

/** ValidateRoleBindingSubject. Cluster role bindings must name a service account's namespace. */
export function subjectErrors(subject: SubjectT, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = subject.name ?? '';
  if (!name) errs.push(required(child(path, 'name'), ''));
  switch (subject.kind) {
    case SERVICE_ACCOUNT:
      if (name) for (const msg of nameIsDNSSubdomain(name, false)) errs.push(invalid(child(path, 'name'), name, msg));
      if (subject.apiGroup) errs.push(notSupported(child(path, 'apiGroup'), subject.apiGroup, ['']));
      if (!namespaced && !subject.namespace) errs.push(required(child(path, 'namespace'), ''));
      break;
    case USER:
    case GROUP_KIND:
      if ((subject.apiGroup ?? '') !== GROUP) errs.push(notSupported(child(path, 'apiGroup'), subject.apiGroup ?? '', [GROUP]));
      break;
    default:
      errs.push(notSupported(child(path, 'kind'), subject.kind ?? '', [SERVICE_ACCOUNT, USER, GROUP_KIND]));
  }
  return errs;
}

/** roleRef and subjects of a binding; `kinds` are the role kinds it may reference. */
export function bindingErrors(obj: ApiObject, namespaced: boolean, kinds: string[]): FieldError[] {
  const ref = roleRefOf(obj);
  const errs: FieldError[] = [];
  if ((ref.apiGroup ?? '') !== GROUP) errs.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [GROUP]));
  if (!kinds.includes(ref.kind ?? '')) errs.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(required('roleRef.name', ''));
  else for (const msg of rbacNameErrors(ref.name)) errs.push(invalid('roleRef.name', ref.name, msg));
  subjectsOf(obj).forEach((s, i) => errs.push(...subjectErrors(s ?? {}, namespaced, index('subjects', i))));
  return errs;
}

/** roleRef never changes: a binding to another role is a new binding. */
export function roleRefUpdateErrors(obj: ApiObject, old: ApiObject): FieldError[] {
  const a = roleRefOf(obj), b = roleRefOf(old);
  if ((a.apiGroup ?? '') === (b.apiGroup ?? '') && (a.kind ?? '') === (b.kind ?? '') && (a.name ?? '') === (b.name ?? '')) return [];
  const rendered = goStruct('rbac.RoleRef', [['APIGroup', goQuote(a.apiGroup ?? '')], ['Kind', goQuote(a.kind ?? '')], ['Name', goQuote(a.name ?? '')]]);
  return [errorWithGoValue('FieldValueInvalid', 'roleRef', a, rendered, 'cannot change roleRef')];
}

/** Kubernetes' name of GROUP, which unmodified kubectl writes in the bindings it creates (`kubectl create rolebinding`). */
const KUBERNETES_GROUP = 'rbac.authorization.k8s.io';

/**
 * SetDefaults_RoleBinding and SetDefaults_Subject: the RBAC group for roles, users and groups. Kubernetes'
 * name of the group reads as the group itself.
 */
export function defaultBinding(obj: ApiObject): void {
  const ref = (obj.roleRef ??= {}) as RoleRefT;
  if (!ref.apiGroup || ref.apiGroup === KUBERNETES_GROUP) ref.apiGroup = GROUP;
  ref.kind ??= '';
  ref.name ??= '';
  for (const s of subjectsOf(obj)) {
    if (!s) continue;
    if (s.apiGroup === KUBERNETES_GROUP) s.apiGroup = GROUP;
    if (s.apiGroup) continue;
    if (s.kind === USER || s.kind === GROUP_KIND) s.apiGroup = GROUP;
  }
}

/**
 * A binding answered in another name of the group (Kubernetes' `rbac.authorization.k8s.io`) names that group
 * in its roleRef and subjects too, as defaultBinding reads it: kubectl compares them with the name it knows
 * (`kubectl auth reconcile` would recreate every binding).
 */
export function bindingGroupReferencesIn(obj: ApiObject, served: string, client: string): ApiObject {
  const named = <T>(ref: T): T => {
    const r = ref as { apiGroup?: unknown } | null;
    return r !== null && typeof r === 'object' && r.apiGroup === served ? { ...r, apiGroup: client } as T : ref;
  };
  const out: ApiObject = { ...obj };
  if (obj.roleRef !== undefined) out.roleRef = named(obj.roleRef);
  if (Array.isArray(obj.subjects)) out.subjects = obj.subjects.map(named);
  return out;
}

/** `users, groups, service accounts` of a binding, as kubectl's wide columns show them. */
export function subjectsStrings(obj: ApiObject): { users: string; groups: string; serviceAccounts: string } {
  const users: string[] = [], groups: string[] = [], sas: string[] = [];
  for (const s of subjectsOf(obj)) {
    if (s?.kind === USER) users.push(s.name ?? '');
    else if (s?.kind === GROUP_KIND) groups.push(s.name ?? '');
    else if (s?.kind === SERVICE_ACCOUNT) sas.push(`${s.namespace ?? ''}/${s.name ?? ''}`);
  }
  return { users: users.join(', '), groups: groups.join(', '), serviceAccounts: sas.join(', ') };
}
