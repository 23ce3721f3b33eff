// The order discovery lists groups and versions in. Kubernetes' aggregator gives every built-in
// group-version a priority pair (kube-apiserver's APIService priorities, v1.32): groups sort by their
// highest group priority, highest first, names breaking ties; a group's versions sort by version
// priority, then by the kube-aware version order. Groups this table does not know (priority 0) follow.

/** Group priority and version priorities, keyed by group name with Kubernetes' names renamed. */
const PRIORITIES: Readonly<Record<string, { group: number; versions: Readonly<Record<string, number>> }>> = {
  '': { group: 18000, versions: { v1: 1 } },
  apps: { group: 17800, versions: { v1: 15 } },
  'events.svc.io': { group: 17750, versions: { v1: 15, v1beta1: 5 } },
  'authentication.svc.io': { group: 17700, versions: { v1: 15, v1beta1: 9, v1alpha1: 1 } },
  'authorization.svc.io': { group: 17600, versions: { v1: 15 } },
  autoscaling: { group: 17500, versions: { v2: 30, v1: 15, v2beta1: 9, v2beta2: 1 } },
  batch: { group: 17400, versions: { v1: 15, v1beta1: 9, v2alpha1: 9 } },
  'certificates.svc.io': { group: 17300, versions: { v1: 15, v1alpha1: 1 } },
  'networking.svc.io': { group: 17200, versions: { v1: 15, v1beta1: 9, v1alpha1: 1 } },
  policy: { group: 17100, versions: { v1: 15, v1beta1: 9 } },
  'rbac.authorization.svc.io': { group: 17000, versions: { v1: 15 } },
  'storage.svc.io': { group: 16800, versions: { v1: 15, v1beta1: 9, v1alpha1: 1 } },
  'apiextensions.svc.io': { group: 16700, versions: { v1: 15 } },
  'admissionregistration.svc.io': { group: 16700, versions: { v1: 15, v1beta1: 12, v1alpha1: 9 } },
  'scheduling.svc.io': { group: 16600, versions: { v1: 15 } },
  'coordination.svc.io': { group: 16500, versions: { v1: 15, v1beta1: 13, v1alpha2: 12, v1alpha1: 9 } },
  'node.svc.io': { group: 16300, versions: { v1: 15, v1beta1: 9, v1alpha1: 1 } },
  'discovery.svc.io': { group: 16200, versions: { v1: 15, v1beta1: 12 } },
  'flowcontrol.apiserver.svc.io': { group: 16100, versions: { v1: 21, v1beta3: 18, v1beta2: 15, v1beta1: 12, v1alpha1: 9 } },
  'internal.apiserver.svc.io': { group: 16000, versions: { v1alpha1: 9 } },
  'resource.svc.io': { group: 15900, versions: { v1beta1: 9, v1alpha3: 1 } },
  'storagemigration.svc.io': { group: 15800, versions: { v1alpha1: 9 } },
};

/** The priority of a group in discovery; 0 for groups the built-in table does not list. */
export function groupPriority(group: string): number {
  return PRIORITIES[group]?.group ?? 0;
}

/** The priority of a version inside its group; 0 when unknown. */
export function versionPriority(group: string, version: string): number {
  return PRIORITIES[group]?.versions[version] ?? 0;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * Kubernetes' kube-aware version order as a comparator that sorts the higher version first: GA before
 * beta before alpha, higher numbers first within a level, versions not of the `vN[alpha|betaM]` form
 * last in alphabetical order.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const level = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (level(ma) !== level(mb)) return level(mb) - level(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** Groups (each with a name and a version list) in Kubernetes' discovery order, versions sorted too. */
export function inDiscoveryOrder<G extends { name: string; versions: string[] }>(groups: readonly G[]): G[] {
  const sorted = groups.map((g) => ({
    ...g,
    versions: [...g.versions].sort((a, b) => (versionPriority(g.name, b) - versionPriority(g.name, a)) || compareKubeAwareVersions(a, b)),
  }));
  return sorted.sort((a, b) => (groupPriority(b.name) - groupPriority(a.name)) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
