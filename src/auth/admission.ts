// Admission plugins of access control: RBAC escalation prevention (a role or binding may only grant what
// its author holds, unless the author may `escalate` or `bind`), and the node restriction that keeps a node
// agent's creations to its own Node, Lease and CSINode.
import type { AdmissionPlugin, AdmissionAttributes } from '../admission/chain.ts';
import type { UserInfo } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { forbiddenStatus } from './authz/forbidden.ts';
import * as status from '../machinery/status.ts';
import { goQuote } from '../machinery/go-format.ts';
import { escalationProblem, FULL_AUTHORITY } from './authz/rbac/escalation.ts';
import type { RuleResolver } from './authz/rbac/resolver.ts';
import { RBAC_GROUP, type ClusterRole, type RoleBinding } from './authz/rbac/types.ts';
import { nodeIdentity, NODE_LEASE_NAMESPACE } from './authz/node.ts';
import type { Attributes, Decision } from './authz/types.ts';
import { SYSTEM_MASTERS } from './user.ts';

export interface EscalationDeps {
  resolver: RuleResolver;
  authorize(attrs: Attributes): Promise<Decision>;
  /** Brings the RBAC caches up to date before the author's permissions are read. */
  catchUp(): Promise<void>;
}

function check(user: UserInfo, verb: string, resource: string, namespace: string, name: string): Attributes {
  return { user, verb, isResourceRequest: true, path: '', namespace, apiGroup: RBAC_GROUP, apiVersion: '*', resource, subresource: '', name };
}

/** Only metadata that the garbage collector maintains changed: no permission check is needed. */
function onlyGcFields(a: AdmissionAttributes): boolean {
  if (!a.oldObject || !a.object) return false;
  const strip = (o: Record<string, unknown>) => {
    const { metadata, ...rest } = o as { metadata?: Record<string, unknown> };
    const { ownerReferences: _o, finalizers: _f, resourceVersion: _r, managedFields: _m, ...meta } = metadata ?? {};
    return JSON.stringify({ ...rest, metadata: meta });
  };
  return strip(a.object) === strip(a.oldObject);
}

export function rbacEscalationAdmission(deps: EscalationDeps): AdmissionPlugin {
  return {
    name: 'RBACEscalation',
    validate(a) {
      // Anything but an RBAC write answers at once, without a promise for the chain to wait on.
      const def = a.served.def;
      if (def.group !== RBAC_GROUP || (a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.object) return;
      if (a.ctx.user.groups.includes(SYSTEM_MASTERS)) return;
      if (a.operation === 'UPDATE' && onlyGcFields(a)) return;
      return checkEscalation(deps, a, a.object);
    },
  };
}

async function checkEscalation(deps: EscalationDeps, a: AdmissionAttributes, object: ApiObject): Promise<void> {
  const def = a.served.def;
  const user = a.ctx.user;
  const gr = { group: RBAC_GROUP, resource: def.plural };
  const name = object.metadata?.name ?? a.name;
  const namespace = def.namespaced ? a.namespace : '';
  if (def.plural === 'roles' || def.plural === 'clusterroles') {
    if ((await deps.authorize(check(user, 'escalate', def.plural, namespace, name))).decision === 'allow') return;
    await deps.catchUp();
    const role = object as unknown as ClusterRole;
    const problem = escalationProblem(deps.resolver, user, namespace, role.rules ?? []);
    if (problem) throw forbiddenStatus(gr, name, problem);
    if (def.plural === 'clusterroles' && role.aggregationRule && escalationProblem(deps.resolver, user, '', FULL_AUTHORITY)) {
      throw forbiddenStatus(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
    return;
  }
  if (def.plural === 'rolebindings' || def.plural === 'clusterrolebindings') {
    const binding = object as unknown as RoleBinding;
    const ref = binding.roleRef ?? { apiGroup: '', kind: '', name: '' };
    const roleResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
    if ((await deps.authorize(check(user, 'bind', roleResource, namespace, ref.name))).decision === 'allow') return;
    await deps.catchUp();
    // Kubernetes reads the referenced role from its registry here: a missing one is that registry's 404,
    // an unknown kind an internal error.
    if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole') throw status.internalError(new Error(`unsupported role reference kind: ${goQuote(ref.kind)}`));
    let rules;
    try {
      rules = deps.resolver.roleReferenceRules(ref, namespace);
    } catch {
      throw status.notFound({ group: RBAC_GROUP, resource: roleResource }, ref.name);
    }
    const problem = escalationProblem(deps.resolver, user, namespace, rules);
    if (problem) throw forbiddenStatus(gr, name, problem);
  }
}

/** Node agents may create only their own Node, node Lease and CSINode (Kubernetes' NodeRestriction, in part). */
export function nodeRestrictionAdmission(): AdmissionPlugin {
  return {
    name: 'NodeRestriction',
    validate(a) {
      if (a.operation !== 'CREATE' || !a.object) return;
      const node = nodeIdentity(a.ctx.user);
      if (node === undefined) return;
      const def = a.served.def;
      const name = a.object.metadata?.name ?? a.name;
      const gr = { group: def.group, resource: def.plural };
      if (def.group === '' && def.plural === 'nodes' && name !== node) {
        throw forbiddenStatus(gr, name, `node ${JSON.stringify(node)} is not allowed to modify node ${JSON.stringify(name)}`);
      }
      if (def.group === 'coordination.svc.io' && def.plural === 'leases' && a.namespace === NODE_LEASE_NAMESPACE && name !== node) {
        throw forbiddenStatus(gr, name, 'can only access node lease with the same name as the requesting node');
      }
      if (def.group === 'storage.svc.io' && def.plural === 'csinodes' && name !== node) {
        throw forbiddenStatus(gr, name, 'can only access CSINode with the same name as the requesting node');
      }
    },
  };
}
