// Certificate material for the certificates kinds' tests, made fresh: signed requests (ECDSA, RSA,
// Ed25519), a request with a broken signature, a CA certificate and a leaf certificate.
import { webcrypto } from 'node:crypto';
import { x509 } from '../../../pki/x509.ts';
import { generateCertificateAuthority } from '../../../pki/authority.ts';
import { issueClientCertificate } from '../../../pki/sign.ts';

export interface Fixtures {
  ecdsaRequest: string;
  rsaRequest: string;
  ed25519Request: string;
  /** A request whose signature does not match its content. */
  tamperedRequest: string;
  caCert: string;
  otherCaCert: string;
  leafCert: string;
}

async function request(algorithm: webcrypto.EcKeyGenParams | webcrypto.RsaHashedKeyGenParams | { name: 'Ed25519' }, signingAlgorithm: object, cn: string): Promise<string> {
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({ name: `CN=${cn}, O=devs`, keys, signingAlgorithm: signingAlgorithm as webcrypto.Algorithm });
  return csr.toString('pem') + '\n';
}

/** Flips one bit of the request's signature. */
function tamper(pem: string): string {
  const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s/g, '');
  const der = Buffer.from(body, 'base64');
  der[der.length - 3] ^= 0x01;
  const lines = der.toString('base64').match(/.{1,64}/g)!;
  return `-----BEGIN CERTIFICATE REQUEST-----\n${lines.join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;
}

let cached: Promise<Fixtures> | undefined;

export function fixtures(): Promise<Fixtures> {
  cached ??= (async () => {
    const ecdsaRequest = await request({ name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' }, 'alice');
    const rsaRequest = await request({ name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, 'bob');
    const ed25519Request = await request({ name: 'Ed25519' }, { name: 'Ed25519' }, 'carol');
    const ca = await generateCertificateAuthority({ commonName: 'fixture-ca' });
    const other = await generateCertificateAuthority({ commonName: 'other-ca' });
    const leaf = await issueClientCertificate(ca, { commonName: 'alice', organizations: ['devs'] });
    return { ecdsaRequest, rsaRequest, ed25519Request, tamperedRequest: tamper(ecdsaRequest), caCert: ca.certPem, otherCaCert: other.certPem, leafCert: leaf.certPem };
  })();
  return cached;
}

export const b64 = (s: string) => Buffer.from(s).toString('base64');
