// Every served group's kinds, in the order discovery lists them. A new group adds one line here.
import type { KindDefinition } from './kind.ts';
import { kinds as core } from './core/index.ts';
import { kinds as coordination } from './coordination/index.ts';
import { kinds as rbac } from './rbac/index.ts';
import { kinds as certificates } from './certificates/index.ts';
import { kinds as admissionregistration } from './admissionregistration/index.ts';
import { kinds as apiextensions } from './apiextensions/index.ts';
import { kinds as flowcontrol } from './flowcontrol/index.ts';
import { kinds as storage } from './storage/index.ts';
import { kinds as storagemigration } from './storagemigration/index.ts';
import { kinds as authentication } from './authentication/index.ts';
import { kinds as authorization } from './authorization/index.ts';
import { kinds as apps } from './apps/index.ts';
import { kinds as autoscaling } from './autoscaling/index.ts';
import { kinds as batch } from './batch/index.ts';
import { kinds as events } from './events/index.ts';
import { kinds as networking } from './networking/index.ts';

export function allKinds(): KindDefinition[] {
  return [...core, ...coordination, ...rbac, ...certificates, ...admissionregistration, ...apiextensions, ...flowcontrol, ...storage, ...storagemigration, ...authentication, ...authorization, ...apps, ...autoscaling, ...batch, ...events, ...networking];
}
