// Shared object types of meta/v1 and core/v1 that most kinds embed, declared once.
import { S, type Static } from './schema.ts';

export const OwnerReference = S.object({
  apiVersion: S.string({ proto: 5 }),
  kind: S.string({ proto: 1 }),
  name: S.string({ proto: 3 }),
  uid: S.string({ proto: 4 }),
  controller: S.bool({ proto: 6 }),
  blockOwnerDeletion: S.bool({ proto: 7 }),
}, { atomic: true, required: ['apiVersion', 'kind', 'name', 'uid'], ref: 'meta.v1.OwnerReference' });

export const ManagedFieldsEntry = S.object({
  manager: S.string({ proto: 1 }),
  operation: S.string({ proto: 2 }),
  apiVersion: S.string({ proto: 3 }),
  time: S.time({ proto: 4 }),
  fieldsType: S.string({ proto: 6 }),
  fieldsV1: S.any({ proto: 7 }),
  subresource: S.string({ proto: 8 }),
}, { ref: 'meta.v1.ManagedFieldsEntry' });

export const ObjectMeta = S.object({
  name: S.string({ proto: 1 }),
  generateName: S.string({ proto: 2 }),
  namespace: S.string({ proto: 3 }),
  selfLink: S.string({ proto: 4 }),
  uid: S.string({ proto: 5 }),
  resourceVersion: S.string({ proto: 6 }),
  generation: S.int64({ proto: 7 }),
  creationTimestamp: S.time({ proto: 8 }),
  deletionTimestamp: S.time({ proto: 9 }),
  deletionGracePeriodSeconds: S.int64({ proto: 10 }),
  labels: S.map(S.string(), { proto: 11 }),
  annotations: S.map(S.string(), { proto: 12 }),
  ownerReferences: S.list(OwnerReference, { proto: 13, listType: 'map', listMapKeys: ['uid'], patchMergeKey: 'uid', patchStrategy: 'merge' }),
  finalizers: S.list(S.string(), { proto: 14, listType: 'set', patchStrategy: 'merge' }),
  managedFields: S.list(ManagedFieldsEntry, { proto: 17 }),
}, { ref: 'meta.v1.ObjectMeta' });

export const ListMeta = S.object({
  selfLink: S.string({ proto: 1 }),
  resourceVersion: S.string({ proto: 2 }),
  continue: S.string({ proto: 3 }),
  remainingItemCount: S.int64({ proto: 4 }),
}, { ref: 'meta.v1.ListMeta' });

export const LabelSelectorRequirement = S.object({
  key: S.string({ proto: 1 }),
  operator: S.string({ proto: 2 }),
  values: S.list(S.string(), { proto: 3 }),
}, { required: ['key', 'operator'], ref: 'meta.v1.LabelSelectorRequirement' });

export const LabelSelector = S.object({
  matchLabels: S.map(S.string(), { proto: 1 }),
  matchExpressions: S.list(LabelSelectorRequirement, { proto: 2 }),
}, { atomic: true, ref: 'meta.v1.LabelSelector' });

export const ObjectReference = S.object({
  kind: S.string({ proto: 1 }),
  namespace: S.string({ proto: 2 }),
  name: S.string({ proto: 3 }),
  uid: S.string({ proto: 4 }),
  apiVersion: S.string({ proto: 5 }),
  resourceVersion: S.string({ proto: 6 }),
  fieldPath: S.string({ proto: 7 }),
}, { atomic: true, ref: 'core.v1.ObjectReference' });

export const LocalObjectReference = S.object({
  name: S.string({ proto: 1, default: '' }),
}, { atomic: true, ref: 'core.v1.LocalObjectReference' });

export const Condition = S.object({
  type: S.string({ proto: 1 }),
  status: S.string({ proto: 2 }),
  observedGeneration: S.int64({ proto: 3 }),
  lastTransitionTime: S.time({ proto: 4 }),
  reason: S.string({ proto: 5 }),
  message: S.string({ proto: 6 }),
}, { required: ['type', 'status', 'lastTransitionTime', 'reason', 'message'], ref: 'meta.v1.Condition' });

/** The options of a delete: a DELETE's body, and an Eviction's `deleteOptions`. */
export const DeleteOptions = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  gracePeriodSeconds: S.int64({ proto: 1 }),
  preconditions: S.object({ uid: S.string({ proto: 1 }), resourceVersion: S.string({ proto: 2 }) }, { proto: 2, ref: 'meta.v1.Preconditions' }),
  orphanDependents: S.bool({ proto: 3 }),
  propagationPolicy: S.string({ proto: 4 }),
  dryRun: S.list(S.string(), { proto: 5, listType: 'atomic' }),
  ignoreStoreReadErrorWithClusterBreakingPotential: S.bool({ proto: 6 }),
}, { ref: 'meta.v1.DeleteOptions' });

/** Every metadata field is optional on the wire. */
export type ObjectMetaT = Partial<Static<typeof ObjectMeta>>;
export type OwnerReferenceT = Static<typeof OwnerReference>;
export type LabelSelectorT = Static<typeof LabelSelector>;
export type ManagedFieldsEntryT = Static<typeof ManagedFieldsEntry>;

/** Any stored object, as the generic registry sees it. */
export interface ApiObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMetaT;
  [field: string]: unknown;
}
