// Bound service account tokens: JWTs the TokenRequest sub-resource issues and the API server verifies.
// A token names its issuer, audiences, expiry, service account and (optionally) the Pod, Secret or Node it
// is bound to; it stops working when any of those objects is gone or was replaced (a different uid).
import { randomUUID } from 'node:crypto';
import { CompactSign, compactVerify, decodeProtectedHeader } from './jose.ts';
import type { UserInfo } from '../../apis/kind.ts';
import { goQuoteList } from '../../machinery/go-format.ts';
import {
  EXTRA_CREDENTIAL_ID, EXTRA_NODE_NAME, EXTRA_NODE_UID, EXTRA_POD_NAME, EXTRA_POD_UID,
  serviceAccountGroups, serviceAccountUsername,
} from '../user.ts';
import type { SigningKey, VerificationKey } from './service-account-keys.ts';
import type { TokenAuthenticator, TokenResult } from './token-file.ts';

/** The private claim holding the Kubernetes-specific part (`kubernetes.io` renamed). */
export const PRIVATE_CLAIM = 'platform.io';

export interface ObjectRef {
  name: string;
  uid: string;
}

export interface PrivateClaims {
  namespace: string;
  serviceaccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  warnafter?: number;
}

export interface TokenClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti: string;
  [PRIVATE_CLAIM]: PrivateClaims;
}

export interface IssueRequest {
  namespace: string;
  serviceAccount: ObjectRef;
  audiences: string[];
  expirationSeconds: number;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  /** Seconds since the epoch; now by default. */
  now?: number;
}

export class TokenIssuer {
  private readonly key: SigningKey;
  readonly issuer: string;
  constructor(key: SigningKey, issuer: string) {
    this.key = key;
    this.issuer = issuer;
  }

  async issue(r: IssueRequest): Promise<{ token: string; claims: TokenClaims }> {
    const now = r.now ?? Math.floor(Date.now() / 1000);
    const priv: PrivateClaims = { namespace: r.namespace, serviceaccount: { name: r.serviceAccount.name, uid: r.serviceAccount.uid } };
    if (r.node) priv.node = { name: r.node.name, uid: r.node.uid };
    if (r.pod) priv.pod = { name: r.pod.name, uid: r.pod.uid };
    if (r.secret) priv.secret = { name: r.secret.name, uid: r.secret.uid };
    const claims: TokenClaims = {
      aud: [...r.audiences], exp: now + r.expirationSeconds, iat: now, iss: this.issuer, jti: randomUUID(),
      [PRIVATE_CLAIM]: priv, nbf: now, sub: serviceAccountUsername(r.namespace, r.serviceAccount.name),
    };
    return { token: await signClaims(this.key, claims), claims };
  }
}

/** What a token's bindings are checked against: the current objects, by namespace and name. */
export interface BindingLookup {
  /** Brings the lookups up to date before a token's bindings are checked. */
  prepare?(): Promise<void>;
  serviceAccount(namespace: string, name: string): LiveObject | undefined;
  pod(namespace: string, name: string): LiveObject | undefined;
  secret(namespace: string, name: string): LiveObject | undefined;
  node(name: string): LiveObject | undefined;
}

export interface LiveObject {
  metadata?: { uid?: string; deletionTimestamp?: string };
}

export interface ValidatorOptions {
  keys: VerificationKey[];
  /** Issuers accepted (the first is the one tokens are issued with). */
  issuers: string[];
  /** Audiences the API server identifies as, used when the caller asks for none. */
  apiAudiences: string[];
  lookup: BindingLookup;
  /** Seconds since the epoch. */
  now?: () => number;
}

/** Thrown for a token this authenticator owns but refuses. */
export class InvalidTokenError extends Error {}

/** A compact JWS of the claims (as JSON, in their key order), signed with the key and naming it. */
export function signClaims(key: SigningKey, claims: object): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims))).setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.key);
}

/** A JWT's header and claims, unverified; undefined when the token is no JWT with an object payload. */
export function decodeUnverified(token: string): { header: { alg?: string; kid?: string }; payload: Record<string, unknown> } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = decodeProtectedHeader(token);
    const payload: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' ? { header, payload: payload as Record<string, unknown> } : undefined;
  } catch {
    return undefined;
  }
}

