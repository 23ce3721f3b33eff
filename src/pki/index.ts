// Public surface of the PKI: certificates on disk, signing, and the admin kubeconfig.
export { ensurePki, pkiDir, PKI_FILES, ADMIN_COMMON_NAME, ADMIN_ORGANIZATIONS, RENEW_BEFORE_MS } from './ensure.ts';
export type { Pki, EnsurePkiOptions } from './ensure.ts';
export { servingHosts, DEFAULT_SERVING_DNS_NAMES, DEFAULT_SERVING_IP_ADDRESSES } from './hosts.ts';
export type { ServingHosts } from './hosts.ts';
export { leafCertificateProblem } from './inspect.ts';
export type { LeafRequirements } from './inspect.ts';
export { buildKubeconfig, serverUrl, writeKubeconfig } from './kubeconfig.ts';
export type { KubeconfigOptions } from './kubeconfig.ts';
export { canonicalIp } from './ip.ts';
