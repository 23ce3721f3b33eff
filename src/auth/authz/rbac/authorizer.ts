// The RBAC authorizer: allows when any rule bound to the user matches, else no opinion (with the
// resolution errors as the reason, as Kubernetes reports them).
import type { UserInfo } from '../../../apis/kind.ts';
import { allow, noOpinion, splitRules, type Attributes, type Authorizer, type Decision, type RulesResult } from '../types.ts';
import { aggregate } from '../../../machinery/go-format.ts';
import { ruleAllows } from './rules.ts';
import { describeSource, RuleResolver } from './resolver.ts';
import type { RbacSource } from './types.ts';

export function rbacAuthorizer(source: RbacSource): Authorizer & { resolver: RuleResolver } {
  const resolver = new RuleResolver(source);
  return {
    name: 'RBAC',
    resolver,
    authorize(attrs: Attributes): Decision {
      let allowedBy = '';
      const errors: string[] = [];
      resolver.visitRulesFor(attrs.user, attrs.namespace, (src, rule, err) => {
        if (rule && src && ruleAllows(attrs, rule)) {
          allowedBy = `RBAC: allowed by ${describeSource(src)}`;
          return false;
        }
        if (err) errors.push(err);
        return true;
      });
      if (allowedBy) return allow(allowedBy);
      return errors.length ? noOpinion(`RBAC: ${aggregate(errors)}`) : noOpinion();
    },
    rulesFor(user: UserInfo, namespace: string): RulesResult {
      const { rules, errors } = resolver.rulesFor(user, namespace);
      return { ...splitRules(rules), incomplete: false, errors };
    },
  };
}
