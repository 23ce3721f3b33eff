import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { signingKeyFromPem, verificationKeyOf } from './service-account-keys.ts';
import { INVALID_SINCE_LABEL, LAST_USED_LABEL, legacyServiceAccountTokenAuthenticator, signLegacyToken, type LegacySecret } from './legacy-service-account-tokens.ts';
import { CompactSign } from './jose.ts';

const ecKey = () => {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return signingKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'k');
};

test('secret-based tokens: good while the Secret holds them and the account lives; last use labelled once a day', async () => {
  const key = ecKey();
  const token = await signLegacyToken(key, { namespace: 'ns', name: 'robot', uid: 'u1' }, 'robot-token');
  assert.deepEqual(Object.keys(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())), [
    'iss', 'platform.io/serviceaccount/namespace', 'platform.io/serviceaccount/secret.name',
    'platform.io/serviceaccount/service-account.name', 'platform.io/serviceaccount/service-account.uid', 'sub',
  ]);
  const secret: LegacySecret = { metadata: { name: 'robot-token', namespace: 'ns', uid: 's1', labels: {} }, data: { token: Buffer.from(token).toString('base64') } };
  let account: { metadata: { uid?: string; deletionTimestamp?: string } } | undefined = { metadata: { uid: 'u1' } };
  const marked: string[] = [];
  const now = Date.parse('2026-03-04T10:00:00Z');
  const auth = legacyServiceAccountTokenAuthenticator({
    keys: [verificationKeyOf(key)], apiAudiences: ['api'], now: () => now,
    lookup: {
      secret: (ns, name) => (ns === 'ns' && name === 'robot-token' ? secret : undefined),
      serviceAccount: (ns, name) => (ns === 'ns' && name === 'robot' ? account : undefined),
      async markUsed(s, today) { marked.push(today); s.metadata.labels = { ...s.metadata.labels, [LAST_USED_LABEL]: today }; },
    },
  });
  assert.deepEqual(await auth.authenticateToken(token), {
    user: { username: 'system:serviceaccount:ns:robot', uid: 'u1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] },
    audiences: ['api'],
  });
  await auth.authenticateToken(token);
  assert.deepEqual(marked, ['2026-03-04']);
  await assert.rejects(async () => auth.authenticateToken(token, ['other']), /token audiences \["api"\] is invalid for the target audiences \["other"\]/);

  // Another issuer's JWT is not this authenticator's; a forged one is refused.
  assert.equal(await auth.authenticateToken('a.b.c'), undefined);
  const forged = await signLegacyToken(ecKey(), { namespace: 'ns', name: 'robot', uid: 'u1' }, 'robot-token');
  await assert.rejects(async () => auth.authenticateToken(forged), /could not be verified/);
  const noSub = await new CompactSign(new TextEncoder().encode(JSON.stringify({ iss: 'kubernetes/serviceaccount' }))).setProtectedHeader({ alg: key.alg, kid: key.kid }).sign(key.key);
  await assert.rejects(async () => auth.authenticateToken(noSub), /^Error: sub claim is missing$/);

  secret.metadata.labels![INVALID_SINCE_LABEL] = '2026-01-01';
  await assert.rejects(async () => auth.authenticateToken(token), /the token in secret ns\/robot-token for service account ns\/robot has been marked invalid/);
  delete secret.metadata.labels![INVALID_SINCE_LABEL];
  account = { metadata: { uid: 'u2' } };
  await assert.rejects(async () => auth.authenticateToken(token), /ServiceAccount UID \(u2\) does not match claim \(u1\)/);
  account = undefined;
  await assert.rejects(async () => auth.authenticateToken(token), /serviceaccount "robot" not found/);
  account = { metadata: { uid: 'u1' } };
  secret.data = { token: Buffer.from('other').toString('base64') };
  await assert.rejects(async () => auth.authenticateToken(token), /Token does not match server's copy/);
});
