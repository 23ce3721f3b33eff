// Every failure the API answers is a StatusError: a `Status` object with Kubernetes' reason, code and message.
import { type FieldError, fieldErrorBody, fieldErrorText } from './field-errors.ts';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

export class StatusError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: StatusDetails | undefined;
  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
  }
  toStatus(): Status {
    const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, code: this.code };
    // An empty details object stays: Kubernetes' router errors carry `"details":{}`.
    if (this.details) s.details = this.details;
    if (!this.reason) delete s.reason;
    return s;
  }
}

/** A resource named as Kubernetes names it in messages: `configmaps`, `deployments.apps`. */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualified(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(404, 'NotFound', `${qualified(gr)} "${name}" not found`, { name, group: gr.group || undefined, kind: gr.resource });
}

export function pathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists`, { name, group: gr.group || undefined, kind: gr.resource });
}

export function generateNameConflict(gr: GroupResource, name: string): StatusError {
  return new StatusError(409, 'AlreadyExists', `${qualified(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`, {
    name, group: gr.group || undefined, kind: gr.resource, retryAfterSeconds: 1,
  });
}

export function conflict(gr: GroupResource, name: string, reason: string): StatusError {
  return new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(gr)} "${name}": ${reason}`, { name, group: gr.group || undefined, kind: gr.resource });
}

/** A storage precondition (uid, then resourceVersion) that the object does not meet, as Kubernetes' storage
 *  words it; undefined when both hold. */
export function preconditionConflict(gr: GroupResource, name: string, pre: { uid?: string; resourceVersion?: string } | undefined, meta: { uid?: string; resourceVersion?: string }): StatusError | undefined {
  if (pre?.uid && pre.uid !== meta.uid) return conflict(gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  if (pre?.resourceVersion && pre.resourceVersion !== meta.resourceVersion) {
    return conflict(gr, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
  }
  return undefined;
}

export const OBJECT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid. `kind` is the Kind (`ConfigMap`), `group` its API group. */
export function invalid(group: string, kind: string, name: string, errs: FieldError[]): StatusError {
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  // The message names each text once, as Kubernetes' ErrorList.ToAggregate drops repeats; the causes keep all.
  const texts = [...new Set(errs.map(fieldErrorText))];
  const joined = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return new StatusError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${joined}`, {
    name: name || undefined, group: group || undefined, kind,
    causes: errs.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
  });
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function unauthorized(message = 'Unauthorized'): StatusError {
  return new StatusError(401, 'Unauthorized', message);
}

export function forbidden(gr: GroupResource, name: string, message: string): StatusError {
  const prefix = name ? `${qualified(gr)} "${name}" is forbidden: ` : `${qualified(gr)} is forbidden: `;
  return new StatusError(403, 'Forbidden', prefix + message, { name: name || undefined, group: gr.group || undefined, kind: gr.resource });
}

export function expired(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

export function gone(message: string): StatusError {
  return new StatusError(410, 'Gone', message);
}

export function methodNotAllowed(verb: string, gr: GroupResource): StatusError {
  return new StatusError(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualified(gr)}"`, { group: gr.group || undefined, kind: gr.resource });
}

/** The 405 for a method that no route of the path serves (Kubernetes' mux answers it without a kind). */
export function noRouteForMethod(): StatusError {
  return new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
}

export function notAcceptable(accepted: string[]): StatusError {
  return new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

export function unsupportedMediaType(contentType: string, accepted: string[]): StatusError {
  return new StatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`, {
    causes: contentType ? [{ message: `unsupported media type: ${contentType}` }] : undefined,
  });
}

export function requestEntityTooLarge(message: string): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return new StatusError(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: `Too large resource version` }],
    retryAfterSeconds: 1,
  });
}

export function timeout(message: string, retryAfterSeconds?: number): StatusError {
  return new StatusError(504, 'Timeout', `Timeout: ${message}`, retryAfterSeconds ? { retryAfterSeconds } : undefined);
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

export function serverTimeout(gr: GroupResource, operation: string, retryAfterSeconds = 2, cause?: string): StatusError {
  return new StatusError(500, 'ServerTimeout', `The ${operation} operation against ${qualified(gr)} could not be completed at this time, please try again.`, {
    name: operation, group: gr.group || undefined, kind: gr.resource, retryAfterSeconds, causes: cause ? [{ message: cause }] : undefined,
  });
}

/** The store cannot be reached (etcd lost its quorum): a retryable 503. */
export function storeUnavailable(detail: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', `storage is unavailable: ${detail}`, { retryAfterSeconds: 2 });
}

export function internalError(err: unknown): StatusError {
  const msg = err instanceof Error ? err.message : String(err);
  return new StatusError(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
}

export function tooManyRequests(message: string, retryAfterSeconds = 1): StatusError {
  return new StatusError(429, 'TooManyRequests', `Too many requests: ${message}`, { retryAfterSeconds });
}

export function isNotFound(err: unknown): boolean {
  return err instanceof StatusError && err.code === 404;
}

export function isConflict(err: unknown): boolean {
  return err instanceof StatusError && err.code === 409;
}
