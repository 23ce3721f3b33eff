// Which objects a list or watch selects: namespace, label selector and field selector, parsed once per request.
// Parsing (a 400 for bad syntax) comes before ListOptions validation and the field label check (a 400 for an
// unsupported field) after it, in Kubernetes' order.
import type { KindDefinition } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import type { CachedObject } from '../storage/cache.ts';
import { parseLabelSelector, type LabelSelectorMatcher } from '../machinery/labels.ts';
import { parseFieldSelector, fieldSelectorMatches, checkFieldSelectorFields, fieldSelectorRequiresExactMatch, type FieldRequirement } from '../machinery/fields.ts';
import * as status from '../machinery/status.ts';

export interface ParsedSelectors {
  labels?: LabelSelectorMatcher;
  fields?: FieldRequirement[];
}

export interface Selection {
  namespace: string;
  /** True when a label or field selector narrows the result (remainingItemCount is then omitted). */
  filtered: boolean;
  /** The one name a `metadata.name=X` requirement pins, if any: lists and watches of one object. */
  name?: string;
  matches(obj: Selectable): boolean;
}

/** What a selection reads of an object: a cached one, or one made on a read (a computed kind's). */
export type Selectable = Pick<CachedObject, 'name' | 'namespace' | 'object'> & { meta?: CachedObject['meta'] };

/** The field getters of a kind: metadata.name, metadata.namespace and the kind's own. */
export function fieldGetters(def: KindDefinition): Record<string, (obj: ApiObject) => string> {
  const base: Record<string, (obj: ApiObject) => string> = {
    'metadata.name': (o) => o.metadata?.name ?? '',
    'metadata.namespace': (o) => o.metadata?.namespace ?? '',
  };
  return { ...base, ...def.fieldSelectors };
}

/** The field labels a kind accepts, and how it refuses others (see KindDefinition.fieldSelectorStyle). */
export function fieldLabelRules(def: KindDefinition): { style: 'default' | 'custom'; supported: string[]; aliases?: Record<string, string> } {
  const style = def.fieldSelectorStyle ?? (def.fieldSelectors && Object.keys(def.fieldSelectors).length ? 'custom' : 'default');
  const supported = ['metadata.name', ...(def.namespaced ? ['metadata.namespace'] : []), ...Object.keys(def.fieldSelectors ?? {})];
  return { style, supported, aliases: def.fieldSelectorAliases };
}

/** Parses the selectors' syntax; a 400 with Kubernetes' parser message otherwise. */
export function parseSelectors(labelSelector: string | undefined, fieldSelector: string | undefined): ParsedSelectors {
  const out: ParsedSelectors = {};
  if (labelSelector) {
    try { out.labels = parseLabelSelector(labelSelector); } catch (err) { throw status.badRequest((err as Error).message); }
    if (out.labels.empty) out.labels = undefined;
  }
  if (fieldSelector) {
    try { out.fields = parseFieldSelector(fieldSelector); } catch (err) { throw status.badRequest((err as Error).message); }
    if (!out.fields.length) out.fields = undefined;
  }
  return out;
}

/**
 * The selection of a request. `name` is the object a single-object watch addresses in its path: a field
 * selector must then pin that same name (Kubernetes' rule), and stands for `metadata.name=<name>` when absent.
 */
export function buildSelection(def: KindDefinition, namespace: string, parsed: ParsedSelectors, name = ''): Selection {
  let fields = parsed.fields;
  if (fields) {
    const rules = fieldLabelRules(def);
    try {
      fields = checkFieldSelectorFields(fields, rules.supported, { style: rules.style, aliases: rules.aliases });
    } catch (err) {
      throw status.badRequest((err as Error).message);
    }
  }
  if (name) {
    if (fields) {
      if (fieldSelectorRequiresExactMatch(fields, 'metadata.name') !== name) throw status.badRequest("fieldSelector metadata.name doesn't match requested name");
    } else {
      fields = [{ field: 'metadata.name', operator: '=', value: name }];
    }
  }
  const labels = parsed.labels;
  const getters = fieldGetters(def);
  const f = fields;
  const pinned = f ? fieldSelectorRequiresExactMatch(f, 'metadata.name') : undefined;
  const scoped = def.namespaced && namespace ? namespace : '';
  return {
    namespace,
    filtered: !!(labels || f),
    name: pinned,
    matches(obj: Selectable): boolean {
      if (pinned !== undefined && obj.name !== pinned) return false;
      if (scoped && obj.namespace !== scoped) return false;
      // The cache keeps labels beside the JSON: a label selector parses no object.
      if (labels && !labels.matches(obj.meta ? obj.meta.labels : obj.object.metadata?.labels)) return false;
      if (f && !fieldSelectorMatches(f, (field) => getters[field]?.(obj.object as ApiObject))) return false;
      return true;
    },
  };
}
