// Go's `omitempty` on non-pointer numbers and booleans: Kubernetes decodes every body into its Go structs,
// where a zero of such a field is indistinguishable from "not sent", and encodes it back without the field.
// So `paused: false` or `minReadySeconds: 0` sent in any format (JSON, YAML, CBOR, protobuf) is stored and
// answered as if absent. Pointer fields (`replicas`, `*int32`, `*bool`) keep their zero: it means something.
//
// The table below names those fields by OpenAPI definition (`x-ref` of the object schema); go-encoding.ts
// removes them from every write, and the protobuf decoder from what it decodes.

/**
 * Non-pointer `omitempty` numeric and boolean fields of Kubernetes v1.32's Go types, by definition name.
 * (The schemas do not say which fields are Go pointers; numbers and booleans elsewhere keep their zero.)
 */
const ZERO_IS_UNSET: Readonly<Record<string, readonly string[]>> = {
  'meta.v1.ObjectMeta': ['generation'],
  'core.v1.PodSpec': ['hostNetwork', 'hostPID', 'hostIPC'],
  'core.v1.Container': ['stdin', 'stdinOnce', 'tty'],
  'core.v1.EphemeralContainer': ['stdin', 'stdinOnce', 'tty'],
  'core.v1.ContainerPort': ['hostPort'],
  'core.v1.VolumeMount': ['readOnly'],
  'core.v1.Probe': ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'],
  'core.v1.PersistentVolumeClaimVolumeSource': ['readOnly'],
  'core.v1.ServiceSpec': ['publishNotReadyAddresses', 'healthCheckNodePort'],
  'core.v1.ServicePort': ['nodePort'],
  'core.v1.NodeSpec': ['unschedulable'],
  'core.v1.Event': ['count'],
  'events.v1.Event': ['deprecatedCount'],
  'apps.v1.DeploymentSpec': ['minReadySeconds', 'paused'],
  'apps.v1.DeploymentStatus': ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'],
  'apps.v1.ReplicaSetSpec': ['minReadySeconds'],
  'apps.v1.ReplicaSetStatus': ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
  'apps.v1.DaemonSetSpec': ['minReadySeconds'],
  'apps.v1.DaemonSetStatus': ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'],
  'apps.v1.StatefulSetSpec': ['minReadySeconds'],
  'apps.v1.StatefulSetStatus': ['observedGeneration', 'readyReplicas', 'currentReplicas', 'updatedReplicas'],
  'autoscaling.v1.ScaleSpec': ['replicas'],
  'autoscaling.v2.HorizontalPodAutoscalerStatus': ['currentReplicas'],
  'batch.v1.JobStatus': ['active', 'succeeded', 'failed'],
};

/** Whether Go omits field `name` of the type `ref` (`meta.v1.ObjectMeta`) when it holds its zero. */
export function zeroIsUnset(ref: string | undefined, name: string): boolean {
  return !!ref && !!ZERO_IS_UNSET[ref]?.includes(name);
}

/** The fields of type `ref` whose zero Go omits (none for an unknown or absent ref). */
export function zeroIsUnsetFields(ref: string | undefined): readonly string[] {
  return (ref && ZERO_IS_UNSET[ref]) || NONE;
}

const NONE: readonly string[] = [];
