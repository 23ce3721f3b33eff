import { isIP } from 'node:net';

/** Writes an IP the way certificates and comparisons need it: dotted IPv4, or compressed IPv6 without brackets. */
export function canonicalIp(ip: string): string {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) throw new Error(`invalid IP address ${JSON.stringify(ip)}`);
  // IPv4-mapped addresses are certified as the IPv4 address, which is how TLS clients compare them.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1];
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}
