import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podCreateWarnings, podTemplateWarnings, workloadCreateWarnings, workloadUpdateWarnings, claimSpecWarnings } from './pod-warnings.ts';
import type { ApiObject } from '../meta/v1.ts';

const pod = (spec: Record<string, unknown>, annotations?: Record<string, string>, name = 'p'): ApiObject =>
  ({ metadata: { name, ...(annotations ? { annotations } : {}) }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } });

test('a plain pod has no warnings', () => {
  assert.deepEqual(podCreateWarnings(pod({})), []);
});

test('deprecated node labels in nodeSelector, node affinity and topology spread', () => {
  const warnings = podCreateWarnings(pod({
    nodeSelector: { 'beta.platform.io/arch': 'amd64', 'platform.io/os': 'linux' },
    affinity: { nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.platform.io/zone', operator: 'Exists' }] }] },
      preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'beta.platform.io/instance-type', operator: 'Exists' }] } }],
    } },
    topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'failure-domain.beta.platform.io/region', whenUnsatisfiable: 'DoNotSchedule' }],
  }));
  assert.deepEqual(warnings, [
    'spec.nodeSelector[beta.platform.io/arch]: deprecated since v1.14; use "platform.io/arch" instead',
    'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key: failure-domain.beta.platform.io/zone is deprecated since v1.17; use "topology.platform.io/zone" instead',
    'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: beta.platform.io/instance-type is deprecated since v1.17; use "node.platform.io/instance-type" instead',
    'spec.topologySpreadConstraints[0].topologyKey: failure-domain.beta.platform.io/region is deprecated since v1.17; use "topology.platform.io/region" instead',
    'spec.topologySpreadConstraints[0].labelSelector: a null labelSelector results in matching no pod',
  ]);
});

test('deprecated annotations and volume plugins, in Kubernetes\' order', () => {
  const warnings = podCreateWarnings(pod({
    volumes: [
      { name: 'g', gitRepo: { repository: 'r' } },
      { name: 'r', rbd: { monitors: ['m'], image: 'i' } },
      { name: 'e', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1.5' } } } } } },
    ],
  }, { 'scheduler.alpha.platform.io/critical-pod': '', 'seccomp.security.alpha.platform.io/pod': 'runtime/default' }));
  assert.deepEqual(warnings, [
    'metadata.annotations[scheduler.alpha.platform.io/critical-pod]: non-functional in v1.16+; use the "priorityClassName" field instead',
    'spec.volumes[0].gitRepo: deprecated in v1.11',
    'spec.volumes[1].rbd: deprecated in v1.28, non-functional in v1.31+',
    'spec.volumes[2].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]: fractional byte value "1500m" is invalid, must be an integer',
    'metadata.annotations[seccomp.security.alpha.platform.io/pod]: non-functional in v1.27+; use the "seccompProfile" field instead',
  ]);
});

test('the seccomp annotations say nothing once the field is set', () => {
  const annotations = { 'seccomp.security.alpha.platform.io/pod': 'runtime/default', 'container.seccomp.security.alpha.platform.io/c': 'runtime/default' };
  assert.deepEqual(podCreateWarnings({ metadata: { name: 'p', annotations }, spec: {
    securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{ name: 'c', image: 'i', securityContext: { seccompProfile: { type: 'RuntimeDefault' } } }],
  } }), []);
  assert.deepEqual(podCreateWarnings(pod({}, { 'container.seccomp.security.alpha.platform.io/c': 'runtime/default' })), [
    'metadata.annotations[container.seccomp.security.alpha.platform.io/c]: non-functional in v1.27+; use the "seccompProfile" field instead',
  ]);
});

test('projected paths that clash with a service account token', () => {
  const warnings = podCreateWarnings(pod({ volumes: [{ name: 'v', projected: { sources: [
    { serviceAccountToken: { path: 'token' } },
    { configMap: { name: 'cm', items: [{ key: 'k', path: 'other' }, { key: 'k', path: 'token' }] } },
    { secret: { name: 's', items: [{ key: 'k', path: 'token' }] } },
    { downwardAPI: { items: [{ path: 'token', fieldRef: { fieldPath: 'metadata.name' } }] } },
  ] } }] }));
  assert.deepEqual(warnings, [
    'spec.volumes[0].projected.sources.configMap[1]: has duplicated path with ServiceAccountToken "token"',
    'spec.volumes[0].projected.sources.secrets[0]: has duplicated path with ServiceAccountToken "token"',
    'spec.volumes[0].projected.sources.downwardAPI[0]: has duplicated path with ServiceAccountToken "token"',
  ]);
});

test('duplicate host aliases and pull secrets, empty pull-secret names, fractional byte quantities', () => {
  const warnings = podCreateWarnings(pod({
    hostAliases: [{ ip: '1.2.3.4', hostnames: ['a'] }, { ip: '1.2.3.4', hostnames: ['b'] }],
    imagePullSecrets: [{ name: 's' }, { name: 's' }, {}],
    overhead: { memory: '1.5' },
    containers: [{ name: 'c', image: 'i', resources: { limits: { memory: '100m' }, requests: { 'ephemeral-storage': '0.5' } } }],
  }));
  assert.deepEqual(warnings, [
    'spec.hostAliases[1].ip: duplicate ip "1.2.3.4"',
    'spec.imagePullSecrets[1].name: duplicate name "s"',
    'spec.imagePullSecrets[2].name: invalid empty name ""',
    'spec.overhead[memory]: fractional byte value "1500m" is invalid, must be an integer',
    'spec.containers[0].resources.limits[memory]: fractional byte value "100m" is invalid, must be an integer',
    'spec.containers[0].resources.requests[ephemeral-storage]: fractional byte value "500m" is invalid, must be an integer',
  ]);
});

