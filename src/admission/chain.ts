// Admission, in Kubernetes' plugin order: the plugins' mutation, the mutating webhooks, the plugins' own
// validation (run by the handlers before the registry writes); then, once the registry has the final object,
// the validating webhooks and the plugins that follow them (ResourceQuota: a request a webhook refuses is
// never charged). After each phase the annotations it added go to the request's audit event.
import type { ApiObject } from '../apis/meta/v1.ts';
import { flushAnnotations, type AdmissionAnnotation } from './audit-annotations.ts';
import type { RequestContext } from '../apis/kind.ts';
import type { ServedResource } from '../server/apis.ts';

export interface AdmissionAttributes {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  served: ServedResource;
  namespace: string;
  name: string;
  object: ApiObject | undefined;
  oldObject?: ApiObject;
  ctx: RequestContext;
  /** The operation's options as webhooks receive them (CreateOptions, UpdateOptions, DeleteOptions). */
  options?: Record<string, unknown>;
  /** Audit annotations added during the current phase (see audit-annotations.ts), by key. */
  auditAnnotations?: Map<string, AdmissionAnnotation>;
}

export interface AdmissionPlugin {
  name: string;
  /** May change `attrs.object`; throws a StatusError to refuse. */
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  /** Sees the final object; throws a StatusError to refuse. */
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

/** Admission configured at run time (webhooks): mutation after the plugins' own, validation of the final object. */
export interface DynamicAdmission {
  /** Whether anything is configured: one cheap check per request. */
  readonly mutating: boolean;
  readonly validating: boolean;
  mutate(attrs: AdmissionAttributes): Promise<void>;
  validate(attrs: AdmissionAttributes): Promise<void>;
}

/** Runs the plugins' `phase` in order; without a promise when none of them has one to wait for. */
function runPlugins(plugins: readonly AdmissionPlugin[], phase: 'admit' | 'validate', attrs: AdmissionAttributes, from = 0): Promise<void> | undefined {
  for (let i = from; i < plugins.length; i++) {
    const pending = plugins[i]![phase]?.(attrs);
    if (pending) return pending.then(() => runPlugins(plugins, phase, attrs, i + 1));
  }
  return undefined;
}

/** Awaits a phase, then hands its audit annotations over, whether it admitted or refused. */
async function thenFlush(attrs: AdmissionAttributes, pending: Promise<void>): Promise<void> {
  try {
    await pending;
  } finally {
    flushAnnotations(attrs);
  }
}

export class AdmissionChain {
  private readonly plugins: AdmissionPlugin[];
  private readonly dynamic: DynamicAdmission | undefined;
  private readonly afterWebhooks: AdmissionPlugin[];
  /**
   * `plugins` in Kubernetes' order up to the webhooks; `afterWebhooks` are the plugins Kubernetes orders
   * after ValidatingAdmissionWebhook (ResourceQuota): only their validation is run, after the webhooks'.
   */
  constructor(plugins: AdmissionPlugin[], dynamic?: DynamicAdmission, afterWebhooks: AdmissionPlugin[] = []) {
    this.plugins = plugins;
    this.dynamic = dynamic;
    this.afterWebhooks = afterWebhooks;
  }
  async admit(attrs: AdmissionAttributes): Promise<void> {
    try {
      // A plugin with nothing to do for a request answers at once, without a promise to wait for.
      const mutating = runPlugins(this.plugins, 'admit', attrs);
      if (mutating) await mutating;
      if (this.dynamic?.mutating) await this.dynamic.mutate(attrs);
      const validating = runPlugins(this.plugins, 'validate', attrs);
      if (validating) await validating;
    } finally {
      flushAnnotations(attrs);
    }
  }
  /** Whether validate() has anything to run: checked before its attributes are built. */
  get validates(): boolean {
    return (this.dynamic?.validating ?? false) || this.afterWebhooks.length > 0;
  }
  /** Validating webhooks, then the plugins after them, on the object as it will be written (the registry
   *  calls this after the kind's defaults and validation); undefined when there is nothing to wait for. */
  validate(attrs: AdmissionAttributes): Promise<void> | undefined {
    if (this.dynamic?.validating) {
      const dynamic = this.dynamic;
      return thenFlush(attrs, dynamic.validate(attrs).then(() => runPlugins(this.afterWebhooks, 'validate', attrs)));
    }
    let pending: Promise<void> | undefined;
    try {
      pending = runPlugins(this.afterWebhooks, 'validate', attrs);
    } finally {
      if (!pending) flushAnnotations(attrs);
    }
    return pending && thenFlush(attrs, pending);
  }
}
