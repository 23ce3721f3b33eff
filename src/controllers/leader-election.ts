// Leader election on a Lease (coordination.svc.io/v1): of several servers sharing one store, one runs the
// controllers. The holder renews `renewTime`; a candidate takes the lease over once it has seen no renewal
// for `leaseDurationSeconds`, counting `leaseTransitions`.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { ResourceStore } from '../registry/store.ts';
import { CONTROLLER_MANAGER_FIELD_MANAGER, type RequestContext } from '../apis/kind.ts';
import type { ApiObject } from '../apis/meta/v1.ts';
import { isConflict, isNotFound } from '../machinery/status.ts';
import { nowMicroTime } from '../registry/names.ts';

export interface LeaderElectionOptions {
  leases: ResourceStore;
  namespace?: string;
  name: string;
  identity?: string;
  leaseDurationSeconds?: number;
  retryPeriodMs?: number;
  onStartedLeading(): void;
  onStoppedLeading(): void;
  log?(line: string): void;
}

export interface LeaderElector {
  readonly identity: string;
  isLeader(): boolean;
  /** Stops campaigning; a leader releases the lease so another can take over at once. */
  stop(): Promise<void>;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export function startLeaderElection(opts: LeaderElectionOptions): LeaderElector {
  const namespace = opts.namespace ?? 'kube-system';
  const identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
  const duration = opts.leaseDurationSeconds ?? 15;
  const retryMs = opts.retryPeriodMs ?? 2000;
  const ctx: RequestContext = { user: { username: 'system:capstan-leader-election', groups: ['system:masters'] }, version: 'v1', subresource: '', dryRun: false, warnings: [], fieldManager: CONTROLLER_MANAGER_FIELD_MANAGER };
  let leading = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  // What we last saw of another holder, and when (by our clock): expiry is judged by observation, not by
  // the holder's timestamps, so clock skew between servers does not matter.
  let observed: { record: string; at: number } | undefined;

  const setLeading = (now: boolean) => {
    if (now === leading) return;
    leading = now;
    opts.log?.(`leader election ${opts.name}: ${identity} ${now ? 'became the leader' : 'lost the lease'}`);
    if (now) opts.onStartedLeading(); else opts.onStoppedLeading();
  };

  const tryAcquireOrRenew = async (): Promise<boolean> => {
    const current = opts.leases.current(namespace, opts.name);
    const now = nowMicroTime();
    if (!current) {
      const lease: ApiObject = {
        apiVersion: 'coordination.svc.io/v1', kind: 'Lease', metadata: { name: opts.name, namespace },
        spec: { holderIdentity: identity, leaseDurationSeconds: duration, acquireTime: now, renewTime: now, leaseTransitions: 0 },
      };
      await opts.leases.create(namespace, lease, { ctx, dryRun: false });
      return true;
    }
    const spec = (current.object.spec ?? {}) as LeaseSpec;
    const record = `${spec.holderIdentity}|${spec.renewTime}`;
    if (!observed || observed.record !== record) observed = { record, at: Date.now() };
    const heldByOther = !!spec.holderIdentity && spec.holderIdentity !== identity;
    const expired = Date.now() - observed.at > (spec.leaseDurationSeconds ?? duration) * 1000;
    if (heldByOther && !expired) return false;
    const next = structuredClone(current.object) as ApiObject & { spec: LeaseSpec };
    next.spec = { ...spec, holderIdentity: identity, leaseDurationSeconds: duration, renewTime: now };
    if (spec.holderIdentity !== identity) {
      next.spec.acquireTime = now;
      next.spec.leaseTransitions = (spec.leaseTransitions ?? 0) + 1;
    }
    await opts.leases.update(namespace, () => next, { ctx, dryRun: false, subresource: '', allowCreate: false, name: opts.name });
    return true;
  };

  const round = async () => {
    if (stopped) return;
    try {
      const won = await tryAcquireOrRenew();
      // stop() may have come while this round was writing: it has the last word.
      if (!stopped) setLeading(won);
    } catch (err) {
      // A conflict means another server wrote first; anything else (store unavailable) loses the lease
      // only once it could have expired, as the holder cannot renew either.
      if (!(isConflict(err) || isNotFound(err))) opts.log?.(`leader election ${opts.name}: ${(err as Error).message}`);
      if (!isConflict(err)) setLeading(false);
    }
    if (!stopped) timer = setTimeout(round, retryMs);
  };
  void round();

  return {
    identity,
    isLeader: () => leading,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (!leading) return;
      setLeading(false);
      const current = opts.leases.current(namespace, opts.name);
      const spec = (current?.object.spec ?? {}) as LeaseSpec;
      if (!current || spec.holderIdentity !== identity) return;
      // Release: an empty holder lets the next candidate acquire without waiting for expiry.
      const next = structuredClone(current.object) as ApiObject & { spec: LeaseSpec };
      next.spec = { ...spec, holderIdentity: undefined, acquireTime: undefined, renewTime: undefined, leaseDurationSeconds: 1 };
      delete next.spec.holderIdentity; delete next.spec.acquireTime; delete next.spec.renewTime;
      await opts.leases.update(namespace, () => next, { ctx, dryRun: false, subresource: '', allowCreate: false, name: opts.name }).catch(() => {});
    },
  };
}
