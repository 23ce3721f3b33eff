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

/**
 * Only metadata that the garbage collector maintains changed: no permission check is needed. As Kubernetes'
 * IsOnlyMutatingGCFields, the rest must equal the stored object, resourceVersion included: an unconditional
 * update (none sent) is checked.
 */
function onlyGcFields(a: AdmissionAttributes): boolean {
  if (!a.oldObject || !a.object) return false;
  const strip = (o: Record<string, unknown>) => {
    const { metadata, ...rest } = o as { metadata?: Record<string, unknown> };
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, ...meta } = metadata ?? {};
    return JSON.stringify(semanticForm({ ...rest, metadata: meta }));
  };
  return strip(a.object) === strip(a.oldObject);
}

/**
 * A copy that compares as Kubernetes' semantic equality does: keys in order, and a field that is null, an
 * empty string, an empty list or an empty object the same as one left out (Go's nil and empty slices and
 * maps are equal there).
 */
function semanticForm(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(semanticForm);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = semanticForm((v as Record<string, unknown>)[k]);
    const empty = x === null || x === undefined || x === '' || (Array.isArray(x) ? x.length === 0 : typeof x === 'object' && Object.keys(x).length === 0);
    if (!empty) out[k] = x;
  }
  return out;
}

/** Setting or changing an aggregation rule needs full authority; one without selectors is no rule (validation refuses it). */
function hasAggregationRule(role: ClusterRole | undefined): boolean {
  return (role?.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;
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
    // Kubernetes asks about the request's name, which a create does not have: `escalate` limited to
    // resourceNames allows updates of those roles, never a create.
    const requestName = a.operation === 'CREATE' ? '' : a.name;
    if ((await deps.authorize(check(user, 'escalate', def.plural, namespace, requestName))).decision === 'allow') return;
    await deps.catchUp();
    const role = object as unknown as ClusterRole;
    const problem = escalationProblem(deps.resolver, user, namespace, role.rules ?? []);
    if (problem) throw forbiddenStatus(gr, name, problem);
    const aggregates = hasAggregationRule(role) || hasAggregationRule(a.oldObject as unknown as ClusterRole | undefined);
    if (def.plural === 'clusterroles' && aggregates && escalationProblem(deps.resolver, user, '', FULL_AUTHORITY)) {
      throw forbiddenStatus(gr, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
    return;
  }
  if (def.plural === 'rolebindings' || def.plural === 'clusterrolebindings') {
    const binding = object as unknown as RoleBinding;
    const ref = binding.roleRef ?? { apiGroup: '', kind: '', name: '' };
    const roleResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
    const knownKind = ref.kind === 'Role' || ref.kind === 'ClusterRole';
    // An unknown kind is never bound: Kubernetes asks about `bind` only on roles and cluster roles.
    if (knownKind && (await deps.authorize(check(user, 'bind', roleResource, namespace, ref.name))).decision === 'allow') return;
    await deps.catchUp();
    // Kubernetes reads the referenced role from its registry here: a missing one is that registry's 404, a
    // Role without a namespace (from a cluster role binding) its 400, an unknown kind a plain error, which
    // the API answers as a 500 without a reason.
    if (!knownKind) throw new status.StatusError(500, '', `unsupported role reference kind: ${goQuote(ref.kind)}`);
    if (ref.kind === 'Role' && !namespace) throw status.badRequest('Namespace parameter required.');
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
