// A throwaway CA with a server certificate for 127.0.0.1 and a client certificate, as PEM text and
// files, for starting etcd with TLS in tests.

import { webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x509, type X509 } from '../../src/pki/x509.ts';

export interface TestPki {
  caPem: string;
  serverCertFile: string;
  serverKeyFile: string;
  caFile: string;
  clientCertPem: string;
  clientKeyPem: string;
  remove(): Promise<void>;
}

const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };

export async function createTestPki(): Promise<TestPki> {
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 24 * 3600_000);

  const caKeys = await generateKeys();
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=capstan test CA',
    notBefore,
    notAfter,
    signingAlgorithm: algorithm,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });

  async function issue(serialNumber: string, subject: string, server: boolean) {
    const keys = await generateKeys();
    const extensions: X509.Extension[] = [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([server ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth]),
    ];
    if (server) {
      extensions.push(
        new x509.SubjectAlternativeNameExtension([
          { type: 'ip', value: '127.0.0.1' },
          { type: 'dns', value: 'localhost' },
        ]),
      );
    }
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber,
      subject,
      issuer: ca.subject,
      notBefore,
      notAfter,
      signingAlgorithm: algorithm,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      extensions,
    });
    return { certPem: cert.toString('pem'), keyPem: await privateKeyPem(keys.privateKey) };
  }

  const server = await issue('02', 'CN=etcd', true);
  const client = await issue('03', 'CN=capstan', false);
  const dir = await mkdtemp(join(tmpdir(), 'capstan-pki-'));
  const caPem = ca.toString('pem');
  const files = {
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
  };
  await writeFile(files.caFile, caPem);
  await writeFile(files.serverCertFile, server.certPem);
  await writeFile(files.serverKeyFile, server.keyPem, { mode: 0o600 });
  return {
    caPem,
    ...files,
    clientCertPem: client.certPem,
    clientKeyPem: client.keyPem,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

function generateKeys(): Promise<webcrypto.CryptoKeyPair> {
  return webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
}

async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  const lines = der.toString('base64').match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN PRIVATE KEY-----\n${lines}\n-----END PRIVATE KEY-----\n`;
}
