// The controller manager: runs every controller while this server holds the controller lease, so that with
// several servers on one store each controller runs once per cluster.
import type { ResourceStore } from '../registry/store.ts';
import { startLeaderElection, type LeaderElector } from './leader-election.ts';

export interface Controller {
  stop(): void;
}

export type ControllerFactory = () => Controller;

export const CONTROLLER_LEASE = 'capstan-controller-manager';

export interface ControllerManagerOptions {
  leases: ResourceStore;
  controllers: ControllerFactory[];
  leaseDurationSeconds?: number;
  retryPeriodMs?: number;
  log(line: string): void;
}

export function startControllerManager(opts: ControllerManagerOptions): { elector: LeaderElector; stop(): Promise<void> } {
  let running: Controller[] = [];
  const stopAll = () => { for (const c of running) c.stop(); running = []; };
  const elector = startLeaderElection({
    leases: opts.leases,
    name: CONTROLLER_LEASE,
    leaseDurationSeconds: opts.leaseDurationSeconds,
    retryPeriodMs: opts.retryPeriodMs,
    log: opts.log,
    onStartedLeading: () => { running = opts.controllers.map((start) => start()); },
    onStoppedLeading: stopAll,
  });
  return { elector, async stop() { await elector.stop(); stopAll(); } };
}
