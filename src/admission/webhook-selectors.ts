// A webhook's namespaceSelector and objectSelector, as Kubernetes' webhook predicates apply them. The
// namespace selector is matched against the labels of the request's namespace (a Namespace's own labels
// when the request is for it: the object's on create and update, the stored one's otherwise); requests for
// other cluster-scoped objects are never skipped by it. The object selector matches when the new or the old
// object carries matching labels; an absent object never matches.
import type { ApiObject } from '../apis/meta/v1.ts';
import type { LabelSelectorMatcher } from '../machinery/labels.ts';
import * as status from '../machinery/status.ts';

/** Reads a Namespace as the registry has it now (undefined when there is none). */
export type NamespaceLookup = (name: string) => Promise<ApiObject | undefined>;

export interface SelectorRequest {
  /** The request is for a Namespace object itself (no sub-resource on create and update: its own labels). */
  namespaceObject: boolean;
  operation: string;
  subresource: string;
  /** The request's namespace (a Namespace's own name when the request is for it). */
  namespace: string;
  object: ApiObject | null;
}

function parsed(selector: LabelSelectorMatcher | Error): LabelSelectorMatcher {
  if (selector instanceof Error) throw status.internalError(selector);
  return selector;
}

const labelsOf = (o: ApiObject | null | undefined): Record<string, string> | undefined => (o?.metadata?.labels ?? undefined) as Record<string, string> | undefined;

/** Whether the namespace selector lets the webhook be called; 404 when the namespace does not exist. */
export async function namespaceSelectorMatches(selector: LabelSelectorMatcher | Error, req: SelectorRequest, namespaces: NamespaceLookup): Promise<boolean> {
  if (!req.namespace && !req.namespaceObject) return true;
  const sel = parsed(selector);
  if (sel.empty) return true;
  let labels: Record<string, string> | undefined;
  if (req.namespaceObject && !req.subresource && (req.operation === 'CREATE' || req.operation === 'UPDATE')) {
    labels = labelsOf(req.object);
  } else {
    const ns = await namespaces(req.namespace);
    if (!ns) throw status.notFound({ group: '', resource: 'namespaces' }, req.namespace);
    labels = labelsOf(ns);
  }
  return sel.matches(labels);
}

/** Whether the object selector matches the new or the old object. */
export function objectSelectorMatches(selector: LabelSelectorMatcher | Error, object: ApiObject | null, oldObject: ApiObject | null): boolean {
  const sel = parsed(selector);
  if (sel.empty) return true;
  const matches = (o: ApiObject | null) => !!o && o.metadata !== null && typeof o.metadata === 'object' && sel.matches(labelsOf(o));
  return matches(object) || matches(oldObject);
}
