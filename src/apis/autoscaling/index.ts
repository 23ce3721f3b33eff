// The autoscaling group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { horizontalPodAutoscalerKind } from './horizontalpodautoscaler.ts';

export const kinds: KindDefinition[] = [horizontalPodAutoscalerKind];
