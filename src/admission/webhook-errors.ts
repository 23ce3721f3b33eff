// The errors of dynamic admission, in Kubernetes' words: a webhook that could not be called (or answered
// something unusable) is `failed calling webhook "<name>": <reason>`, which its failure policy turns into a
// 500 or ignores; a webhook that denies makes the request fail with its own status, the message prefixed
// `admission webhook "<name>" denied the request`.
import * as status from '../machinery/status.ts';
import { goQuote as quote } from '../machinery/go-format.ts';
import { isPlainObject } from '../machinery/schema/walk.ts';

/** Kubernetes' ErrCallingWebhook: subject to the webhook's failure policy. */
export class WebhookCallError extends Error {
  readonly webhookName: string;
  constructor(webhookName: string, reason: string) {
    super(`failed calling webhook ${quote(webhookName)}: ${reason}`);
    this.webhookName = webhookName;
  }
}

/** A failed call under failurePolicy Fail: apierrors.NewInternalError of it. */
export function failedClosed(err: WebhookCallError): status.StatusError {
  return status.internalError(err);
}

function detailsOf(v: unknown): status.StatusDetails | undefined {
  if (!isPlainObject(v)) return undefined;
  const d: status.StatusDetails = {};
  for (const k of ['name', 'group', 'kind', 'uid'] as const) if (typeof v[k] === 'string' && v[k]) d[k] = v[k] as string;
  if (Array.isArray(v.causes)) {
    d.causes = v.causes.filter(isPlainObject).map((c) => {
      const cause: status.StatusCause = {};
      for (const k of ['reason', 'message', 'field'] as const) if (typeof c[k] === 'string' && c[k]) cause[k] = c[k] as string;
      return cause;
    });
  }
  if (typeof v.retryAfterSeconds === 'number' && v.retryAfterSeconds) d.retryAfterSeconds = v.retryAfterSeconds;
  return Object.keys(d).length ? d : undefined;
}

/**
 * Kubernetes' ToStatusErr: the status a denying webhook answered, with a code of at least 400 and the
 * message `admission webhook "<name>" denied the request: <message or reason>` (or `... without explanation`).
 */
export function denied(webhookName: string, result: unknown): status.StatusError {
  const r = isPlainObject(result) ? result : {};
  const code = typeof r.code === 'number' && Number.isInteger(r.code) && r.code >= 400 ? r.code : 400;
  const message = typeof r.message === 'string' ? r.message : '';
  const reason = typeof r.reason === 'string' ? r.reason : '';
  const deniedBy = `admission webhook ${quote(webhookName)} denied the request`;
  const text = message ? `${deniedBy}: ${message}` : reason ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  return new status.StatusError(code, reason, text, detailsOf(r.details));
}

/** Kubernetes' NewDryRunUnsupportedErr: a dry run reached a webhook that may have side effects. */
export function dryRunUnsupported(webhookName: string): status.StatusError {
  return status.badRequest(`admission webhook ${quote(webhookName)} does not support dry run`);
}
