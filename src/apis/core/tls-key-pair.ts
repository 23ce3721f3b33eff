// Whether a certificate and a private key (PEM) form a pair, with the error text of Go's
// tls.X509KeyPair: Kubernetes warns with it when a `platform.io/tls` Secret's pair does not match.
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

interface PemBlock { type: string; der: Buffer }

const pemBlock = /-----BEGIN ([^\r\n]*?)-----\r?\n([\s\S]*?)-----END \1-----/g;

/** The PEM blocks of the input, in order; blocks whose body is not base64 are skipped as Go skips them. */
function pemBlocks(input: Uint8Array): PemBlock[] {
  const text = Buffer.from(input).toString('latin1');
  const blocks: PemBlock[] = [];
  for (const m of text.matchAll(pemBlock)) {
    let body = m[2];
    // RFC 1421 headers ("Proc-Type: ...") end at the first blank line.
    if (/^[^\r\n]*:/.test(body)) {
      const blank = body.search(/\r?\n\r?\n/);
      if (blank < 0) continue;
      body = body.slice(blank).trimStart();
    }
    const b64 = body.replace(/[\r\n\t ]/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0) continue;
    blocks.push({ type: m[1], der: Buffer.from(b64, 'base64') });
  }
  return blocks;
}

const list = (types: string[]) => '[' + types.join(' ') + ']';

function parsePrivateKey(der: Buffer): KeyObject | undefined {
  for (const type of ['pkcs1', 'pkcs8', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // try the next encoding
    }
  }
  return undefined;
}

const spki = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });

/** Go's tls.X509KeyPair error for the pair, or undefined when the certificate and key match. */
export function x509KeyPairError(certPem: Uint8Array, keyPem: Uint8Array): string | undefined {
  const certBlocks = pemBlocks(certPem);
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    const skipped = certBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0].endsWith('PRIVATE KEY')) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${list(skipped)}`;
  }

  const skipped: string[] = [];
  let keyBlock: PemBlock | undefined;
  for (const b of pemBlocks(keyPem)) {
    if (b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY')) { keyBlock = b; break; }
    skipped.push(b.type);
  }
  if (!keyBlock) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') return 'tls: found a certificate rather than a key in the PEM for the private key';
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${list(skipped)}`;
  }

  let certKey: KeyObject;
  try {
    certKey = new X509Certificate(certs[0].der).publicKey;
  } catch {
    return 'x509: malformed certificate';
  }
  const priv = parsePrivateKey(keyBlock.der);
  if (!priv) return 'tls: failed to parse private key';
  const privType = priv.asymmetricKeyType;
  if (privType !== 'rsa' && privType !== 'ec' && privType !== 'ed25519') return 'tls: found unknown private key type in PKCS#8 wrapping';
  const pubType = certKey.asymmetricKeyType;
  if (pubType !== 'rsa' && pubType !== 'ec' && pubType !== 'ed25519') return 'tls: unknown public key algorithm';
  if (pubType !== privType) return 'tls: private key type does not match public key type';
  if (!spki(certKey).equals(spki(createPublicKey(priv)))) return 'tls: private key does not match public key';
  return undefined;
}
