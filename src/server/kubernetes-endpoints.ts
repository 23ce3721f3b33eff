// The `kubernetes` Endpoints in `default`, which Kubernetes' API server keeps beside the `kubernetes` Service
// (its endpoints reconciler): the address the server advertises and its secure port.
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { ResourceStore } from '../registry/store.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { apiServerContext } from '../apis/kind.ts';
import { StatusError } from '../machinery/status.ts';
import { isValidIP } from '../machinery/validation/strings.ts';
import { nonSpecialIPErrors } from '../apis/core/service.ts';

/** The label Kubernetes' endpoints reconciler sets so that no EndpointSlice is mirrored from its Endpoints. */
export const SKIP_MIRROR_LABEL = 'endpointslice.platform.io/skip-mirror';

/**
 * The address the server advertises for itself in the `kubernetes` Endpoints, as Kubernetes' API server
 * resolves its bind address: a specific address as it is; an unspecified or loopback one (endpoint
 * addresses may not be loopback) gives the first address of a non-internal interface that an endpoint may
 * hold, IPv4 first. Undefined when there is none.
 */
export function advertisedAddress(bindAddress: string, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string | undefined {
  if (isValidIP(bindAddress).length === 0 && nonSpecialIPErrors(bindAddress, '').length === 0) return bindAddress;
  const candidates = Object.values(interfaces).flatMap((list) => list ?? []).filter((i) => !i.internal && nonSpecialIPErrors(i.address, '').length === 0);
  return (candidates.find((i) => i.family === 'IPv4') ?? candidates[0])?.address;
}

interface EndpointPortLike { name?: string; port?: number; protocol?: string }
interface SubsetLike { addresses?: { ip?: string }[]; notReadyAddresses?: unknown[]; ports?: EndpointPortLike[] }

/**
 * The `kubernetes` Endpoints in `default`, as Kubernetes' endpoints reconciler keeps it beside the Service:
 * one subset, the server's address, port `https` on its secure port, and the label that keeps it from being
 * mirrored. A sole writer sets the addresses to its own; servers sharing a store (which keep no leases of
 * one another) each add theirs, and reset the ports only when they are not one TCP port named https (servers
 * on different secure ports would otherwise take turns rewriting it). An object in order is not written.
 */
export async function ensureKubernetesEndpoints(endpoints: ResourceStore, address: string, securePort: number, soleWriter: boolean, log: (line: string) => void = () => {}): Promise<void> {
  const ports = [{ name: 'https', port: securePort, protocol: 'TCP' }];
  const wanted = (current: ApiObject | undefined): ApiObject | undefined => {
    const labels = { ...(current?.metadata?.labels as Record<string, string> | undefined) };
    const subsets = (current?.subsets ?? []) as SubsetLike[];
    const subset = subsets.length === 1 ? subsets[0] : undefined;
    const formatCorrect = !!subset && !subset.notReadyAddresses?.length;
    const ips = formatCorrect ? (subset!.addresses ?? []).map((a) => a.ip ?? '') : [];
    const ipsCorrect = formatCorrect && (soleWriter ? ips.length === 1 && ips[0] === address : ips.includes(address));
    const have = formatCorrect ? subset!.ports ?? [] : [];
    const portsCorrect = formatCorrect && have.length === 1 && have[0].name === 'https' && have[0].protocol === 'TCP' && (!soleWriter || have[0].port === securePort);
    const labelCorrect = labels[SKIP_MIRROR_LABEL] === 'true';
    if (current && ipsCorrect && portsCorrect && labelCorrect) return undefined;
    labels[SKIP_MIRROR_LABEL] = 'true';
    const addresses = soleWriter || !formatCorrect ? [address] : [...new Set([...ips, address])].sort();
    return {
      ...(current ?? { apiVersion: 'v1', kind: 'Endpoints' }),
      metadata: { ...(current?.metadata ?? { name: 'kubernetes', namespace: 'default' }), labels },
      subsets: [{ addresses: addresses.map((ip) => ({ ip })), ports: portsCorrect ? have : ports }],
    };
  };
  const existing = endpoints.current('default', 'kubernetes') ?? await endpoints.readNow('default', 'kubernetes');
  if (existing && !wanted(existing.object as ApiObject)) return;
  if (existing) log('resetting the kubernetes Endpoints');
  try {
    await endpoints.update('default', (current) => wanted(current) ?? current!, {
      ctx: apiServerContext(), dryRun: false, subresource: '', allowCreate: true, name: 'kubernetes',
    });
  } catch (err) {
    // Another server sharing the store wrote it first: the next pass looks again.
    if (!(err instanceof StatusError) || err.code >= 500) throw err;
    log(`the kubernetes Endpoints could not be written: ${err.message}`);
  }
}
