// The X.509 checks certificate kinds make, with the messages Kubernetes (Go's crypto/x509) gives: a
// certificate request must be one PKCS#10 request whose signature verifies; an issued certificate is one
// or more CERTIFICATE blocks; a trust bundle holds distinct CA certificates.
import { X509Certificate, createPublicKey, verify, constants } from 'node:crypto';
import { x509 } from '../../pki/x509.ts';
import { goQuote } from '../../machinery/go-format.ts';
import { decodePem, decodeAllPem, binaryString } from './pem.ts';

const HASHES: Record<string, string> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

interface SignatureAlgorithm { name: string; hash?: { name: string }; saltLength?: number }

/** A DER element's header length and total length at `at`, or undefined when malformed. */
function derElement(der: Uint8Array, at: number): { header: number; total: number } | undefined {
  if (at + 2 > der.length) return undefined;
  const first = der[at + 1]!;
  if (first < 0x80) return { header: 2, total: 2 + first };
  const n = first & 0x7f;
  if (n === 0 || n > 4 || at + 2 + n > der.length) return undefined;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + der[at + 2 + i]!;
  return { header: 2 + n, total: 2 + n + len };
}

/** The signed part of a PKCS#10 request: the first element inside the outer SEQUENCE. */
function signedPart(der: Uint8Array): Uint8Array | undefined {
  const outer = derElement(der, 0);
  if (!outer) return undefined;
  const inner = derElement(der, outer.header);
  if (!inner || outer.header + inner.total > der.length) return undefined;
  return der.subarray(outer.header, outer.header + inner.total);
}

/** Checks the request's self-signature synchronously (Go's CertificateRequest.CheckSignature). */
function signatureProblem(csr: InstanceType<typeof x509.Pkcs10CertificateRequest>, der: Uint8Array): string | undefined {
  const alg = csr.signatureAlgorithm as SignatureAlgorithm;
  const tbs = signedPart(der);
  if (!tbs) return 'asn1: structure error: malformed certificate request';
  const data = Buffer.from(tbs);
  const signature = Buffer.from(csr.signature);
  let key;
  try {
    key = createPublicKey({ key: Buffer.from(csr.publicKey.rawData), format: 'der', type: 'spki' });
  } catch {
    return 'x509: unsupported public key algorithm';
  }
  const hash = alg.hash ? HASHES[alg.hash.name] : undefined;
  try {
    switch (alg.name) {
      case 'RSASSA-PKCS1-v1_5':
        if (!hash) break;
        return verify(hash, data, key, signature) ? undefined : 'crypto/rsa: verification error';
      case 'RSA-PSS':
        if (!hash) break;
        return verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: alg.saltLength ?? constants.RSA_PSS_SALTLEN_AUTO }, signature) ? undefined : 'crypto/rsa: verification error';
      case 'ECDSA':
        if (!hash) break;
        return verify(hash, data, key, signature) ? undefined : 'x509: ECDSA verification failure';
      case 'Ed25519':
        return verify(null, data, key, signature) ? undefined : 'x509: Ed25519 verification failure';
    }
  } catch {
    return 'x509: signature verification failed';
  }
  return 'x509: cannot verify signature: algorithm unimplemented';
}

/** Why `pem` is not a valid signed certificate request (ParseCSR and CheckSignature), or undefined. */
export function certificateRequestProblem(pem: Uint8Array): string | undefined {
  const found = decodePem(binaryString(pem));
  if (!found || found.block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  let csr;
  try {
    csr = new x509.Pkcs10CertificateRequest(found.block.bytes);
  } catch {
    return 'asn1: structure error: malformed certificate request';
  }
  return signatureProblem(csr, found.block.bytes);
}

function parsesAsCertificate(der: Uint8Array): boolean {
  try {
    new X509Certificate(der);
    return true;
  } catch {
    return false;
  }
}

/** Why `pem` is not an issued certificate chain (Kubernetes' validateCertificate), or undefined. */
export function issuedCertificateProblem(pem: Uint8Array): string | undefined {
  if (pem.length === 0) return undefined;
  const blocks = decodeAllPem(binaryString(pem));
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${goQuote(b.type)}`;
    if (Object.keys(b.headers).length) return 'no PEM block headers are permitted';
    if (!parsesAsCertificate(b.bytes)) return 'x509: malformed certificate';
  }
  if (blocks.length === 0) return 'must contain at least one CERTIFICATE PEM block';
  return undefined;
}

/** The problems of a trust bundle, each naming the entry (Kubernetes' validateTrustBundle). */
export function trustBundleProblems(text: string): string[] {
  const problems: string[] = [];
  const seen = new Map<string, number[]>();
  decodeAllPem(Buffer.from(text, 'utf8').toString('latin1')).forEach((b, i) => {
    if (b.type !== 'CERTIFICATE') { problems.push(`entry ${i} has bad block type: ${b.type}`); return; }
    if (Object.keys(b.headers).length) { problems.push(`entry ${i} has PEM block headers`); return; }
    let cert: X509Certificate;
    try { cert = new X509Certificate(b.bytes); } catch { problems.push(`entry ${i} does not parse as X.509`); return; }
    if (!cert.ca) { problems.push(`entry ${i} does not have the CA bit set`); return; }
    const key = Buffer.from(b.bytes).toString('base64');
    seen.set(key, [...(seen.get(key) ?? []), i]);
  });
  // A malformed entry is reported alone: duplicate and missing anchors would only repeat it.
  if (problems.length) return problems;
  if (seen.size === 0) return ['at least one trust anchor must be provided'];
  for (const indices of seen.values()) if (indices.length > 1) problems.push(`duplicate trust anchor (indices [${indices.join(' ')}])`);
  return problems;
}
