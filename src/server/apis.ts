// The served API surface: every (group, version, resource) the server answers, built from the kind
// declarations and the runtime configuration. Discovery, OpenAPI and routing all read this one table.
import type { KindDefinition, VersionDefinition } from '../apis/kind.ts';
import type { ResourceStore } from '../registry/store.ts';
import { renamedGroupOf, type GroupAlias } from './group-alias.ts';

export interface ServedResource {
  def: KindDefinition;
  version: VersionDefinition;
  store: ResourceStore;
  /** Set for one request that named the group by Kubernetes' name: answers are written in that name. */
  alias?: GroupAlias;
}

export class ApiSurface {
  private readonly byPath = new Map<string, ServedResource>();
  private readonly groups = new Set<string>();
  readonly served: ServedResource[] = [];

  add(entry: ServedResource): void {
    this.served.push(entry);
    this.groups.add(entry.def.group);
    this.byPath.set(`${entry.def.group}/${entry.version.name}/${entry.def.plural}`, entry);
  }

  /**
   * The group that serves a request addressed to `group`: the group itself, or for Kubernetes' name of a
   * renamed group (`rbac.authorization.k8s.io`) the renamed one, when that is served and the name is not.
   */
  servingGroup(group: string): string {
    if (this.groups.has(group)) return group;
    const renamed = renamedGroupOf(group);
    return renamed !== undefined && this.groups.has(renamed) ? renamed : group;
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.served.some((s) => s.def.group === group && s.version.name === version);
  }
}

/** Whether a version is served, given `--runtime-config` (`{group}/{version}[=bool]`, `{group}/{version}/{resource}`, `api/all`). */
export function isServed(def: KindDefinition, version: VersionDefinition, runtimeConfig: Record<string, string>): boolean {
  const gv = def.group ? `${def.group}/${version.name}` : `v1`;
  const truthy = (v: string | undefined) => v === undefined ? undefined : v === '' || v === 'true';
  const resourceKey = `${gv}/${def.plural}`;
  const forResource = truthy(runtimeConfig[resourceKey]);
  if (forResource !== undefined) return forResource;
  const forVersion = truthy(runtimeConfig[gv] ?? (def.group ? undefined : runtimeConfig['api/v1']));
  if (forVersion !== undefined) return forVersion;
  const all = truthy(runtimeConfig['api/all']);
  if (all !== undefined) return all;
  if (version.stability === 'alpha') return truthy(runtimeConfig['api/alpha']) ?? false;
  if (version.stability === 'beta') return truthy(runtimeConfig['api/beta']) ?? (version.servedByDefault ?? false);
  return version.servedByDefault ?? true;
}
