// Cluster IPs and node ports for Services, as Kubernetes' service REST allocates them around the generic
// store: before a create or update is validated (so the client sees the values), settled once the write
// succeeded (an update's freed values are given back only then) or given back when it failed, and freed
// after a delete. The state lives in two stored bitmaps (stored-range.ts); a dry run reads them and
// reserves nothing, answering placeholders as Kubernetes does (the range's network address, ports from 32769).
import type { ApiObject } from '../../apis/meta/v1.ts';
import type { Storage } from '../../storage/interface.ts';
import type { FinishWrite, StoreHooks } from '../store.ts';
import * as status from '../../machinery/status.ts';
import { type FieldError, invalid } from '../../machinery/field-errors.ts';
import { errorWithGoValue, goStringSlice } from '../../machinery/go-format.ts';
import { deepEqual } from '../../machinery/schema/walk.ts';
import { parseIP, ipFamilyOf } from '../../machinery/validation/strings.ts';
import { clusterIPErrors, isHeadless, needsHealthCheckNodePort, needsNodePort } from '../../apis/core/service.ts';
import { type ServiceIPRange, formatIP } from './ip-range.ts';
import { type PortRange, formatPortRange, portRangeContains } from './port-range.ts';
import { Bitmap, StoredRange, SERVICE_IPS_KEY, SERVICE_NODE_PORTS_KEY, findFree, ipRangeOffset, portRangeOffset } from './stored-range.ts';

type Obj = Record<string, any>;
const list = <T = Obj>(v: unknown): T[] => (Array.isArray(v) ? v : []);
const specOf = (o: ApiObject) => ((o.spec ??= {}) as Obj);

/** What one allocation step settles once the write's outcome is known. */
interface Step {
  /** The write succeeded: give back what it freed. */
  commit(): Promise<void>;
  /** The write failed: give back what it took. */
  revert(): Promise<void>;
}

const NOTHING: Step = { commit: async () => {}, revert: async () => {} };

export interface ServiceAllocatorOptions {
  storage: Storage;
  ipRange: ServiceIPRange;
  portRange: PortRange;
  /** Where a failure to give back an allocation is reported (the value stays taken until a repair). */
  log?: (line: string) => void;
  /** The random source of free-value scans (tests pin it). */
  random?: () => number;
}

export class ServiceAllocator {
  readonly ipRange: ServiceIPRange;
  readonly portRange: PortRange;
  private readonly ips: StoredRange;
  private readonly ports: StoredRange;
  private readonly log: (line: string) => void;
  private readonly random: () => number;

  constructor(opts: ServiceAllocatorOptions) {
    this.ipRange = opts.ipRange;
    this.portRange = opts.portRange;
    this.ips = new StoredRange(opts.storage, SERVICE_IPS_KEY, opts.ipRange.cidr, opts.ipRange.size);
    this.ports = new StoredRange(opts.storage, SERVICE_NODE_PORTS_KEY, formatPortRange(opts.portRange), opts.portRange.size);
    this.log = opts.log ?? (() => {});
    this.random = opts.random ?? Math.random;
  }

  /** The registry hooks of the Service store. */
  hooks(): StoreHooks {
    return {
      beginCreate: (obj, dryRun) => this.beginCreate(obj, dryRun),
      beginUpdate: (obj, old, dryRun) => this.beginUpdate(obj, old, dryRun),
      afterDelete: (obj) => this.release(obj),
    };
  }

  /** Fills in and reserves the cluster IP and node ports of a Service about to be created. */
  async beginCreate(obj: ApiObject, dryRun: boolean): Promise<FinishWrite> {
    const spec = specOf(obj);
    const name = obj.metadata?.name ?? '';
    // A client that sets only clusterIP (an old one) means clusterIPs too.
    if (spec.clusterIP && list(spec.clusterIPs).length === 0) spec.clusterIPs = [spec.clusterIP];
    this.initIPFamilyFields(spec, undefined, name);
    return this.thenNodePorts(await this.allocClusterIPs(spec, name, dryRun), spec, undefined, name, dryRun);
  }

  /** Reserves what an update newly needs; what it no longer needs is given back once it is written. */
  async beginUpdate(obj: ApiObject, old: ApiObject, dryRun: boolean): Promise<FinishWrite> {
    const spec = specOf(obj);
    const oldSpec = (old.spec ?? {}) as Obj;
    const name = obj.metadata?.name ?? '';
    this.initIPFamilyFields(spec, oldSpec, name);
    return this.thenNodePorts(await this.updateClusterIPs(spec, oldSpec, name, dryRun), spec, oldSpec, name, dryRun);
  }

