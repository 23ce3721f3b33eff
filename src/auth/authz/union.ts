// Ordered authorizers: the first that allows or denies decides; when none does, the request is refused
// with the reasons gathered on the way (Kubernetes' union authorizer).
import type { UserInfo } from '../../apis/kind.ts';
import { noOpinion, type Attributes, type Authorizer, type Decision, type RulesResult } from './types.ts';
import { aggregate } from '../../machinery/go-format.ts';

export function unionAuthorizer(authorizers: readonly Authorizer[], name = 'union'): Authorizer {
  return {
    name,
    async authorize(attrs: Attributes): Promise<Decision> {
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const a of authorizers) {
        const d = await a.authorize(attrs);
        if (d.decision !== 'noopinion') return d;
        if (d.reason) reasons.push(d.reason);
        if (d.error) errors.push(d.error);
      }
      // Kubernetes' union joins the reasons one per line.
      return noOpinion(reasons.join('\n'), errors.length ? aggregate(errors) : undefined);
    },
    rulesFor(user: UserInfo, namespace: string): RulesResult {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      for (const a of authorizers) {
        if (!a.rulesFor) continue;
        const r = a.rulesFor(user, namespace);
        out.resourceRules.push(...r.resourceRules);
        out.nonResourceRules.push(...r.nonResourceRules);
        if (r.incomplete) out.incomplete = true;
        out.errors.push(...r.errors);
      }
      return out;
    },
  };
}
