// Admission: mutating then validating plugins, run by the handlers before the registry writes.
import type { ApiObject } from '../apis/meta/v1.ts';
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
  /** Audit annotations admission adds (`<webhook name>/<key>` from webhook answers). */
  auditAnnotations?: Record<string, string>;
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

export class AdmissionChain {
  private readonly plugins: AdmissionPlugin[];
  private readonly dynamic: DynamicAdmission | undefined;
  constructor(plugins: AdmissionPlugin[], dynamic?: DynamicAdmission) {
    this.plugins = plugins;
    this.dynamic = dynamic;
  }
  async admit(attrs: AdmissionAttributes): Promise<void> {
    // A plugin with nothing to do for a request answers at once, without a promise to wait for.
    for (const p of this.plugins) {
      const pending = p.admit?.(attrs);
      if (pending) await pending;
    }
    if (this.dynamic?.mutating) await this.dynamic.mutate(attrs);
    for (const p of this.plugins) {
      const pending = p.validate?.(attrs);
      if (pending) await pending;
    }
  }
  /** Whether validate() has anything to run: checked before its attributes are built. */
  get validates(): boolean {
    return this.dynamic?.validating ?? false;
  }
  /** Validating webhooks on the object as it will be written (the registry calls this after the kind's
   *  defaults and validation); undefined when there is nothing to wait for. */
  validate(attrs: AdmissionAttributes): Promise<void> | undefined {
    return this.dynamic?.validating ? this.dynamic.validate(attrs) : undefined;
  }
}
