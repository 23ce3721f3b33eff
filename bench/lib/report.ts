// The run's output: a table on stdout, the ratios beside their targets, the JSON file and the markdown
// table for bench/RESULTS.md.
import type { Figure, FigureSet, Ratios } from './figures.ts';
import { SYSTEMS, TARGETS, W, verdict } from './figures.ts';
import type { MachineInfo } from './machine.ts';

export interface RunReport {
  mode: 'full' | 'quick';
  startedAt: string;
  durationS: number;
  machine: MachineInfo;
  figures: Array<Omit<Figure, 'runs'> & { runs: number[] }>;
  ratios: Ratios;
  targets: Array<{ key: string; target: string; value: number | null; verdict: string }>;
  notes: string[];
}

export function fmt(value: number | null, unit = ''): string {
  if (value === null || Number.isNaN(value)) return '-';
  const abs = Math.abs(value);
  const digits = unit === 'req/s' || unit === 'ops/s' || unit === 'events/s' || abs >= 1000 ? 0 : abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function pad(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i >= 3 && i <= 6 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')).join('\n');
}

export function figureTable(figures: FigureSet): string {
  const rows = [['system', 'workload', 'c', 'median', 'min', 'max', 'unit', 'note']];
  for (const f of figures.figures) {
    rows.push([f.system, f.workload, f.concurrency === null ? '' : String(f.concurrency), fmt(f.median, f.unit), fmt(f.min, f.unit), fmt(f.max, f.unit), f.unit, f.note ?? '']);
  }
  return pad(rows);
}

export function targetRows(ratios: Ratios): Array<{ key: string; target: string; value: number | null; verdict: string }> {
  return TARGETS.map((t) => ({ key: t.key, target: `${t.op} ${t.value.toLocaleString("en-US")}`, value: ratios[t.key], verdict: verdict(t, ratios[t.key]) }));
}

export function ratioTable(ratios: Ratios): string {
  const rows = [['ratio', 'value', 'target', 'verdict', 'meaning']];
  for (const t of TARGETS) rows.push([t.key, fmt(ratios[t.key]), `${t.op} ${t.value.toLocaleString('en-US')}`, verdict(t, ratios[t.key]), t.text]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ')).join('\n');
}

// ---- markdown for bench/RESULTS.md ----

function cell(f: Figure | undefined): string {
  if (!f) return '-';
  return `${fmt(f.median, f.unit)} (${fmt(f.min, f.unit)}–${fmt(f.max, f.unit)})`;
}

interface Row { label: string; c: number | null; unit: string; capstan: string; capstanWorkload?: string; floor?: string; etcd?: string; etcdC?: number | null; target?: string }

const ROWS: Row[] = [
  { label: 'create', c: 1, unit: 'req/s', capstan: W.create, floor: W.create, etcd: W.put },
  { label: 'create', c: 10, unit: 'req/s', capstan: W.create, floor: W.create, etcd: W.put },
  { label: 'create', c: 50, unit: 'req/s', capstan: W.create, floor: W.create, etcd: W.put, target: 'create_vs_etcd_put' },
  { label: 'create: server CPU per request (all its threads; Capstan on etcd: with its etcd)', c: 50, unit: 'µs/req', capstan: W.createServerCpu, floor: W.createServerCpu, etcd: W.createServerCpu },
  { label: 'create: load generator CPU per request (the client)', c: 50, unit: 'µs/req', capstan: W.createClientCpu, floor: W.createClientCpu, etcd: W.createClientCpu },
  { label: 'get (random of 10,000)', c: 50, unit: 'req/s', capstan: W.get, floor: W.get, etcd: W.etcdGet, target: 'get_vs_etcd_get' },
  { label: 'update (PUT with resourceVersion)', c: 50, unit: 'req/s', capstan: W.update, floor: W.update, etcd: W.put, target: 'update_vs_etcd_put' },
  { label: 'merge patch', c: 50, unit: 'req/s', capstan: W.patch, floor: W.patch, etcd: W.put },
  { label: 'create, HTTP/2 (5 conn x 10 streams)', c: 50, unit: 'req/s', capstan: W.createH2, floor: W.createH2, etcd: W.put },
  { label: 'get, HTTP/2 (5 conn x 10 streams)', c: 50, unit: 'req/s', capstan: W.getH2, floor: W.getH2, etcd: W.etcdGet },
  { label: 'list 1,000 (full JSON)', c: null, unit: 'ms', capstan: W.list1k },
  { label: 'list 10,000 (full JSON)', c: null, unit: 'ms', capstan: W.list10k, etcd: W.range10k, target: 'list10k_time_vs_etcd_range' },
  { label: 'list 10,000 paged, limit=500 (total)', c: null, unit: 'ms', capstan: W.list10kPaged, etcd: W.range10k },
  { label: 'watch fan-out, 1,000 watchers, 1,000 writes/s: events delivered', c: null, unit: 'events/s', capstan: W.fanoutRate, floor: W.fanoutRate, etcd: W.etcdWatch, etcdC: 50, target: 'fanout_events_per_s' },
  { label: 'watch fan-out: p50 delivery latency', c: null, unit: 'ms', capstan: W.fanoutP50, floor: W.fanoutP50 },
  { label: 'watch fan-out: p99 delivery latency', c: null, unit: 'ms', capstan: W.fanoutP99, floor: W.fanoutP99, target: 'fanout_p99_ms' },
  { label: 'watch fan-out: writes done (of 1,000/s offered)', c: null, unit: 'writes/s', capstan: W.fanoutWrites, floor: W.fanoutWrites },
  { label: 'watch fan-out: server CPU per event delivered (writes included)', c: null, unit: 'µs/event', capstan: W.fanoutServerCpu, floor: W.fanoutServerCpu },
  { label: 'watch fan-out: server CPU use', c: null, unit: '% of a core', capstan: W.fanoutServerBusy, floor: W.fanoutServerBusy },
  { label: 'watch fan-out: watcher processes\' CPU per event (the client)', c: null, unit: 'µs/event', capstan: W.fanoutWatcherCpu, floor: W.fanoutWatcherCpu },
  { label: 'ready, empty (spawn to /readyz 200)', c: null, unit: 'ms', capstan: W.readyEmpty, etcd: W.readyEmpty, target: 'ready_ms_empty' },
  { label: 'ready, with stored objects', c: null, unit: 'ms', capstan: W.readyStored, target: 'ready_ms_100k' },
  { label: 'startServer() to first answered request', c: null, unit: 'ms', capstan: W.startServer, target: 'start_server_ms' },
  { label: 'RSS idle', c: null, unit: 'MB', capstan: W.idleRss, etcd: W.idleRss, target: 'idle_rss_mb' },
  { label: 'RSS with stored objects', c: null, unit: 'MB', capstan: W.storedRss },
  { label: 'JSON size of the stored objects', c: null, unit: 'MB', capstan: W.storedJson },
  { label: '(RSS stored - RSS idle) / JSON size', c: null, unit: 'x', capstan: W.rssPerJson, target: 'rss_100k_vs_json_size' },
];

const HOW_TO_READ = [
  '## How the figures are made',
  '',
  '- `npm run bench` (full, under 10 minutes) or `npm run bench -- --quick` (under a minute, the same ratio keys from shorter runs and 10,000 instead of 100,000 stored objects). `--out FILE` writes the JSON (every figure with system, workload, concurrency, median, min, max, unit and its runs; the `ratios`; the machine), `--markdown FILE` this table, `--only TEXT` runs the workloads whose name contains TEXT.',
  '- Systems: **Capstan** (`node bin/capstan.js serve`, the command `npm start` runs, which runs the CLI from its bundle, built before the run; fresh data directory, embedded store); **Capstan on etcd** (the same with `--etcd-servers`, its own fresh etcd; skipped with a note when the server refuses the flag); **HTTP floor** (`bench/floor-server.ts`: a bare `node:http2` secure server with HTTP/1.1 allowed and Capstan\'s own serving certificate, answering a fixed ConfigMap to GET and echoing the parsed and re-serialised body to POST/PUT/PATCH; a GET with `watch=1` streams, and each PATCH is also sent to every watch of its collection as a ~1.6 KB watch event line, the fixed ConfigMap with the patch\'s annotations, encoded once per write and written to each watch); **raw etcd** (Debian `etcd`, fresh data directory, driven by the `etcd3` client with the JSON of the same ConfigMap as value).',
  '- Client: one load-generating child process for all HTTP systems: autocannon over keep-alive HTTPS/1.1 with the admin client certificate for create, get and patch; a small keep-alive HTTPS client of our own for the update chain (each of 50 connections PUTs its own object with the resourceVersion of the previous answer) and for lists; `node:http2` with 5 connections x 10 streams for the HTTP/2 figures. Every timed run is preceded by an untimed warm-up. Only 2xx answers count; failures are footnoted.',
  '- CPU per create: after every other workload of the system, three runs of 20,000 named creates at concurrency 50 (5,000 with `--quick`) from a load-generating process of their own (raw etcd: 20,000 puts of the same values, 50 at a time, from its etcd3 process); the CPU time (user + system, all threads, from /proc) of the server (Capstan on etcd: with its etcd) and of the load generator over each run, per create.',
  '- Payload: ConfigMaps with about 1 KB of data (8 keys of 110 characters). Creates use `generateName`; gets pick a random name among 10,000 pre-created objects; patches are JSON merge patches that really change a value.',
  '- Lists: sequential, timed from the request to the last byte of the answer (the paged form follows `continue` tokens with `limit=500`); the raw etcd baseline is `getAll().prefix().strings()` of 10,000 keys.',
  '- Watch fan-out: 1,000 watches on one namespace, from `resourceVersion` of a fresh list, held by two child processes over 10 HTTP/2 connections; a third process merge-patches 1,000 objects at a target of 1,000 writes/s, stamping `Date.now()` into the annotation `bench/stamp`. The HTTP floor gets the same watchers, writer and client (its watches start without a list, it stores nothing). Events/s counts the events stamped during the run that arrived before the writer stopped; latency is arrival time minus stamp. Offered load at 1,000 writes/s is 1,000,000 events/s; the note says how many writes/s the writer achieved (it has 64 connections, so a saturated server slows it down). CPU per event: the CPU time (user + system, from /proc) the server process, and both watcher processes together, used from the mark to the end of the grace period, divided by the events the watchers received; the server\'s includes handling the writes. It tells what an event costs whatever share of the cores the run got.',
  '- Start-up: spawn of `node bin/capstan.js serve` to the first `GET /readyz` 200, three times with an empty data directory and three times with 100,000 ConfigMaps stored (seeded once through the API at concurrency 100). `startServer()`: in a fresh process, from the call to the first 200 from `/readyz` (the client takes the admin certificate and key the call hands back); importing the module is timed apart.',
  '- Memory: VmRSS of the server process from /proc, 2 s (idle) or 3 s (stored) after ready. `rss_100k_vs_json_size` = (RSS with the objects stored - idle RSS) / the objects\' JSON size as a GET returns them.',
  '- Ratios: `create_vs_etcd_put`, `update_vs_etcd_put` = Capstan req/s at c=50 / raw etcd puts/s at c=50; `get_vs_etcd_get` = Capstan gets/s / etcd gets/s at c=50; `get_vs_http_floor` = Capstan gets/s / floor GETs/s at c=50; `list10k_time_vs_etcd_range` = Capstan list time / etcd range time (lower is better).',
  '- Nothing is pinned to a core: servers, etcd and load generators share the machine\'s cores, as they would on a small box. The load average is recorded, because other work on the machine makes every figure noisier.',
];

export function markdown(report: RunReport, figures: FigureSet): string {
  const m = report.machine;
  const targets = new Map(report.targets.map((t) => [t.key, t]));
  const find = (system: string, workload: string | undefined, c: number | null) => (workload ? figures.find(system, workload, c) : undefined);
  const lines: string[] = [];
  lines.push('# Benchmark results', '');
  lines.push(`Run: \`npm run bench${report.mode === 'quick' ? ' -- --quick' : ''}\`, ${report.startedAt}, ${Math.round(report.durationS)} s.`);
  lines.push(`Machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, Linux ${m.kernel}; Node ${m.node}; etcd ${m.etcd ?? '-'}; Capstan commit ${m.capstanCommit ?? '-'}; load average ${m.loadAverageAtStart.join(' ')} at the start, ${m.loadAverageAtEnd?.join(' ') ?? '-'} at the end.`);
  if (m.loopbackRoundTripUs != null) lines.push(`A one-byte loopback TCP round trip to another process took ${m.loopbackRoundTripUs} µs on this machine (the floor under every request of the run).`);
  if (m.aesGcmMBps != null) lines.push(`One thread encrypted ${m.aesGcmMBps} MB/s with AES-256-GCM, the TLS cipher of every HTTPS request of the run (a few thousand MB/s on a machine that runs vector instructions at full speed).`);
  if (m.loopbackRoundTripUs != null || m.aesGcmMBps != null) lines.push('Machines differ in these two far more than in plain computing speed; they explain runs that differ in every figure.');
  lines.push('Each cell: median (min–max) of the runs. Every system ran as its own process, driven from a separate load-generating process over loopback keep-alive HTTPS (etcd: the etcd3 gRPC client); nothing was pinned to a core.');
  lines.push('');
  lines.push(`| workload | c | unit | ${SYSTEMS.capstan} | ${SYSTEMS.capstanEtcd} | ${SYSTEMS.floor} | ${SYSTEMS.etcd} | ratio | target | |`);
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  const footnotes: string[] = [];
  const mark = (f: Figure | undefined) => {
    if (!f?.note) return '';
    let i = footnotes.indexOf(f.note);
    if (i < 0) i = footnotes.push(f.note) - 1;
    return ` [${i + 1}]`;
  };
  for (const r of ROWS) {
    const cap = find(SYSTEMS.capstan, r.capstan, r.c);
    const capEtcd = find(SYSTEMS.capstanEtcd, r.capstan, r.c);
    const floor = find(SYSTEMS.floor, r.floor, r.c);
    const etcd = find(SYSTEMS.etcd, r.etcd, r.etcdC !== undefined ? r.etcdC : r.c);
    if (!cap && !capEtcd && !floor && !etcd) continue;
    const t = r.target ? targets.get(r.target) : undefined;
    const cells = [cap, capEtcd, floor, etcd].map((f) => cell(f) + mark(f));
    lines.push(`| ${r.label} | ${r.c ?? ''} | ${r.unit} | ${cells.join(' | ')} | ${t ? `${t.key} = ${fmt(t.value)}` : ''} | ${t ? t.target : ''} | ${t ? t.verdict : ''} |`);
  }
  if (footnotes.length > 0) {
    lines.push('');
    footnotes.forEach((n, i) => lines.push(`${i + 1}. ${n}`));
  }
  if (report.notes.length > 0) {
    lines.push('');
    lines.push('Notes from the run:');
    for (const n of report.notes) lines.push(`- ${n}`);
  }
  lines.push('', ...HOW_TO_READ);
  return lines.join('\n') + '\n';
}
