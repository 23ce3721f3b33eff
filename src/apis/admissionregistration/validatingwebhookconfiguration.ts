// ValidatingWebhookConfiguration (admissionregistration.svc.io/v1, cluster-scoped): webhooks called to
// accept or reject objects, without changing them.
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, webhookProperties, WEBHOOKS_LIST, defaultWebhooks, webhookConfigurationErrors, updateOptions, CREATE_OPTIONS } from './webhook.ts';
import { WEBHOOKS_COLUMN } from './mutatingwebhookconfiguration.ts';

const ValidatingWebhook = S.object(
  webhookProperties({ objectSelector: 10, matchConditions: 11 }),
  { ref: 'admissionregistration.v1.ValidatingWebhook', description: 'ValidatingWebhook describes an admission webhook and the resources and operations it applies to.' },
);

export const ValidatingWebhookConfigurationSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  webhooks: S.list(ValidatingWebhook, { proto: 2, ...WEBHOOKS_LIST }),
}, { ref: 'admissionregistration.v1.ValidatingWebhookConfiguration', description: 'ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and object without changing it.' });

export const validatingWebhookConfigurationKind: KindDefinition = {
  group: GROUP,
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  namespaced: false,
  categories: ['api-extensions'],
  versions: [{ name: 'v1', stability: 'stable', schema: ValidatingWebhookConfigurationSchema }],
  storageVersion: 'v1',
  trackGeneration: true,

  defaults: (obj) => defaultWebhooks(obj, false),
  validate: (obj) => webhookConfigurationErrors(obj, false, CREATE_OPTIONS),
  validateUpdate: (obj, old) => webhookConfigurationErrors(obj, false, updateOptions(obj, old)),

  tableColumns: [nameColumn, { ...WEBHOOKS_COLUMN }, ageColumn],
};
