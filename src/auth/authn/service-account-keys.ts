// Service account token keys: the private key that signs (--service-account-signing-key-file, generated
// in the data directory when not given) and the public keys that verify (--service-account-key-file,
// which may hold public keys, private keys or certificates; the signing key's own public key by default).
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';

export interface SigningKey {
  key: KeyObject;
  alg: string;
  kid: string;
}

export interface VerificationKey {
  key: KeyObject;
  alg: string;
  kid: string;
}

/** The JWS algorithm Kubernetes uses for a key: RS256 for RSA, ES256/384/512 by curve. */
export function algorithmFor(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
    if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
    if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
    throw new Error(`unsupported EC curve ${curve}`);
  }
  throw new Error(`unsupported key type ${key.asymmetricKeyType}: service account keys must be RSA or ECDSA`);
}

/** Kubernetes' key id: the unpadded base64url SHA-256 of the public key's DER (PKIX) encoding. */
export function keyId(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** Every public key in a PEM file: PUBLIC KEY, RSA PUBLIC KEY, CERTIFICATE, and the public half of private keys. */
export function publicKeysFromPem(pem: string, path: string): VerificationKey[] {
  const out: VerificationKey[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const [block, label] = m;
    let key: KeyObject;
    try {
      if (label === 'CERTIFICATE') key = new X509Certificate(block).publicKey;
      else if (label.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(block));
      else if (label.endsWith('PUBLIC KEY')) key = createPublicKey(block);
      else continue;
    } catch (err) {
      throw new Error(`${path}: cannot read ${label}: ${(err as Error).message}`);
    }
    out.push({ key, alg: algorithmFor(key), kid: keyId(key) });
  }
  if (!out.length) throw new Error(`${path}: no public keys found`);
  return out;
}

export function signingKeyFromPem(pem: string, path: string): SigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new Error(`${path}: cannot read the service account signing key: ${(err as Error).message}`);
  }
  return { key, alg: algorithmFor(key), kid: keyId(createPublicKey(key)) };
}

/** Reads the signing key, generating an ECDSA P-256 key at `path` on first use. */
export async function loadOrCreateSigningKey(path: string, generate: boolean): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !generate) throw new Error(`cannot read the service account signing key ${path}: ${(err as Error).message}`);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, pem, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  }
  return signingKeyFromPem(pem, path);
}

export async function loadVerificationKeys(paths: readonly string[]): Promise<VerificationKey[]> {
  const out: VerificationKey[] = [];
  for (const p of paths) out.push(...publicKeysFromPem(await readFile(p, 'utf8'), p));
  return out;
}

export function verificationKeyOf(signing: SigningKey): VerificationKey {
  const key = createPublicKey(signing.key);
  return { key, alg: signing.alg, kid: signing.kid };
}
