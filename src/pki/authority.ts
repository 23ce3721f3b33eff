// The certificate authority: generating a new one and loading one from PEM.
import { X509Certificate as NodeX509Certificate, createPrivateKey } from 'node:crypto';
import { x509, type X509 } from './x509.ts';
import { exportPrivateKeyPem, generateKeyPair, importSigningKey, NEW_KEY_ALGORITHM, type SigningKey } from './keys.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_CA_DAYS = 3650;
export const DEFAULT_CA_COMMON_NAME = 'capstan-ca';

export interface PemPair {
  certPem: string;
  keyPem: string;
}

export interface CertificateAuthority extends PemPair {
  certificate: X509.X509Certificate;
  signingKey: SigningKey;
}

export interface CertificateAuthorityOptions {
  commonName?: string;
  days?: number;
}

/** A new self-signed CA: ECDSA P-256, basicConstraints CA (critical), keyUsage keyCertSign/cRLSign/digitalSignature. */
export async function generateCertificateAuthority(options: CertificateAuthorityOptions = {}): Promise<CertificateAuthority> {
  const keys = await generateKeyPair();
  const now = Date.now();
  const usages = x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: [{ CN: [options.commonName ?? DEFAULT_CA_COMMON_NAME] }],
    keys,
    signingAlgorithm: { ...NEW_KEY_ALGORITHM, hash: 'SHA-256' },
    // An hour back, so that clients and servers with a slightly slow clock accept it at once.
    notBefore: new Date(now - 60 * 60 * 1000),
    notAfter: new Date(now + (options.days ?? DEFAULT_CA_DAYS) * DAY_MS),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(usages, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const certPem = certificate.toString('pem') + '\n';
  const keyPem = await exportPrivateKeyPem(keys.privateKey);
  return loadCertificateAuthority({ certPem, keyPem });
}

/** Reads a CA from PEM; fails if the certificate is not a CA or the key is not its key. */
export function loadCertificateAuthority(pair: PemPair): CertificateAuthority {
  let nodeCertificate: NodeX509Certificate;
  try {
    nodeCertificate = new NodeX509Certificate(pair.certPem);
  } catch (error) {
    throw new Error(`cannot read CA certificate: ${(error as Error).message}`);
  }
  if (!nodeCertificate.ca) throw new Error('the CA certificate is not a CA (basicConstraints CA is not set)');
  const signingKey = importSigningKey(pair.keyPem);
  if (!nodeCertificate.checkPrivateKey(createPrivateKey(pair.keyPem))) {
    throw new Error('the CA private key does not match the CA certificate');
  }
  return { ...pair, certificate: new x509.X509Certificate(pair.certPem), signingKey };
}
