// The events.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { eventsEventKind } from './event.ts';

export const kinds: KindDefinition[] = [eventsEventKind];
