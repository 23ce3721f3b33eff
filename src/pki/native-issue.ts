// Capstan's own certificates (its CA, the serving certificate, the admin client certificate) built with
// node:crypto and a small DER writer. The general signer (sign.ts, on @peculiar/x509) takes longer to load
// than the whole rest of a first start; these three certificates need only ECDSA P-256 and a fixed set of
// extensions, the same that sign.ts writes for them.
import { X509Certificate, createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { canonicalIp, ipFamily } from './ip.ts';
import { toPem } from './keys.ts';
import type { PemPair } from './authority.ts';
import * as der from './der.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const CA_DAYS = 3650;
const LEAF_DAYS = 365;
const CA_BACKDATE_MS = 60 * 60 * 1000;
const LEAF_BACKDATE_MS = 5 * 60 * 1000;

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/** KeyUsage bit numbers (RFC 5280 4.2.1.3). */
const KEY_USAGE = { digitalSignature: 0, keyCertSign: 5, cRLSign: 6 } as const;

/** A CA this module can sign with: its key, and the parts of its certificate a signed certificate names. */
export interface NativeAuthority extends PemPair {
  key: KeyObject;
  /** The CA certificate's subject, as encoded: a certificate's issuer must be these very bytes. */
  subject: Buffer;
  /** The CA's subject key identifier, repeated as the authority key identifier of what it signs. */
  keyId: Buffer | undefined;
  notAfter: Date;
}

export interface LeafSpec {
  commonName: string;
  organizations?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  extendedKeyUsage: 'serverAuth' | 'clientAuth';
  days?: number;
}

/** A new self-signed CA: ECDSA P-256, basicConstraints CA (critical), keyUsage keyCertSign/cRLSign/digitalSignature (critical). */
export function createAuthority(options: { commonName?: string; days?: number } = {}): NativeAuthority {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const subject = name({ commonName: options.commonName ?? 'capstan-ca' });
  const keyId = subjectKeyId(spki);
  const now = Date.now();
  const notAfter = new Date(now + (options.days ?? CA_DAYS) * DAY_MS);
  const certDer = certificate({
    issuer: subject, subject, spki, signer: privateKey, notBefore: new Date(now - CA_BACKDATE_MS), notAfter,
    extensions: [
      extension(OID.basicConstraints, true, der.sequence(der.boolean(true))),
      extension(OID.keyUsage, true, der.namedBits([KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign, KEY_USAGE.digitalSignature])),
      extension(OID.subjectKeyIdentifier, false, der.octetString(keyId)),
    ],
  });
  return { certPem: toPem('CERTIFICATE', certDer), keyPem: pkcs8Pem(privateKey), key: privateKey, subject, keyId, notAfter: truncatedToSeconds(notAfter) };
}

/** Reads a CA from PEM for signing here; undefined when its key is not ECDSA P-256 or the certificate is not
 *  one this module can read (sign.ts handles those). */
export function nativeAuthority(pair: PemPair): NativeAuthority | undefined {
  try {
    const key = createPrivateKey(pair.keyPem);
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return undefined;
    const cert = new X509Certificate(pair.certPem);
    if (!cert.ca || !cert.checkPrivateKey(key)) return undefined;
    const { subject, keyId } = readCertificate(cert.raw);
    return { ...pair, key, subject, keyId, notAfter: cert.validToDate };
  } catch {
    return undefined;
  }
}

/** A fresh P-256 key and a certificate for it signed by `ca`: basicConstraints not a CA (critical), keyUsage
 *  digitalSignature (critical), the extended key usage, the names and addresses, and the key identifiers. */
export function issueLeaf(ca: NativeAuthority, spec: LeafSpec): PemPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const now = Date.now();
  const wanted = new Date(now + (spec.days ?? LEAF_DAYS) * DAY_MS);
  const extensions = [
    extension(OID.basicConstraints, true, der.sequence()),
    extension(OID.subjectKeyIdentifier, false, der.octetString(subjectKeyId(spki))),
    ...(ca.keyId ? [extension(OID.authorityKeyIdentifier, false, der.sequence(der.implicit(0, ca.keyId)))] : []),
    extension(OID.keyUsage, true, der.namedBits([KEY_USAGE.digitalSignature])),
    extension(OID.extKeyUsage, false, der.sequence(der.oid(OID[spec.extendedKeyUsage]))),
  ];
  const altNames = [
    ...(spec.dnsNames ?? []).map((dns) => der.implicit(2, Buffer.from(dns, 'latin1'))),
    ...(spec.ipAddresses ?? []).map((ip) => der.implicit(7, ipBytes(ip))),
  ];
  if (altNames.length) extensions.push(extension(OID.subjectAltName, false, der.sequence(...altNames)));
  const certDer = certificate({
    issuer: ca.subject, subject: name(spec), spki, signer: ca.key,
    notBefore: new Date(now - LEAF_BACKDATE_MS), notAfter: wanted > ca.notAfter ? ca.notAfter : wanted, extensions,
  });
  return { certPem: toPem('CERTIFICATE', certDer), keyPem: pkcs8Pem(privateKey) };
}

