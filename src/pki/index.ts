// Public surface of the PKI that loads quickly: certificates on disk and the admin kubeconfig.
// ensurePki issues Capstan's own certificates with node:crypto (native-issue.ts). The general signer
// (sign.ts: signCertificate, issueClientCertificate, issueServingCertificate; authority.ts:
// generateCertificateAuthority, loadCertificateAuthority) uses @peculiar/x509, which x509.ts loads on
// first use (~50 ms): import those modules directly where they are needed.
export { ensurePki, pkiDir, PKI_FILES, ADMIN_COMMON_NAME, ADMIN_ORGANIZATIONS, RENEW_BEFORE_MS } from './ensure.ts';
export type { Pki, EnsurePkiOptions } from './ensure.ts';
export { servingHosts, DEFAULT_SERVING_DNS_NAMES, DEFAULT_SERVING_IP_ADDRESSES } from './hosts.ts';
export type { ServingHosts } from './hosts.ts';
export { leafCertificateProblem } from './inspect.ts';
export type { LeafRequirements } from './inspect.ts';
export { buildKubeconfig, serverUrl, writeKubeconfig } from './kubeconfig.ts';
export type { KubeconfigOptions } from './kubeconfig.ts';
export { canonicalIp } from './ip.ts';
