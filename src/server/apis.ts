// The served API surface: every (group, version, resource) the server answers, built from the kind
// declarations and the runtime configuration. Discovery, OpenAPI and routing all read this one table.
// A stored kind's entry carries its registry store; a computed kind's (ComponentStatus) carries the source
// its objects are computed from, and nothing is stored, cached or watched for it.
import type { KindDefinition, VersionDefinition } from '../apis/kind.ts';
import { isComputed, type ComputedKindDefinition, type ComputedSource, type ServerState } from '../apis/computed-kind.ts';
import type { ResourceStore } from '../registry/store.ts';
import { renamedGroupOf, type GroupAlias } from './group-alias.ts';

interface ServedVersion {
  def: KindDefinition;
  version: VersionDefinition;
  /** Set for one request that named the group by Kubernetes' name: answers are written in that name. */
  alias?: GroupAlias;
}

/** A stored kind's served version: the generic registry's store (and its watch cache) answers every verb. */
export interface ServedResource extends ServedVersion {
  store: ResourceStore;
}

/** A computed kind's served version: get and list are answered from its source. */
export interface ComputedResource extends ServedVersion {
  def: ComputedKindDefinition;
  source: ComputedSource;
}

/** Any served version, stored or computed. */
export type ApiResource = ServedResource | ComputedResource;

export function isComputedResource(entry: ApiResource): entry is ComputedResource {
  return 'source' in entry;
}

export class ApiSurface {
  private readonly byPath = new Map<string, ApiResource>();
  private readonly groups = new Set<string>();
  /** Every served version, stored and computed, in declaration order: what discovery and OpenAPI list. */
  readonly all: ApiResource[] = [];
  /** The stored ones: what the resource handler, admission and webhooks work on. */
  readonly served: ServedResource[] = [];

  add(entry: ApiResource): void {
    this.all.push(entry);
    if (!isComputedResource(entry)) this.served.push(entry);
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

  /** The stored resource at a path; undefined for a computed one. */
  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    const entry = this.find(group, version, resource);
    return entry && !isComputedResource(entry) ? entry : undefined;
  }

  /** The served resource at a path, stored or computed. */
  find(group: string, version: string, resource: string): ApiResource | undefined {
    return this.byPath.get(`${group}/${version}/${resource}`);
  }

  hasGroupVersion(group: string, version: string): boolean {
    return this.all.some((s) => s.def.group === group && s.version.name === version);
  }
}

/**
 * The surface of `kinds` under `--runtime-config`: a stored kind's versions are served by its store, a
 * computed kind's by the source the kind binds to `server` (once, shared by its versions).
 */
export function buildSurface(kinds: readonly KindDefinition[], runtimeConfig: Record<string, string>, storeOf: (def: KindDefinition) => ResourceStore, server: ServerState): ApiSurface {
  const surface = new ApiSurface();
  for (const def of kinds) {
    let source: ComputedSource | undefined;
    for (const version of def.versions) {
      if (!isServed(def, version, runtimeConfig)) continue;
      if (isComputed(def)) surface.add({ def, version, source: source ??= def.computed.source(server) });
      else surface.add({ def, version, store: storeOf(def) });
    }
  }
  return surface;
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