interface CertificateParts {
  issuer: Buffer;
  subject: Buffer;
  spki: Buffer;
  signer: KeyObject;
  notBefore: Date;
  notAfter: Date;
  extensions: Buffer[];
}

function certificate(p: CertificateParts): Buffer {
  const algorithm = der.sequence(der.oid(OID.ecdsaWithSha256));
  const serial = randomBytes(16);
  serial[0] = (serial[0] & 0x7f) | 0x40; // positive, and 16 bytes long
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)), // v3
    der.unsignedInteger(serial),
    algorithm,
    p.issuer,
    der.sequence(der.time(p.notBefore), der.time(p.notAfter)),
    p.subject,
    p.spki,
    der.explicit(3, der.sequence(...p.extensions)),
  );
  return der.sequence(tbs, algorithm, der.bitString(sign('sha256', tbs, p.signer)));
}

/** Organizations first, then the common name, one attribute per RDN (the layout sign.ts writes). */
function name(subject: { commonName: string; organizations?: string[] }): Buffer {
  const rdn = (type: string, value: string) => der.set(der.sequence(der.oid(type), der.utf8String(value)));
  return der.sequence(...(subject.organizations ?? []).map((o) => rdn(OID.organization, o)), rdn(OID.commonName, subject.commonName));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

/** RFC 5280's method 1: the SHA-1 of the subjectPublicKey bits. */
function subjectKeyId(spki: Buffer): Buffer {
  const [, key] = der.children(der.readElement(spki).contents);
  return createHash('sha1').update(key.contents.subarray(1)).digest();
}

function ipBytes(ip: string): Buffer {
  const canonical = canonicalIp(ip);
  if (ipFamily(canonical) === 4) return Buffer.from(canonical.split('.').map(Number));
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined];
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill('0'), ...back];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

/** The subject and subject key identifier of a certificate, from its DER. */
function readCertificate(certDer: Buffer): { subject: Buffer; keyId: Buffer | undefined } {
  const [tbs] = der.children(der.readElement(certDer).contents);
  const fields = der.children(tbs.contents);
  const first = fields[0].tag === 0xa0 ? 1 : 0; // [0] version is absent in v1 certificates
  const subject = fields[first + 4].raw;
  let keyId: Buffer | undefined;
  const extensions = fields.find((f) => f.tag === 0xa3);
  if (extensions) {
    for (const ext of der.children(der.readElement(extensions.contents).contents)) {
      const [id, ...rest] = der.children(ext.contents);
      if (!id.raw.equals(der.oid(OID.subjectKeyIdentifier))) continue;
      keyId = der.readElement(rest[rest.length - 1].contents).contents;
    }
  }
  return { subject, keyId };
}

function pkcs8Pem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }) as string;
}

/** Certificates carry whole seconds: the CA's expiry as a signed certificate sees it. */
function truncatedToSeconds(d: Date): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}
