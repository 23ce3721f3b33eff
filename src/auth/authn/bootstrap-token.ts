// Bootstrap tokens: `<id>.<secret>` bearer tokens backed by a Secret `bootstrap-token-<id>` of type
// `bootstrap.platform.io/token` in kube-system, usable for authentication while `usage-bootstrap-
// authentication` is "true" and the expiration has not passed. User `system:bootstrap:<id>`, groups
// `system:bootstrappers` and the secret's `auth-extra-groups` (sorted, as Kubernetes answers them).
import { timingSafeEqual } from 'node:crypto';
import type { TokenAuthenticator } from './token-file.ts';

export const BOOTSTRAP_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
export const BOOTSTRAP_SECRET_TYPE = 'bootstrap.platform.io/token';
export const BOOTSTRAP_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_NAMESPACE = 'kube-system';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';
export const BOOTSTRAP_GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

export const BootstrapKeys = {
  tokenId: 'token-id',
  tokenSecret: 'token-secret',
  description: 'description',
  expiration: 'expiration',
  usageAuthentication: 'usage-bootstrap-authentication',
  usageSigning: 'usage-bootstrap-signing',
  extraGroups: 'auth-extra-groups',
} as const;

export interface SecretLike {
  type?: string;
  data?: Record<string, string> | null;
  metadata?: { name?: string; deletionTimestamp?: string };
}

/** One data value of a secret as text ('' when absent). */
export function secretValue(secret: SecretLike, key: string): string {
  const v = secret.data?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** True when the secret's expiration has passed (or cannot be read, which Kubernetes treats the same). */
export function bootstrapTokenExpired(secret: SecretLike, now = Date.now()): boolean {
  const text = secretValue(secret, BootstrapKeys.expiration);
  if (!text) return false;
  const t = Date.parse(text);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}T/.test(text)) return true;
  return t <= now;
}

/** The token's groups, or an error text when an extra group is malformed. */
export function bootstrapTokenGroups(secret: SecretLike): { groups: string[] } | { error: string } {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = secretValue(secret, BootstrapKeys.extraGroups);
  if (extra) {
    for (const g of extra.split(',')) {
      if (!BOOTSTRAP_GROUP_PATTERN.test(g)) return { error: `${JSON.stringify(g)} (must match ${BOOTSTRAP_GROUP_PATTERN.source})` };
      groups.add(g);
    }
  }
  return { groups: [...groups].sort() };
}

export function bootstrapTokenAuthenticator(getSecret: (namespace: string, name: string) => SecretLike | undefined, log: (line: string) => void = () => {}): TokenAuthenticator {
  return {
    authenticateToken(token) {
      const m = BOOTSTRAP_TOKEN_PATTERN.exec(token);
      if (!m) return undefined;
      const [, id, secretPart] = m;
      const name = BOOTSTRAP_SECRET_PREFIX + id;
      const secret = getSecret(BOOTSTRAP_NAMESPACE, name);
      const reject = (why: string) => { log(`bootstrap token secret ${BOOTSTRAP_NAMESPACE}/${name} ${why}`); return undefined; };
      if (!secret) return undefined;
      if (secret.metadata?.deletionTimestamp) return reject('is deleted and awaiting removal');
      if (secret.type !== BOOTSTRAP_SECRET_TYPE || !secret.data) return reject(`has invalid type, expected ${BOOTSTRAP_SECRET_TYPE}.`);
      const stored = Buffer.from(secretValue(secret, BootstrapKeys.tokenSecret));
      const given = Buffer.from(secretPart);
      if (stored.length !== given.length || !timingSafeEqual(stored, given)) return reject(`has invalid value for key ${BootstrapKeys.tokenSecret}.`);
      if (secretValue(secret, BootstrapKeys.tokenId) !== id) return reject(`has invalid value for key ${BootstrapKeys.tokenId}.`);
      if (bootstrapTokenExpired(secret)) return reject('has expired.');
      if (secretValue(secret, BootstrapKeys.usageAuthentication) !== 'true') return reject(`not marked ${BootstrapKeys.usageAuthentication}=true.`);
      const groups = bootstrapTokenGroups(secret);
      if ('error' in groups) return reject(`has invalid value for key ${BootstrapKeys.extraGroups}: ${groups.error}.`);
      return { user: { username: BOOTSTRAP_USER_PREFIX + id, groups: groups.groups } };
    },
  };
}
