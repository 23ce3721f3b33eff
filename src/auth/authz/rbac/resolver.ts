// Which RBAC rules apply to a user in a namespace: the cluster role bindings, then the namespace's role
// bindings, each resolved to its role's rules (Kubernetes' DefaultRuleResolver).
import type { UserInfo } from '../../../apis/kind.ts';
import type { PolicyRule } from '../types.ts';
import { goQuote } from '../../../machinery/go-format.ts';
import { RBAC_GROUP, type RbacSource, type RoleBinding, type RoleRef, type Subject } from './types.ts';

export const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** Describes where an allowing rule came from, in the words of the review's `reason`. */
export interface RuleSource {
  binding: RoleBinding;
  subject: Subject;
  clusterScoped: boolean;
}

export function describeSource(s: RuleSource): string {
  const b = s.binding;
  const ns = b.metadata.namespace ?? '';
  if (s.clusterScoped) return `ClusterRoleBinding ${goQuote(b.metadata.name ?? '')} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(s.subject, '')}`;
  return `RoleBinding ${goQuote(`${b.metadata.name ?? ''}/${ns}`)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${describeSubject(s.subject, ns)}`;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${goQuote(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${goQuote(s.name)}`;
}

/** Visits each rule (or resolution error); returning false stops the walk. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

export class RuleResolver {
  private readonly source: RbacSource;
  constructor(source: RbacSource) {
    this.source = source;
  }

  /** The rules a role reference grants in a binding's namespace ('' for a cluster role binding). */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): PolicyRule[] {
    if (ref.kind === 'Role') {
      const role = this.source.getRole(bindingNamespace, ref.name);
      if (!role) throw new Error(`role.${RBAC_GROUP} ${goQuote(ref.name)} not found`);
      return role.rules ?? [];
    }
    if (ref.kind === 'ClusterRole') {
      const role = this.source.getClusterRole(ref.name);
      if (!role) throw new Error(`clusterrole.${RBAC_GROUP} ${goQuote(ref.name)} not found`);
      return role.rules ?? [];
    }
    throw new Error(`unsupported role reference kind: ${goQuote(ref.kind)}`);
  }

  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    for (const binding of this.source.listClusterRoleBindings()) {
      const subject = appliesTo(user, binding.subjects, '');
      if (!subject) continue;
      let rules: PolicyRule[];
      try { rules = this.roleReferenceRules(binding.roleRef, ''); } catch (err) {
        if (!visit(undefined, undefined, (err as Error).message)) return;
        continue;
      }
      const source: RuleSource = { binding, subject, clusterScoped: true };
      for (const rule of rules) if (!visit(source, rule, undefined)) return;
    }
    if (!namespace) return;
    for (const binding of this.source.listRoleBindings(namespace)) {
      const subject = appliesTo(user, binding.subjects, namespace);
      if (!subject) continue;
      let rules: PolicyRule[];
      try { rules = this.roleReferenceRules(binding.roleRef, namespace); } catch (err) {
        if (!visit(undefined, undefined, (err as Error).message)) return;
        continue;
      }
      const source: RuleSource = { binding, subject, clusterScoped: false };
      for (const rule of rules) if (!visit(source, rule, undefined)) return;
    }
  }

  /** Every rule that applies, and the errors met resolving them (the list may then be incomplete). */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: string[] } {
    const rules: PolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_s, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }
}

/** The first subject of a binding that names the user, one of its groups, or its service account. */
export function appliesTo(user: UserInfo, subjects: readonly Subject[] | null | undefined, namespace: string): Subject | undefined {
  for (const s of subjects ?? []) if (subjectMatches(user, s, namespace)) return s;
  return undefined;
}

function subjectMatches(user: UserInfo, s: Subject, namespace: string): boolean {
  switch (s.kind) {
    case 'User':
      return user.username === s.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount': {
      // A role binding's service account without a namespace means the binding's own namespace.
      const ns = s.namespace || namespace;
      if (!ns) return false;
      return user.username === `${SERVICE_ACCOUNT_PREFIX}${ns}:${s.name}`;
    }
    default:
      return false;
  }
}
