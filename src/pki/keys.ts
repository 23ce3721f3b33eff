// Key pairs and their PEM form. New keys are ECDSA P-256: quick to generate and to handshake, and
// accepted by Go's and Node's TLS. Keys read from disk may be any type OpenSSL reads (a CA someone
// else made may be RSA), so signing keys are imported through node:crypto rather than WebCrypto.
import { createPrivateKey, webcrypto, type KeyObject } from 'node:crypto';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

export const NEW_KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/** A private key ready to sign, with the signature algorithm that goes with it. */
export interface SigningKey {
  privateKey: CryptoKey;
  signingAlgorithm: webcrypto.Algorithm | webcrypto.EcdsaParams | webcrypto.RsaHashedImportParams;
}

export async function generateKeyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(NEW_KEY_ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** PKCS#8 PEM ("PRIVATE KEY"), which OpenSSL, Node and Go's tls.X509KeyPair all read. */
export async function exportPrivateKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return toPem('PRIVATE KEY', der);
}

export function toPem(label: string, der: Uint8Array): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

const CURVES: Record<string, { namedCurve: string; hash: string }> = {
  prime256v1: { namedCurve: 'P-256', hash: 'SHA-256' },
  secp384r1: { namedCurve: 'P-384', hash: 'SHA-384' },
  secp521r1: { namedCurve: 'P-521', hash: 'SHA-512' },
};

/** Reads a PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC) into a WebCrypto signing key. */
export function importSigningKey(pem: string): SigningKey {
  let keyObject: KeyObject;
  try {
    keyObject = createPrivateKey(pem);
  } catch (error) {
    throw new Error(`cannot read private key: ${(error as Error).message}`);
  }
  const type = keyObject.asymmetricKeyType;
  if (type === 'ec') {
    const curve = CURVES[keyObject.asymmetricKeyDetails?.namedCurve ?? ''];
    if (!curve) throw new Error(`unsupported EC curve ${keyObject.asymmetricKeyDetails?.namedCurve}`);
    const privateKey = keyObject.toCryptoKey({ name: 'ECDSA', namedCurve: curve.namedCurve }, false, ['sign']);
    return { privateKey, signingAlgorithm: { name: 'ECDSA', hash: curve.hash } };
  }
  if (type === 'rsa') {
    const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    return { privateKey: keyObject.toCryptoKey(algorithm, false, ['sign']), signingAlgorithm: algorithm };
  }
  if (type === 'ed25519') {
    return { privateKey: keyObject.toCryptoKey({ name: 'Ed25519' }, false, ['sign']), signingAlgorithm: { name: 'Ed25519' } };
  }
  throw new Error(`unsupported private key type ${type}`);
}
