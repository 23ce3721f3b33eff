// The apiextensions.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { customResourceDefinitionKind } from './customresourcedefinition.ts';

export const kinds: KindDefinition[] = [customResourceDefinitionKind];
