// The rbac.authorization.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { clusterRoleBindingKind } from './clusterrolebinding.ts';
import { clusterRoleKind } from './clusterrole.ts';
import { roleBindingKind } from './rolebinding.ts';
import { roleKind } from './role.ts';

export const kinds: KindDefinition[] = [clusterRoleBindingKind, clusterRoleKind, roleBindingKind, roleKind];
