// The apps group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { daemonSetKind } from './daemonset.ts';
import { deploymentKind } from './deployment.ts';
import { replicaSetKind } from './replicaset.ts';
import { statefulSetKind } from './statefulset.ts';

export const kinds: KindDefinition[] = [daemonSetKind, deploymentKind, replicaSetKind, statefulSetKind];
