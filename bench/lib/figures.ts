// The figures a run produces, and the ratios and targets of issue 8 computed from them.
import { summarize } from './stats.ts';

export const SYSTEMS = {
  capstan: 'Capstan',
  capstanEtcd: 'Capstan on etcd',
  floor: 'HTTP floor',
  etcd: 'raw etcd',
} as const;

export interface Figure {
  system: string;
  workload: string;
  concurrency: number | null;
  median: number;
  min: number;
  max: number;
  unit: string;
  /** The value of every run, in order. */
  runs: number[];
  note?: string;
}

export class FigureSet {
  readonly figures: Figure[] = [];
  readonly notes: string[] = [];

  add(system: string, workload: string, concurrency: number | null, unit: string, runs: number[], note?: string): Figure {
    const s = summarize(runs);
    const f: Figure = { system, workload, concurrency, median: s.median, min: s.min, max: s.max, unit, runs, ...(note ? { note } : {}) };
    this.figures.push(f);
    return f;
  }

  find(system: string, workload: string, concurrency: number | null = null): Figure | undefined {
    return this.figures.find((f) => f.system === system && f.workload === workload && (concurrency === null || f.concurrency === concurrency));
  }

  median(system: string, workload: string, concurrency: number | null = null): number | null {
    return this.find(system, workload, concurrency)?.median ?? null;
  }
}

export const RATIO_KEYS = [
  'create_vs_etcd_put', 'get_vs_etcd_get', 'get_vs_http_floor', 'update_vs_etcd_put', 'list10k_time_vs_etcd_range',
  'fanout_events_per_s', 'fanout_p99_ms', 'ready_ms_empty', 'ready_ms_100k', 'start_server_ms', 'idle_rss_mb',
  'rss_100k_vs_json_size',
] as const;
export type RatioKey = typeof RATIO_KEYS[number];
export type Ratios = Record<RatioKey, number | null>;

/** Workload names shared by the suites, the ratios and the report. */
export const W = {
  create: 'create',
  get: 'get',
  update: 'update (PUT)',
  patch: 'merge patch',
  createServerCpu: 'create c=50: server CPU per request',
  createClientCpu: 'create c=50: load generator CPU per request',
  createH2: 'create, HTTP/2',
  getH2: 'get, HTTP/2',
  list1k: 'list 1,000',
  list10k: 'list 10,000',
  list10kPaged: 'list 10,000 paged (limit=500)',
  fanoutRate: 'watch fan-out, 1,000 watchers: events delivered',
  fanoutP50: 'watch fan-out, 1,000 watchers: p50 latency',
  fanoutP99: 'watch fan-out, 1,000 watchers: p99 latency',
  fanoutWrites: 'watch fan-out: writes done',
  fanoutServerCpu: 'watch fan-out: server CPU per event delivered',
  fanoutServerBusy: 'watch fan-out: server CPU use',
  fanoutWatcherCpu: 'watch fan-out: watcher processes\' CPU per event',
  put: 'put',
  etcdGet: 'get',
  range10k: 'range 10,000 keys',
  etcdWatch: 'watch, 1 watcher under 50 writers: events received',
  readyEmpty: 'ready (spawn to /readyz 200), empty',
  readyStored: 'ready (spawn to /readyz 200), with stored objects',
  startServer: 'startServer() to first answered request',
  importIndex: 'import src/index.ts (not part of startServer())',
  idleRss: 'RSS idle',
  storedRss: 'RSS with stored objects',
  storedJson: 'JSON size of stored objects',
  rssPerJson: '(RSS stored - RSS idle) / JSON size',
} as const;

function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : a / b;
}

export function computeRatios(f: FigureSet): Ratios {
  const C = SYSTEMS.capstan;
  const etcdPut50 = f.median(SYSTEMS.etcd, W.put, 50);
  return {
    create_vs_etcd_put: ratio(f.median(C, W.create, 50), etcdPut50),
    get_vs_etcd_get: ratio(f.median(C, W.get, 50), f.median(SYSTEMS.etcd, W.etcdGet, 50)),
    get_vs_http_floor: ratio(f.median(C, W.get, 50), f.median(SYSTEMS.floor, W.get, 50)),
    update_vs_etcd_put: ratio(f.median(C, W.update, 50), etcdPut50),
    list10k_time_vs_etcd_range: ratio(f.median(C, W.list10k), f.median(SYSTEMS.etcd, W.range10k)),
    fanout_events_per_s: f.median(C, W.fanoutRate),
    fanout_p99_ms: f.median(C, W.fanoutP99),
    ready_ms_empty: f.median(C, W.readyEmpty),
    ready_ms_100k: f.median(C, W.readyStored),
    start_server_ms: f.median(C, W.startServer),
    idle_rss_mb: f.median(C, W.idleRss),
    rss_100k_vs_json_size: f.median(C, W.rssPerJson),
  };
}

export interface Target { key: RatioKey; op: '>=' | '<=' | '<'; value: number; text: string }

export const TARGETS: Target[] = [
  { key: 'create_vs_etcd_put', op: '>=', value: 1.5, text: 'create c=50 >= 1.5x raw etcd puts' },
  { key: 'get_vs_etcd_get', op: '>=', value: 3, text: 'get c=50 >= 3x raw etcd gets' },
  { key: 'get_vs_http_floor', op: '>=', value: 0.5, text: "get c=50 >= 0.5x the HTTP floor's GET" },
  { key: 'update_vs_etcd_put', op: '>=', value: 1.5, text: 'update (PUT) c=50 >= 1.5x raw etcd puts' },
  { key: 'list10k_time_vs_etcd_range', op: '<=', value: 2, text: 'list 10,000 <= 2x the time of an etcd range of 10,000' },
  { key: 'fanout_events_per_s', op: '>=', value: 100_000, text: 'watch fan-out >= 100,000 events/s' },
  { key: 'fanout_p99_ms', op: '<', value: 100, text: 'watch fan-out p99 < 100 ms at 1,000 writes/s' },
  { key: 'ready_ms_empty', op: '<=', value: 1000, text: 'ready <= 1 s, empty' },
  { key: 'ready_ms_100k', op: '<=', value: 5000, text: 'ready <= 5 s with 100,000 objects' },
  { key: 'start_server_ms', op: '<=', value: 50, text: 'startServer() <= 50 ms' },
  { key: 'idle_rss_mb', op: '<=', value: 80, text: 'idle RSS <= 80 MB' },
  { key: 'rss_100k_vs_json_size', op: '<=', value: 2.5, text: 'RSS with 100,000 objects <= 2.5x their JSON size plus idle' },
];

export type Verdict = 'pass' | 'FAIL' | 'n/a';

export function verdict(t: Target, value: number | null): Verdict {
  if (value === null) return 'n/a';
  const ok = t.op === '>=' ? value >= t.value : t.op === '<=' ? value <= t.value : value < t.value;
  return ok ? 'pass' : 'FAIL';
}
