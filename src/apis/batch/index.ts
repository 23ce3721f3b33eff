// The batch group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { cronJobKind } from './cronjob.ts';
import { jobKind } from './job.ts';

export const kinds: KindDefinition[] = [cronJobKind, jobKind];
