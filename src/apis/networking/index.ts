// The networking.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { ingressKind } from './ingress.ts';
import { ingressClassKind } from './ingressclass.ts';
import { networkPolicyKind } from './networkpolicy.ts';

export const kinds: KindDefinition[] = [ingressKind, ingressClassKind, networkPolicyKind];
