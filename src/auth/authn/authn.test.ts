import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { parseCsv, parseTokenFile, staticTokenAuthenticator } from './token-file.ts';
import { bootstrapTokenAuthenticator, bootstrapTokenExpired, bootstrapTokenGroups, type SecretLike } from './bootstrap-token.ts';
import { serviceAccountTokenAuthenticator, TokenIssuer, InvalidTokenError, type BindingLookup } from './service-account-tokens.ts';
import { keyId, publicKeysFromPem, signingKeyFromPem, verificationKeyOf } from './service-account-keys.ts';
import { bearerToken, RequestAuthenticator } from './request.ts';
import { impersonate } from '../impersonation.ts';
import type { Attributes } from '../authz/types.ts';

test('CSV: quotes, escaped quotes, blank lines and comments', () => {
  assert.deepEqual(parseCsv('a,b,c,"g1,g2"\n\n# comment\n"x""y",z,1\r\n'), [['a', 'b', 'c', 'g1,g2'], ['x"y', 'z', '1']]);
  assert.throws(() => parseCsv('"open'), /missing "/);
});

test('token file: columns, groups, empty and duplicate tokens', () => {
  const warnings: string[] = [];
  const tokens = parseTokenFile('t1,alice,1,"a,b"\nt2,bob,2\n,nobody,3\nt1,carol,4\n', '/tokens.csv', (w) => warnings.push(w));
  assert.deepEqual(tokens.get('t1'), { username: 'carol', uid: '4', groups: [] });
  assert.deepEqual(tokens.get('t2'), { username: 'bob', uid: '2', groups: [] });
  assert.deepEqual(warnings, ["empty token has been found in token file '/tokens.csv', record number '3'", "duplicate token has been found in token file '/tokens.csv', record number '4'"]);
  assert.deepEqual(parseTokenFile('t,u,1,"a,b"', 'f').get('t')!.groups, ['a', 'b']);
  assert.throws(() => parseTokenFile('t,u\n', '/tokens.csv'), /token file '\/tokens.csv' must have at least 3 columns \(token, user name, user uid\), found 2/);
  assert.equal(staticTokenAuthenticator(tokens).authenticateToken('nope'), undefined);
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
function bootstrapSecret(data: Record<string, string>, extra: Partial<SecretLike> = {}): SecretLike {
  return { type: 'bootstrap.platform.io/token', metadata: { name: 'bootstrap-token-abcdef' }, data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])), ...extra };
}

