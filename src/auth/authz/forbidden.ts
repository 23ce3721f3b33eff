// The 403 an authorization denial answers, worded as Kubernetes words it (responsewriters.Forbidden).
import { StatusError, qualified } from '../../machinery/status.ts';
import { goQuote } from '../../machinery/go-format.ts';
import type { Attributes } from './types.ts';

/** `User "u" cannot get resource "pods/log" in API group "" in the namespace "ns"` and its variants. */
export function forbiddenMessage(attrs: Attributes): string {
  const username = attrs.user.username;
  if (!attrs.isResourceRequest) return `User ${goQuote(username)} cannot ${attrs.verb} path ${goQuote(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const where = attrs.namespace ? `in the namespace ${goQuote(attrs.namespace)}` : 'at the cluster scope';
  return `User ${goQuote(username)} cannot ${attrs.verb} resource ${goQuote(resource)} in API group ${goQuote(attrs.apiGroup)} ${where}`;
}

// Kubernetes keeps a denial from looking like HTML: `&`, `<` and `>` of the user, path or resource are
// escaped (the authorizer's reason is not).
const htmlSpecial: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const sanitize = (s: string): string => s.replace(/[&<>]/g, (c) => htmlSpecial[c]!);

/** The Forbidden Status for a denied request; an authorizer's reason is appended after `: `. */
export function forbiddenError(attrs: Attributes, reason: string): StatusError {
  let msg = sanitize(forbiddenMessage(attrs));
  if (reason) msg += `: ${reason}`;
  return forbiddenStatus({ group: attrs.isResourceRequest ? attrs.apiGroup : '', resource: attrs.isResourceRequest ? attrs.resource : '' }, attrs.isResourceRequest ? attrs.name : '', msg);
}

/** apierrors.NewForbidden: `<res> "<name>" is forbidden: <msg>`, or `forbidden: <msg>` without a resource. */
export function forbiddenStatus(gr: { group: string; resource: string }, name: string, msg: string): StatusError {
  let message: string;
  if (!gr.group && !gr.resource) message = `forbidden: ${msg}`;
  else if (!name) message = `${qualified(gr)} is forbidden: ${msg}`;
  else message = `${qualified(gr)} ${goQuote(name)} is forbidden: ${msg}`;
  const details: Record<string, string> = {};
  if (name) details.name = name;
  if (gr.group) details.group = gr.group;
  if (gr.resource) details.kind = gr.resource;
  return new StatusError(403, 'Forbidden', message, details);
}
