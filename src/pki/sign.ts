// Signs certificates with a certificate authority: the general signer (later used for
// CertificateSigningRequests) and the two shapes Capstan issues itself, client and serving.
import { x509, type X509 } from './x509.ts';
import { exportPrivateKeyPem, generateKeyPair } from './keys.ts';
import { canonicalIp } from './ip.ts';
import { loadCertificateAuthority, type CertificateAuthority, type PemPair } from './authority.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Certificates start a little in the past so that a client whose clock is behind still accepts them. */
export const BACKDATE_MS = 5 * 60 * 1000;
export const DEFAULT_LEAF_DAYS = 365;

export type KeyUsageName =
  | 'digitalSignature' | 'nonRepudiation' | 'keyEncipherment' | 'dataEncipherment' | 'keyAgreement'
  | 'keyCertSign' | 'cRLSign' | 'encipherOnly' | 'decipherOnly';

const KEY_USAGE_BITS: Record<KeyUsageName, number> = {
  digitalSignature: 1, nonRepudiation: 2, keyEncipherment: 4, dataEncipherment: 8, keyAgreement: 16,
  keyCertSign: 32, cRLSign: 64, encipherOnly: 128, decipherOnly: 256,
};

/** Extended key usages by name; any other value is taken as a dotted OID. */
export const EXTENDED_KEY_USAGE_OIDS = {
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  ocspSigning: '1.3.6.1.5.5.7.3.9',
  any: '2.5.29.37.0',
} as const;
export type ExtendedKeyUsageName = keyof typeof EXTENDED_KEY_USAGE_OIDS;

export interface SubjectSpec {
  commonName: string;
  organizations?: string[];
  organizationalUnits?: string[];
}

export interface CertificateTemplate {
  /** The certified key: a WebCrypto public key, an x509.PublicKey (e.g. from a CSR) or SPKI DER. */
  publicKey: X509.PublicKeyType;
  /** A subject built from parts, or a name taken as is (e.g. a CSR's subjectName). */
  subject: SubjectSpec | X509.Name;
  dnsNames?: string[];
  ipAddresses?: string[];
  emailAddresses?: string[];
  uris?: string[];
  keyUsages?: KeyUsageName[];
  extendedKeyUsages?: (ExtendedKeyUsageName | string)[];
  isCA?: boolean;
  /** Defaults to now minus BACKDATE_MS. */
  notBefore?: Date;
  /** Defaults to DEFAULT_LEAF_DAYS after now; never later than the CA's own expiry. */
  notAfter?: Date;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
}

export function subjectName(subject: SubjectSpec): X509.JsonName {
  // One attribute per RDN, the usual layout (O before CN), so every reader sees each O value.
  return [
    ...(subject.organizations ?? []).map((o) => ({ O: [o] })),
    ...(subject.organizationalUnits ?? []).map((ou) => ({ OU: [ou] })),
    { CN: [subject.commonName] },
  ];
}

function generalNames(template: CertificateTemplate): X509.JsonGeneralNames {
  return [
    ...(template.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
    ...(template.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value: canonicalIp(value) })),
    ...(template.emailAddresses ?? []).map((value) => ({ type: 'email' as const, value })),
    ...(template.uris ?? []).map((value) => ({ type: 'url' as const, value })),
  ];
}

/** Signs one certificate for `template.publicKey` and returns it as PEM. */
export async function signCertificate(ca: CertificateAuthority, template: CertificateTemplate): Promise<string> {
  const now = Date.now();
  const notBefore = template.notBefore ?? new Date(now - BACKDATE_MS);
  const requestedNotAfter = template.notAfter ?? new Date(now + DEFAULT_LEAF_DAYS * DAY_MS);
  const notAfter = requestedNotAfter > ca.certificate.notAfter ? ca.certificate.notAfter : requestedNotAfter;

  const publicKey = await x509.PublicKey.create(template.publicKey);
  const extensions: X509.Extension[] = [
    new x509.BasicConstraintsExtension(template.isCA ?? false, undefined, true),
    await x509.SubjectKeyIdentifierExtension.create(publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(ca.certificate.publicKey),
  ];
  const keyUsageBits = (template.keyUsages ?? []).reduce((bits, name) => bits | KEY_USAGE_BITS[name], 0);
  if (keyUsageBits !== 0) extensions.push(new x509.KeyUsagesExtension(keyUsageBits, true));
  const extendedKeyUsages = (template.extendedKeyUsages ?? []).map(
    (usage) => (EXTENDED_KEY_USAGE_OIDS as Record<string, string>)[usage] ?? usage,
  );
  if (extendedKeyUsages.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension(extendedKeyUsages));
  const names = generalNames(template);
  if (names.length > 0) extensions.push(new x509.SubjectAlternativeNameExtension(names));

  const subject = template.subject instanceof x509.Name ? template.subject : subjectName(template.subject);
  const certificate = await x509.X509CertificateGenerator.create({
    subject,
    issuer: ca.certificate.subjectName,
    publicKey,
    signingKey: ca.signingKey.privateKey,
    signingAlgorithm: ca.signingKey.signingAlgorithm as X509.X509CertificateCreateParamsBase['signingAlgorithm'],
    notBefore,
    notAfter,
    extensions,
  });
  return certificate.toString('pem') + '\n';
}

async function issueWithNewKey(
  ca: CertificateAuthority | PemPair,
  template: Omit<CertificateTemplate, 'publicKey'>,
): Promise<IssuedCertificate> {
  const authority = 'certificate' in ca ? ca : loadCertificateAuthority(ca);
  const keys = await generateKeyPair();
  const certPem = await signCertificate(authority, { ...template, publicKey: keys.publicKey });
  return { certPem, keyPem: await exportPrivateKeyPem(keys.privateKey) };
}

export interface ClientCertificateOptions {
  commonName: string;
  organizations?: string[];
  days?: number;
}

/** A fresh key and a client certificate (clientAuth) whose CN is the user and whose O values are the groups. */
export function issueClientCertificate(ca: CertificateAuthority | PemPair, options: ClientCertificateOptions): Promise<IssuedCertificate> {
  return issueWithNewKey(ca, {
    subject: { commonName: options.commonName, organizations: options.organizations ?? [] },
    keyUsages: ['digitalSignature'],
    extendedKeyUsages: ['clientAuth'],
    notAfter: new Date(Date.now() + (options.days ?? DEFAULT_LEAF_DAYS) * DAY_MS),
  });
}

export interface ServingCertificateOptions {
  dnsNames: string[];
  ipAddresses: string[];
  commonName?: string;
  days?: number;
}

/** A fresh key and a serving certificate (serverAuth) for the given names and addresses. */
export function issueServingCertificate(ca: CertificateAuthority | PemPair, options: ServingCertificateOptions): Promise<IssuedCertificate> {
  return issueWithNewKey(ca, {
    subject: { commonName: options.commonName ?? 'capstan-apiserver' },
    dnsNames: options.dnsNames,
    ipAddresses: options.ipAddresses,
    keyUsages: ['digitalSignature'],
    extendedKeyUsages: ['serverAuth'],
    notAfter: new Date(Date.now() + (options.days ?? DEFAULT_LEAF_DAYS) * DAY_MS),
  });
}
