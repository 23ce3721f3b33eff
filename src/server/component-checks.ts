// The health checks of the control plane's parts, which the server offers its computed kinds (ComponentStatus
// lists them): the store (`etcd-0` ... one per etcd endpoint, or `etcd-0` for the embedded store), checked
// with its ready(), and the controller manager (`controller-manager`), healthy while this server runs the
// controllers or another server holds their lease and renews it.
import type { ComponentCheck, ComponentHealth } from '../apis/computed-kind.ts';
import type { Storage } from '../storage/interface.ts';
import type { ResourceStore } from '../registry/store.ts';
import { CONTROLLER_LEASE } from '../controllers/manager.ts';

const OK: ComponentHealth = { healthy: true, message: 'ok' };
const LEASE_NAMESPACE = 'kube-system';

export interface ComponentCheckDeps {
  storage: Storage;
  /** The etcd endpoints the store uses; none for the embedded store. */
  storageEndpoints?: readonly string[];
  /** Whether this server holds the controller lease (and so runs the controllers). */
  isLeader(): boolean;
  leases: ResourceStore;
  now?: () => number;
}

export function componentChecks(d: ComponentCheckDeps): ComponentCheck[] {
  const storeCheck = async (): Promise<ComponentHealth> => {
    await d.storage.ready();
    return OK;
  };
  const members = d.storageEndpoints?.length ? d.storageEndpoints.length : 1;
  const checks: ComponentCheck[] = Array.from({ length: members }, (_, i) => ({ name: `etcd-${i}`, check: storeCheck }));
  checks.push({ name: 'controller-manager', check: async () => controllerManagerHealth(d) });
  return checks;
}

interface LeaseSpec { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number }

function controllerManagerHealth(d: ComponentCheckDeps): ComponentHealth {
  if (d.isLeader()) return OK;
  const lease = d.leases.current(LEASE_NAMESPACE, CONTROLLER_LEASE)?.object;
  const spec = (lease?.spec ?? {}) as LeaseSpec;
  const where = `${LEASE_NAMESPACE}/${CONTROLLER_LEASE}`;
  if (!spec.holderIdentity) return { healthy: false, error: `no controller manager holds the lease ${where}` };
  const renewed = spec.renewTime ? Date.parse(spec.renewTime) : NaN;
  const expires = renewed + (spec.leaseDurationSeconds ?? 15) * 1000;
  if (Number.isNaN(renewed) || expires < (d.now ?? Date.now)()) return { healthy: false, error: `the lease ${where} of ${spec.holderIdentity} was not renewed in time` };
  return OK;
}
