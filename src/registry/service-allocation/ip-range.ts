// The service cluster IP range (--service-cluster-ip-range): which addresses the allocator hands out, as
// Kubernetes' bitmap IP allocator numbers them. Offset 0 is the address after the network address; an
// IPv4 range leaves out its broadcast address, and an IPv6 range is cut to its first 65536 addresses.
import { type IPFamily, parseCIDR, parseIP, to4 } from '../../machinery/validation/strings.ts';

export interface ServiceIPRange {
  /** The network as Go prints an IPNet: `10.0.0.0/24`, `fd00::/108`. */
  readonly cidr: string;
  readonly family: IPFamily;
  /** The network address (what a dry run answers instead of picking an address). */
  readonly networkAddress: string;
  /** How many addresses can be allocated. */
  readonly size: number;
  /** The address at an offset in [0, size). */
  ipAt(offset: number): string;
  /** The offset of an address, or undefined when it is not one the range allocates (outside the network,
   *  its network or broadcast address, or past the 65536 an IPv6 range keeps). */
  offsetOf(ip: string): number | undefined;
}

/** kube-apiserver refuses ranges with more than 2^20 addresses (the bitmap is kept in one stored object). */
const MAX_CIDR_BITS = 20;
/** ServiceIPRange's lower bound. */
const MIN_RANGE_SIZE = 8;
const MAX_IPV6_SIZE = 65536;

/** The default of --service-cluster-ip-range, as kube-apiserver's. */
export const DEFAULT_SERVICE_CLUSTER_IP_RANGE = '10.0.0.0/24';

/** Parses --service-cluster-ip-range with kube-apiserver's checks; throws an Error saying what is wrong. */
export function parseServiceIPRange(text: string): ServiceIPRange {
  const entries = text.split(',');
  if (entries.length > 1) {
    if (entries.length > 2) throw new Error('--service-cluster-ip-range must not contain more than two entries');
    throw new Error('dual-stack service cluster IP ranges are not supported: give one IPv4 or one IPv6 range');
  }
  const parsed = parseCIDR(entries[0]);
  if (!parsed) throw new Error('service-cluster-ip-range[0] is not a valid cidr');
  const { network, prefixLength, bits } = parsed;
  if (bits - prefixLength > MAX_CIDR_BITS) {
    throw new Error(`specified --service-cluster-ip-range is too large; for ${bits}-bit addresses, the mask must be >= ${bits - MAX_CIDR_BITS}`);
  }
  const family: IPFamily = network.length === 4 ? 'IPv4' : 'IPv6';
  const total = 2 ** (bits - prefixLength);
  if (Math.min(total, MAX_IPV6_SIZE) < MIN_RANGE_SIZE) {
    throw new Error(`error determining service IP ranges for primary service cidr: the service cluster IP range must be at least ${MIN_RANGE_SIZE} IP addresses`);
  }
  // The network address is never handed out, nor an IPv4 broadcast address.
  const size = family === 'IPv4' ? total - 2 : Math.min(total, MAX_IPV6_SIZE) - 1;
  const base = toBigInt(network);
  const width = network.length;
  const cidr = `${formatIP(network)}/${prefixLength}`;
  return {
    cidr,
    family,
    networkAddress: formatIP(network),
    size,
    ipAt(offset: number): string {
      return formatIP(fromBigInt(base + 1n + BigInt(offset), width));
    },
    offsetOf(ip: string): number | undefined {
      const bytes = parseIP(ip);
      if (!bytes) return undefined;
      const same = sameFamilyBytes(bytes, width);
      if (!same) return undefined;
      const offset = toBigInt(same) - base - 1n;
      return offset >= 0n && offset < BigInt(size) ? Number(offset) : undefined;
    },
  };
}

/** The address in the range's width: IPv4-mapped IPv6 addresses count as IPv4, as Go's To4 does. */
function sameFamilyBytes(ip: Uint8Array, width: number): Uint8Array | undefined {
  const v4 = to4(ip);
  if (width === 4) return v4;
  return ip.length === 16 && !v4 ? ip : undefined;
}

function toBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}

function fromBigInt(n: bigint, width: number): Uint8Array {
  const out = new Uint8Array(width);
  for (let i = width - 1; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

/** An address as Go's net.IP.String prints it: dotted IPv4, RFC 5952 IPv6 (longest zero run as `::`). */
export function formatIP(bytes: Uint8Array): string {
  const v4 = to4(bytes);
  if (v4) return Array.from(v4).join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i] << 8) | bytes[i + 1]);
  let bestStart = -1, bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = (g: number[]) => g.map((v) => v.toString(16)).join(':');
  if (bestLen < 2) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

/** The address Kubernetes gives the `kubernetes` Service: the first one of the range. */
export function apiServerServiceIP(range: ServiceIPRange): string {
  return range.ipAt(0);
}