test('a repeated env var warns unless it builds on the earlier value', () => {
  const env = [
    { name: 'A', value: 'x' }, { name: 'A', value: '$(A)-more' }, { name: 'A', value: '$(A)' }, { name: 'A', value: 'y' },
    { name: 'B', value: '1' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
  ];
  assert.deepEqual(podCreateWarnings(pod({ initContainers: [{ name: 'i', image: 'i', env }] })), [
    'spec.initContainers[0].env[2]: hides previous definition of "A", which may be dropped when using apply',
    'spec.initContainers[0].env[3]: hides previous definition of "A", which may be dropped when using apply',
    'spec.initContainers[0].env[5]: hides previous definition of "B", which may be dropped when using apply',
  ]);
});

test('ports that repeat, overlap or are ambiguous across containers; host IP without host port', () => {
  const warnings = podCreateWarnings(pod({ containers: [
    { name: 'a', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }] },
    { name: 'b', image: 'i', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 80, protocol: 'TCP', hostPort: 8080 }] },
    { name: 'c', image: 'i', ports: [{ containerPort: 81, protocol: 'TCP', hostPort: 81 }, { containerPort: 81, protocol: 'TCP', hostPort: 81, hostIP: '1.1.1.1' }] },
  ] }));
  assert.deepEqual(warnings, [
    'spec.containers[0].ports[1]: hostIP set without hostPort: {Name: HostPort:0 ContainerPort:53 Protocol:UDP HostIP:10.0.0.1}',
    'spec.containers[1].ports[0]: duplicate port definition with spec.containers[0].ports[0]',
    'spec.containers[1].ports[1]: overlapping port definition with spec.containers[0].ports[0]',
    'spec.containers[1].ports[1]: overlapping port definition with spec.containers[1].ports[0]',
    'spec.containers[2].ports[1]: dangerously ambiguous port definition with spec.containers[2].ports[0]',
  ]);
});

test('a negative grace period and pod affinity terms without a selector', () => {
  const term = { topologyKey: 'zone' };
  assert.deepEqual(podCreateWarnings(pod({
    terminationGracePeriodSeconds: -5,
    affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term] }, podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: term }] } },
  })), [
    'spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
    'spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod',
    'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod',
  ]);
});

test('a pod name that is not a DNS label warns first after AppArmor', () => {
  assert.deepEqual(podCreateWarnings(pod({}, { 'container.apparmor.security.beta.platform.io/c': 'runtime/default' }, 'a.b')), [
    'metadata.annotations[container.apparmor.security.beta.platform.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead',
    "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
  ]);
});

test('a pod AppArmor annotation is quiet when it names the pod profile or the container has its own', () => {
  const annotations = { 'container.apparmor.security.beta.platform.io/c': 'localhost/prof' };
  assert.deepEqual(podCreateWarnings(pod({ securityContext: { appArmorProfile: { type: 'Localhost', localhostProfile: 'prof' } } }, annotations)), []);
  assert.equal(podCreateWarnings(pod({ securityContext: { appArmorProfile: { type: 'Unconfined' } } }, annotations)).length, 1);
  assert.deepEqual(podCreateWarnings(pod({ containers: [{ name: 'c', image: 'i', securityContext: { appArmorProfile: { type: 'Unconfined' } } }] }, annotations)), []);
  assert.deepEqual(podCreateWarnings(pod({ os: { name: 'windows' } }, annotations)), []);
});

test('template warnings sit under the template path; AppArmor annotations warn there without a field', () => {
  const template = {
    metadata: { annotations: { 'container.apparmor.security.beta.platform.io/c': 'unconfined' } },
    spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: 'g', gitRepo: { repository: 'r' } }] },
  };
  assert.deepEqual(podTemplateWarnings(template, 'spec.template'), [
    'spec.template.spec.volumes[0].gitRepo: deprecated in v1.11',
    'spec.template.metadata.annotations[container.apparmor.security.beta.platform.io/c]: deprecated since v1.30; use the "appArmorProfile" field instead',
  ]);
  const withField = { ...template, spec: { ...template.spec, securityContext: { appArmorProfile: { type: 'Unconfined' } } } };
  assert.deepEqual(podTemplateWarnings(withField, 'spec.template'), ['spec.template.spec.volumes[0].gitRepo: deprecated in v1.11']);
});

test('workloads warn about their name and template on create, and on update only with a new generation', () => {
  const spec = { template: { spec: { containers: [{ name: 'c', image: 'i' }], terminationGracePeriodSeconds: -1 } } };
  const obj: ApiObject = { metadata: { name: 'web.v1', generation: 2 }, spec };
  assert.deepEqual(workloadCreateWarnings(obj), [
    'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
  ]);
  assert.deepEqual(workloadUpdateWarnings(obj, { metadata: { name: 'web.v1', generation: 2 }, spec }), []);
  assert.deepEqual(workloadUpdateWarnings(obj, { metadata: { name: 'web.v1', generation: 1 }, spec }), [
    'spec.template.spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1',
  ]);
});

test('claim spec warnings', () => {
  assert.deepEqual(claimSpecWarnings({ resources: { limits: { storage: '1Gi' }, requests: { storage: '0.1' } } }, 'spec'), [
    'spec.resources.requests[storage]: fractional byte value "100m" is invalid, must be an integer',
  ]);
});