/** Verifies a JWT's signature with the key its header names, else any key of its algorithm; Kubernetes' error when none does. */
export async function verifySignature(token: string, header: { alg?: string; kid?: string }, keys: readonly VerificationKey[]): Promise<void> {
  const named = keys.filter((k) => k.alg === header.alg && (!header.kid || k.kid === header.kid));
  for (const k of named.length ? named : keys.filter((k) => k.alg === header.alg)) {
    try {
      await compactVerify(token, k.key, { algorithms: [k.alg] });
      return;
    } catch {
      // The next key.
    }
  }
  throw new InvalidTokenError('invalid bearer token: token could not be verified');
}

const INVALIDATED = 'service account token has been invalidated';

export function serviceAccountTokenAuthenticator(o: ValidatorOptions): TokenAuthenticator {
  const now = o.now ?? (() => Math.floor(Date.now() / 1000));
  const issuers = new Set(o.issuers);
  return {
    async authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenResult | undefined> {
      const decoded = decodeUnverified(token);
      // A JWT of another issuer is not ours: another authenticator may know it.
      if (!decoded || typeof decoded.payload.iss !== 'string' || !issuers.has(decoded.payload.iss)) return undefined;
      const { header, payload } = decoded;
      await verifySignature(token, header, o.keys);

      const claims = payload as Partial<TokenClaims>;
      const t = now();
      if (typeof claims.exp !== 'number' || claims.exp <= t) throw new InvalidTokenError('service account token has expired');
      if (typeof claims.nbf === 'number' && claims.nbf > t) throw new InvalidTokenError('service account token is not valid yet');
      const tokenAudiences = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud.filter((a): a is string => typeof a === 'string') : [];
      const wanted = audiences?.length ? audiences : o.apiAudiences;
      const matched = tokenAudiences.filter((a) => wanted.includes(a));
      if (!matched.length && wanted.length) throw new InvalidTokenError(`token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(wanted)}`);

      const priv = claims[PRIVATE_CLAIM];
      if (!priv || typeof priv !== 'object' || !priv.namespace || !priv.serviceaccount?.name || !priv.serviceaccount?.uid) {
        throw new InvalidTokenError('service account token claims could not be validated due to unexpected private claim');
      }
      const ns = priv.namespace;
      await o.lookup.prepare?.();
      const sa = o.lookup.serviceAccount(ns, priv.serviceaccount.name);
      if (!sa || sa.metadata?.uid !== priv.serviceaccount.uid || sa.metadata?.deletionTimestamp) throw new InvalidTokenError(INVALIDATED);
      const checkBound = (ref: ObjectRef | undefined, live: LiveObject | undefined) => {
        if (!ref) return;
        if (!live || live.metadata?.uid !== ref.uid) throw new InvalidTokenError(INVALIDATED);
        // Kubernetes keeps a token usable for a minute after its object starts deleting (graceful exit).
        const deleting = live.metadata?.deletionTimestamp ? Date.parse(live.metadata.deletionTimestamp) : NaN;
        if (!Number.isNaN(deleting) && deleting < (t - 60) * 1000) throw new InvalidTokenError(INVALIDATED);
      };
      checkBound(priv.pod, priv.pod && o.lookup.pod(ns, priv.pod.name));
      checkBound(priv.secret, priv.secret && o.lookup.secret(ns, priv.secret.name));
      checkBound(priv.node, priv.node && o.lookup.node(priv.node.name));

      const extra: Record<string, string[]> = {};
      if (priv.pod) { extra[EXTRA_POD_NAME] = [priv.pod.name]; extra[EXTRA_POD_UID] = [priv.pod.uid]; }
      if (priv.node) { extra[EXTRA_NODE_NAME] = [priv.node.name]; extra[EXTRA_NODE_UID] = [priv.node.uid]; }
      if (typeof claims.jti === 'string' && claims.jti) extra[EXTRA_CREDENTIAL_ID] = [`JTI=${claims.jti}`];
      const user: UserInfo = { username: serviceAccountUsername(ns, priv.serviceaccount.name), uid: priv.serviceaccount.uid, groups: serviceAccountGroups(ns) };
      if (Object.keys(extra).length) user.extra = extra;
      return { user, audiences: matched };
    },
  };
}
