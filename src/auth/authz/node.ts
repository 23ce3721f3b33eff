// The Node authorizer: a node agent (user `system:node:<name>` in group `system:nodes`) may read and write
// its own Node, Lease and CSINode, read the pods bound to it and the secrets, configmaps, persistent volume
// claims (and their volumes) and service accounts those pods use, and request tokens for those service
// accounts. Anything else gets no opinion, so a later authorizer decides.
import type { UserInfo } from '../../apis/kind.ts';
import { parseFieldSelector } from '../../machinery/fields.ts';
import { allow, noOpinion, NO_OPINION, emptyRules, type Attributes, type Authorizer, type Decision } from './types.ts';

export const NODE_USER_PREFIX = 'system:node:';
export const NODES_GROUP = 'system:nodes';
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** The node a user speaks for: `name` ('' when the name is empty), or undefined when it is not a node. */
export function nodeIdentity(user: UserInfo): string | undefined {
  if (!user.username.startsWith(NODE_USER_PREFIX)) return undefined;
  if (!user.groups.includes(NODES_GROUP)) return undefined;
  return user.username.slice(NODE_USER_PREFIX.length);
}

export interface PodLike {
  metadata?: { name?: string; namespace?: string };
  spec?: Record<string, any>;
}

/** What the authorizer reads: the pods bound to a node, and persistent volume claims. */
export interface NodeGraphSource {
  podsOnNode(node: string): Iterable<PodLike>;
  getPersistentVolumeClaim(namespace: string, name: string): { spec?: { volumeName?: string } } | undefined;
  getPersistentVolume?(name: string): { spec?: Record<string, any> } | undefined;
}

export interface PodReferences {
  secrets: Set<string>;
  configMaps: Set<string>;
  claims: Set<string>;
  serviceAccount: string;
}

