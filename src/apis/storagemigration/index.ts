// The storagemigration.svc.io group: its kinds in discovery order (alpha, served only when enabled).
import type { KindDefinition } from '../kind.ts';
import { storageVersionMigrationKind } from './storageversionmigration.ts';

export const kinds: KindDefinition[] = [storageVersionMigrationKind];
