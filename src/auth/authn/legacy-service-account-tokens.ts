// Secret-based ("legacy") service account tokens: JWTs without expiry or audience, issued by the token
// controller into Secrets of type platform.io/service-account-token and good while that Secret holds the
// same token and its service account still exists (Kubernetes' legacy validator).
import { timingSafeEqual } from 'node:crypto';
import type { UserInfo } from '../../apis/kind.ts';
import { SecretKeys, SecretTypes } from '../../apis/core/secret.ts';
import { goQuoteList } from '../../machinery/go-format.ts';
import { serviceAccountGroups, serviceAccountUsername } from '../user.ts';
import type { SigningKey, VerificationKey } from './service-account-keys.ts';
import type { TokenAuthenticator, TokenResult } from './token-file.ts';
import { InvalidTokenError, decodeUnverified, signClaims, verifySignature } from './service-account-tokens.ts';

const LEGACY_ISSUER = 'kubernetes/serviceaccount';
// The Secret kind's own names for the token Secret the controller writes (see apis/core/secret.ts).
export const SERVICE_ACCOUNT_TOKEN_TYPE = SecretTypes.serviceAccountToken;
export const SERVICE_ACCOUNT_NAME_ANNOTATION = SecretKeys.serviceAccountName;
export const SERVICE_ACCOUNT_UID_ANNOTATION = SecretKeys.serviceAccountUid;
export const LAST_USED_LABEL = 'platform.io/legacy-token-last-used';
export const INVALID_SINCE_LABEL = 'platform.io/legacy-token-invalid-since';

const CLAIM_NAMESPACE = 'platform.io/serviceaccount/namespace';
const CLAIM_SECRET_NAME = 'platform.io/serviceaccount/secret.name';
const CLAIM_SA_NAME = 'platform.io/serviceaccount/service-account.name';
const CLAIM_SA_UID = 'platform.io/serviceaccount/service-account.uid';

export interface LegacySecret {
  metadata: { name: string; namespace?: string; uid?: string; deletionTimestamp?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

export interface LegacyServiceAccount {
  metadata: { uid?: string; deletionTimestamp?: string };
}

export interface LegacyLookup {
  prepare?(): Promise<void>;
  secret(namespace: string, name: string): LegacySecret | undefined;
  serviceAccount(namespace: string, name: string): LegacyServiceAccount | undefined;
  /** Labels the Secret with the day it was last used (failures are only logged). */
  markUsed(secret: LegacySecret, today: string): Promise<void>;
}

/** The token the controller writes into a Secret: claims in the order Go's JSON encoder sorts them. */
export async function signLegacyToken(key: SigningKey, sa: { namespace: string; name: string; uid: string }, secretName: string): Promise<string> {
  const claims = {
    iss: LEGACY_ISSUER,
    [CLAIM_NAMESPACE]: sa.namespace,
    [CLAIM_SECRET_NAME]: secretName,
    [CLAIM_SA_NAME]: sa.name,
    [CLAIM_SA_UID]: sa.uid,
    sub: serviceAccountUsername(sa.namespace, sa.name),
  };
  return signClaims(key, claims);
}

/** YYYY-MM-DD in UTC, as the last-used label holds it. */
function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface LegacyValidatorOptions {
  keys: VerificationKey[];
  apiAudiences: string[];
  lookup: LegacyLookup;
  /** Milliseconds since the epoch. */
  now?: () => number;
}

export function legacyServiceAccountTokenAuthenticator(o: LegacyValidatorOptions): TokenAuthenticator {
  const now = o.now ?? Date.now;
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenResult | undefined> {
      const decoded = decodeUnverified(token);
      if (decoded?.payload.iss !== LEGACY_ISSUER) return undefined;
      const { header, payload } = decoded;
      await verifySignature(token, header, o.keys);

      // Legacy tokens carry no audience: they are good for the API server's own audiences only.
      const wanted = audiences?.length ? audiences : o.apiAudiences;
      const matched = o.apiAudiences.filter((a) => wanted.includes(a));
      if (!matched.length && o.apiAudiences.length) throw new InvalidTokenError(`token audiences ${goQuoteList(o.apiAudiences)} is invalid for the target audiences ${goQuoteList(wanted)}`);

      const str = (k: string) => (typeof payload[k] === 'string' ? payload[k] as string : '');
      const sub = str('sub');
      const namespace = str(CLAIM_NAMESPACE);
      const secretName = str(CLAIM_SECRET_NAME);
      const saName = str(CLAIM_SA_NAME);
      const saUid = str(CLAIM_SA_UID);
      if (!sub) throw new InvalidTokenError('sub claim is missing');
      if (!namespace) throw new InvalidTokenError('namespace claim is missing');
      if (!secretName) throw new InvalidTokenError('secretName claim is missing');
      if (!saName) throw new InvalidTokenError('serviceAccountName claim is missing');
      if (!saUid) throw new InvalidTokenError('serviceAccountUID claim is missing');
      if (sub !== serviceAccountUsername(namespace, saName)) throw new InvalidTokenError('sub claim is invalid');

      await o.lookup.prepare?.();
      const secret = o.lookup.secret(namespace, secretName);
      if (!secret || secret.metadata.deletionTimestamp) throw new InvalidTokenError('Token has been invalidated');
      const stored = Buffer.from(secret.data?.token ?? '', 'base64');
      const given = Buffer.from(token);
      if (stored.length !== given.length || !timingSafeEqual(stored, given)) throw new InvalidTokenError("Token does not match server's copy");
      const sa = o.lookup.serviceAccount(namespace, saName);
      if (!sa) throw new InvalidTokenError(`serviceaccount "${saName}" not found`);
      if (sa.metadata.deletionTimestamp) throw new InvalidTokenError(`ServiceAccount ${namespace}/${saName} has been deleted`);
      if (sa.metadata.uid !== saUid) throw new InvalidTokenError(`ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${saUid})`);

      const t = now();
      const today = utcDay(t);
      const lastUsed = secret.metadata.labels?.[LAST_USED_LABEL];
      // The label is written at most once a day (a clock a day ahead on another server counts as today).
      if (lastUsed !== today && lastUsed !== utcDay(t + 86_400_000)) await o.lookup.markUsed(secret, today);
      if (secret.metadata.labels?.[INVALID_SINCE_LABEL]) {
        throw new InvalidTokenError(`the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`);
      }
      const user: UserInfo = { username: sub, uid: saUid, groups: serviceAccountGroups(namespace) };
      return { user, audiences: matched };
    },
  };
}
