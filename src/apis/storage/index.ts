// The storage.svc.io group: its kinds in discovery order. v1 is stable; v1beta1 serves only
// VolumeAttributesClass (CSIStorageCapacity's v1beta1 was removed in 1.27) and is off by default.
import type { KindDefinition } from '../kind.ts';
import { csiDriverKind } from './csidriver.ts';
import { csiNodeKind } from './csinode.ts';
import { csiStorageCapacityKind } from './csistoragecapacity.ts';
import { storageClassKind } from './storageclass.ts';
import { volumeAttachmentKind } from './volumeattachment.ts';
import { volumeAttributesClassKind } from './volumeattributesclass.ts';

export const kinds: KindDefinition[] = [csiDriverKind, csiNodeKind, csiStorageCapacityKind, storageClassKind, volumeAttachmentKind, volumeAttributesClassKind];
