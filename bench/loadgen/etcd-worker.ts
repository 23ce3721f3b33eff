// Load-generating child process for raw etcd, through the etcd3 client: the same value bytes (the JSON
// of a stored 1 KB ConfigMap) and the same concurrency as the HTTP systems get.
import { Etcd3, type Watcher } from 'etcd3';
import { serveJobs } from './protocol.ts';
import { storedConfigMap, indexedName } from '../lib/configmap.ts';
import type { RateRun, RunShape } from './jobs.ts';

export interface EtcdSeedJob { kind: 'etcd-seed'; endpoint: string; prefix: string; count: number; concurrency: number }
export interface EtcdRateJob { kind: 'etcd-put' | 'etcd-get'; endpoint: string; prefix: string; concurrency: number; shape: RunShape; keys?: number }
export interface EtcdRangeJob { kind: 'etcd-range'; endpoint: string; prefix: string; runs: number; warmups: number }
export interface EtcdRangeResult { ms: number[]; keys: number; bytes: number }
export interface EtcdWritersJob { kind: 'etcd-writers'; endpoint: string; prefix: string; concurrency: number; durationS: number }

let client: Etcd3 | null = null;
function etcd(endpoint: string): Etcd3 {
  // grpc-js refuses messages over 4 MiB by default; a 10,000-key range is about 12 MB.
  client ??= new Etcd3({ hosts: endpoint, grpcOptions: { 'grpc.max_receive_message_length': -1 } });
  return client;
}

const value = (name: string) => JSON.stringify(storedConfigMap('default', name));

async function loops(concurrency: number, seconds: number, op: () => Promise<unknown>): Promise<RateRun> {
  const fine: number[] = [];
  let ok = 0;
  let failed = 0;
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < deadline) {
      const s = performance.now();
      try { await op(); ok++; } catch { failed++; }
      if (fine.length < 200_000) fine.push(performance.now() - s);
    }
  }));
  const elapsed = (performance.now() - t0) / 1000;
  fine.sort((a, b) => a - b);
  const pick = (p: number) => (fine.length ? fine[Math.min(fine.length - 1, Math.ceil(p * fine.length) - 1)] : 0);
  return { rate: ok / elapsed, ok, failed, seconds: elapsed, p50Ms: pick(0.5), p99Ms: pick(0.99), statuses: {} };
}

async function seed(job: EtcdSeedJob): Promise<{ seconds: number }> {
  const c = etcd(job.endpoint);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, async () => {
    while (next < job.count) {
      const name = indexedName('', next++);
      await c.put(job.prefix + name).value(value(name));
    }
  }));
  return { seconds: (performance.now() - t0) / 1000 };
}

let putCounter = 0;
async function rate(job: EtcdRateJob): Promise<RateRun[]> {
  const c = etcd(job.endpoint);
  const op = job.kind === 'etcd-put'
    ? () => { const name = `p${process.pid}-${putCounter++}`; return c.put(job.prefix + name).value(value(name)).exec(); }
    : () => c.get(job.prefix + indexedName('', Math.floor(Math.random() * (job.keys ?? 1)))).string()
      .then((v) => { if (v === null) throw new Error('missing key'); });
  if (job.shape.warmupS > 0) await loops(job.concurrency, job.shape.warmupS, op);
  const runs: RateRun[] = [];
  for (let i = 0; i < job.shape.runs; i++) runs.push(await loops(job.concurrency, job.shape.durationS, op));
  return runs;
}

async function range(job: EtcdRangeJob): Promise<EtcdRangeResult> {
  const c = etcd(job.endpoint);
  const once = () => c.getAll().prefix(job.prefix).strings();
  const first = await once();
  const keys = Object.keys(first).length;
  const bytes = Object.values(first).reduce((n, v) => n + Buffer.byteLength(v), 0);
  for (let i = 1; i < job.warmups; i++) await once();
  const ms: number[] = [];
  for (let i = 0; i < job.runs; i++) {
    const t0 = performance.now();
    await once();
    ms.push(performance.now() - t0);
  }
  return { ms, keys, bytes };
}

let watcher: Watcher | null = null;
let watchEvents = 0;

async function writers(job: EtcdWritersJob): Promise<RateRun> {
  const c = etcd(job.endpoint);
  let n = 0;
  return loops(job.concurrency, job.durationS, () => { const name = indexedName('w', n++ % 1000); return c.put(job.prefix + name).value(value(name)).exec(); });
}

serveJobs({
  'etcd-seed': seed,
  'etcd-put': rate,
  'etcd-get': rate,
  'etcd-range': range,
  'etcd-writers': writers,
  'etcd-watch-open': async (job: { endpoint: string; prefix: string }) => {
    watcher = await etcd(job.endpoint).watch().prefix(job.prefix).create();
    watcher.on('put', () => { watchEvents++; });
    return {};
  },
  'etcd-watch-mark': async () => { watchEvents = 0; return { at: Date.now() }; },
  'etcd-watch-snapshot': async () => ({ events: watchEvents, at: Date.now() }),
  'etcd-close': async () => { await watcher?.cancel(); client?.close(); client = null; return {}; },
});
