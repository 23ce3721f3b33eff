// Small kinds for the discovery and OpenAPI tests: core (namespaced and cluster-scoped, a status
// sub-resource, a view in another group), apps with two versions and a scale view, and a cluster-scoped
// kind in a dotted group.
import type { KindDefinition, VersionDefinition } from '../apis/kind.ts';
import { S } from '../apis/meta/schema.ts';
import { LabelSelector, ObjectMeta } from '../apis/meta/v1.ts';
import type { ServedKind } from './discovery.ts';

const typeMeta = {
  apiVersion: S.string({ description: 'APIVersion defines the versioned schema of this representation of an object.' }),
  kind: S.string({ description: 'Kind is a string value representing the REST resource this object represents.' }),
};

const stable = (name: string, schema: VersionDefinition['schema']): VersionDefinition => ({ name, stability: 'stable', schema });

export const ConfigMap: KindDefinition = {
  group: '', kind: 'ConfigMap', plural: 'configmaps', singular: 'configmap', namespaced: true, shortNames: ['cm'],
  storageVersion: 'v1',
  versions: [stable('v1', S.object({
    ...typeMeta,
    metadata: ObjectMeta,
    data: S.map(S.string(), { description: 'Data contains the configuration data.' }),
    binaryData: S.map(S.bytes(), { description: 'BinaryData contains the binary data.' }),
    immutable: S.bool({ description: 'Immutable, if set to true, ensures that data stored in the ConfigMap cannot be updated.' }),
  }, { description: 'ConfigMap holds configuration data for pods to consume.' }))],
};

export const Namespace: KindDefinition = {
  group: '', kind: 'Namespace', plural: 'namespaces', singular: 'namespace', namespaced: false, shortNames: ['ns'],
  storageVersion: 'v1', status: {},
  versions: [stable('v1', S.object({
    ...typeMeta,
    metadata: ObjectMeta,
    spec: S.object({ finalizers: S.list(S.string(), { description: 'Finalizers is an opaque list of values.' }) }, { ref: 'core.v1.NamespaceSpec' }),
    status: S.object({ phase: S.string({ enum: ['Active', 'Terminating'] }) }, { ref: 'core.v1.NamespaceStatus' }),
  }, { description: 'Namespace provides a scope for Names.' }))],
};

const Container = S.object({
  name: S.string({ description: 'Name of the container.' }),
  image: S.string(),
  resources: S.object({
    limits: S.map(S.quantity(), { description: 'Limits describes the maximum amount of compute resources allowed.' }),
  }, { ref: 'core.v1.ResourceRequirements' }),
}, { required: ['name'], ref: 'core.v1.Container' });

const PodSpec = S.object({
  containers: S.list(Container, { listType: 'map', listMapKeys: ['name'], patchMergeKey: 'name', patchStrategy: 'merge', description: 'List of containers belonging to the pod.' }),
  activeDeadlineSeconds: S.int64({ minimum: 1 }),
}, { required: ['containers'], ref: 'core.v1.PodSpec' });

export const Pod: KindDefinition = {
  group: '', kind: 'Pod', plural: 'pods', singular: 'pod', namespaced: true, shortNames: ['po'], categories: ['all'],
  storageVersion: 'v1', status: {},
  views: [{ name: 'eviction', group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] }],
  versions: [stable('v1', S.object({
    ...typeMeta,
    metadata: ObjectMeta,
    spec: PodSpec,
    status: S.object({ startTime: S.time({ description: 'RFC 3339 date and time at which the object was acknowledged.' }) }, { ref: 'core.v1.PodStatus' }),
  }, { description: 'Pod is a collection of containers that can run on a host.' }))],
};

const deploymentSchema = (version: string) => S.object({
  ...typeMeta,
  metadata: ObjectMeta,
  spec: S.object({
    replicas: S.int32({ description: 'Number of desired pods.' }),
    selector: LabelSelector,
    template: S.object({ metadata: ObjectMeta, spec: PodSpec }, { ref: 'core.v1.PodTemplateSpec' }),
    strategy: S.object({
      rollingUpdate: S.object({
        maxSurge: S.intOrString({ description: 'The maximum number of pods that can be scheduled above the desired number of pods.' }),
      }, { ref: `apps.${version}.RollingUpdateDeployment` }),
    }, { ref: `apps.${version}.DeploymentStrategy` }),
    paused: S.bool(),
  }, { required: ['selector', 'template'], ref: `apps.${version}.DeploymentSpec` }),
  status: S.object({
    replicas: S.int32(),
    conditions: S.list(S.object({
      type: S.string(), status: S.string(), lastUpdateTime: S.time(),
    }, { required: ['type', 'status'], ref: `apps.${version}.DeploymentCondition` }), { listType: 'map', listMapKeys: ['type'], patchMergeKey: 'type', patchStrategy: 'merge' }),
  }, { ref: `apps.${version}.DeploymentStatus` }),
}, { description: 'Deployment enables declarative updates for Pods and ReplicaSets.', ref: `apps.${version}.Deployment` });

export const Deployment: KindDefinition = {
  group: 'apps', kind: 'Deployment', plural: 'deployments', singular: 'deployment', namespaced: true, shortNames: ['deploy'], categories: ['all'],
  storageVersion: 'v1', status: {},
  views: [{ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'update', 'patch'] }],
  versions: [stable('v1', deploymentSchema('v1')), { name: 'v1beta2', stability: 'beta', schema: deploymentSchema('v1beta2') }],
};

export const ClusterRole: KindDefinition = {
  group: 'rbac.authorization.svc.io', kind: 'ClusterRole', plural: 'clusterroles', singular: 'clusterrole', namespaced: false,
  storageVersion: 'v1',
  versions: [stable('v1', S.object({
    ...typeMeta,
    metadata: ObjectMeta,
    rules: S.list(S.object({
      verbs: S.list(S.string(), { description: 'Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule.' }),
      apiGroups: S.list(S.string()),
    }, { required: ['verbs'], ref: 'rbac.v1.PolicyRule' }), { description: 'Rules holds all the PolicyRules for this ClusterRole' }),
    aggregationRule: S.object({ clusterRoleSelectors: S.list(LabelSelector) }, { ref: 'rbac.v1.AggregationRule' }),
  }, { description: 'ClusterRole is a cluster level, logical grouping of PolicyRules.' }))],
};

/** Served pairs in the order a server would list them: every served version of every kind. */
export function servedKinds(): ServedKind[] {
  const out: ServedKind[] = [];
  for (const def of [Pod, ConfigMap, Namespace, Deployment, ClusterRole]) for (const version of def.versions) out.push({ def, version });
  return out;
}
