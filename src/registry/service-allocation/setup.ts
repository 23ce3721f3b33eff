// Wiring of Service allocation into a server: the range flags, its repair from the stored
// Services on start, and the `kubernetes` Service in `default` that Kubernetes' API server keeps.
import type { ResourceStore } from '../store.ts';
import type { ApiObject } from '../../apis/meta/v1.ts';
import { apiServerContext } from '../../apis/kind.ts';
import { StatusError } from '../../machinery/status.ts';
import { goQuote } from '../../machinery/go-format.ts';
import { ServiceAllocator } from './service-allocator.ts';
import { type ServiceIPRange, DEFAULT_SERVICE_CLUSTER_IP_RANGE, apiServerServiceIP, parseServiceIPRange } from './ip-range.ts';
import { type PortRange, DEFAULT_SERVICE_NODE_PORT_RANGE, parsePortRange } from './port-range.ts';

/** The two ranges, from --service-cluster-ip-range and --service-node-port-range (their defaults when absent). */
export interface ServiceRanges {
  ipRange: ServiceIPRange;
  portRange: PortRange;
}

/** Parses the range flags; throws an Error naming the flag when one is wrong (before anything is opened). */
export function parseServiceRanges(clusterIPRange?: string, nodePortRange?: string): ServiceRanges {
  const parse = <T>(flag: string, text: string, parser: (t: string) => T): T => {
    try {
      return parser(text);
    } catch (err) {
      throw new Error(`invalid argument ${goQuote(text)} for "--${flag}" flag: ${(err as Error).message}`);
    }
  };
  return {
    ipRange: parse('service-cluster-ip-range', clusterIPRange ?? DEFAULT_SERVICE_CLUSTER_IP_RANGE, parseServiceIPRange),
    portRange: parse('service-node-port-range', nodePortRange ?? DEFAULT_SERVICE_NODE_PORT_RANGE, parsePortRange),
  };
}

/**
 * Marks what the Services in the store's cache hold (the cache has started); a sole writer also frees what
 * no Service holds (ServiceAllocator.repair says when that is safe).
 */
export function repairFromStore(allocator: ServiceAllocator, services: ResourceStore, soleWriter: boolean): Promise<void> {
  return allocator.repair(services.cache.list().map((c) => c.object as ApiObject), { soleWriter });
}

/**
 * The `kubernetes` Service in `default`, as Kubernetes' API server keeps it: the first address of the
 * range, port 443 named https to the server's secure port, type ClusterIP. An existing one whose ports or
 * type were changed gets them back (its other fields are left alone).
 */
export async function ensureKubernetesService(services: ResourceStore, allocator: ServiceAllocator, securePort: number, log: (line: string) => void = () => {}): Promise<void> {
  const ports = [{ name: 'https', protocol: 'TCP', port: 443, targetPort: securePort }];
  const existing = services.current('default', 'kubernetes') ?? await services.readNow('default', 'kubernetes');
  if (existing) {
    if (!needsReset(existing.object as ApiObject, ports)) return;
    log('resetting the kubernetes Service\'s ports and type');
    await services.update('default', (current) => {
      if (!current) throw new StatusError(404, 'NotFound', 'gone');
      const spec = { ...(current.spec as Record<string, unknown>), ports, type: 'ClusterIP' };
      return { ...current, spec };
    }, { ctx: apiServerContext(), dryRun: false, subresource: '', allowCreate: false, name: 'kubernetes' });
    return;
  }
  const service: ApiObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: apiServerServiceIP(allocator.ipRange),
      ports,
      sessionAffinity: 'None',
    },
  };
  try {
    await services.create('default', service, { ctx: apiServerContext(), dryRun: false });
  } catch (err) {
    // Another server sharing the store made it first (its address then reads as taken), or the address is
    // held by another Service: the server runs on, as Kubernetes' does, and says so.
    if (!(err instanceof StatusError) || err.code >= 500) throw err;
    if (await services.readNow('default', 'kubernetes')) return;
    log(`the kubernetes Service could not be created: ${err.message}`);
  }
}

/**
 * As Kubernetes' getMasterServiceUpdateIfNeeded: the type or the ports (name, port, protocol) differ. The
 * target port is not compared: servers sharing a store on different secure ports would otherwise take
 * turns rewriting it.
 */
function needsReset(service: ApiObject, ports: { name: string; protocol: string; port: number }[]): boolean {
  const spec = (service.spec ?? {}) as { type?: string; ports?: { name?: string; protocol?: string; port?: number }[] };
  if (spec.type !== 'ClusterIP') return true;
  const have = spec.ports ?? [];
  return have.length !== ports.length || ports.some((p, i) => have[i].name !== p.name || have[i].protocol !== p.protocol || have[i].port !== p.port);
}
