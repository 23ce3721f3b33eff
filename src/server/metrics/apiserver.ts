// The API server's metrics, named, labelled and described as Kubernetes v1.32's apiserver does
// (endpoints/metrics): deprecated APIs requested, requests by verb and code, stored objects, build info,
// and the process's CPU, memory and start time. One set per server.
import type { KindDefinition } from '../../apis/kind.ts';
import type { Request } from '../respond.ts';
import type { RequestInfo } from '../requestinfo.ts';
import { VERSION_INFO } from '../version.ts';
import { MetricsRegistry, type CounterVec, type GaugeVec } from './registry.ts';

export interface ApiServerMetrics {
  readonly registry: MetricsRegistry;
  readonly requestedDeprecatedApis: GaugeVec;
  /** Counts one answered resource request (not called for non-resource paths). */
  recordRequest(req: Request, info: RequestInfo, code: number): void;
  /** Stored objects per resource (`configmaps`, `deployments.apps`), read when the metrics are written. */
  storedObjects(read: () => Iterable<[resource: string, count: number]>): void;
}

export interface ApiServerMetricsOptions {
  /** --show-hidden-metrics-for-version, already validated. */
  showHiddenMetricsForVersion?: string;
}

const CURRENT = { major: Number(VERSION_INFO.major), minor: Number(VERSION_INFO.minor) };

/** Kubernetes' check of --show-hidden-metrics-for-version: empty, or exactly the previous minor release. */
export function validateShowHiddenMetricsVersion(value: string | undefined, current = CURRENT): string | undefined {
  if (!value) return undefined;
  const valid = `${current.major}.${current.minor - 1}`;
  return value === valid ? undefined : `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
}

export function apiServerMetrics(opts: ApiServerMetricsOptions = {}): ApiServerMetrics {
  const registry = new MetricsRegistry({ version: CURRENT, showHidden: !!opts.showHiddenMetricsForVersion });
  const requestedDeprecatedApis = registry.gauge({
    name: 'apiserver_requested_deprecated_apis',
    help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
    stability: 'STABLE',
    labels: ['group', 'version', 'resource', 'subresource', 'removed_release'],
  });
  const requestTotal: CounterVec = registry.counter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    stability: 'STABLE',
    labels: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
  });
  const counters = new Map<string, Map<string, Map<string, Map<number, { inc(): void }>>>>();
  const storageObjects = registry.gauge({
    name: 'apiserver_storage_objects',
    help: 'Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.',
    stability: 'STABLE',
    labels: ['resource'],
  });
  registry.gauge({
    name: 'kubernetes_build_info',
    help: "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
    labels: ['major', 'minor', 'git_version', 'git_commit', 'git_tree_state', 'build_date', 'go_version', 'compiler', 'platform'],
  }).set([VERSION_INFO.major, VERSION_INFO.minor, VERSION_INFO.gitVersion, VERSION_INFO.gitCommit, VERSION_INFO.gitTreeState, VERSION_INFO.buildDate, VERSION_INFO.goVersion, VERSION_INFO.compiler, VERSION_INFO.platform], 1);
  collectProcessMetrics(registry);

  return {
    registry,
    requestedDeprecatedApis,
    recordRequest(req, info, code) {
      const verb = reportedVerb(req, info);
      const dryRun = dryRunLabel(req.url ?? '');
      const scope = scopeOf(info);
      const labels = () => [verb, dryRun, info.apiGroup, info.apiVersion, info.resource, info.subresource, scope, 'apiserver', String(code)];
      if (info.subresource || dryRun) return requestTotal.withLabelValues(labels()).inc();
      // The common case runs on every request: counters found by resource, version and group (short strings
      // hashed once each), then by a number made of code, verb and scope; no label text is built.
      let byVersion = counters.get(info.resource);
      if (!byVersion) counters.set(info.resource, byVersion = new Map());
      let byGroup = byVersion.get(info.apiVersion);
      if (!byGroup) byVersion.set(info.apiVersion, byGroup = new Map());
      let byCode = byGroup.get(info.apiGroup);
      if (!byCode) byGroup.set(info.apiGroup, byCode = new Map());
      const key = code * 64 + VERB_INDEX[verb] * 4 + SCOPE_INDEX[scope];
      let counter = byCode.get(key);
      if (!counter) byCode.set(key, counter = requestTotal.withLabelValues(labels()));
      counter.inc();
    },
    storedObjects(read) {
      registry.beforeWrite(() => { for (const [resource, count] of read()) storageObjects.set([resource], count); });
    },
  };
}

/** The process metrics Prometheus' Go client registers, with its help texts (no stability level). */
function collectProcessMetrics(registry: MetricsRegistry): void {
  const startSeconds = Math.floor((Date.now() - process.uptime() * 1000) / 1000);
  registry.collect({ name: 'process_start_time_seconds', type: 'gauge', raw: true, help: 'Start time of the process since unix epoch in seconds.', read: () => startSeconds });
  registry.collect({ name: 'process_resident_memory_bytes', type: 'gauge', raw: true, help: 'Resident memory size in bytes.', read: () => process.memoryUsage.rss() });
  registry.collect({
    name: 'process_cpu_seconds_total', type: 'counter', raw: true, help: 'Total user and system CPU time spent in seconds.',
    read: () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; },
  });
}

/** Kubernetes' CleanScope: resource (a name, or a create), namespace, or cluster. */
function scopeOf(info: RequestInfo): string {
  if (info.name || info.verb === 'create') return 'resource';
  if (info.namespace) return 'namespace';
  return 'cluster';
}

const APPLY_PATCH = 'application/apply-patch+yaml';
const CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
const REPORTED_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const VERB_INDEX: Record<string, number> = { GET: 0, LIST: 1, WATCH: 2, POST: 3, PUT: 4, PATCH: 5, DELETE: 6, APPLY: 7, CONNECT: 8, other: 9 };
const SCOPE_INDEX: Record<string, number> = { resource: 0, namespace: 1, cluster: 2 };

/** The verb label as Kubernetes reports it: from the method, GET split into LIST and GET by scope, WATCH, APPLY, CONNECT. */
function reportedVerb(req: Request, info: RequestInfo): string {
  if (info.verb === 'watch') return 'WATCH';
  if (info.subresource && CONNECT_SUBRESOURCES.has(info.subresource)) return 'CONNECT';
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return scopeOf(info) === 'resource' ? 'GET' : 'LIST';
  if (method === 'PATCH' && req.headers['content-type']?.split(';')[0].trim() === APPLY_PATCH) return 'APPLY';
  return REPORTED_METHODS.has(method) ? method : 'other';
}

const DRY_RUN_VALUES = new Set(['All']);

/** Kubernetes' cleanDryRun: '' without dryRun, the sorted distinct values, or `invalid`. */
function dryRunLabel(url: string): string {
  if (!url.includes('dryRun')) return '';
  const values = new URL(url, 'https://x').searchParams.getAll('dryRun');
  if (values.some((v) => !DRY_RUN_VALUES.has(v))) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

/** `apiserver_storage_objects` per stored resource (`configmaps`, `deployments.apps`): what each watch cache holds. */
export function storedObjectCounts(stores: Iterable<{ def: KindDefinition; cache: { size: number } }>): [string, number][] {
  const out: [string, number][] = [];
  for (const s of stores) {
    if (s.def.createOnly) continue;
    out.push([s.def.group ? `${s.def.plural}.${s.def.group}` : s.def.plural, s.cache.size]);
  }
  return out;
}
