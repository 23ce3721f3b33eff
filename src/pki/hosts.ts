// The names and addresses the serving certificate must cover.
import { hostname } from 'node:os';
import { canonicalIp, ipFamily } from './ip.ts';

/** The in-cluster names of the API server, as Kubernetes certifies them, plus the loopback name. */
export const DEFAULT_SERVING_DNS_NAMES: readonly string[] = [
  'localhost',
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  'kubernetes.default.svc.cluster.local',
];
export const DEFAULT_SERVING_IP_ADDRESSES: readonly string[] = ['127.0.0.1', '::1'];

export interface ServingHosts {
  dnsNames: string[];
  ipAddresses: string[];
}

// Binding to every interface says nothing about the address clients dial, so it is not certified.
const UNSPECIFIED_ADDRESSES = new Set(['0.0.0.0', '::']);

/** The default names and addresses, the machine's hostname, and `extra` (names or IPs, IPv6 optionally bracketed). */
export function servingHosts(extra: readonly string[] = []): ServingHosts {
  const dnsNames = new Set(DEFAULT_SERVING_DNS_NAMES);
  const ipAddresses = new Set(DEFAULT_SERVING_IP_ADDRESSES);
  const machine = hostname().trim().toLowerCase();
  if (machine !== '' && ipFamily(machine) === 0) dnsNames.add(machine);
  for (const raw of extra) {
    const host = raw.trim();
    if (host === '') continue;
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    if (ipFamily(bare) !== 0) {
      const ip = canonicalIp(bare);
      if (!UNSPECIFIED_ADDRESSES.has(ip)) ipAddresses.add(ip);
    } else {
      dnsNames.add(host.toLowerCase());
    }
  }
  return { dnsNames: [...dnsNames], ipAddresses: [...ipAddresses] };
}
