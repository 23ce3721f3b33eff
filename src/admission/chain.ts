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
}

export interface AdmissionPlugin {
  name: string;
  /** May change `attrs.object`; throws a StatusError to refuse. */
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  /** Sees the final object; throws a StatusError to refuse. */
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

export class AdmissionChain {
  private readonly plugins: AdmissionPlugin[];
  constructor(plugins: AdmissionPlugin[]) {
    this.plugins = plugins;
  }
  async admit(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.plugins) if (p.admit) await p.admit(attrs);
    for (const p of this.plugins) if (p.validate) await p.validate(attrs);
  }
}
