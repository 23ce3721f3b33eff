import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePki, pkiDir, PKI_FILES } from './ensure.ts';
import { generateCertificateAuthority, loadCertificateAuthority } from './authority.ts';
import { issueServingCertificate, signCertificate } from './sign.ts';
import { servingHosts } from './hosts.ts';

async function withDataDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'capstan-pki-'));
  try {
    await body(pkiDir(dataDir));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

test('pkiDir is <dataDir>/pki', () => {
  assert.equal(pkiDir('/var/lib/capstan'), '/var/lib/capstan/pki');
});

test('first start writes CA, serving and admin certificates; keys are 0600', () =>
  withDataDir(async (dir) => {
    const pki = await ensurePki(dir, { hosts: ['10.9.8.7'] });
    assert.deepEqual(pki.generated, { ca: 'missing', serving: 'missing', admin: 'missing' });
    assert.equal(pki.caCertPath, join(dir, 'ca.crt'));
    assert.equal(pki.servingKeyPath, join(dir, 'apiserver.key'));
    assert.equal(pki.adminCertPath, join(dir, 'admin.crt'));
    for (const name of Object.values(PKI_FILES)) {
      const mode = (await stat(join(dir, name))).mode & 0o777;
      assert.equal(mode, name.endsWith('.key') ? 0o600 : 0o644, name);
    }
    assert.equal((await stat(dir)).mode & 0o777, 0o700);
    assert.equal(await readFile(pki.caCertPath, 'utf8'), pki.caCertPem);
    assert.equal(await readFile(pki.adminKeyPath, 'utf8'), pki.adminKeyPem);

    const ca = new X509Certificate(pki.caCertPem);
    const serving = new X509Certificate(pki.servingCertPem);
    const admin = new X509Certificate(pki.adminCertPem);
    assert.equal(ca.subject, 'CN=capstan-ca');
    assert.ok(serving.checkIssued(ca) && serving.verify(ca.publicKey));
    assert.ok(admin.checkIssued(ca) && admin.verify(ca.publicKey));
    for (const name of ['localhost', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', hostname().toLowerCase()]) {
      assert.equal(serving.checkHost(name, { subject: 'never' }), name);
    }
    for (const ip of ['127.0.0.1', '::1', '10.9.8.7']) assert.equal(serving.checkIP(ip), ip);
    assert.equal(admin.subject, 'O=system:masters\nCN=capstan-admin');
    assert.deepEqual(admin.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  }));

test('a restart reuses every file untouched', () =>
  withDataDir(async (dir) => {
    const first = await ensurePki(dir, { hosts: ['10.9.8.7'] });
    const second = await ensurePki(dir, { hosts: ['10.9.8.7'] });
    assert.deepEqual(second.generated, {});
    for (const key of ['caCertPem', 'caKeyPem', 'servingCertPem', 'servingKeyPem', 'adminCertPem', 'adminKeyPem'] as const) {
      assert.equal(second[key], first[key], key);
    }
    // Wildcard binds are not certified, so asking for one does not force a new certificate.
    assert.deepEqual((await ensurePki(dir, { hosts: ['0.0.0.0', '::'] })).generated, {});
  }));

test('a host the serving certificate lacks makes a new serving certificate only', () =>
  withDataDir(async (dir) => {
    const first = await ensurePki(dir);
    const second = await ensurePki(dir, { hosts: ['api.example.test', '192.0.2.10'] });
    assert.deepEqual(second.generated, { serving: 'the certificate does not cover api.example.test' });
    assert.equal(second.caCertPem, first.caCertPem);
    assert.equal(second.adminCertPem, first.adminCertPem);
    const serving = new X509Certificate(second.servingCertPem);
    assert.equal(serving.checkHost('api.example.test', { subject: 'never' }), 'api.example.test');
    assert.equal(serving.checkIP('192.0.2.10'), '192.0.2.10');
    assert.equal(await readFile(second.servingCertPath, 'utf8'), second.servingCertPem);
  }));

test('leaf certificates are replaced when missing, near expiry, from another CA, or with a wrong key', () =>
  withDataDir(async (dir) => {
    const first = await ensurePki(dir);

    await unlink(first.adminKeyPath);
    assert.deepEqual((await ensurePki(dir)).generated, { admin: 'missing' });

    const ca = loadCertificateAuthority({ certPem: first.caCertPem, keyPem: first.caKeyPem });
    const current = await ensurePki(dir);
    const { x509 } = await import('./x509.ts');
    const servingKey = new x509.X509Certificate(current.servingCertPem).publicKey;
    const shortLived = await signCertificate(ca, {
      publicKey: servingKey,
      subject: { commonName: 'capstan-apiserver' },
      ...servingHosts(),
      extendedKeyUsages: ['serverAuth'],
      notAfter: new Date(Date.now() + 10 * 24 * 3600 * 1000),
    });
    await writeFile(current.servingCertPath, shortLived);
    assert.deepEqual((await ensurePki(dir)).generated, { serving: 'the certificate expires soon' });

    const foreign = await issueServingCertificate(await generateCertificateAuthority(), servingHosts());
    await writeFile(current.servingCertPath, foreign.certPem);
    await writeFile(current.servingKeyPath, foreign.keyPem);
    assert.deepEqual((await ensurePki(dir)).generated, { serving: 'the certificate is not signed by the current CA' });

    await writeFile(current.adminKeyPath, foreign.keyPem);
    assert.deepEqual((await ensurePki(dir)).generated, { admin: 'the key does not match the certificate' });

    // A serving certificate in the admin's place has the wrong usage.
    const fresh = await ensurePki(dir);
    await writeFile(fresh.adminCertPath, fresh.servingCertPem);
    await writeFile(fresh.adminKeyPath, fresh.servingKeyPem);
    assert.deepEqual((await ensurePki(dir)).generated, { admin: 'the certificate lacks extended key usage clientAuth' });
  }));

test('an inconsistent CA on disk is an error that says how to recover, not a silent new CA', () =>
  withDataDir(async (dir) => {
    const first = await ensurePki(dir);
    const other = await generateCertificateAuthority();
    await writeFile(first.caKeyPath, other.keyPem);
    await assert.rejects(ensurePki(dir), {
      message: `pki: cannot use the CA in ${dir}: the CA key does not match the CA certificate; remove both ca.crt and ca.key from ${dir} to generate a new CA`,
    });
    await unlink(first.caKeyPath);
    await assert.rejects(ensurePki(dir), {
      message: `pki: ${join(dir, 'ca.crt')} exists but ${join(dir, 'ca.key')} does not; remove both ca.crt and ca.key from ${dir} to generate a new CA`,
    });
    await unlink(first.caCertPath);
    const regenerated = await ensurePki(dir);
    assert.deepEqual(regenerated.generated, {
      ca: 'missing',
      serving: 'the certificate is not signed by the current CA',
      admin: 'the certificate is not signed by the current CA',
    });
  }));

test('a CA close to expiry is replaced together with its certificates', () =>
  withDataDir(async (dir) => {
    await ensurePki(dir);
    const expiring = await generateCertificateAuthority({ days: 3 });
    await writeFile(join(dir, 'ca.crt'), expiring.certPem);
    await writeFile(join(dir, 'ca.key'), expiring.keyPem);
    const pki = await ensurePki(dir);
    assert.deepEqual(pki.generated, {
      ca: 'the CA expires soon',
      serving: 'the certificate is not signed by the current CA',
      admin: 'the certificate is not signed by the current CA',
    });
    assert.notEqual(pki.caCertPem, expiring.certPem);
  }));
