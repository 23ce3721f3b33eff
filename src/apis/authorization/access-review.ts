// The authorization.svc.io/v1 access reviews: ask whether a user (or the caller) may do something, or
// what the caller may do in a namespace. Computed on create from the server's authorizers, never stored.
import type { TSchema } from '@sinclair/typebox';
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto } from '../core/schema-helpers.ts';

export const GROUP = 'authorization.svc.io';

const Requirement = (ref: string, description: string) => S.object({
  key: S.string({ proto: 1, description: 'key is the label or field key that the selector applies to.' }),
  operator: S.string({ proto: 2, description: "operator represents a key's relationship to a set of values." }),
  values: S.list(S.string(), { proto: 3, listType: 'atomic', description: 'values is an array of string values.' }),
}, { ref, description });

export const ResourceAttributesSchema = S.object({
  namespace: S.string({ proto: 1, description: 'Namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces "" (empty) is defaulted for LocalSubjectAccessReviews "" (empty) is empty for cluster-scoped resources "" (empty) means "all" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview' }),
  verb: S.string({ proto: 2, description: 'Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.' }),
  group: S.string({ proto: 3, description: 'Group is the API Group of the Resource.  "*" means all.' }),
  version: S.string({ proto: 4, description: 'Version is the API Version of the Resource.  "*" means all.' }),
  resource: S.string({ proto: 5, description: 'Resource is one of the existing resource types.  "*" means all.' }),
  subresource: S.string({ proto: 6, description: 'Subresource is one of the existing resource types.  "" means none.' }),
  name: S.string({ proto: 7, description: 'Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.' }),
  fieldSelector: S.object({
    rawSelector: S.string({ proto: 1, description: 'rawSelector is the serialization of a field selector that would be included in a query parameter.' }),
    requirements: S.list(Requirement('meta.v1.FieldSelectorRequirement', 'FieldSelectorRequirement is a selector that contains values, a key, and an operator that relates the key and values.'), { proto: 2, listType: 'atomic', description: 'requirements is the parsed interpretation of a field selector.' }),
  }, { proto: 8, ref: 'authorization.v1.FieldSelectorAttributes', description: 'fieldSelector describes the limitation on access based on field.  It can only limit access, not broaden it.' }),
  labelSelector: S.object({
    rawSelector: S.string({ proto: 1, description: 'rawSelector is the serialization of a field selector that would be included in a query parameter.' }),
    requirements: S.list(Requirement('meta.v1.LabelSelectorRequirement', 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.'), { proto: 2, listType: 'atomic', description: 'requirements is the parsed interpretation of a label selector.' }),
  }, { proto: 9, ref: 'authorization.v1.LabelSelectorAttributes', description: 'labelSelector describes the limitation on access based on labels.  It can only limit access, not broaden it.' }),
}, { proto: 1, ref: 'authorization.v1.ResourceAttributes', description: 'ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface' });

export const NonResourceAttributesSchema = S.object({
  path: S.string({ proto: 1, description: 'Path is the URL path of the request' }),
  verb: S.string({ proto: 2, description: 'Verb is the standard HTTP verb' }),
}, { proto: 2, ref: 'authorization.v1.NonResourceAttributes', description: 'NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface' });

export const SubjectAccessReviewStatusSchema = S.object({
  allowed: S.bool({ proto: 1, description: 'Allowed is required. True if the action would be allowed, false otherwise.' }),
  denied: S.bool({ proto: 4, description: 'Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.' }),
  reason: S.string({ proto: 2, description: 'Reason is optional.  It indicates why a request was allowed or denied.' }),
  evaluationError: S.string({ proto: 3, description: 'EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.' }),
}, { proto: 3, required: ['allowed'], ref: 'authorization.v1.SubjectAccessReviewStatus', description: 'Status is filled in by the server and indicates whether the request is allowed or not' });

const SubjectAccessReviewSpecSchema = S.object({
  resourceAttributes: ResourceAttributesSchema,
  nonResourceAttributes: NonResourceAttributesSchema,
  user: S.string({ proto: 3, description: 'User is the user you\'re testing for. If you specify "User" but not "Groups", then is it interpreted as "What if User were not a member of any groups' }),
  groups: S.list(S.string(), { proto: 4, listType: 'atomic', description: "Groups is the groups you're testing for." }),
  extra: S.map(S.list(S.string()), { proto: 5, description: 'Extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is input to the authorizer it needs a reflection here.' }),
  uid: S.string({ proto: 6, description: 'UID information about the requesting user.' }),
}, { proto: 2, ref: 'authorization.v1.SubjectAccessReviewSpec', description: 'Spec holds information about the request being evaluated' });

const SelfSubjectAccessReviewSpecSchema = S.object({
  resourceAttributes: ResourceAttributesSchema,
  nonResourceAttributes: NonResourceAttributesSchema,
}, { proto: 2, ref: 'authorization.v1.SelfSubjectAccessReviewSpec', description: 'Spec holds information about the request being evaluated.  user and groups must be empty' });

function reviewSchema(kind: string, spec: typeof SubjectAccessReviewSpecSchema | typeof SelfSubjectAccessReviewSpecSchema, description: string) {
  return S.object({
    apiVersion: S.string(),
    kind: S.string(),
    metadata: withProto(ObjectMeta, 1),
    spec,
    status: SubjectAccessReviewStatusSchema,
  }, { required: ['spec'], ref: `authorization.v1.${kind}`, description });
}

export const SubjectAccessReviewSchema = reviewSchema('SubjectAccessReview', SubjectAccessReviewSpecSchema, 'SubjectAccessReview checks whether or not a user or group can perform an action.');
export const LocalSubjectAccessReviewSchema = reviewSchema('LocalSubjectAccessReview', SubjectAccessReviewSpecSchema, 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.');
export const SelfSubjectAccessReviewSchema = reviewSchema('SelfSubjectAccessReview', SelfSubjectAccessReviewSpecSchema, 'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action');

export const SelfSubjectRulesReviewSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    namespace: S.string({ proto: 1, description: 'Namespace to evaluate rules for. Required.' }),
  }, { proto: 2, ref: 'authorization.v1.SelfSubjectRulesReviewSpec', description: 'Spec holds information about the request being evaluated.' }),
  status: S.object({
    resourceRules: S.list(S.object({
      verbs: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.' }),
      apiGroups: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  "*" means all.' }),
      resources: S.list(S.string(), { proto: 3, listType: 'atomic', description: 'Resources is a list of resources this rule applies to.  "*" means all in the specified apiGroups.\n "*/foo" represents the subresource \'foo\' for all resources in the specified apiGroups.' }),
      resourceNames: S.list(S.string(), { proto: 4, listType: 'atomic', description: 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.' }),
    }, { required: ['verbs'], ref: 'authorization.v1.ResourceRule', description: "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." }), { proto: 1, listType: 'atomic', description: "ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." }),
    nonResourceRules: S.list(S.object({
      verbs: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.' }),
      nonResourceURLs: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.' }),
    }, { required: ['verbs'], ref: 'authorization.v1.NonResourceRule', description: 'NonResourceRule holds information that describes a rule for the non-resource' }), { proto: 2, listType: 'atomic', description: "NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." }),
    incomplete: S.bool({ proto: 3, description: "Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation." }),
    evaluationError: S.string({ proto: 4, description: "EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete." }),
  }, { proto: 3, required: ['resourceRules', 'nonResourceRules', 'incomplete'], ref: 'authorization.v1.SubjectRulesReviewStatus', description: 'Status is filled in by the server and indicates the set of actions a user can perform.' }),
}, { required: ['spec'], ref: 'authorization.v1.SelfSubjectRulesReview', description: "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server." });

function reviewKind(kind: string, plural: string, namespaced: boolean, schema: TSchema): KindDefinition {
  return {
    group: GROUP, kind, plural, singular: kind.toLowerCase(), namespaced,
    versions: [{ name: 'v1', stability: 'stable', schema }],
    storageVersion: 'v1',
    createOnly: true,
  };
}

export const localSubjectAccessReviewKind = reviewKind('LocalSubjectAccessReview', 'localsubjectaccessreviews', true, LocalSubjectAccessReviewSchema);
export const selfSubjectAccessReviewKind = reviewKind('SelfSubjectAccessReview', 'selfsubjectaccessreviews', false, SelfSubjectAccessReviewSchema);
export const selfSubjectRulesReviewKind = reviewKind('SelfSubjectRulesReview', 'selfsubjectrulesreviews', false, SelfSubjectRulesReviewSchema);
export const subjectAccessReviewKind = reviewKind('SubjectAccessReview', 'subjectaccessreviews', false, SubjectAccessReviewSchema);
