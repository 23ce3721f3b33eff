import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCertificateAuthority, loadCertificateAuthority } from './authority.ts';
import { issueClientCertificate, issueServingCertificate, signCertificate } from './sign.ts';
import { generateKeyPair } from './keys.ts';
import { canonicalIp } from './ip.ts';

const run = promisify(execFile);

function subjectOf(certPem: string): Record<string, string | string[]> {
  return { ...(new X509Certificate(certPem).toLegacyObject().subject as unknown as Record<string, string | string[]>) };
}

async function opensslVerify(caPem: string, certPem: string, purpose: 'sslserver' | 'sslclient'): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-openssl-'));
  try {
    await writeFile(join(dir, 'ca.crt'), caPem);
    await writeFile(join(dir, 'leaf.crt'), certPem);
    const { stdout } = await run('openssl', ['verify', '-purpose', purpose, '-CAfile', join(dir, 'ca.crt'), join(dir, 'leaf.crt')]);
    assert.match(stdout, /leaf\.crt: OK/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a generated CA is a self-signed ECDSA P-256 CA named capstan-ca, valid about ten years', async () => {
  const ca = await generateCertificateAuthority();
  const certificate = new X509Certificate(ca.certPem);
  assert.equal(certificate.ca, true);
  assert.equal(certificate.subject, 'CN=capstan-ca');
  assert.equal(certificate.issuer, 'CN=capstan-ca');
  assert.ok(certificate.verify(certificate.publicKey));
  assert.equal(certificate.publicKey.asymmetricKeyType, 'ec');
  assert.equal(certificate.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  const years = (certificate.validToDate.getTime() - Date.now()) / (365 * 24 * 3600 * 1000);
  assert.ok(years > 9.9 && years < 10.1, `validity ${years} years`);
  assert.ok(certificate.checkPrivateKey(createPrivateKey(ca.keyPem)));
  assert.match(ca.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
});

test('openssl sees the CA extensions: basicConstraints CA critical, keyCertSign and cRLSign', async () => {
  const ca = await generateCertificateAuthority({ commonName: 'test-ca', days: 2 });
  const dir = await mkdtemp(join(tmpdir(), 'capstan-openssl-'));
  try {
    await writeFile(join(dir, 'ca.crt'), ca.certPem);
    const { stdout } = await run('openssl', ['x509', '-in', join(dir, 'ca.crt'), '-noout', '-subject', '-ext', 'basicConstraints,keyUsage']);
    assert.match(stdout, /subject=CN ?= ?test-ca/);
    assert.match(stdout, /Basic Constraints: critical\s+CA:TRUE/);
    assert.match(stdout, /Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('client certificates carry CN, every O, clientAuth, and verify against the CA', async () => {
  const ca = await generateCertificateAuthority();
  const issued = await issueClientCertificate(ca, { commonName: 'alice', organizations: ['dev', 'system:masters'], days: 7 });
  const certificate = new X509Certificate(issued.certPem);
  assert.deepEqual(subjectOf(issued.certPem), { O: ['dev', 'system:masters'], CN: 'alice' });
  assert.deepEqual(certificate.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  assert.equal(certificate.ca, false);
  assert.ok(certificate.checkIssued(new X509Certificate(ca.certPem)));
  assert.ok(certificate.checkPrivateKey(createPrivateKey(issued.keyPem)));
  const days = (certificate.validToDate.getTime() - Date.now()) / (24 * 3600 * 1000);
  assert.ok(days > 6.9 && days <= 7, `validity ${days} days`);
  assert.ok(certificate.validFromDate.getTime() < Date.now(), 'backdated');
  await opensslVerify(ca.certPem, issued.certPem, 'sslclient');
});

test('a client certificate without organizations has only a CN', async () => {
  const ca = await generateCertificateAuthority();
  const issued = await issueClientCertificate({ certPem: ca.certPem, keyPem: ca.keyPem }, { commonName: 'bob' });
  assert.deepEqual(subjectOf(issued.certPem), { CN: 'bob' });
});

test('serving certificates cover their DNS names and IPs (IPv6 included), with serverAuth', async () => {
  const ca = await generateCertificateAuthority();
  const issued = await issueServingCertificate(ca, { dnsNames: ['localhost', 'api.example.test'], ipAddresses: ['127.0.0.1', '::1', '[fd00::2]'] });
  const certificate = new X509Certificate(issued.certPem);
  assert.equal(certificate.checkHost('api.example.test', { subject: 'never' }), 'api.example.test');
  assert.equal(certificate.checkHost('other.example.test', { subject: 'never' }), undefined);
  assert.equal(certificate.checkIP('127.0.0.1'), '127.0.0.1');
  assert.equal(certificate.checkIP('::1'), '::1');
  assert.equal(certificate.checkIP('fd00:0:0:0:0:0:0:2'), 'fd00:0:0:0:0:0:0:2');
  assert.equal(certificate.checkIP('10.0.0.1'), undefined);
  assert.deepEqual(certificate.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  assert.deepEqual(subjectOf(issued.certPem), { CN: 'capstan-apiserver' });
  await opensslVerify(ca.certPem, issued.certPem, 'sslserver');
});

test('signCertificate certifies a given public key, clamps expiry to the CA, and takes OIDs and raw names', async () => {
  const ca = await generateCertificateAuthority({ days: 1 });
  const keys = await generateKeyPair();
  const certPem = await signCertificate(ca, {
    publicKey: keys.publicKey,
    subject: { commonName: 'system:node:n1', organizations: ['system:nodes'], organizationalUnits: ['ops'] },
    keyUsages: ['digitalSignature', 'keyEncipherment'],
    extendedKeyUsages: ['clientAuth', '1.3.6.1.5.5.7.3.1'],
    emailAddresses: ['n1@example.test'],
    uris: ['spiffe://cluster/n1'],
    notAfter: new Date(Date.now() + 1000 * 24 * 3600 * 1000),
  });
  const certificate = new X509Certificate(certPem);
  assert.equal(certificate.validToDate.getTime(), new X509Certificate(ca.certPem).validToDate.getTime());
  assert.deepEqual(certificate.keyUsage, ['1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.1']);
  assert.match(certificate.subjectAltName ?? '', /email:n1@example\.test/);
  assert.match(certificate.subjectAltName ?? '', /URI:spiffe:\/\/cluster\/n1/);
  assert.deepEqual(subjectOf(certPem), { O: 'system:nodes', OU: 'ops', CN: 'system:node:n1' });

  const { x509 } = await import('./x509.ts');
  const copied = await signCertificate(ca, { publicKey: keys.publicKey, subject: new x509.X509Certificate(certPem).subjectName });
  assert.equal(new X509Certificate(copied).subject, certificate.subject);
});

test('a CA made by openssl (RSA, and EC in SEC1 form) can sign', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-openssl-'));
  try {
    const extensions = ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'];
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'rsa.key'), '-out', join(dir, 'rsa.crt'), '-subj', '/CN=rsa-ca', '-days', '2', ...extensions]);
    await run('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', join(dir, 'ec.key')]);
    await run('openssl', ['req', '-x509', '-new', '-key', join(dir, 'ec.key'), '-out', join(dir, 'ec.crt'), '-subj', '/O=Example/CN=ec-ca', '-days', '2', ...extensions]);
    for (const name of ['rsa', 'ec']) {
      const certPem = await readFile(join(dir, `${name}.crt`), 'utf8');
      const keyPem = await readFile(join(dir, `${name}.key`), 'utf8');
      if (name === 'ec') assert.match(keyPem, /BEGIN EC PRIVATE KEY/);
      const ca = loadCertificateAuthority({ certPem, keyPem });
      const issued = await issueClientCertificate(ca, { commonName: `user-of-${name}` });
      await opensslVerify(certPem, issued.certPem, 'sslclient');
      assert.equal(new X509Certificate(issued.certPem).issuer, new X509Certificate(certPem).subject);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('loadCertificateAuthority refuses a leaf certificate, a foreign key and garbage', async () => {
  const ca = await generateCertificateAuthority();
  const other = await generateCertificateAuthority();
  const leaf = await issueClientCertificate(ca, { commonName: 'x' });
  assert.throws(() => loadCertificateAuthority(leaf), /the CA certificate is not a CA/);
  assert.throws(() => loadCertificateAuthority({ certPem: ca.certPem, keyPem: other.keyPem }), /the CA private key does not match the CA certificate/);
  assert.throws(() => loadCertificateAuthority({ certPem: 'nonsense', keyPem: ca.keyPem }), /cannot read CA certificate/);
  assert.throws(() => loadCertificateAuthority({ certPem: ca.certPem, keyPem: 'nonsense' }), /cannot read private key/);
});

test('canonicalIp compresses IPv6, strips brackets, unmaps IPv4 and rejects non-addresses', () => {
  assert.equal(canonicalIp('10.0.0.1'), '10.0.0.1');
  assert.equal(canonicalIp('0:0:0:0:0:0:0:1'), '::1');
  assert.equal(canonicalIp('[FD00::0:2]'), 'fd00::2');
  assert.equal(canonicalIp('::ffff:10.0.0.1'), '10.0.0.1');
  assert.throws(() => canonicalIp('example.test'), /invalid IP address "example.test"/);
});
