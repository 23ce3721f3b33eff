// The ClusterRole aggregation controller: keeps the rules of every cluster role with an aggregationRule
// equal to the rules of the cluster roles its selectors match (Kubernetes' clusterroleaggregation).
import type { ResourceStore } from '../registry/store.ts';
import { aggregateAll } from '../auth/default-policy.ts';

export interface AggregationControllerDeps {
  clusterRoles: ResourceStore;
  log(line: string): void;
}

const RESYNC_MS = 30_000;

export function startClusterRoleAggregation(deps: AggregationControllerDeps): { stop(): void } {
  let stopped = false;
  let running: Promise<void> | undefined;
  let again = false;
  const run = () => {
    if (stopped) return;
    if (running) { again = true; return; }
    running = aggregateAll(deps.clusterRoles)
      .catch((err) => deps.log(`clusterrole aggregation: ${(err as Error).message}`))
      .finally(() => {
        running = undefined;
        if (again && !stopped) { again = false; run(); }
      });
  };
  // Any change to any cluster role may change what an aggregated role gathers.
  let unwatch: (() => void) | undefined;
  try {
    unwatch = deps.clusterRoles.cache.watch(deps.clusterRoles.cache.revision, { onEvent: run, onClose: () => { unwatch = undefined; } });
  } catch (err) {
    deps.log(`clusterrole aggregation: ${(err as Error).message}`);
  }
  const timer = setInterval(run, RESYNC_MS);
  timer.unref();
  run();
  return { stop() { stopped = true; clearInterval(timer); unwatch?.(); } };
}
