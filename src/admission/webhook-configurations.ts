// The admission webhooks as the stored Mutating- and ValidatingWebhookConfigurations declare them, read
// from the registry's watch cache on every request (so a change takes effect as soon as the cache has it,
// as Kubernetes' informer-fed configuration manager does) and compiled once per version of the list:
// configurations in name order, each one's webhooks in their order, selectors parsed, rules' API groups
// read in the served names (a rule may name a renamed group by Kubernetes' name).
import type { ApiObject } from '../apis/meta/v1.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { CachedObject } from '../storage/cache.ts';
import { labelSelectorFromObject, type LabelSelectorMatcher } from '../machinery/labels.ts';
import { webhooksOf, type ClientConfigT, type MatchConditionT, type WebhookT } from '../apis/admissionregistration/webhook.ts';
import type { WebhookRule } from './webhook-rules.ts';

export interface CompiledWebhook {
  name: string;
  configurationName: string;
  /** Identifies the webhook within its configuration (reinvocation keeps track of webhooks by it). */
  uid: string;
  rules: WebhookRule[];
  matchPolicy: string;
  /** The parsed selector, or why it does not parse (an internal error when the webhook is called). */
  namespaceSelector: LabelSelectorMatcher | Error;
  objectSelector: LabelSelectorMatcher | Error;
  matchConditions: MatchConditionT[];
  sideEffects: string | undefined;
  timeoutSeconds: number;
  failurePolicy: string;
  reinvocationPolicy: string;
  admissionReviewVersions: string[];
  clientConfig: ClientConfigT;
  /** Filled in by the match-condition evaluator the first time it needs it. */
  compiled?: unknown;
}

const list = <T>(v: T[] | null | undefined): T[] => (Array.isArray(v) ? v : []);

function selector(sel: WebhookT['namespaceSelector']): LabelSelectorMatcher | Error {
  try {
    // An absent selector is defaulted to {} (everything) when stored.
    return labelSelectorFromObject(sel ?? {});
  } catch (err) {
    return err as Error;
  }
}

/** One configuration's webhooks, in order; `servedGroup` reads a group name as the server serves it. */
export function compileConfiguration(config: ApiObject, servedGroup: (group: string) => string): CompiledWebhook[] {
  const configurationName = config.metadata?.name ?? '';
  return webhooksOf(config).map((hook, i) => ({
    name: hook.name ?? '',
    configurationName,
    uid: `${configurationName}/${hook.name ?? ''}/${i}`,
    rules: list(hook.rules).map((r) => ({
      operations: list(r.operations),
      apiGroups: list(r.apiGroups).map((g) => (g === '*' ? g : servedGroup(g))),
      apiVersions: list(r.apiVersions),
      resources: list(r.resources),
      scope: r.scope ?? '*',
    })),
    matchPolicy: hook.matchPolicy ?? 'Equivalent',
    namespaceSelector: selector(hook.namespaceSelector),
    objectSelector: selector(hook.objectSelector),
    matchConditions: list(hook.matchConditions),
    sideEffects: hook.sideEffects ?? undefined,
    timeoutSeconds: typeof hook.timeoutSeconds === 'number' ? hook.timeoutSeconds : 10,
    failurePolicy: hook.failurePolicy ?? 'Fail',
    reinvocationPolicy: hook.reinvocationPolicy ?? 'Never',
    admissionReviewVersions: list(hook.admissionReviewVersions),
    clientConfig: hook.clientConfig ?? {},
  }));
}

/**
 * The webhooks of one configuration kind. `any` is the cheap check the request path makes when nothing is
 * configured; `webhooks()` recompiles only when a configuration was added, changed or removed.
 */
export class WebhookConfigurations {
  private readonly store: () => ResourceStore | undefined;
  private readonly servedGroup: (group: string) => string;
  private seen: CachedObject[] = [];
  private compiled: CompiledWebhook[] = [];

  constructor(store: () => ResourceStore | undefined, servedGroup: (group: string) => string) {
    this.store = store;
    this.servedGroup = servedGroup;
  }

  get any(): boolean {
    return (this.store()?.cache.size ?? 0) > 0;
  }

  webhooks(): CompiledWebhook[] {
    const store = this.store();
    if (!store || store.cache.size === 0) return [];
    // In key order, which is name order: Kubernetes sorts configurations by name.
    const current = store.cache.list(store.listPrefix(''));
    if (current.length === this.seen.length && current.every((c, i) => c === this.seen[i] || (c.key === this.seen[i]!.key && c.modRevision === this.seen[i]!.modRevision))) {
      return this.compiled;
    }
    this.compiled = current.flatMap((c) => compileConfiguration(c.object as ApiObject, this.servedGroup));
    this.seen = current;
    return this.compiled;
  }
}