  /** The node port step after the cluster IP one; a refused node port gives back what the IP step took. */
  private async thenNodePorts(ipStep: Step, spec: Obj, old: Obj | undefined, name: string, dryRun: boolean): Promise<FinishWrite> {
    let portStep: Step;
    try {
      portStep = await this.nodePorts(spec, old, name, dryRun);
    } catch (err) {
      await this.settle(ipStep, false);
      throw err;
    }
    return (succeeded) => this.settleAll([ipStep, portStep], succeeded);
  }

  /** Gives back everything a deleted Service held. */
  async release(obj: ApiObject): Promise<void> {
    const spec = (obj.spec ?? {}) as Obj;
    const ips = spec.type === 'ExternalName' || isHeadless(spec) ? [] : list<string>(spec.clusterIPs);
    await Promise.all([this.releaseIPs(ips), this.releasePorts(collectNodePorts(spec))]).catch((err) => {
      this.log(`service ${obj.metadata?.namespace}/${obj.metadata?.name}: releasing its cluster IP and node ports failed: ${(err as Error).message}`);
    });
  }

  /**
   * Marks what the stored Services hold (the first start with Services stored before allocation existed, or
   * a bitmap lost). A stored bitmap of another range (the flag changed) is rebuilt from the Services alone.
   * With `soleWriter` (no other server shares the store and no request is under way) both are rebuilt from
   * the Services, which also frees what a crash between a reservation and its write, or a failed give-back,
   * left taken. Servers sharing etcd must not: another one's reservation for a Service it has not written
   * yet would read as leaked (Kubernetes' repair frees a value only after three runs minutes apart).
   */
  async repair(services: ApiObject[], { soleWriter = false }: { soleWriter?: boolean } = {}): Promise<void> {
    const specs = services.map((s) => (s.spec ?? {}) as Obj);
    const rebuildIPs = soleWriter || !(await this.ips.matchesRange());
    const rebuildPorts = soleWriter || !(await this.ports.matchesRange());
    await this.ips.update((bits) => {
      for (const spec of specs) {
        if (spec.type === 'ExternalName' || isHeadless(spec)) continue;
        for (const ip of list<string>(spec.clusterIPs)) {
          const offset = this.ipRange.offsetOf(ip);
          if (offset !== undefined) bits.set(offset);
        }
      }
    }, rebuildIPs);
    await this.ports.update((bits) => {
      for (const spec of specs) for (const port of collectNodePorts(spec)) if (portRangeContains(this.portRange, port)) bits.set(port - this.portRange.base);
    }, rebuildPorts);
  }

  /** The stored bitmaps, for tests and diagnostics: which IPs and ports are taken. */
  async allocated(): Promise<{ ips: string[]; ports: number[] }> {
    const [ipBits, portBits] = await Promise.all([this.ips.read(), this.ports.read()]);
    const ips: string[] = [];
    for (let i = 0; i < ipBits.size; i++) if (ipBits.has(i)) ips.push(this.ipRange.ipAt(i));
    const ports: number[] = [];
    for (let i = 0; i < portBits.size; i++) if (portBits.has(i)) ports.push(this.portRange.base + i);
    return { ips, ports };
  }

  // ---- IP families (Kubernetes' initIPFamilyFields, for a single-stack cluster) ----

