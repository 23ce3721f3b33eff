const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** 4 or 6 for an IP address, 0 otherwise, as net.isIP answers, without its IPv6 pattern (whose first use
 *  costs ~3 ms of a start): an IPv6 address is what the URL parser takes between brackets. Zone ids
 *  (fe80::1%eth0) are not addresses a certificate can name. */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4;
  if (!text.includes(':')) return 0;
  try {
    new URL(`http://[${text}]/`);
    return 6;
  } catch {
    return 0;
  }
}

/** Writes an IP the way certificates and comparisons need it: dotted IPv4, or compressed IPv6 without brackets. */
export function canonicalIp(ip: string): string {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const family = ipFamily(bare);
  if (family === 4) return bare;
  if (family !== 6) throw new Error(`invalid IP address ${JSON.stringify(ip)}`);
  // IPv4-mapped addresses are certified as the IPv4 address, which is how TLS clients compare them.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1];
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}