/** Every secret, configmap, claim and the service account a pod uses (Kubernetes' VisitPod*Names). */
export function podReferences(pod: PodLike): PodReferences {
  const spec = pod.spec ?? {};
  const refs: PodReferences = { secrets: new Set(), configMaps: new Set(), claims: new Set(), serviceAccount: spec.serviceAccountName || spec.serviceAccount || 'default' };
  const add = (set: Set<string>, name: unknown) => { if (typeof name === 'string' && name) set.add(name); };
  for (const s of spec.imagePullSecrets ?? []) add(refs.secrets, s?.name);
  const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])];
  for (const c of containers) {
    for (const e of c?.envFrom ?? []) { add(refs.secrets, e?.secretRef?.name); add(refs.configMaps, e?.configMapRef?.name); }
    for (const e of c?.env ?? []) { add(refs.secrets, e?.valueFrom?.secretKeyRef?.name); add(refs.configMaps, e?.valueFrom?.configMapKeyRef?.name); }
  }
  for (const v of spec.volumes ?? []) {
    if (!v) continue;
    add(refs.secrets, v.secret?.secretName);
    add(refs.configMaps, v.configMap?.name);
    add(refs.claims, v.persistentVolumeClaim?.claimName);
    if (v.ephemeral && pod.metadata?.name) add(refs.claims, `${pod.metadata.name}-${v.name}`);
    for (const src of v.projected?.sources ?? []) { add(refs.secrets, src?.secret?.name); add(refs.configMaps, src?.configMap?.name); }
    for (const key of ['azureFile']) add(refs.secrets, v[key]?.secretName);
    for (const key of ['cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) add(refs.secrets, v[key]?.secretRef?.name);
    add(refs.secrets, v.csi?.nodePublishSecretRef?.name);
  }
  return refs;
}

/** Secrets a persistent volume names (read by the node that mounts it). */
function volumeSecrets(pv: { spec?: Record<string, any> } | undefined): Set<string> {
  const out = new Set<string>();
  const spec = pv?.spec ?? {};
  for (const key of ['azureFile', 'cephfs', 'cinder', 'flexVolume', 'iscsi', 'rbd', 'scaleIO', 'storageos']) {
    const ref = spec[key]?.secretRef ?? (spec[key]?.secretName ? { name: spec[key].secretName } : undefined);
    if (ref?.name) out.add(`${ref.namespace ?? spec.claimRef?.namespace ?? ''}/${ref.name}`);
  }
  for (const k of ['nodePublishSecretRef', 'nodeStageSecretRef', 'nodeExpandSecretRef', 'controllerPublishSecretRef']) {
    const ref = spec.csi?.[k];
    if (ref?.name) out.add(`${ref.namespace ?? ''}/${ref.name}`);
  }
  return out;
}

export function nodeAuthorizer(graph: NodeGraphSource): Authorizer {
  const related = (node: string, kind: 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts' | 'pods' | 'persistentvolumes', namespace: string, name: string): boolean => {
    for (const pod of graph.podsOnNode(node)) {
      const podNs = pod.metadata?.namespace ?? '';
      if (kind === 'pods') { if (podNs === namespace && pod.metadata?.name === name) return true; continue; }
      const refs = podReferences(pod);
      if (kind === 'persistentvolumes') {
        for (const claim of refs.claims) if (graph.getPersistentVolumeClaim(podNs, claim)?.spec?.volumeName === name) return true;
        continue;
      }
      if (podNs !== namespace) {
        // A persistent volume may name a secret in another namespace.
        if (kind === 'secrets') for (const claim of refs.claims) if (pvSecretMatches(graph, podNs, claim, namespace, name)) return true;
        continue;
      }
      if (kind === 'secrets' && refs.secrets.has(name)) return true;
      if (kind === 'configmaps' && refs.configMaps.has(name)) return true;
      if (kind === 'persistentvolumeclaims' && refs.claims.has(name)) return true;
      if (kind === 'serviceaccounts' && refs.serviceAccount === name) return true;
      if (kind === 'secrets') for (const claim of refs.claims) if (pvSecretMatches(graph, podNs, claim, namespace, name)) return true;
    }
    return false;
  };

  const byGraph = (node: string, kind: Parameters<typeof related>[1], a: Attributes): Decision => {
    if (!a.name) return noOpinion('No Object name found');
    if (related(node, kind, a.namespace, a.name)) return allow();
    return noOpinion(`no relationship found between node '${node}' and this object`);
  };

  const readNamespaced = (node: string, kind: 'secrets' | 'configmaps', a: Attributes): Decision => {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return noOpinion('can only read resources of this type');
    if (a.subresource) return noOpinion('cannot read subresource');
    if (!a.namespace) return noOpinion('can only read namespaced object of this type');
    return byGraph(node, kind, a);
  };

  const getOnly = (node: string, kind: 'persistentvolumeclaims' | 'persistentvolumes' | 'serviceaccounts', a: Attributes): Decision => {
    if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
    if (a.subresource) return noOpinion('cannot get subresource');
    return byGraph(node, kind, a);
  };

  return {
    name: 'Node',
    authorize(a: Attributes): Decision {
      const node = nodeIdentity(a.user);
      if (node === undefined) return NO_OPINION;
      if (!node) return noOpinion(`unknown node for user ${JSON.stringify(a.user.username)}`);
      if (!a.isResourceRequest) return NO_OPINION;
      const gr = `${a.apiGroup}/${a.resource}`;
      switch (gr) {
        case '/secrets': return readNamespaced(node, 'secrets', a);
        case '/configmaps': return readNamespaced(node, 'configmaps', a);
        case '/persistentvolumeclaims':
          if (a.subresource === 'status') {
            if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only update or patch persistentvolumeclaim status');
            return byGraph(node, 'persistentvolumeclaims', a);
          }
          return getOnly(node, 'persistentvolumeclaims', a);
        case '/persistentvolumes': return getOnly(node, 'persistentvolumes', a);
        case '/serviceaccounts':
          if (a.subresource === 'token') {
            if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
            return byGraph(node, 'serviceaccounts', a);
          }
          if (a.subresource) return noOpinion('can only create token subresource of serviceaccount');
          return getOnly(node, 'serviceaccounts', a);
        case '/pods': return authorizePod(node, a, byGraph);
        case '/nodes': return authorizeNode(node, a);
        case 'coordination.svc.io/leases': return authorizeLease(node, a);
        case 'storage.svc.io/csinodes': return authorizeCSINode(node, a);
        default: return NO_OPINION;
      }
    },
    // Node permissions depend on the pods bound to the node, which a rules review cannot enumerate.
    rulesFor: (user) => (nodeIdentity(user) !== undefined ? emptyRules(true, ['node authorizer does not support user rule resolution']) : emptyRules()),
  };
}

function pvSecretMatches(graph: NodeGraphSource, podNs: string, claim: string, namespace: string, name: string): boolean {
  const volumeName = graph.getPersistentVolumeClaim(podNs, claim)?.spec?.volumeName;
  if (!volumeName || !graph.getPersistentVolume) return false;
  return volumeSecrets(graph.getPersistentVolume(volumeName)).has(`${namespace}/${name}`);
}

function fieldSelectorValue(a: Attributes, field: string): string | undefined {
  if (!a.fieldSelector) return undefined;
  try {
    for (const r of parseFieldSelector(a.fieldSelector)) if (r.field === field && r.operator === '=') return r.value;
  } catch { return undefined; }
  return undefined;
}

function authorizePod(node: string, a: Attributes, byGraph: (node: string, kind: 'pods', a: Attributes) => Decision): Decision {
  if (a.verb === 'get' && !a.subresource) return byGraph(node, 'pods', a);
  if ((a.verb === 'list' || a.verb === 'watch') && !a.subresource) {
    if (fieldSelectorValue(a, 'spec.nodeName') === node) return allow();
    if (a.name) return byGraph(node, 'pods', a);
    return noOpinion('can only list/watch pods with spec.nodeName field selector');
  }
  return noOpinion('can only read pods bound to this node');
}

function authorizeNode(node: string, a: Attributes): Decision {
  if (a.subresource && a.subresource !== 'status') return noOpinion('cannot access node subresources other than status');
  const verbs = a.subresource === 'status' ? ['get', 'update', 'patch'] : ['get', 'list', 'watch', 'create', 'update', 'patch'];
  if (!verbs.includes(a.verb)) return noOpinion(`can only ${verbs.join(', ')} its own node`);
  // The name of a created node is in the body, not the URL; any other verb names the node.
  const name = a.name || fieldSelectorValue(a, 'metadata.name') || '';
  if (a.verb !== 'create' && name !== node) return noOpinion('can only access the node with the same name as the requesting node');
  return allow();
}

function authorizeLease(node: string, a: Attributes): Decision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
  if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the ${NODE_LEASE_NAMESPACE} namespace`);
  if (a.verb !== 'create' && a.name !== node) return noOpinion('can only access node lease with the same name as the requesting node');
  return allow();
}

function authorizeCSINode(node: string, a: Attributes): Decision {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
  if (a.subresource) return noOpinion('cannot authorize CSINode subresources');
  if (a.verb !== 'create' && a.name !== node) return noOpinion('can only access CSINode with the same name as the requesting node');
  return allow();
}
