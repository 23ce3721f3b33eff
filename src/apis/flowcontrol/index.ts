// The flowcontrol.apiserver.svc.io group: its kinds in discovery order. Only v1 is served: v1beta1, v1beta2
// and v1beta3 were removed (in 1.26, 1.29 and 1.32).
import type { KindDefinition } from '../kind.ts';
import { flowSchemaKind } from './flowschema.ts';
import { priorityLevelConfigurationKind } from './prioritylevelconfiguration.ts';

export const kinds: KindDefinition[] = [flowSchemaKind, priorityLevelConfigurationKind];
