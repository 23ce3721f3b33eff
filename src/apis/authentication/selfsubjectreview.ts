// SelfSubjectReview (authentication.svc.io/v1): tells callers who the server thinks they are. Computed on
// create, never stored.
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, UserInfoSchema } from './user-info.ts';

export const SelfSubjectReviewSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  status: S.object({
    userInfo: withProto(UserInfoSchema, 1),
  }, { proto: 2, ref: 'authentication.v1.SelfSubjectReviewStatus', description: 'Status is filled in by the server with the user attributes.' }),
}, { ref: 'authentication.v1.SelfSubjectReview', description: 'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.' });

export const selfSubjectReviewKind: KindDefinition = {
  group: GROUP,
  kind: 'SelfSubjectReview',
  plural: 'selfsubjectreviews',
  singular: 'selfsubjectreview',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: SelfSubjectReviewSchema }],
  storageVersion: 'v1',
  createOnly: true,
};
