// The admissionregistration.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { mutatingWebhookConfigurationKind } from './mutatingwebhookconfiguration.ts';
import { validatingWebhookConfigurationKind } from './validatingwebhookconfiguration.ts';

export const kinds: KindDefinition[] = [mutatingWebhookConfigurationKind, validatingWebhookConfigurationKind];
