// Client certificate authentication: a certificate that chains to the client CA (checked by the TLS layer
// against --client-ca-file) and allows client authentication; the subject's CN is the user, its O values
// the groups.
import type { TLSSocket, PeerCertificate } from 'node:tls';
import type { UserInfo } from '../../apis/kind.ts';

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';
const ANY_EKU_OID = '2.5.29.37.0';

export type CertificateResult = { user: UserInfo } | { error: string } | undefined;

/** The user of the connection's client certificate; undefined when none was sent; an error when it is bad. */
export function certificateUser(socket: TLSSocket | undefined): CertificateResult {
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate() as PeerCertificate & { ext_key_usage?: string[] };
  if (!cert || !cert.subject || Object.keys(cert).length === 0) return undefined;
  if (!socket.authorized) {
    const reason = socket.authorizationError ? String(socket.authorizationError) : 'unknown';
    return { error: `verifying certificate ${describe(cert)} failed: x509: ${x509Reason(reason)}` };
  }
  const eku = cert.ext_key_usage;
  if (eku?.length && !eku.includes(CLIENT_AUTH_OID) && !eku.includes(ANY_EKU_OID)) {
    return { error: `verifying certificate ${describe(cert)} failed: x509: certificate specifies an incompatible key usage` };
  }
  const cn = first(cert.subject.CN);
  // A certificate without a common name identifies nobody; it is not an error (Kubernetes ignores it).
  if (!cn) return undefined;
  return { user: { username: cn, groups: all(cert.subject.O) } };
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function all(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : Array.isArray(v) ? [...v] : [v];
}

function describe(cert: PeerCertificate): string {
  return `SN=${cert.serialNumber ? BigInt(`0x${cert.serialNumber}`).toString() : '?'}, CN=${first(cert.subject?.CN) ?? ''}`;
}

function x509Reason(code: string): string {
  switch (code) {
    case 'CERT_HAS_EXPIRED': return 'certificate has expired or is not yet valid';
    case 'CERT_NOT_YET_VALID': return 'certificate has expired or is not yet valid';
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return 'certificate signed by unknown authority';
    default: return code;
  }
}
