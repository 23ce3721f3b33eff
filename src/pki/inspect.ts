// Checks on certificates already on disk, done with node:crypto alone so that a restart can reuse
// them without loading the certificate generator.
import { X509Certificate, createPrivateKey } from 'node:crypto';
import type { ServingHosts } from './hosts.ts';

export interface LeafRequirements {
  /** The PEM of the CA that must have signed the certificate. */
  caCertPem: string;
  /** Extended key usage the certificate must carry. */
  extendedKeyUsage: 'serverAuth' | 'clientAuth';
  /** Names and addresses the certificate must cover (serving certificates). */
  hosts?: ServingHosts;
  /** Subject the certificate must have (client certificates). */
  subject?: { commonName: string; organizations: string[] };
  /** The certificate must stay valid at least this long from now. */
  minRemainingMs: number;
}

const EKU_OIDS = { serverAuth: '1.3.6.1.5.5.7.3.1', clientAuth: '1.3.6.1.5.5.7.3.2' } as const;

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Why a certificate cannot be reused, or undefined when it can. */
export function leafCertificateProblem(certPem: string, keyPem: string, requirements: LeafRequirements): string | undefined {
  let certificate: X509Certificate;
  let ca: X509Certificate;
  try {
    certificate = new X509Certificate(certPem);
    ca = new X509Certificate(requirements.caCertPem);
  } catch {
    return 'the certificate cannot be read';
  }
  try {
    if (!certificate.checkPrivateKey(createPrivateKey(keyPem))) return 'the key does not match the certificate';
  } catch {
    return 'the key cannot be read';
  }
  if (!certificate.checkIssued(ca) || !certificate.verify(ca.publicKey)) return 'the certificate is not signed by the current CA';
  if (certificate.validToDate.getTime() - Date.now() < requirements.minRemainingMs) return 'the certificate expires soon';
  if (!(certificate.keyUsage ?? []).includes(EKU_OIDS[requirements.extendedKeyUsage])) {
    return `the certificate lacks extended key usage ${requirements.extendedKeyUsage}`;
  }
  if (requirements.hosts) {
    for (const name of requirements.hosts.dnsNames) {
      if (certificate.checkHost(name, { subject: 'never', wildcards: false }) === undefined) return `the certificate does not cover ${name}`;
    }
    for (const ip of requirements.hosts.ipAddresses) {
      if (certificate.checkIP(ip) === undefined) return `the certificate does not cover ${ip}`;
    }
  }
  if (requirements.subject) {
    const subject = certificate.toLegacyObject().subject as unknown as Record<string, string | string[] | undefined>;
    const commonNames = asList(subject.CN);
    const organizations = asList(subject.O);
    const wanted = requirements.subject;
    const sameOrganizations =
      organizations.length === wanted.organizations.length && wanted.organizations.every((o) => organizations.includes(o));
    if (commonNames.length !== 1 || commonNames[0] !== wanted.commonName || !sameOrganizations) {
      return 'the certificate subject differs';
    }
  }
  return undefined;
}

/** Why a CA cannot be reused, or undefined when it can; throws when the pair on disk is inconsistent. */
export function certificateAuthorityProblem(certPem: string, keyPem: string, minRemainingMs: number): string | undefined {
  const certificate = new X509Certificate(certPem);
  if (!certificate.ca) throw new Error('it is not a CA certificate (basicConstraints CA is not set)');
  if (!certificate.checkPrivateKey(createPrivateKey(keyPem))) throw new Error('the CA key does not match the CA certificate');
  if (certificate.validToDate.getTime() - Date.now() < minRemainingMs) return 'the CA expires soon';
  return undefined;
}
