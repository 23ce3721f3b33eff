// TokenReview (authentication.svc.io/v1): validates a bearer token and says whose it is. Computed on
// create, never stored.
import type { KindDefinition } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP, UserInfoSchema } from './user-info.ts';

export const TokenReviewSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    token: S.string({ proto: 1, description: 'Token is the opaque bearer token.' }),
    audiences: S.list(S.string(), { proto: 2, listType: 'atomic', description: 'Audiences is a list of the identifiers that the resource server presented with the token identifies as. Audience-aware token authenticators will verify that the token was intended for at least one of the audiences in this list. If no audiences are provided, the audience will default to the audience of the Kubernetes apiserver.' }),
  }, { proto: 2, ref: 'authentication.v1.TokenReviewSpec', description: 'Spec holds information about the request being evaluated' }),
  status: S.object({
    authenticated: S.bool({ proto: 1, description: 'Authenticated indicates that the token was associated with a known user.' }),
    user: withProto(UserInfoSchema, 2),
    audiences: S.list(S.string(), { proto: 4, listType: 'atomic', description: "Audiences are audience identifiers chosen by the authenticator that are compatible with both the TokenReview and token. An identifier is any identifier in the intersection of the TokenReviewSpec audiences and the token's audiences. A client of the TokenReview API that sets the spec.audiences field should validate that a compatible audience identifier is returned in the status.audiences field to ensure that the TokenReview server is audience aware. If a TokenReview returns an empty status.audience field where status.authenticated is \"true\", the token is valid against the audience of the Kubernetes API server." }),
    error: S.string({ proto: 3, description: "Error indicates that the token couldn't be checked" }),
  }, { proto: 3, ref: 'authentication.v1.TokenReviewStatus', description: 'Status is filled in by the server and indicates whether the request can be authenticated.' }),
}, { required: ['spec'], ref: 'authentication.v1.TokenReview', description: 'TokenReview attempts to authenticate a token to a known user. Note: TokenReview requests may be cached by the webhook token authenticator plugin in the kube-apiserver.' });

export const tokenReviewKind: KindDefinition = {
  group: GROUP,
  kind: 'TokenReview',
  plural: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  versions: [{ name: 'v1', stability: 'stable', schema: TokenReviewSchema }],
  storageVersion: 'v1',
  createOnly: true,
};
