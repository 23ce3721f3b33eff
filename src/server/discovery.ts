// Discovery documents (Kubernetes 1.32 shapes), derived from the served kinds. Pure: the HTTP layer adds
// ETags, caching and content negotiation.
import { createHash } from 'node:crypto';
import { apiVersionOf, type KindDefinition, type VersionDefinition } from '../apis/kind.ts';
import { computedVerbs, isComputed } from '../apis/computed-kind.ts';
import { inDiscoveryOrder } from './group-priority.ts';
import { renamedGroupOf } from './group-alias.ts';

/** One (kind, served version) pair. */
export interface ServedKind {
  def: KindDefinition;
  version: VersionDefinition;
}

/** A served group with its served versions, preferred first. */
export interface ServedGroup {
  name: string;
  versions: string[];
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** Verbs of a resource with the full generic registry behind it, sorted as Kubernetes sorts them. */
export const RESOURCE_VERBS: readonly string[] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
export const STATUS_VERBS: readonly string[] = ['get', 'patch', 'update'];

/** The verbs a kind's resource serves, in discovery's order. */
function resourceVerbs(def: KindDefinition): string[] {
  if (def.createOnly) return ['create'];
  const computed = computedVerbs(def);
  if (computed) return [...computed];
  return def.noDeleteCollection ? RESOURCE_VERBS.filter((v) => v !== 'deletecollection') : [...RESOURCE_VERBS];
}

/**
 * Groups in order of first appearance; each group's versions follow the order of its kinds' `versions`
 * lists (preference order), keeping only versions that are served.
 */
export function servedGroups(served: readonly ServedKind[]): ServedGroup[] {
  const servedNames = new Map<KindDefinition, Set<string>>();
  const defsByGroup = new Map<string, KindDefinition[]>();
  for (const { def, version } of served) {
    let names = servedNames.get(def);
    if (!names) {
      names = new Set();
      servedNames.set(def, names);
      const defs = defsByGroup.get(def.group) ?? [];
      if (!defsByGroup.has(def.group)) defsByGroup.set(def.group, defs);
      defs.push(def);
    }
    names.add(version.name);
  }
  const groups: ServedGroup[] = [];
  for (const [name, defs] of defsByGroup) {
    const versions: string[] = [];
    for (const def of defs) {
      const names = servedNames.get(def)!;
      for (const v of def.versions) if (names.has(v.name) && !versions.includes(v.name)) versions.push(v.name);
      // A served version missing from def.versions still counts (it came from the caller).
      for (const n of names) if (!versions.includes(n)) versions.push(n);
    }
    groups.push({ name, versions });
  }
  return groups;
}

/** The kinds served in one group-version, sorted by resource name as Kubernetes installs them. */
export function kindsIn(served: readonly ServedKind[], group: string, version: string): ServedKind[] {
  const seen = new Set<KindDefinition>();
  const out: ServedKind[] = [];
  for (const s of served) {
    if (s.def.group !== group || s.version.name !== version || seen.has(s.def)) continue;
    seen.add(s.def);
    out.push(s);
  }
  return out.sort((a, b) => compare(a.def.plural, b.def.plural));
}

/** Kubernetes' `discovery.StorageVersionHash`: base64 of the first 8 bytes of sha256("<group>/<version>/<kind>"). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** A sub-resource as discovery lists it. */
export interface SubresourceInfo {
  name: string;
  /** Set only when the sub-resource answers a kind of another group-version (Scale, Eviction ...). */
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
}

/** The sub-resources of a kind served at `version`, sorted by name. */
export function subresourcesOf(def: KindDefinition, version: string): SubresourceInfo[] {
  const subs: SubresourceInfo[] = [];
  if (def.status) subs.push({ name: 'status', kind: def.kind, verbs: [...STATUS_VERBS] });
  for (const name of def.status?.variants ?? []) subs.push({ name, kind: def.kind, verbs: [...STATUS_VERBS] });
  for (const view of def.views ?? []) {
    const foreign = view.group !== def.group || view.version !== version;
    subs.push({
      name: view.name,
      ...(foreign ? { group: view.group, version: view.version } : {}),
      kind: view.kind,
      verbs: [...new Set(view.verbs)].sort(compare),
    });
  }
  return subs.sort((a, b) => compare(a.name, b.name));
}

// ---- /api ----

export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: { clientCIDR: string; serverAddress: string }[];
}

