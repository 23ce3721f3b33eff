// Schemas (with Kubernetes' protobuf field numbers) of the meta types that travel beside a kind's own
// objects: Status, DeleteOptions, list envelopes, PartialObjectMetadata and WatchEvent.
import type { TSchema } from '@sinclair/typebox';
import { S } from '../../apis/meta/schema.ts';
import { DeleteOptions, ListMeta, ObjectMeta } from '../../apis/meta/v1.ts';

const proto = <T extends TSchema>(schema: T, n: number): T => ({ ...schema, 'x-proto': n });

export const StatusCauseSchema = S.object({
  reason: S.string({ proto: 1 }),
  message: S.string({ proto: 2 }),
  field: S.string({ proto: 3 }),
}, { ref: 'meta.v1.StatusCause' });

export const StatusDetailsSchema = S.object({
  name: S.string({ proto: 1 }),
  group: S.string({ proto: 2 }),
  kind: S.string({ proto: 3 }),
  uid: S.string({ proto: 6 }),
  causes: S.list(StatusCauseSchema, { proto: 4 }),
  retryAfterSeconds: S.int32({ proto: 5 }),
}, { ref: 'meta.v1.StatusDetails' });

export const StatusSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: proto(ListMeta, 1),
  status: S.string({ proto: 2 }),
  message: S.string({ proto: 3 }),
  reason: S.string({ proto: 4 }),
  details: proto(StatusDetailsSchema, 5),
  code: S.int32({ proto: 6 }),
}, { ref: 'meta.v1.Status' });

export const DeleteOptionsSchema = DeleteOptions;

export const PartialObjectMetadataSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: proto(ObjectMeta, 1),
}, { ref: 'meta.v1.PartialObjectMetadata' });

/** `<Kind>List`: metadata = 1, items = 2, as every Kubernetes list message. */
export function listSchemaOf(itemSchema: TSchema): TSchema {
  return S.object({
    apiVersion: S.string(),
    kind: S.string(),
    metadata: proto(ListMeta, 1),
    items: S.list(itemSchema, { proto: 2 }),
  });
}

export const PartialObjectMetadataListSchema = listSchemaOf(PartialObjectMetadataSchema);
