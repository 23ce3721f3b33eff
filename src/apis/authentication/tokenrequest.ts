// TokenRequest (authentication.svc.io/v1): what POST serviceaccounts/{name}/token takes and answers.
import type { TSchema } from '@sinclair/typebox';
import type { ViewSubresource } from '../kind.ts';
import { S } from '../meta/schema.ts';
import { ObjectMeta } from '../meta/v1.ts';
import { withProto } from '../core/schema-helpers.ts';
import { GROUP } from './user-info.ts';

export const MIN_TOKEN_EXPIRATION_SECONDS = 600;
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
export const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

export const BoundObjectReferenceSchema = S.object({
  kind: S.string({ proto: 1, description: "Kind of the referent. Valid kinds are 'Pod' and 'Secret'." }),
  apiVersion: S.string({ proto: 2, description: 'API version of the referent.' }),
  name: S.string({ proto: 3, description: 'Name of the referent.' }),
  uid: S.string({ proto: 4, description: 'UID of the referent.' }),
}, { proto: 3, ref: 'authentication.v1.BoundObjectReference', description: 'BoundObjectReference is a reference to an object that a token is bound to.' });

export const TokenRequestSchema = S.object({
  apiVersion: S.string(),
  kind: S.string(),
  metadata: withProto(ObjectMeta, 1),
  spec: S.object({
    audiences: S.list(S.string(), { proto: 1, listType: 'atomic', description: 'Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token. A token issued for multiple audiences may be used to authenticate against any of the audiences listed but implies a high degree of trust between the target audiences.' }),
    expirationSeconds: S.int64({ proto: 4, description: "ExpirationSeconds is the requested duration of validity of the request. The token issuer may return a token with a different validity duration so a client needs to check the 'expiration' field in a response." }),
    boundObjectRef: BoundObjectReferenceSchema,
  }, { proto: 2, required: ['audiences'], ref: 'authentication.v1.TokenRequestSpec', description: 'Spec holds information about the request being evaluated' }),
  status: S.object({
    token: S.string({ proto: 1, description: 'Token is the opaque bearer token.' }),
    expirationTimestamp: S.time({ proto: 2, description: 'ExpirationTimestamp is the time of expiration of the returned token.' }),
  }, { proto: 3, required: ['token', 'expirationTimestamp'], ref: 'authentication.v1.TokenRequestStatus', description: 'Status is filled in by the server and indicates whether the token can be authenticated.' }),
}, { required: ['spec'], ref: 'authentication.v1.TokenRequest', description: 'TokenRequest requests a token for a given service account.' });

/** The `token` sub-resource of ServiceAccount: create only, answered by access control. */
export const tokenRequestView: ViewSubresource & { schema?: TSchema } = {
  name: 'token',
  group: GROUP,
  version: 'v1',
  kind: 'TokenRequest',
  verbs: ['create'],
  schema: TokenRequestSchema,
};
