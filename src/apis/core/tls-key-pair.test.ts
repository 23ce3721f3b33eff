import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { x509KeyPairError } from './tls-key-pair.ts';
import { CERT_A, KEY_A, KEY_B } from './testdata/tls.ts';

test('x509KeyPairError reports what Go tls.X509KeyPair reports', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  const a = { certPem: CERT_A, keyPem: KEY_A };
  const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs1', format: 'pem' }) as string;
  assert.equal(x509KeyPairError(enc(a.certPem), enc(a.keyPem)), undefined);
  assert.equal(x509KeyPairError(enc(a.keyPem), enc(a.keyPem)), 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched');
  assert.equal(x509KeyPairError(enc(a.certPem), enc('')), 'tls: failed to find any PEM data in key input');
  assert.equal(x509KeyPairError(enc(a.certPem), enc(a.certPem)), 'tls: found a certificate rather than a key in the PEM for the private key');
  assert.equal(x509KeyPairError(enc(a.certPem), enc(rsa)), 'tls: private key type does not match public key type');
  const junk = '-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n-----BEGIN BAR-----\nAAAA\n-----END BAR-----\n';
  assert.equal(x509KeyPairError(enc(junk), enc(a.keyPem)), 'tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: [FOO BAR]');
  assert.equal(x509KeyPairError(enc(a.certPem), enc(junk)), 'tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: [FOO BAR]');
  assert.equal(x509KeyPairError(enc(a.certPem), enc('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n')), 'tls: failed to parse private key');
});

test('a SEC1 key is parsed, and a key of another certificate does not match', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  assert.equal(x509KeyPairError(enc(CERT_A), enc(KEY_B)), 'tls: private key does not match public key');
  assert.equal(x509KeyPairError(enc(''), enc(KEY_A)), 'tls: failed to find any PEM data in certificate input');
});
