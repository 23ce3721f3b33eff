import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../apis/meta/v1.ts';
import { evaluatorFor, objectCountName, prettyPrint, quotaScopes, resourceList, toJson } from './quota-evaluators.ts';

const obj = (o: object) => ({ metadata: { name: 'x' }, ...o }) as ApiObject;
const usage = (group: string, plural: string, o: object) => toJson(evaluatorFor({ group, plural }).usage(obj(o)));

test('every kind counts under count/<resource>[.<group>]; some also under their bare name', () => {
  assert.equal(objectCountName('', 'configmaps'), 'count/configmaps');
  assert.equal(objectCountName('apps', 'deployments'), 'count/deployments.apps');
  assert.deepEqual(usage('', 'configmaps', {}), { 'configmaps': '1', 'count/configmaps': '1' });
  assert.deepEqual(usage('apps', 'deployments', {}), { 'count/deployments.apps': '1' });
  const cm = evaluatorFor({ group: '', plural: 'configmaps' });
  assert.deepEqual(cm.matchingResources(['configmaps', 'count/configmaps', 'secrets', 'pods']), ['configmaps', 'count/configmaps']);
  assert.equal(cm.handles('CREATE'), true);
  assert.equal(cm.handles('UPDATE'), false);
  // Scoped quotas track pods only.
  assert.equal(cm.matchesScopes([{ scopeName: 'BestEffort', operator: 'Exists' }], obj({})), false);
});

test('pods: compute from the containers (requests default to limits), init containers, overhead; terminal pods only count', () => {
  const spec = {
    containers: [
      { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } } },
      { name: 'b', resources: { limits: { cpu: '300m', memory: '128Mi' } } },
    ],
    initContainers: [{ name: 'init', resources: { requests: { cpu: '1' } } }],
    overhead: { cpu: '10m' },
  };
  assert.deepEqual(usage('', 'pods', { spec }), {
    'count/pods': '1', cpu: '1010m', 'limits.cpu': '510m', 'limits.memory': '128Mi', memory: '192Mi', pods: '1', 'requests.cpu': '1010m', 'requests.memory': '192Mi',
  });
  // A sidecar (restartable init container) adds to the sum.
  const sidecar = { containers: [{ name: 'a', resources: { requests: { cpu: '100m' } } }], initContainers: [{ name: 's', restartPolicy: 'Always', resources: { requests: { cpu: '50m' } } }] };
  assert.equal(usage('', 'pods', { spec: sidecar })['requests.cpu'], '150m');
  assert.deepEqual(usage('', 'pods', { spec, status: { phase: 'Succeeded' } }), { 'count/pods': '1' });
  const gone = { spec, metadata: { name: 'x', deletionTimestamp: '2020-01-01T00:00:00Z', deletionGracePeriodSeconds: 30 } };
  assert.deepEqual(usage('', 'pods', gone), { 'count/pods': '1' });
  const ext = { containers: [{ name: 'a', resources: { requests: { 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi' } } }] };
  assert.deepEqual(usage('', 'pods', { spec: ext }), { 'count/pods': '1', 'hugepages-2Mi': '4Mi', pods: '1', 'requests.example.com/gpu': '2', 'requests.hugepages-2Mi': '4Mi' });
});

test('pods: containers must state what a quota tracks of cpu and memory', () => {
  const pods = evaluatorFor({ group: '', plural: 'pods' });
  const pod = obj({ spec: { containers: [{ name: 'a', resources: { limits: { cpu: '1' } } }, { name: 'b' }], initContainers: [{ name: 'i' }] } });
  assert.equal(pods.constraintProblem(['requests.cpu', 'memory', 'pods'], pod), 'must specify memory for: a,b,i; requests.cpu for: b,i');
  assert.equal(pods.constraintProblem(['pods', 'count/pods'], pod), undefined);
  assert.deepEqual(pods.matchingResources(['pods', 'requests.cpu', 'hugepages-1Gi', 'requests.example.com/gpu', 'configmaps', 'requests.storage']), ['pods', 'requests.cpu', 'hugepages-1Gi', 'requests.example.com/gpu']);
});

test('pod scopes: terminating, best effort, priority class, cross-namespace affinity', () => {
  const pods = evaluatorFor({ group: '', plural: 'pods' });
  const q = (spec: object) => quotaScopes(obj({ spec }));
  const bestEffort = obj({ spec: { containers: [{ name: 'a' }] } });
  const burstable = obj({ spec: { containers: [{ name: 'a', resources: { requests: { memory: '1Mi' } } }], activeDeadlineSeconds: 10, priorityClassName: 'high' } });
  assert.equal(pods.matchesScopes(q({ scopes: ['BestEffort', 'NotTerminating'] }), bestEffort), true);
  assert.equal(pods.matchesScopes(q({ scopes: ['BestEffort'] }), burstable), false);
  assert.equal(pods.matchesScopes(q({ scopes: ['Terminating', 'NotBestEffort'] }), burstable), true);
  const selector = (operator: string, values?: string[]) => q({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator, values }] } });
  assert.equal(pods.matchesScopes(selector('In', ['high', 'low']), burstable), true);
  assert.equal(pods.matchesScopes(selector('NotIn', ['high']), burstable), false);
  assert.equal(pods.matchesScopes(selector('Exists'), burstable), true);
  assert.equal(pods.matchesScopes(selector('Exists'), bestEffort), false);
  const affinity = obj({ spec: { containers: [{ name: 'a' }], affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'k', namespaceSelector: {} }] } } } });
  assert.equal(pods.matchesScopes(q({ scopes: ['CrossNamespacePodAffinity'] }), affinity), true);
  assert.equal(pods.matchesScopes(q({ scopes: ['CrossNamespacePodAffinity'] }), bestEffort), false);
});

test('services: node ports and load balancers by type; claims: storage and per class', () => {
  const ports = [{ port: 1 }, { port: 2, nodePort: 30002 }];
  assert.deepEqual(usage('', 'services', { spec: { type: 'ClusterIP', ports } }), { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' });
  assert.deepEqual(usage('', 'services', { spec: { type: 'NodePort', ports } })['services.nodeports'], '2');
  assert.deepEqual(usage('', 'services', { spec: { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports } }), { 'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '1' });
  assert.equal(evaluatorFor({ group: '', plural: 'services' }).handles('UPDATE'), true);
  assert.deepEqual(usage('', 'persistentvolumeclaims', { spec: { storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } }, status: { allocatedResources: { storage: '2Gi' } } }), {
    'count/persistentvolumeclaims': '1', 'gold.storageclass.storage.svc.io/persistentvolumeclaims': '1', 'gold.storageclass.storage.svc.io/requests.storage': '2Gi', persistentvolumeclaims: '1', 'requests.storage': '2Gi',
  });
  assert.deepEqual(usage('', 'persistentvolumeclaims', { metadata: { name: 'x', annotations: { 'volume.beta.platform.io/storage-class': 'slow' } }, spec: {} }), {
    'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'slow.storageclass.storage.svc.io/persistentvolumeclaims': '1',
  });
});

test('resource lists print as Kubernetes prints them in quota messages', () => {
  assert.equal(prettyPrint(resourceList({ 'requests.memory': '1Gi', configmaps: '2', 'requests.cpu': '0.5' })), 'configmaps=2,requests.cpu=500m,requests.memory=1Gi');
});
