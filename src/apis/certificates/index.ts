// The certificates.svc.io group: its kinds in discovery order.
import type { KindDefinition } from '../kind.ts';
import { certificateSigningRequestKind } from './certificatesigningrequest.ts';
import { clusterTrustBundleKind } from './clustertrustbundle.ts';

export const kinds: KindDefinition[] = [certificateSigningRequestKind, clusterTrustBundleKind];
