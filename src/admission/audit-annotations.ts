// Audit annotations admission adds to a request (Kubernetes' Attributes.AddAnnotationWithLevel): kept on the
// admission attributes while a phase runs, then handed to the request's audit event, without those recorded
// at a higher level than the event's (a webhook's patch is kept only at Request level and above).
import { isQualifiedName } from '../machinery/validation/strings.ts';
import { requestAuditOf } from '../server/audit/request-context.ts';
import { levelIncludes } from '../server/audit/policy.ts';
import type { AdmissionAttributes } from './chain.ts';

export type AnnotationLevel = 'Metadata' | 'Request';

export interface AdmissionAnnotation { value: string; level: AnnotationLevel }

/** Kubernetes' checkKeyFormat: a DNS subdomain prefix, `/`, and a name, as a label key. */
export function annotationKeyError(key: string): string | undefined {
  if (key.split('/').length !== 2) {
    return "annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.svc.io/admit-policy')";
  }
  const msgs = isQualifiedName(key);
  if (msgs.length) return `annotation key has invalid format ${msgs.join(',')}. A qualified name like 'podsecuritypolicy.admission.svc.io/admit-policy' is required.`;
  return undefined;
}

/**
 * Adds an annotation to the request's admission attributes; answers why it was refused (Kubernetes logs
 * that and goes on): a key of the wrong format, or one already set to another value.
 */
export function addAnnotation(attrs: AdmissionAttributes, key: string, value: string, level: AnnotationLevel = 'Metadata'): string | undefined {
  const bad = annotationKeyError(key);
  if (bad) return bad;
  const into = (attrs.auditAnnotations ??= new Map());
  const known = into.get(key);
  if (known) {
    if (known.value === value && known.level === level) return undefined;
    return `admission annotations are not allowed to be overwritten, key:${JSON.stringify(key)}`;
  }
  into.set(key, { value, level });
  return undefined;
}

/** Hands the attributes' annotations to the request's audit event (Kubernetes' audit handler does so after
 *  each admission phase, whether it admitted or refused). */
export function flushAnnotations(attrs: AdmissionAttributes): void {
  const annotations = attrs.auditAnnotations;
  if (!annotations?.size) return;
  attrs.auditAnnotations = undefined;
  const audit = requestAuditOf(attrs.ctx);
  if (!audit) return;
  for (const [key, a] of annotations) if (levelIncludes(audit.level, a.level)) audit.annotate(key, a.value);
}
