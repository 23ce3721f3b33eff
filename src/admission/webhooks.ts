// Dynamic admission: the MutatingAdmissionWebhook and ValidatingAdmissionWebhook of Kubernetes, configured
// by the stored webhook configurations and read through the registry's caches (configurations, namespaces
// for namespaceSelector, services for clientConfig.service). With no configuration stored, a request pays
// one check of the configuration cache's size. Webhook configurations themselves never go to webhooks.
import type { ApiObject } from '../apis/meta/v1.ts';
import { GROUP as ADMISSION_REGISTRATION_GROUP } from '../apis/admissionregistration/webhook.ts';
import type { Attributes, Decision } from '../auth/authz/types.ts';
import type { ResourceStore } from '../registry/store.ts';
import type { ApiSurface } from '../server/apis.ts';
import type { AdmissionAttributes, DynamicAdmission } from './chain.ts';
import { WebhookConfigurations } from './webhook-configurations.ts';
import { WebhookClient } from './webhook-client.ts';
import { dispatchMutating, dispatchValidating, type DispatchDeps } from './webhook-dispatch.ts';
import { Equivalents } from './webhook-rules.ts';

export interface WebhookAdmissionDeps {
  surface: ApiSurface;
  mutatingConfigurations: ResourceStore | undefined;
  validatingConfigurations: ResourceStore | undefined;
  namespaces: ResourceStore | undefined;
  services: ResourceStore | undefined;
  /** Answers `authorizer` checks in match conditions. */
  authorize(attrs: Attributes): Promise<Decision>;
}

/** The object as the registry has it now: the cache's, or storage's when the cache has not seen it (yet). */
async function currentObject(store: ResourceStore | undefined, namespace: string, name: string): Promise<ApiObject | undefined> {
  if (!store || !name) return undefined;
  const found = store.current(namespace, name) ?? await store.readNow(namespace, name);
  return found?.object as ApiObject | undefined;
}

export class WebhookAdmission implements DynamicAdmission {
  private readonly mutatingHooks: WebhookConfigurations;
  private readonly validatingHooks: WebhookConfigurations;
  private readonly client: WebhookClient;
  private readonly deps: DispatchDeps;

  constructor(deps: WebhookAdmissionDeps) {
    const servedGroup = (g: string) => deps.surface.servingGroup(g);
    this.mutatingHooks = new WebhookConfigurations(() => deps.mutatingConfigurations, servedGroup);
    this.validatingHooks = new WebhookConfigurations(() => deps.validatingConfigurations, servedGroup);
    this.client = new WebhookClient((ns, name) => currentObject(deps.services, ns, name));
    this.deps = {
      equivalents: new Equivalents(deps.surface.served),
      client: this.client,
      namespaces: (name) => currentObject(deps.namespaces, '', name),
      authorize: deps.authorize,
    };
  }

  get mutating(): boolean {
    return this.mutatingHooks.any;
  }

  get validating(): boolean {
    return this.validatingHooks.any;
  }

  async mutate(attrs: AdmissionAttributes): Promise<void> {
    if (exempt(attrs)) return;
    const hooks = this.mutatingHooks.webhooks();
    if (hooks.length) await dispatchMutating(hooks, attrs, this.deps);
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    if (exempt(attrs)) return;
    const hooks = this.validatingHooks.webhooks();
    if (hooks.length) await dispatchValidating(hooks, attrs, this.deps);
  }

  /** Closes kept-alive webhook connections. */
  close(): void {
    this.client.close();
  }
}

/** Kubernetes' IsExemptAdmissionConfigurationResource: admission configuration is never sent to webhooks. */
function exempt(attrs: AdmissionAttributes): boolean {
  return attrs.served.def.group === ADMISSION_REGISTRATION_GROUP;
}
