import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { createAuthority, issueLeaf, nativeAuthority } from './native-issue.ts';
import { generateCertificateAuthority } from './authority.ts';
import { x509 } from './x509.ts';

const run = promisify(execFile);

async function withFiles<T>(files: Record<string, string>, body: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-native-'));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const openssl = (args: string[]) => run('openssl', args).then((r) => r.stdout);

test('the CA is a self-signed ECDSA P-256 CA named capstan-ca, valid about ten years, with its extensions', async () => {
  const ca = createAuthority();
  const cert = new X509Certificate(ca.certPem);
  assert.equal(cert.ca, true);
  assert.equal(cert.subject, 'CN=capstan-ca');
  assert.equal(cert.issuer, 'CN=capstan-ca');
  assert.ok(cert.verify(cert.publicKey));
  assert.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  assert.ok(cert.checkPrivateKey(createPrivateKey(ca.keyPem)));
  assert.match(ca.keyPem, /^-----BEGIN PRIVATE KEY-----\n/);
  const years = (cert.validToDate.getTime() - Date.now()) / (365 * 24 * 3600 * 1000);
  assert.ok(years > 9.9 && years < 10.1, `validity ${years} years`);
  assert.ok(cert.validFromDate.getTime() <= Date.now() - 59 * 60 * 1000, 'backdated an hour');
  const text = await withFiles({ 'ca.crt': ca.certPem }, (dir) => openssl(['x509', '-in', join(dir, 'ca.crt'), '-noout', '-text']));
  assert.match(text, /Version: 3/);
  assert.match(text, /Signature Algorithm: ecdsa-with-SHA256/);
  assert.match(text, /Basic Constraints: critical\s+CA:TRUE/);
  assert.match(text, /Key Usage: critical\s+Digital Signature, Certificate Sign, CRL Sign/);
  assert.match(text, /Subject Key Identifier/);
});

test('serving and client certificates verify against the CA with openssl, with their names, usages and key identifiers', async () => {
  const ca = createAuthority();
  const serving = issueLeaf(ca, { commonName: 'capstan-apiserver', dnsNames: ['localhost', 'kubernetes.default.svc'], ipAddresses: ['127.0.0.1', '::1', 'fd00:10::7', '[2001:db8::1:0:0:1]'], extendedKeyUsage: 'serverAuth' });
  const client = issueLeaf(ca, { commonName: 'capstan-admin', organizations: ['system:masters', 'team'], extendedKeyUsage: 'clientAuth' });
  await withFiles({ 'ca.crt': ca.certPem, 'serving.crt': serving.certPem, 'client.crt': client.certPem }, async (dir) => {
    assert.match(await openssl(['verify', '-purpose', 'sslserver', '-CAfile', join(dir, 'ca.crt'), join(dir, 'serving.crt')]), /serving\.crt: OK/);
    assert.match(await openssl(['verify', '-purpose', 'sslclient', '-CAfile', join(dir, 'ca.crt'), join(dir, 'client.crt')]), /client\.crt: OK/);
    const text = await openssl(['x509', '-in', join(dir, 'serving.crt'), '-noout', '-text']);
    assert.match(text, /Basic Constraints: critical\s+CA:FALSE/);
    assert.match(text, /Key Usage: critical\s+Digital Signature/);
    assert.match(text, /Extended Key Usage: \s*TLS Web Server Authentication/);
  });
  const s = new X509Certificate(serving.certPem);
  for (const name of ['localhost', 'kubernetes.default.svc']) assert.equal(s.checkHost(name, { subject: 'never' }), name);
  for (const ip of ['127.0.0.1', '::1', 'fd00:10::7', '2001:db8::1:0:0:1']) assert.equal(s.checkIP(ip), ip);
  assert.equal(s.subject, 'CN=capstan-apiserver');
  assert.deepEqual(s.keyUsage, ['1.3.6.1.5.5.7.3.1']);
  const c = new X509Certificate(client.certPem);
  assert.equal(c.subject, 'O=system:masters\nO=team\nCN=capstan-admin');
  assert.deepEqual(c.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  assert.ok(c.checkPrivateKey(createPrivateKey(client.keyPem)));
  // The authority key identifier is the CA's subject key identifier, as a chain builder looks it up.
  const caId = new x509.X509Certificate(ca.certPem).getExtension(x509.SubjectKeyIdentifierExtension)!.keyId;
  assert.equal(new x509.X509Certificate(client.certPem).getExtension(x509.AuthorityKeyIdentifierExtension)!.keyId, caId);
});

test('a TLS server and client authenticate each other with them', async () => {
  const ca = createAuthority();
  const serving = issueLeaf(ca, { commonName: 'capstan-apiserver', dnsNames: ['localhost'], ipAddresses: ['127.0.0.1'], extendedKeyUsage: 'serverAuth' });
  const client = issueLeaf(ca, { commonName: 'alice', organizations: ['devs'], extendedKeyUsage: 'clientAuth' });
  const server = createServer({ cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true }, (socket) => {
    socket.end(String((socket as TLSSocket).getPeerCertificate().subject.CN));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as { port: number }).port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, servername: 'localhost', ca: ca.certPem, cert: client.certPem, key: client.keyPem }, () => {
        let text = '';
        socket.on('data', (d) => { text += d; });
        socket.on('end', () => resolve(text));
      });
      socket.on('error', reject);
    });
    assert.equal(answer, 'alice');
  } finally {
    server.close();
  }
});

test('a leaf never outlives its CA', () => {
  const ca = createAuthority({ days: 2 });
  const leaf = new X509Certificate(issueLeaf(ca, { commonName: 'x', extendedKeyUsage: 'clientAuth', days: 365 }).certPem);
  assert.equal(leaf.validToDate.getTime(), new X509Certificate(ca.certPem).validToDate.getTime());
});

test('a P-256 CA from disk signs here, with its own subject and key identifier; other keys are left to the general signer', async () => {
  const made = await generateCertificateAuthority({ commonName: 'made elsewhere' });
  const ca = nativeAuthority(made);
  assert.ok(ca);
  const leaf = issueLeaf(ca, { commonName: 'bob', extendedKeyUsage: 'clientAuth' });
  const cert = new X509Certificate(leaf.certPem);
  const caCert = new X509Certificate(made.certPem);
  assert.ok(cert.checkIssued(caCert) && cert.verify(caCert.publicKey));
  assert.equal(cert.issuer, 'CN=made elsewhere');
  assert.equal(
    new x509.X509Certificate(leaf.certPem).getExtension(x509.AuthorityKeyIdentifierExtension)!.keyId,
    made.certificate.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId,
  );

  const rsa = await withFiles({}, async (dir) => {
    await openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'c.pem'), '-subj', '/CN=rsa-ca', '-days', '2']);
    const { readFile } = await import('node:fs/promises');
    return { certPem: await readFile(join(dir, 'c.pem'), 'utf8'), keyPem: await readFile(join(dir, 'k.pem'), 'utf8') };
  });
  assert.equal(nativeAuthority(rsa), undefined);
  assert.equal(nativeAuthority({ certPem: issueLeaf(ca, { commonName: 'leaf', extendedKeyUsage: 'clientAuth' }).certPem, keyPem: made.keyPem }), undefined);
  assert.equal(nativeAuthority({ certPem: 'garbage', keyPem: made.keyPem }), undefined);
});
