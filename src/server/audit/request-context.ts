// The audit event of a request, found from what the request's handlers hold: Kubernetes keeps it in the
// request's context, where admission adds its annotations. Here the auditor registers each audited request,
// the resource handler ties its RequestContext to it, and admission finds it from its attributes' context.
// Requests without an audit policy are never registered, so lookups find nothing.
import type { Level } from './policy.ts';

/** What admission may do with a request's audit event. */
export interface AuditAnnotationSink {
  /** The event's level: annotations recorded at a higher level than this are left out. */
  readonly level: Level;
  /** Adds an annotation to the events still to come; a key already set keeps its first value. */
  annotate(key: string, value: string): void;
}

const byRequest = new WeakMap<object, AuditAnnotationSink>();
const byContext = new WeakMap<object, AuditAnnotationSink>();

/** Called by the auditor for every request it audits. */
export function rememberRequestAudit(req: object, audit: AuditAnnotationSink): void {
  byRequest.set(req, audit);
}

/** Ties a handler's RequestContext to its request's audit event, if the request is audited. */
export function bindRequestAudit(ctx: object, req: object): void {
  const audit = byRequest.get(req);
  if (audit) byContext.set(ctx, audit);
}

/** The audit event of the request a RequestContext belongs to, or undefined when it is not audited. */
export function requestAuditOf(ctx: object): AuditAnnotationSink | undefined {
  return byContext.get(ctx);
}
