import type { KindDefinition } from '../kind.ts';
import { namespaceKind } from './namespace.ts';
import { configMapKind } from './configmap.ts';
import { secretKind } from './secret.ts';
import { serviceAccountKind } from './serviceaccount.ts';
import { nodeKind } from './node.ts';

export const kinds: KindDefinition[] = [namespaceKind, configMapKind, secretKind, serviceAccountKind, nodeKind];
