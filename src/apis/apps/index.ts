// The apps group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { deploymentKind } from './deployment.ts';
import { replicaSetKind } from './replicaset.ts';

export const kinds: KindDefinition[] = [deploymentKind, replicaSetKind];
