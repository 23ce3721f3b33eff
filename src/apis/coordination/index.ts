// The coordination.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { leaseKind } from './lease.ts';

export const kinds: KindDefinition[] = [leaseKind];
