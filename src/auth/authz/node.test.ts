import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nodeAuthorizer, nodeIdentity, podReferences, type PodLike } from './node.ts';
import type { Attributes } from './types.ts';

const pods: PodLike[] = [
  {
    metadata: { name: 'web', namespace: 'app' },
    spec: {
      nodeName: 'n1', serviceAccountName: 'web-sa', imagePullSecrets: [{ name: 'pull' }],
      containers: [{ env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'k' } } }], envFrom: [{ configMapRef: { name: 'env-cm' } }] }],
      volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }, { name: 'cfg', configMap: { name: 'vol-cm' } }, { name: 'tls', secret: { secretName: 'tls' } }, { name: 'scratch', ephemeral: {} }],
    },
  },
  { metadata: { name: 'db', namespace: 'app' }, spec: { nodeName: 'n2', volumes: [{ name: 's', secret: { secretName: 'db-secret' } }] } },
];
const graph = {
  podsOnNode: (node: string) => pods.filter((p) => p.spec?.nodeName === node),
  getPersistentVolumeClaim: (ns: string, name: string) => (ns === 'app' && name === 'data' ? { spec: { volumeName: 'pv-1' } } : undefined),
  getPersistentVolume: (name: string) => (name === 'pv-1' ? { spec: { csi: { nodePublishSecretRef: { name: 'csi-creds', namespace: 'storage' } } } } : undefined),
};
const node = nodeAuthorizer(graph);
const n1 = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

function a(o: Partial<Attributes>): Attributes {
  return { user: n1, verb: 'get', isResourceRequest: true, path: '', namespace: '', apiGroup: '', apiVersion: 'v1', resource: '', subresource: '', name: '', ...o };
}
const d = (o: Partial<Attributes>) => (node.authorize(a(o)) as { decision: string; reason: string });

test('identity needs the system:node: prefix and the system:nodes group', () => {
  assert.equal(nodeIdentity(n1), 'n1');
  assert.equal(nodeIdentity({ username: 'system:node:n1', groups: [] }), undefined);
  assert.equal(nodeIdentity({ username: 'alice', groups: ['system:nodes'] }), undefined);
  assert.deepEqual(node.authorize(a({ user: { username: 'alice', groups: [] }, resource: 'secrets', namespace: 'app', name: 'tls' })), { decision: 'noopinion', reason: '' });
});

test('pod references cover volumes, env, envFrom, pull secrets and ephemeral claims', () => {
  const r = podReferences(pods[0]);
  assert.deepEqual([...r.secrets].sort(), ['env-secret', 'pull', 'tls']);
  assert.deepEqual([...r.configMaps].sort(), ['env-cm', 'vol-cm']);
  assert.deepEqual([...r.claims].sort(), ['data', 'web-scratch']);
  assert.equal(r.serviceAccount, 'web-sa');
});

test('a node reads what its pods use, and nothing of other nodes', () => {
  assert.equal(d({ resource: 'secrets', namespace: 'app', name: 'tls' }).decision, 'allow');
  assert.equal(d({ resource: 'secrets', namespace: 'app', name: 'env-secret', verb: 'watch' }).decision, 'allow');
  assert.equal(d({ resource: 'configmaps', namespace: 'app', name: 'vol-cm' }).decision, 'allow');
  assert.equal(d({ resource: 'persistentvolumeclaims', namespace: 'app', name: 'data' }).decision, 'allow');
  assert.equal(d({ resource: 'persistentvolumes', name: 'pv-1' }).decision, 'allow');
  assert.equal(d({ resource: 'secrets', namespace: 'storage', name: 'csi-creds' }).decision, 'allow');
  assert.equal(d({ resource: 'serviceaccounts', namespace: 'app', name: 'web-sa' }).decision, 'allow');
  assert.equal(d({ resource: 'serviceaccounts', subresource: 'token', verb: 'create', namespace: 'app', name: 'web-sa' }).decision, 'allow');
  assert.equal(d({ resource: 'pods', namespace: 'app', name: 'web' }).decision, 'allow');
  const other = d({ resource: 'secrets', namespace: 'app', name: 'db-secret' });
  assert.deepEqual(other, { decision: 'noopinion', reason: "no relationship found between node 'n1' and this object" });
  assert.equal(d({ resource: 'pods', namespace: 'app', name: 'db' }).decision, 'noopinion');
  assert.equal(d({ resource: 'secrets', namespace: 'app', name: 'tls', verb: 'update' }).reason, 'can only read resources of this type');
  assert.equal(d({ resource: 'secrets', namespace: 'app', verb: 'list' }).reason, 'No Object name found');
  assert.equal(d({ resource: 'serviceaccounts', namespace: 'app', name: 'other' }).decision, 'noopinion');
});

test('a node lists pods only with its own spec.nodeName selector', () => {
  assert.equal(d({ resource: 'pods', verb: 'list', fieldSelector: 'spec.nodeName=n1' }).decision, 'allow');
  assert.equal(d({ resource: 'pods', verb: 'watch', fieldSelector: 'spec.nodeName=n2' }).decision, 'noopinion');
  assert.equal(d({ resource: 'pods', verb: 'list' }).reason, 'can only list/watch pods with spec.nodeName field selector');
  assert.equal(d({ resource: 'pods', verb: 'delete', namespace: 'app', name: 'web' }).decision, 'noopinion');
});

test('a node writes its own Node, Lease and CSINode only', () => {
  assert.equal(d({ resource: 'nodes', name: 'n1', verb: 'update' }).decision, 'allow');
  assert.equal(d({ resource: 'nodes', name: 'n1', subresource: 'status', verb: 'patch' }).decision, 'allow');
  assert.equal(d({ resource: 'nodes', name: 'n2' }).decision, 'noopinion');
  assert.equal(d({ resource: 'nodes', verb: 'list' }).decision, 'noopinion');
  assert.equal(d({ resource: 'nodes', name: 'n1', verb: 'delete' }).decision, 'noopinion');
  assert.equal(d({ apiGroup: 'coordination.svc.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1', verb: 'update' }).decision, 'allow');
  assert.equal(d({ apiGroup: 'coordination.svc.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n2', verb: 'update' }).decision, 'noopinion');
  assert.equal(d({ apiGroup: 'coordination.svc.io', resource: 'leases', namespace: 'default', name: 'n1' }).reason, 'can only access leases in the kube-node-lease namespace');
  assert.equal(d({ apiGroup: 'storage.svc.io', resource: 'csinodes', name: 'n1', verb: 'patch' }).decision, 'allow');
  assert.equal(d({ resource: 'namespaces', verb: 'list' }).decision, 'noopinion');
  assert.equal(d({ isResourceRequest: false, path: '/healthz' }).decision, 'noopinion');
});

test('rules review: nodes are incomplete, others empty', () => {
  assert.equal(node.rulesFor!(n1, 'app').incomplete, true);
  assert.equal(node.rulesFor!({ username: 'x', groups: [] }, 'app').incomplete, false);
});
