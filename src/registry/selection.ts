// Which objects a list or watch selects: namespace, label selector and field selector, parsed once per request.
import type { KindDefinition } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { CachedObject } from '../storage/cache.ts';
import { parseLabelSelector } from '../machinery/labels.ts';
import { parseFieldSelector, fieldSelectorMatches, checkFieldSelectorFields } from '../machinery/fields.ts';
import * as status from '../machinery/status.ts';

export interface Selection {
  namespace: string;
  /** True when a label or field selector narrows the result (remainingItemCount is then omitted). */
  filtered: boolean;
  matches(obj: CachedObject): boolean;
}

export function fieldGetters(def: KindDefinition): Record<string, (obj: ApiObject) => string> {
  const base: Record<string, (obj: ApiObject) => string> = {
    'metadata.name': (o) => o.metadata?.name ?? '',
  };
  if (def.namespaced) base['metadata.namespace'] = (o) => o.metadata?.namespace ?? '';
  return { ...base, ...def.fieldSelectors };
}

export function buildSelection(def: KindDefinition, namespace: string, labelSelector: string | undefined, fieldSelector: string | undefined): Selection {
  let labels: ReturnType<typeof parseLabelSelector> | undefined;
  if (labelSelector) {
    try { labels = parseLabelSelector(labelSelector); } catch (err) { throw status.badRequest((err as Error).message); }
    if (labels.empty) labels = undefined;
  }
  let fields: ReturnType<typeof parseFieldSelector> | undefined;
  const getters = fieldGetters(def);
  if (fieldSelector) {
    try {
      fields = parseFieldSelector(fieldSelector);
      checkFieldSelectorFields(fields, Object.keys(getters));
    } catch (err) {
      if (err instanceof status.StatusError) throw err;
      throw status.badRequest((err as Error).message);
    }
    if (!fields.length) fields = undefined;
  }
  const l = labels, f = fields;
  return {
    namespace,
    filtered: !!(l || f),
    matches(obj: CachedObject): boolean {
      if (namespace && def.namespaced && obj.namespace !== namespace) return false;
      if (l && !l.matches(obj.object.metadata?.labels)) return false;
      if (f && !fieldSelectorMatches(f, (field) => getters[field]?.(obj.object as ApiObject))) return false;
      return true;
    },
  };
}

/** The name a `metadata.name=X` field selector pins, if any (watches of one object). */
export function nameFromFieldSelector(fieldSelector: string | undefined): string | undefined {
  if (!fieldSelector) return undefined;
  try {
    const reqs = parseFieldSelector(fieldSelector);
    const r = reqs.find((q) => q.field === 'metadata.name' && q.operator === '=');
    return r?.value;
  } catch {
    return undefined;
  }
}
