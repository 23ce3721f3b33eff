// The core group (`/api/v1`): its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { namespaceKind } from './namespace.ts';
import { nodeKind } from './node.ts';
import { configMapKind } from './configmap.ts';
import { secretKind } from './secret.ts';
import { serviceAccountKind } from './serviceaccount.ts';
import { persistentVolumeKind } from './persistentvolume.ts';
import { persistentVolumeClaimKind } from './persistentvolumeclaim.ts';
import { podKind } from './pod.ts';
import { serviceKind } from './service.ts';
import { endpointsKind } from './endpoints.ts';
import { eventKind } from './event.ts';
import { resourceQuotaKind } from './resourcequota.ts';
import { replicationControllerKind } from './replicationcontroller.ts';
import { componentStatusKind } from './componentstatus.ts';

export const kinds: KindDefinition[] = [namespaceKind, nodeKind, configMapKind, secretKind, serviceAccountKind, persistentVolumeKind, persistentVolumeClaimKind, podKind, serviceKind, endpointsKind, eventKind, resourceQuotaKind, replicationControllerKind, componentStatusKind];
