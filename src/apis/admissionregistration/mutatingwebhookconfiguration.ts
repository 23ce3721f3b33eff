// MutatingWebhookConfiguration (admissionregistration.svc.io/v1, cluster-scoped): webhooks called to accept,
// reject or change objects before they are stored.
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { nameColumn, ageColumn } from '../meta/table.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, webhookProperties, WEBHOOKS_LIST, defaultWebhooks, webhookConfigurationErrors, updateOptions, CREATE_OPTIONS, webhookCount } from './webhook.ts';

const MutatingWebhook = S.object({
  ...webhookProperties({ objectSelector: 11, matchConditions: 12 }),
  reinvocationPolicy: S.string({ proto: 10, description: 'reinvocationPolicy indicates whether this webhook should be called multiple times as part of a single admission evaluation. Allowed values are "Never" and "IfNeeded".\n\nNever: the webhook will not be called more than once in a single admission evaluation.\n\nIfNeeded: the webhook will be called at least one additional time as part of the admission evaluation if the object being admitted is modified by other admission plugins after the initial webhook call. Webhooks that specify this option *must* be idempotent, able to process objects they previously admitted. Note: * the number of additional invocations is not guaranteed to be exactly one. * if additional invocations result in further modifications to the object, webhooks are not guaranteed to be invoked again. * webhooks that use this option may be reordered to minimize the number of additional invocations. * to validate an object after all mutations are guaranteed complete, use a validating admission webhook instead.\n\nDefaults to "Never".' }),
}, { ref: 'admissionregistration.v1.MutatingWebhook', description: 'MutatingWebhook describes an admission webhook and the resources and operations it applies to.' });

export const MutatingWebhookConfigurationSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  webhooks: S.list(MutatingWebhook, { proto: 2, ...WEBHOOKS_LIST }),
}, { ref: 'admissionregistration.v1.MutatingWebhookConfiguration', description: 'MutatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and may change the object.' });

export const WEBHOOKS_COLUMN = { name: 'Webhooks', type: 'integer', description: 'Webhooks indicates the number of webhooks in this configuration', cell: webhookCount } as const;

export const mutatingWebhookConfigurationKind: KindDefinition = {
  group: GROUP,
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  namespaced: false,
  categories: ['api-extensions'],
  versions: [{ name: 'v1', stability: 'stable', schema: MutatingWebhookConfigurationSchema }],
  storageVersion: 'v1',
  trackGeneration: true,

  defaults: (obj) => defaultWebhooks(obj, true),
  validate: (obj) => webhookConfigurationErrors(obj, true, CREATE_OPTIONS),
  validateUpdate: (obj, old) => webhookConfigurationErrors(obj, true, updateOptions(obj, old)),

  tableColumns: [nameColumn, { ...WEBHOOKS_COLUMN }, ageColumn],
};
