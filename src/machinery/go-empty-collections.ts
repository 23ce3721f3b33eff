// Empty lists and maps as Kubernetes stores them: a built-in object goes to etcd as protobuf, where an empty
// list or map (`[]`, `{}`) cannot be told from none, so it reads back as Go's nil. Every answer then encodes
// that nil as Go's encoding/json does: an `omitempty` field is left out, any other is written `null` (a
// ClusterRole without rules answers `"rules": null`). So, when a write is decoded:
// - an empty list or map field is removed, unless the field has no `omitempty`,
// - such a non-omitempty field, empty or absent, becomes `null` (Go writes it whenever its struct is there).
// Free-form values (preserve-unknown-fields) keep what was sent; ObjectMeta's managedFields is left to the
// field manager: an empty list sent there asks it to clear ownership, and it drops the field itself.
//
// The tables below name the exceptions by OpenAPI definition (`x-ref`); go-encoding.ts applies the rule.

/**
 * List fields without `omitempty` in Kubernetes v1.32's Go types (k8s.io/api `types.go`), by definition
 * name; no map field of these groups lacks it. Every other list or map field is `omitempty`.
 */
const NULL_WHEN_EMPTY: Readonly<Record<string, readonly string[]>> = {
  'core.v1.PodSpec': ['containers'],
  'core.v1.NodeSelector': ['nodeSelectorTerms'],
  'core.v1.TopologySelectorLabelRequirement': ['values'],
  'core.v1.ProjectedVolumeSource': ['sources'],
  'core.v1.CephFSVolumeSource': ['monitors'],
  'core.v1.CephFSPersistentVolumeSource': ['monitors'],
  'core.v1.RBDVolumeSource': ['monitors'],
  'core.v1.RBDPersistentVolumeSource': ['monitors'],
  'core.v1.ContainerImage': ['names'],
  'core.v1.LimitRangeSpec': ['limits'],
  'rbac.v1.Role': ['rules'],
  'rbac.v1.ClusterRole': ['rules'],
  'rbac.v1.PolicyRule': ['verbs'],
  'networking.v1.HTTPIngressRuleValue': ['paths'],
  'storage.v1.CSINodeSpec': ['drivers'],
  'storage.v1.CSINodeDriver': ['topologyKeys'],
  'admissionregistration.v1.ValidatingWebhook': ['admissionReviewVersions'],
  'admissionregistration.v1.MutatingWebhook': ['admissionReviewVersions'],
  'flowcontrol.v1.PolicyRulesWithSubjects': ['subjects'],
  'flowcontrol.v1.ResourcePolicyRule': ['verbs', 'apiGroups', 'resources', 'namespaces'],
  'flowcontrol.v1.NonResourcePolicyRule': ['verbs', 'nonResourceURLs'],
  'authentication.v1.TokenRequestSpec': ['audiences'],
  'authorization.v1.SubjectRulesReviewStatus': ['resourceRules', 'nonResourceRules'],
  'authorization.v1.ResourceRule': ['verbs'],
  'authorization.v1.NonResourceRule': ['verbs'],
  'discovery.v1.EndpointSlice': ['endpoints'],
  'discovery.v1.Endpoint': ['addresses'],
  'batch.v1.PodFailurePolicy': ['rules'],
  'batch.v1.PodFailurePolicyRule': ['onPodConditions'],
  'batch.v1.PodFailurePolicyOnExitCodesRequirement': ['values'],
  'batch.v1.SuccessPolicy': ['rules'],
};

/**
 * Empty lists kept as sent, for Kubernetes' defaulting and validation to see: they tell an empty list from
 * none where this pass cannot. An HPA's scaling rules get default policies only when `policies` is absent,
 * and validation refuses an empty list ("must specify at least one Policy"), so it is never stored.
 */
const EMPTY_IS_SET: Readonly<Record<string, readonly string[]>> = {
  'autoscaling.v2.HPAScalingRules': ['policies'],
};

/** Whether Go writes field `name` of type `ref` as `null` when it holds no list (it lacks `omitempty`). */
export function emptyIsNull(ref: string | undefined, name: string): boolean {
  return !!ref && !!NULL_WHEN_EMPTY[ref]?.includes(name);
}

/** Whether an empty list in field `name` of type `ref` is kept as sent (for defaulting and validation). */
export function emptyIsKept(ref: string | undefined, name: string): boolean {
  return !!ref && !!EMPTY_IS_SET[ref]?.includes(name);
}
