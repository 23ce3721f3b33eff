// The Webhook authorizer: asks a remote service with a SubjectAccessReview (v1 or v1beta1) over HTTPS,
// caches allowed and denied answers for their TTLs, skips the call when a match condition is false, and
// answers per its failure policy when the call, the answer or a condition fails.
import type http from 'node:http';
import { compileCel, T, type CelProgram } from '../../machinery/cel.ts';
import { postJson, webhookAgent, type WebhookConnection } from '../kubeconfig-client.ts';
import { emptyRules, type Attributes, type Authorizer, type Decision } from './types.ts';
import { aggregate } from '../../machinery/go-format.ts';

export const AUTHORIZATION_GROUP = 'authorization.svc.io';

export interface WebhookOptions {
  name: string;
  connection: WebhookConnection;
  subjectAccessReviewVersion: 'v1' | 'v1beta1';
  authorizedTTLMs: number;
  unauthorizedTTLMs: number;
  timeoutMs: number;
  /** What a failed call, a malformed answer or a failed condition gives. */
  failurePolicy: 'NoOpinion' | 'Deny';
  matchConditions?: CelProgram[];
  log?: (line: string) => void;
}

/** The SubjectAccessReviewSpec (v1) as CEL match conditions see it, under the name `request`. */
export const SAR_SPEC_CEL_TYPE = T.message('SubjectAccessReviewSpec', {
  resourceAttributes: T.message('ResourceAttributes', {
    namespace: T.string, verb: T.string, group: T.string, version: T.string, resource: T.string, subresource: T.string, name: T.string,
    fieldSelector: T.message('FieldSelectorAttributes', { rawSelector: T.string, requirements: T.list(T.dyn) }),
    labelSelector: T.message('LabelSelectorAttributes', { rawSelector: T.string, requirements: T.list(T.dyn) }),
  }),
  nonResourceAttributes: T.message('NonResourceAttributes', { path: T.string, verb: T.string }),
  user: T.string,
  groups: T.list(T.string),
  extra: T.map(T.list(T.string)),
  uid: T.string,
});

/** Compiles one match condition; throws CelCompileError with CEL's message. */
export function compileMatchCondition(expression: string): CelProgram {
  return compileCel(expression, { request: SAR_SPEC_CEL_TYPE }, { wantBool: true });
}

/** The SubjectAccessReview spec (v1 field names) for a request's attributes. */
export function subjectAccessReviewSpec(a: Attributes): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  if (a.isResourceRequest) {
    const ra: Record<string, string> = {};
    for (const [k, v] of [['namespace', a.namespace], ['verb', a.verb], ['group', a.apiGroup], ['version', a.apiVersion], ['resource', a.resource], ['subresource', a.subresource], ['name', a.name]] as const) {
      if (v) ra[k] = v;
    }
    spec.resourceAttributes = ra;
  } else {
    spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  spec.user = a.user.username;
  if (a.user.groups.length) spec.groups = [...a.user.groups];
  if (a.user.extra && Object.keys(a.user.extra).length) spec.extra = a.user.extra;
  if (a.user.uid) spec.uid = a.user.uid;
  return spec;
}

interface ReviewStatus {
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

export function webhookAuthorizer(o: WebhookOptions): Authorizer & { close(): void } {
  const cache = new Map<string, { status: ReviewStatus; expires: number }>();
  let agent: http.Agent | undefined = webhookAgent(o.connection);
  const onError = (error: string): Decision => (o.failurePolicy === 'Deny' ? { decision: 'deny', reason: '', error } : { decision: 'noopinion', reason: '', error });

  const matches = (spec: Record<string, unknown>): { matched: boolean; error?: string } => {
    const errors: string[] = [];
    for (const c of o.matchConditions ?? []) {
      try {
        const v = c.evaluate({ request: spec });
        if (v === false) return { matched: false };
        if (v !== true) errors.push(`expression '${c.expression}' resulted in non-boolean value`);
      } catch (err) {
        errors.push(`expression '${c.expression}' resulted in error: ${(err as Error).message}`);
      }
    }
    return errors.length ? { matched: false, error: aggregate(errors) } : { matched: true };
  };

  const call = async (spec: Record<string, unknown>): Promise<ReviewStatus> => {
    const wire = o.subjectAccessReviewVersion === 'v1beta1' ? toV1beta1(spec) : spec;
    const body = { apiVersion: `${AUTHORIZATION_GROUP}/${o.subjectAccessReviewVersion}`, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null }, spec: wire, status: { allowed: false } };
    const res = await postJson(o.connection, agent, body, o.timeoutMs);
    if (res.status < 200 || res.status >= 300) throw new Error(`the webhook answered HTTP ${res.status}`);
    let parsed: { status?: Record<string, unknown> };
    try { parsed = JSON.parse(res.body); } catch { throw new Error('the webhook answered something that is not JSON'); }
    const s = parsed?.status;
    if (!s || typeof s !== 'object' || (s.allowed !== undefined && typeof s.allowed !== 'boolean') || (s.denied !== undefined && typeof s.denied !== 'boolean')) {
      throw new Error('the webhook answered a malformed SubjectAccessReview');
    }
    return { allowed: s.allowed === true, denied: s.denied === true, reason: typeof s.reason === 'string' ? s.reason : '', evaluationError: typeof s.evaluationError === 'string' ? s.evaluationError : undefined };
  };

  return {
    name: o.name,
    async authorize(attrs: Attributes): Promise<Decision> {
      const spec = subjectAccessReviewSpec(attrs);
      if (o.matchConditions?.length) {
        const m = matches(spec);
        if (m.error) return onError(m.error);
        if (!m.matched) return { decision: 'noopinion', reason: '' };
      }
      const key = JSON.stringify(spec);
      const now = Date.now();
      let status = cache.get(key);
      let result: ReviewStatus;
      if (status && status.expires > now) {
        result = status.status;
      } else {
        try {
          result = await call(spec);
        } catch (err) {
          o.log?.(`authorization webhook ${o.name}: ${(err as Error).message}`);
          return onError(`Post ${JSON.stringify(o.connection.server.href)}: ${(err as Error).message}`);
        }
        const ttl = result.allowed ? o.authorizedTTLMs : o.unauthorizedTTLMs;
        if (ttl > 0) {
          cache.set(key, { status: result, expires: now + ttl });
          if (cache.size > 10_000) for (const [k, v] of cache) if (v.expires <= now) cache.delete(k);
        }
        status = undefined;
      }
      if (result.allowed && result.denied) return { decision: 'deny', reason: result.reason ?? '', error: 'webhook subject access review returned both allow and deny response' };
      if (result.denied) return { decision: 'deny', reason: result.reason ?? '' };
      if (result.allowed) return { decision: 'allow', reason: result.reason ?? '' };
      return { decision: 'noopinion', reason: result.reason ?? '' };
    },
    // A webhook cannot list what it would allow.
    rulesFor: () => emptyRules(true),
    close() { agent?.destroy(); agent = undefined; },
  };
}

function toV1beta1(spec: Record<string, unknown>): Record<string, unknown> {
  const { groups, ...rest } = spec;
  return groups ? { ...rest, group: groups } : rest;
}