  private initIPFamilyFields(spec: Obj, old: Obj | undefined, name: string): void {
    if (spec.type === 'ExternalName') return;
    if (old && matchingPreferDualStack(spec, old)) return;
    if (!spec.ipFamilyPolicy) {
      if (old?.ipFamilyPolicy) spec.ipFamilyPolicy = old.ipFamilyPolicy;
      else if (spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0) spec.ipFamilyPolicy = 'RequireDualStack';
      else spec.ipFamilyPolicy = 'SingleStack';
    }
    const loose = clusterIPErrors(spec);
    if (loose.length) throw status.invalid('', 'Service', name, loose);

    const errs: FieldError[] = [];
    const single = spec.ipFamilyPolicy === 'SingleStack';
    if (old) {
      if (single) {
        if (sameList(spec.clusterIPs, old.clusterIPs) && list(spec.clusterIPs).length > 1) spec.clusterIPs = spec.clusterIPs.slice(0, 1);
        if (sameList(spec.ipFamilies, old.ipFamilies) && list(spec.ipFamilies).length > 1) spec.ipFamilies = spec.ipFamilies.slice(0, 1);
      } else {
        if (reduced(spec.clusterIPs, old.clusterIPs)) errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'SingleStack' to release the secondary cluster IP"));
        if (reduced(spec.ipFamilies, old.ipFamilies)) errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'SingleStack' to release the secondary IP family"));
      }
    }
    if (single) {
      if (list(spec.clusterIPs).length === 2) errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
      if (list(spec.ipFamilies).length === 2) errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
    }
    const ips = list<string>(spec.clusterIPs);
    const families = list<string>(spec.ipFamilies).slice();
    for (let i = 0; i < ips.length; i++) {
      if (ips[i] === 'None') break;
      const family = ipFamilyOf(ips[i]);
      if (i < families.length || !family) continue;
      if (family !== this.ipRange.family) errs.push(errorWithGoValue('FieldValueInvalid', `spec.clusterIPs[${i}]`, ips, goStringSlice(ips), `${family} is not configured on this cluster`));
      else families.push(family);
    }
    if (errs.length) throw status.invalid('', 'Service', name, errs);
    spec.ipFamilies = families;

    // Headless without a selector may name both families, even on a single-stack cluster.
    if (spec.clusterIP === 'None' && Object.keys(spec.selector ?? {}).length === 0) {
      if (families.length === 0) families.push(this.ipRange.family);
      if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
      return;
    }
    if (spec.ipFamilyPolicy === 'RequireDualStack') errs.push(invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
    families.forEach((f, i) => { if (f !== this.ipRange.family) errs.push(invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster')); });
    if (errs.length) throw status.invalid('', 'Service', name, errs);
    if (families.length === 0) families.push(this.ipRange.family);
  }

  // ---- cluster IPs ----

  private async allocClusterIPs(spec: Obj, name: string, dryRun: boolean): Promise<Step> {
    if (spec.type === 'ExternalName' || isHeadless(spec)) return NOTHING;
    const ips = list<string>(spec.clusterIPs);
    const requested = ips[0] ?? '';
    const notAllocatable = (bits: Bitmap): number => {
      const offset = this.ipRange.offsetOf(requested);
      const bytes = parseIP(requested);
      const refuse = (why: string) => status.invalid('', 'Service', name, [errorWithGoValue('FieldValueInvalid', 'spec.clusterIPs', ips, goStringSlice(ips), `failed to allocate IP ${requested}: ${why}`)]);
      if (offset === undefined) throw refuse(`the provided IP (${bytes ? formatIP(bytes) : requested}) is not in the valid range. The range of valid IPs is ${this.ipRange.cidr}`);
      if (bits.has(offset)) throw refuse('provided IP is already allocated');
      return offset;
    };
    let ip: string;
    if (dryRun) {
      if (requested) notAllocatable(await this.ips.read());
      ip = requested || this.ipRange.networkAddress;
    } else {
      ip = await this.ips.update((bits) => {
        if (requested) { bits.set(notAllocatable(bits)); return requested; }
        const offset = findFree(bits, ipRangeOffset(this.ipRange.size), this.random);
        if (offset === undefined) throw status.internalError(new Error('failed to allocate a serviceIP: range is full'));
        bits.set(offset);
        return this.ipRange.ipAt(offset);
      });
    }
    spec.clusterIPs = [ip, ...ips.slice(1)];
    spec.clusterIP = ip;
    if (dryRun) return NOTHING;
    return { commit: async () => {}, revert: () => this.releaseIPs([ip]) };
  }

  private async updateClusterIPs(spec: Obj, old: Obj, name: string, dryRun: boolean): Promise<Step> {
    if (matchingPreferDualStack(spec, old)) return NOTHING;
    if (old.type === 'ExternalName' && spec.type !== 'ExternalName') return this.allocClusterIPs(spec, name, dryRun);
    if (isHeadless(old)) return NOTHING;
    if (old.type !== 'ExternalName' && spec.type === 'ExternalName') {
      const freed = list<string>(old.clusterIPs);
      if (dryRun) return NOTHING;
      return { commit: () => this.releaseIPs(freed), revert: async () => {} };
    }
    return NOTHING;
  }

  private releaseIPs(ips: string[]): Promise<void> {
    const offsets = ips.map((ip) => this.ipRange.offsetOf(ip)).filter((o): o is number => o !== undefined);
    if (!offsets.length) return Promise.resolve();
    return this.ips.update((bits) => { for (const o of offsets) bits.clear(o); });
  }

  // ---- node ports ----

  /** Create (old absent) or update of the node ports and the health check node port. */
  private async nodePorts(spec: Obj, old: Obj | undefined, name: string, dryRun: boolean): Promise<Step> {
    // Each attempt works on a copy: a lost compare-and-swap runs it again from the spec as given.
    const attempt = (bits: Bitmap) => {
      const draft = structuredClone({ ports: spec.ports, healthCheckNodePort: spec.healthCheckNodePort, type: spec.type, externalTrafficPolicy: spec.externalTrafficPolicy, allocateLoadBalancerNodePorts: spec.allocateLoadBalancerNodePorts }) as Obj;
      const op = new PortOperation(this.portRange, bits, dryRun, this.random);
      if (old) updateNodePorts(draft, old, op, name); else createNodePorts(draft, op, name);
      return { draft, op };
    };
    const { draft, op } = dryRun ? attempt((await this.ports.read()).copy()) : await this.ports.update(attempt);
    if (Array.isArray(spec.ports)) spec.ports = draft.ports;
    if (draft.healthCheckNodePort) spec.healthCheckNodePort = draft.healthCheckNodePort;
    if (dryRun || (!op.allocated.length && !op.deferred.length)) return NOTHING;
    return { commit: () => this.releasePorts(op.deferred), revert: () => this.releasePorts(op.allocated) };
  }

  private releasePorts(ports: number[]): Promise<void> {
    const offsets = ports.filter((p) => portRangeContains(this.portRange, p)).map((p) => p - this.portRange.base);
    if (!offsets.length) return Promise.resolve();
    return this.ports.update((bits) => { for (const o of offsets) bits.clear(o); });
  }

  // ---- settling ----

  private async settleAll(steps: Step[], succeeded: boolean): Promise<void> {
    for (const step of steps) await this.settle(step, succeeded);
  }

  /** Settling never fails the request: a value that could not be given back stays taken (over-allocation, never a double one). */
  private async settle(step: Step, succeeded: boolean): Promise<void> {
    try {
      await (succeeded ? step.commit() : step.revert());
    } catch (err) {
      this.log(`settling service allocations failed: ${(err as Error).message}`);
    }
  }
}

/** Reservations of node ports within one bitmap change (Kubernetes' PortAllocationOperation). */
class PortOperation {
  readonly allocated: number[] = [];
  readonly deferred: number[] = [];
  private readonly range: PortRange;
  private readonly bits: Bitmap;
  private readonly dryRun: boolean;
  private readonly random: () => number;

  constructor(range: PortRange, bits: Bitmap, dryRun: boolean, random: () => number) {
    this.range = range;
    this.bits = bits;
    this.dryRun = dryRun;
    this.random = random;
  }

  /** Takes a port; throws an Error with the allocator's text when it cannot. */
  allocate(port: number): void {
    const inRange = portRangeContains(this.range, port);
    if (this.dryRun) {
      // A dry run only asks whether the port is taken (Kubernetes checks nothing more).
      if ((inRange && this.bits.has(port - this.range.base)) || this.allocated.includes(port)) throw new Error('provided port is already allocated');
      this.allocated.push(port);
      return;
    }
    if (!inRange) throw new Error(`provided port is not in the valid range. The range of valid ports is ${formatPortRange(this.range)}`);
    if (this.bits.has(port - this.range.base)) throw new Error('provided port is already allocated');
    this.bits.set(port - this.range.base);
    this.allocated.push(port);
  }

  allocateNext(): number {
    if (this.dryRun) {
      // Kubernetes answers a placeholder instead of looking for a free port: one past the highest taken so far, from 32769.
      const port = (this.allocated.length ? Math.max(...this.allocated) : 32768) + 1;
      this.allocated.push(port);
      return port;
    }
    const offset = findFree(this.bits, portRangeOffset(this.range.size), this.random);
    if (offset === undefined) throw new Error('range is full');
    this.bits.set(offset);
    const port = this.range.base + offset;
    this.allocated.push(port);
    return port;
  }

  releaseDeferred(port: number): void {
    this.deferred.push(port);
  }
}

function nodePortError(name: string, i: number, port: number, err: unknown): status.StatusError {
  return status.invalid('', 'Service', name, [invalid(`spec.ports[${i}].nodePort`, port, (err as Error).message)]);
}

function nextNodePort(op: PortOperation): number {
  try {
    return op.allocateNext();
  } catch (err) {
    throw status.internalError(new Error(`failed to allocate a nodePort: ${(err as Error).message}`));
  }
}

/** NodePort always; LoadBalancer unless allocateLoadBalancerNodePorts is false. */
function shouldAllocateNodePorts(spec: Obj): boolean {
  if (spec.type === 'NodePort') return true;
  if (spec.type === 'LoadBalancer') return spec.allocateLoadBalancerNodePorts !== false;
  return false;
}

/** Kubernetes' initNodePorts and the health check port of a new Service. Ports with the same number (TCP
 *  and UDP 53) share one node port. */
function createNodePorts(spec: Obj, op: PortOperation, name: string): void {
  if (needsNodePort(spec)) {
    const ports = list(spec.ports);
    const byServicePort = new Map<number, number>();
    ports.forEach((p, i) => {
      if (!p.nodePort && !shouldAllocateNodePorts(spec)) return;
      const taken = byServicePort.get(p.port);
      if (!taken) {
        const requested = ports.find((q) => q.port === p.port && q.nodePort)?.nodePort as number | undefined;
        if (requested) {
          try { op.allocate(requested); } catch (err) { throw nodePortError(name, i, requested, err); }
          p.nodePort = requested;
          byServicePort.set(p.port, requested);
        } else {
          p.nodePort = nextNodePort(op);
          byServicePort.set(p.port, p.nodePort);
        }
      } else if (p.nodePort !== taken) {
        if (!p.nodePort) p.nodePort = taken;
        else {
          try { op.allocate(p.nodePort); } catch (err) { throw nodePortError(name, i, p.nodePort, err); }
        }
      }
    });
  }
  if (needsHealthCheckNodePort(spec)) allocHealthCheckNodePort(spec, op);
}

function allocHealthCheckNodePort(spec: Obj, op: PortOperation): void {
  const requested = spec.healthCheckNodePort;
  if (requested) {
    try { op.allocate(requested); } catch (err) {
      throw status.internalError(new Error(`failed to allocate requested HealthCheck NodePort ${requested}: ${(err as Error).message}`));
    }
    return;
  }
  try {
    spec.healthCheckNodePort = op.allocateNext();
  } catch (err) {
    throw status.internalError(new Error(`failed to allocate a HealthCheck NodePort 0: ${(err as Error).message}`));
  }
}

/** Kubernetes' txnUpdateNodePorts: frees node ports a type change leaves behind, takes new ones, and moves
 *  the health check port with the traffic policy. */
function updateNodePorts(spec: Obj, old: Obj, op: PortOperation, name: string): void {
  if (needsNodePort(old) && (spec.type === 'ExternalName' || spec.type === 'ClusterIP')) {
    for (const port of collectNodePorts(old)) op.releaseDeferred(port);
  }
  if (needsNodePort(spec)) {
    const oldPorts = collectNodePorts(old);
    const takenNow = new Set<number>();
    const seen: string[] = [];
    list(spec.ports).forEach((p, i) => {
      if (!p.nodePort && !shouldAllocateNodePorts(spec)) return;
      if (p.nodePort) {
        if (!oldPorts.includes(p.nodePort) && !takenNow.has(p.nodePort)) {
          try { op.allocate(p.nodePort); } catch (err) { throw nodePortError(name, i, p.nodePort, err); }
          takenNow.add(p.nodePort);
        }
      } else {
        p.nodePort = nextNodePort(op);
      }
      const id = `${p.protocol}/${p.nodePort}`;
      if (seen.includes(id)) throw status.internalError(new Error(`duplicate nodePort: {${p.nodePort} ${p.protocol}}`));
      seen.push(id);
    });
    const newPorts = collectNodePorts(spec);
    for (const port of oldPorts) if (!newPorts.includes(port)) op.releaseDeferred(port);
  }
  const needed = needsHealthCheckNodePort(old);
  const needs = needsHealthCheckNodePort(spec);
  if (!needed && needs) allocHealthCheckNodePort(spec, op);
  else if (needed && !needs && old.healthCheckNodePort) op.releaseDeferred(old.healthCheckNodePort);
}

/** The node ports a Service holds: its ports' and its health check port. */
function collectNodePorts(spec: Obj): number[] {
  const ports = list(spec.ports).map((p) => p.nodePort).filter((n): n is number => typeof n === 'number' && n > 0);
  if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort > 0) ports.push(spec.healthCheckNodePort);
  return ports;
}

const sameList = (a: unknown, b: unknown): boolean => deepEqual(list(a), list(b));

/** The update drops the second value of a dual-stack field. */
function reduced(next: unknown, old: unknown): boolean {
  return list(next).length < list(old).length && list(next).length > 0;
}

/** A PreferDualStack service left as it was: nothing to upgrade or downgrade. */
function matchingPreferDualStack(spec: Obj, old: Obj): boolean {
  if (!spec.ipFamilyPolicy || old.type !== spec.type) return false;
  if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(spec.type)) return false;
  if (spec.ipFamilyPolicy !== 'PreferDualStack' || old.ipFamilyPolicy !== 'PreferDualStack') return false;
  return sameList(spec.clusterIPs, old.clusterIPs) && sameList(spec.ipFamilies, old.ipFamilies);
}