test('bootstrap tokens: format, secret, usage, expiry and groups', () => {
  const good = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', 'auth-extra-groups': 'system:bootstrappers:b,system:bootstrappers:a' };
  let secret: SecretLike | undefined = bootstrapSecret(good);
  const auth = bootstrapTokenAuthenticator((ns, name) => (ns === 'kube-system' && name === 'bootstrap-token-abcdef' ? secret : undefined));
  assert.deepEqual(auth.authenticateToken('abcdef.0123456789abcdef'), { user: { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:a', 'system:bootstrappers:b'] } });
  for (const bad of ['abcdef.0123456789abcdeX', 'ABCDEF.0123456789abcdef', 'abcdef.0123456789abcde', 'abcdef.0123456789abcdee', 'zzzzzz.0123456789abcdef']) {
    assert.equal(auth.authenticateToken(bad), undefined, bad);
  }
  secret = bootstrapSecret({ ...good, 'usage-bootstrap-authentication': 'false' });
  assert.equal(auth.authenticateToken('abcdef.0123456789abcdef'), undefined);
  secret = bootstrapSecret({ ...good, expiration: '2000-01-01T00:00:00Z' });
  assert.equal(auth.authenticateToken('abcdef.0123456789abcdef'), undefined);
  secret = bootstrapSecret(good, { type: 'Opaque' });
  assert.equal(auth.authenticateToken('abcdef.0123456789abcdef'), undefined);
  secret = bootstrapSecret(good, { metadata: { name: 'bootstrap-token-abcdef', deletionTimestamp: '2024-01-01T00:00:00Z' } });
  assert.equal(auth.authenticateToken('abcdef.0123456789abcdef'), undefined);
  secret = bootstrapSecret({ ...good, 'token-id': 'zzzzzz' });
  assert.equal(auth.authenticateToken('abcdef.0123456789abcdef'), undefined);
  assert.ok('error' in bootstrapTokenGroups(bootstrapSecret({ 'auth-extra-groups': 'system:masters' })));
  assert.ok(bootstrapTokenExpired(bootstrapSecret({ expiration: 'tomorrow' })), 'an unreadable expiration counts as expired');
  assert.equal(bootstrapTokenExpired(bootstrapSecret({})), false);
});

function keys() {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return signingKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 'k');
}

test('service account keys: algorithms and ids from PEM blocks of every kind', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = rsa.publicKey.export({ type: 'spki', format: 'pem' }) as string + rsa.privateKey.export({ type: 'pkcs1', format: 'pem' });
  const found = publicKeysFromPem(pem, 'f');
  assert.equal(found.length, 2);
  assert.equal(found[0].alg, 'RS256');
  assert.equal(found[0].kid, found[1].kid);
  assert.equal(found[0].kid, keyId(rsa.publicKey));
  assert.throws(() => publicKeysFromPem('nothing', '/x'), /\/x: no public keys found/);
});

test('service account tokens: issuer, audiences, expiry and bindings', async () => {
  const key = keys();
  const issuer = new TokenIssuer(key, 'https://issuer');
  const objects: Record<string, { metadata: { uid: string; deletionTimestamp?: string } } | undefined> = {
    'sa/ns/robot': { metadata: { uid: 'sa-uid' } },
    'pod/ns/web': { metadata: { uid: 'pod-uid' } },
  };
  const lookup: BindingLookup = {
    serviceAccount: (ns, n) => objects[`sa/${ns}/${n}`],
    pod: (ns, n) => objects[`pod/${ns}/${n}`],
    secret: (ns, n) => objects[`secret/${ns}/${n}`],
    node: (n) => objects[`node/${n}`],
  };
  const auth = serviceAccountTokenAuthenticator({ keys: [verificationKeyOf(key)], issuers: ['https://issuer', 'https://old'], apiAudiences: ['api'], lookup });
  const sa = { name: 'robot', uid: 'sa-uid' };
  const { token, claims } = await issuer.issue({ namespace: 'ns', serviceAccount: sa, audiences: ['api', 'vault'], expirationSeconds: 600, pod: { name: 'web', uid: 'pod-uid' } });
  assert.equal(claims.sub, 'system:serviceaccount:ns:robot');
  assert.deepEqual(claims['platform.io'].pod, { name: 'web', uid: 'pod-uid' });
  const ok = await auth.authenticateToken(token);
  assert.equal(ok!.user.username, 'system:serviceaccount:ns:robot');
  assert.equal(ok!.user.uid, 'sa-uid');
  assert.deepEqual(ok!.user.extra!['authentication.platform.io/pod-name'], ['web']);
  assert.deepEqual(ok!.audiences, ['api']);
  assert.deepEqual((await auth.authenticateToken(token, ['vault', 'x']))!.audiences, ['vault']);
  await assert.rejects(async () => auth.authenticateToken(token, ['x']), /token audiences \["api" "vault"\] is invalid for the target audiences \["x"\]/);

  // The pod replaced (new uid), or deleted: the token is invalid.
  objects['pod/ns/web'] = { metadata: { uid: 'other' } };
  await assert.rejects(async () => auth.authenticateToken(token), InvalidTokenError);
  objects['pod/ns/web'] = undefined;
  await assert.rejects(async () => auth.authenticateToken(token), /service account token has been invalidated/);
  // A pod that started deleting more than a minute ago no longer counts.
  objects['pod/ns/web'] = { metadata: { uid: 'pod-uid', deletionTimestamp: new Date(Date.now() - 120_000).toISOString() } };
  await assert.rejects(async () => auth.authenticateToken(token));
  objects['pod/ns/web'] = { metadata: { uid: 'pod-uid', deletionTimestamp: new Date().toISOString() } };
  assert.ok(await auth.authenticateToken(token));

  const past = Math.floor(Date.now() / 1000) - 3600;
  const expired = await issuer.issue({ namespace: 'ns', serviceAccount: sa, audiences: ['api'], expirationSeconds: 600, now: past });
  await assert.rejects(async () => auth.authenticateToken(expired.token), /service account token has expired/);

  // Another issuer's token is not this authenticator's business; another key's signature is refused.
  const foreign = await new TokenIssuer(key, 'https://elsewhere').issue({ namespace: 'ns', serviceAccount: sa, audiences: ['api'], expirationSeconds: 600 });
  assert.equal(await auth.authenticateToken(foreign.token), undefined);
  const forged = await new TokenIssuer(keys(), 'https://old').issue({ namespace: 'ns', serviceAccount: sa, audiences: ['api'], expirationSeconds: 600 });
  await assert.rejects(async () => auth.authenticateToken(forged.token), /could not be verified/);
  assert.equal(await auth.authenticateToken('not.a.jwt'), undefined);

  objects['sa/ns/robot'] = undefined;
  const fresh = await issuer.issue({ namespace: 'ns', serviceAccount: sa, audiences: ['api'], expirationSeconds: 600 });
  await assert.rejects(async () => auth.authenticateToken(fresh.token), /invalidated/);
});

test('bearer header parsing', () => {
  assert.equal(bearerToken('Bearer abc'), 'abc');
  assert.equal(bearerToken('bearer abc extra'), 'abc');
  assert.equal(bearerToken('Bearer'), '');
  assert.equal(bearerToken('Basic dXNlcjpwYXNz'), undefined);
  assert.equal(bearerToken(undefined), undefined);
});

test('request authentication: a refused credential is 401, none is anonymous when allowed', async () => {
  const tokens = parseTokenFile('good,alice,1,g\n', 'f');
  const req = (authorization?: string) => ({ socket: {}, headers: authorization ? { authorization } : {} });
  const on = new RequestAuthenticator({ tokenAuthenticators: [staticTokenAuthenticator(tokens)], apiAudiences: ['api'], anonymous: true });
  assert.deepEqual(await on.authenticate(req('Bearer good')), { username: 'alice', uid: '1', groups: ['g', 'system:authenticated'] });
  assert.deepEqual(await on.authenticate(req()), { username: 'system:anonymous', groups: ['system:unauthenticated'] });
  assert.deepEqual(await on.authenticate(req('Basic xyz')), { username: 'system:anonymous', groups: ['system:unauthenticated'] });
  await assert.rejects(on.authenticate(req('Bearer bad')), (e: any) => e.code === 401 && e.message === 'Unauthorized');
  await assert.rejects(on.authenticate(req('Bearer ')), (e: any) => e.code === 401);
  const off = new RequestAuthenticator({ tokenAuthenticators: [], apiAudiences: ['api'], anonymous: false });
  await assert.rejects(off.authenticate(req()), (e: any) => e.code === 401);
  // A static token knows no audience: asked for another, its authenticator is passed over without an error.
  assert.deepEqual(await on.authenticateToken('good', ['other']), { error: 'invalid bearer token' });
  assert.deepEqual((await on.authenticateToken('good', ['api', 'other'])).audiences, ['api']);
  assert.equal((await on.authenticateToken('bad', undefined)).error, 'invalid bearer token');
});

test('impersonation: each part authorized, groups completed as Kubernetes does', async () => {
  const asked: string[] = [];
  const allowAll = async (a: Attributes) => { asked.push(`${a.apiGroup}/${a.resource}${a.subresource ? '/' + a.subresource : ''}:${a.namespace ? a.namespace + '/' : ''}${a.name}`); return { decision: 'allow' as const, reason: '' }; };
  const me = { username: 'admin', groups: ['system:masters'] };
  const u = await impersonate(me, { 'impersonate-user': 'system:serviceaccount:ns:sa', 'impersonate-group': ['a', 'b'], 'impersonate-uid': 'x', 'impersonate-extra-acme.com%2fscope': ['r', 'w'] }, allowAll);
  assert.deepEqual(u, { username: 'system:serviceaccount:ns:sa', uid: 'x', groups: ['a', 'b', 'system:authenticated'], extra: { 'acme.com/scope': ['r', 'w'] } });
  assert.deepEqual(asked, ['/serviceaccounts:ns/sa', '/groups:a', '/groups:b', 'authentication.svc.io/userextras/acme.com/scope:r', 'authentication.svc.io/userextras/acme.com/scope:w', 'authentication.svc.io/uids:x']);
  assert.equal(await impersonate(me, {}, allowAll), me);
  const denyGroups = async (a: Attributes) => (a.resource === 'groups' ? { decision: 'noopinion' as const, reason: 'no' } : { decision: 'allow' as const, reason: '' });
  await assert.rejects(impersonate(me, { 'impersonate-user': 'x', 'impersonate-group': 'g' }, denyGroups),
    (e: any) => e.code === 403 && e.message === 'groups "g" is forbidden: User "admin" cannot impersonate resource "groups" in API group "" at the cluster scope: no');
});
