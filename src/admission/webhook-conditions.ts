// A webhook's matchConditions: CEL expressions over `object`, `oldObject`, `request` (the AdmissionRequest
// without its objects) and `authorizer` (Kubernetes' authorization library: `authorizer.group('apps')
// .resource('deployments').namespace('ns').check('create').allowed()`, `authorizer.path('/healthz')`,
// `authorizer.serviceAccount(ns, name)`, `authorizer.requestResource`). Any false skips the webhook; errors
// with none false follow the failure policy (the caller decides). Expressions are compiled once per webhook.
import type { UserInfo } from '../apis/kind.ts';
import { compileCel, CelPending, type CelHost, type CelProgram } from '../machinery/cel.ts';
import { AUTHORIZER, DECISION, GROUP_CHECK, MATCH_CONDITION_VARIABLES, PATH_CHECK, RESOURCE_CHECK } from '../apis/admissionregistration/match-conditions.ts';
import type { Attributes, Decision } from '../auth/authz/types.ts';
import { aggregate } from '../machinery/go-format.ts';
import type { CompiledWebhook } from './webhook-configurations.ts';


/** The request's own resource, which `authorizer.requestResource` checks. */
export interface RequestResourceAttributes { group: string; resource: string; subresource: string; namespace: string; name: string }

/** Authorization decisions asked during one admission request, shared by its expressions. */
export class AuthorizationChecks {
  private readonly authorize: (a: Attributes) => Promise<Decision>;
  private readonly answers = new Map<string, Decision | Promise<unknown>>();
  constructor(authorize: (a: Attributes) => Promise<Decision>) {
    this.authorize = authorize;
  }
  /** The decision, or CelPending while it is being asked (the expression is then evaluated again). */
  decide(a: Attributes): Decision {
    const key = JSON.stringify(a);
    const known = this.answers.get(key);
    if (known && !(known instanceof Promise)) return known;
    if (known) throw new CelPending(known);
    const asked = this.authorize(a).then(
      (d) => { this.answers.set(key, d); },
      (err: Error) => { this.answers.set(key, { decision: 'noopinion', reason: '', error: err.message }); },
    );
    this.answers.set(key, asked);
    throw new CelPending(asked);
  }
}

const str = (v: unknown, method: string): string => {
  if (typeof v !== 'string') throw new Error(`no such overload: ${method}(${v === null ? 'null_type' : typeof v})`);
  return v;
};

class DecisionValue implements CelHost {
  readonly celTypeName = DECISION.name;
  private readonly d: Decision;
  constructor(d: Decision) {
    this.d = d;
  }
  celCall(method: string): unknown {
    if (method === 'allowed') return this.d.decision === 'allow';
    if (method === 'reason') return this.d.reason;
    if (method === 'errored') return this.d.error !== undefined;
    if (method === 'error') return this.d.error ?? '';
    throw new Error(`no such overload: ${method}`);
  }
}

interface ResourceTarget { group: string; resource: string; subresource: string; namespace: string; name: string }

class ResourceCheckValue implements CelHost {
  readonly celTypeName = RESOURCE_CHECK.name;
  private readonly authz: AuthorizerValue;
  private readonly t: ResourceTarget;
  constructor(authz: AuthorizerValue, t: ResourceTarget) {
    this.authz = authz;
    this.t = t;
  }
  celCall(method: string, args: unknown[]): unknown {
    if (method === 'subresource' || method === 'namespace' || method === 'name') return new ResourceCheckValue(this.authz, { ...this.t, [method]: str(args[0], method) });
    if (method === 'check') {
      const t = this.t;
      return new DecisionValue(this.authz.checks.decide({
        user: this.authz.user, verb: str(args[0], method), isResourceRequest: true, path: '', namespace: t.namespace, apiGroup: t.group, apiVersion: '*',
        resource: t.resource, subresource: t.subresource, name: t.name,
      }));
    }
    throw new Error(`no such overload: ${method}`);
  }
}

class AuthorizerValue implements CelHost {
  readonly celTypeName = AUTHORIZER.name;
  readonly user: UserInfo;
  readonly checks: AuthorizationChecks;
  private readonly request: RequestResourceAttributes | undefined;
  constructor(user: UserInfo, checks: AuthorizationChecks, request?: RequestResourceAttributes) {
    this.user = user;
    this.checks = checks;
    this.request = request;
  }
  celField(name: string): unknown {
    if (name === 'requestResource' && this.request) return new ResourceCheckValue(this, { ...this.request });
    throw new Error(`no such field: ${name}`);
  }
  celCall(method: string, args: unknown[]): unknown {
    if (method === 'group') {
      const group = str(args[0], method);
      return { celTypeName: GROUP_CHECK.name, celCall: (m: string, a: unknown[]) => {
        if (m !== 'resource') throw new Error(`no such overload: ${m}`);
        return new ResourceCheckValue(this, { group, resource: str(a[0], m), subresource: '', namespace: '', name: '' });
      } } satisfies CelHost;
    }
    if (method === 'path') {
      const path = str(args[0], method);
      return { celTypeName: PATH_CHECK.name, celCall: (m: string, a: unknown[]) => {
        if (m !== 'check') throw new Error(`no such overload: ${m}`);
        return new DecisionValue(this.checks.decide({ user: this.user, verb: str(a[0], m), isResourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' }));
      } } satisfies CelHost;
    }
    if (method === 'serviceAccount') {
      const ns = str(args[0], method), name = str(args[1], method);
      return new AuthorizerValue({ username: `system:serviceaccount:${ns}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`] }, this.checks);
    }
    throw new Error(`no such overload: ${method}`);
  }
}

export function celAuthorizer(user: UserInfo, checks: AuthorizationChecks, request: RequestResourceAttributes): CelHost {
  return new AuthorizerValue(user, checks, request);
}

interface CompiledCondition { name: string; expression: string; program?: CelProgram; error?: string }

function compiledConditions(hook: CompiledWebhook): CompiledCondition[] {
  if (hook.compiled) return hook.compiled as CompiledCondition[];
  const out = hook.matchConditions.map((c) => {
    const expression = c.expression ?? '';
    try {
      return { name: c.name ?? '', expression, program: compileCel(expression, MATCH_CONDITION_VARIABLES, { wantBool: true }) };
    } catch (err) {
      return { name: c.name ?? '', expression, error: `compilation error: ${(err as Error).message}` };
    }
  });
  hook.compiled = out;
  return out;
}

export type ConditionsOutcome = { matches: true } | { matches: false; failedCondition?: string } | { error: string };

/**
 * Evaluates the webhook's conditions in order: the first false decides (skip); otherwise any error is the
 * outcome (aggregated as Kubernetes prints several), and with none the webhook matches.
 */
export async function evaluateMatchConditions(hook: CompiledWebhook, vars: Record<string, unknown>): Promise<ConditionsOutcome> {
  const errors: string[] = [];
  for (const c of compiledConditions(hook)) {
    if (!c.program) { errors.push(c.error!); continue; }
    let result: unknown;
    try {
      result = await c.program.evaluateAsync(vars);
    } catch (err) {
      errors.push(`expression '${c.expression}' resulted in error: ${(err as Error).message}`);
      continue;
    }
    if (result === false) return { matches: false, failedCondition: c.name };
    if (result !== true) errors.push(`expression '${c.expression}' resulted in error: no such overload: bool(${typeof result})`);
  }
  return errors.length ? { error: aggregate(errors) } : { matches: true };
}