/** `GET /api`. `serverAddress` is the host:port clients should use. */
export function coreVersions(serverAddress: string): APIVersions {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

// ---- /apis and /apis/{group} ----

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  kind?: 'APIGroup';
  apiVersion?: 'v1';
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

function groupEntry(g: ServedGroup): APIGroup {
  const versions = g.versions.map((v) => ({ groupVersion: apiVersionOf(g.name, v), version: v }));
  return { name: g.name, versions, preferredVersion: versions[0]! };
}

/** `GET /apis`: every named group (the core group is listed at /api), in Kubernetes' group priority order. */
export function apiGroupList(served: readonly ServedKind[]): APIGroupList {
  const groups = inDiscoveryOrder(servedGroups(served).filter((g) => g.name !== '' && g.versions.length > 0)).map(groupEntry);
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

/**
 * `GET /apis/{group}`, or undefined when the group is not served. Kubernetes' name of a renamed group
 * (`rbac.authorization.k8s.io`) answers as that group, in the name asked for (see group-alias.ts): clients
 * generated from Kubernetes' API ask it, though /apis lists only the renamed name.
 */
export function apiGroup(served: readonly ServedKind[], group: string): APIGroup | undefined {
  if (group === '') return undefined;
  const g = inDiscoveryOrder(servedGroups(served).filter((x) => x.name === group))[0];
  if (!g || g.versions.length === 0) {
    const renamed = renamedGroupOf(group);
    return renamed ? renameGroup(apiGroup(served, renamed), group) : undefined;
  }
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(g) };
}

function renameGroup(doc: APIGroup | undefined, name: string): APIGroup | undefined {
  if (!doc) return undefined;
  const versions = doc.versions.map((v) => ({ groupVersion: apiVersionOf(name, v.version), version: v.version }));
  return { ...doc, name, versions, preferredVersion: versions.find((v) => v.version === doc.preferredVersion.version)! };
}

// ---- /api/v1 and /apis/{group}/{version} ----

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

function mainResource(def: KindDefinition): APIResource {
  const r: APIResource = { name: def.plural, singularName: def.singular, namespaced: def.namespaced, kind: def.kind, verbs: resourceVerbs(def) };
  if (def.shortNames?.length) r.shortNames = [...def.shortNames];
  if (def.categories?.length) r.categories = [...def.categories];
  // Kinds that are never stored have no storage version hash.
  if (!def.createOnly && !isComputed(def)) r.storageVersionHash = def.storedAs ? storageVersionHash(def.storedAs.group, def.storedAs.version, def.kind) : storageVersionHash(def.group, def.storageVersion, def.kind);
  return r;
}

/** `GET /api/v1` or `/apis/{group}/{version}`, or undefined when that group-version is not served. */
export function apiResourceList(served: readonly ServedKind[], group: string, version: string): APIResourceList | undefined {
  const kinds = kindsIn(served, group, version);
  if (kinds.length === 0) {
    // Kubernetes' name of a renamed group, as apiGroup() answers it.
    const renamed = group && !servedGroups(served).some((g) => g.name === group) ? renamedGroupOf(group) : undefined;
    const list = renamed ? apiResourceList(served, renamed, version) : undefined;
    return list && { ...list, groupVersion: apiVersionOf(group, version) };
  }
  const resources: APIResource[] = [];
  for (const { def } of kinds) {
    resources.push(mainResource(def));
    for (const sub of subresourcesOf(def, version)) {
      // Field order follows Kubernetes' JSON: name, singularName, namespaced, group, version, kind, verbs.
      resources.push({
        name: `${def.plural}/${sub.name}`,
        singularName: '',
        namespaced: def.namespaced,
        ...(sub.group !== undefined ? { group: sub.group, version: sub.version } : {}),
        kind: sub.kind,
        verbs: sub.verbs,
      });
    }
  }
  resources.sort((a, b) => compare(a.name, b.name));
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf(group, version), resources };
}

// ---- aggregated discovery ----

export type AggregatedVersion = 'v2' | 'v2beta1';

export interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

export interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

export interface APIVersionDiscovery {
  version: string;
  resources: APIResourceDiscovery[];
  freshness: 'Current';
}

export interface APIGroupDiscovery {
  metadata: { name: string; creationTimestamp: null };
  versions: APIVersionDiscovery[];
}

export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: string;
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}

function resourceDiscovery(def: KindDefinition, version: string): APIResourceDiscovery {
  // Built-in resources publish an empty group and version in responseKind (they come from APIResource,
  // which leaves them unset unless a sub-resource answers another group-version), as Kubernetes does.
  const r: APIResourceDiscovery = {
    resource: def.plural,
    responseKind: { group: '', version: '', kind: def.kind },
    scope: def.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: def.singular,
    verbs: resourceVerbs(def),
  };
  if (def.shortNames?.length) r.shortNames = [...def.shortNames];
  if (def.categories?.length) r.categories = [...def.categories];
  const subs = subresourcesOf(def, version);
  if (subs.length) {
    r.subresources = subs.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind },
      verbs: s.verbs,
    }));
  }
  return r;
}

function groupDiscovery(served: readonly ServedKind[], g: ServedGroup): APIGroupDiscovery {
  return {
    metadata: { name: g.name, creationTimestamp: null },
    versions: g.versions.map((v) => ({
      version: v,
      resources: kindsIn(served, g.name, v).map(({ def }) => resourceDiscovery(def, v)),
      freshness: 'Current' as const,
    })),
  };
}

/**
 * `GET /api` (scope `api`: the core group only) or `GET /apis` (scope `apis`: every named group) in the
 * aggregated form, groups in Kubernetes' group priority order. `groupName` is the discovery group the client asked for (`apidiscovery.k8s.io` from
 * unmodified clients, or `apidiscovery.svc.io`); `version` is `v2` or `v2beta1`.
 */
export function aggregatedDiscovery(served: readonly ServedKind[], scope: 'api' | 'apis', groupName: string, version: AggregatedVersion = 'v2'): APIGroupDiscoveryList {
  const groups = inDiscoveryOrder(servedGroups(served).filter((g) => (scope === 'api' ? g.name === '' : g.name !== '') && g.versions.length > 0));
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `${groupName}/${version}`,
    metadata: {},
    items: groups.map((g) => groupDiscovery(served, g)),
  };
}

/** Byte-wise ordering, as Go's sort.Strings. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
