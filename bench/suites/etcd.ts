// Raw etcd: the store an API server sits on, driven by the etcd3 client from separate processes with the
// same value bytes and concurrency as the HTTP systems get.
import { join } from 'node:path';
import type { Context } from '../lib/context.ts';
import { BENCH_DIR } from '../lib/context.ts';
import { SYSTEMS, W } from '../lib/figures.ts';
import { ensureEtcdInstalled, startEtcd } from '../lib/etcd-server.ts';
import { WorkerClient } from '../lib/worker-client.ts';
import { rssMb, sleep } from '../lib/proc.ts';
import { cpuPerCreateFigures, recordRates } from './common.ts';
import type { RateRun } from '../loadgen/jobs.ts';
import type { EtcdRangeResult } from '../loadgen/etcd-worker.ts';

const WORKLOADS = [W.put, W.createServerCpu, W.createClientCpu, W.etcdGet, W.range10k, W.etcdWatch, W.readyEmpty, W.idleRss];
const GET_PREFIX = '/bench/get/';
const WATCH_PREFIX = '/bench/watch/';

export async function etcdSuite(ctx: Context): Promise<void> {
  if (!ctx.wants(...WORKLOADS)) return;
  try {
    const installed = ensureEtcdInstalled((m) => ctx.log(m));
    if (installed) ctx.note(installed);
  } catch (e) {
    ctx.note(`raw etcd skipped: ${(e as Error).message}`);
    return;
  }
  const S = SYSTEMS.etcd;
  if (!ctx.quick && ctx.wants(W.readyEmpty, W.idleRss)) {
    const ready: number[] = [];
    const rss: number[] = [];
    for (let i = 0; i < 3; i++) {
      const e = await startEtcd(ctx.freshDir('etcd-start'), ctx.logDir, 'etcd-start');
      ready.push(e.readyMs);
      await sleep(1000);
      rss.push(rssMb(e.pid) ?? NaN);
      await e.stop();
    }
    ctx.figures.add(S, W.readyEmpty, null, 'ms', ready, 'spawn to /health true');
    ctx.figures.add(S, W.idleRss, null, 'MB', rss);
  }

  const server = await startEtcd(ctx.freshDir('etcd'), ctx.logDir);
  const worker = new WorkerClient(join(BENCH_DIR, 'loadgen', 'etcd-worker.ts'));
  const endpoint = server.endpoint;
  try {
    const seeded = await worker.call<{ seconds: number }>({ kind: 'etcd-seed', endpoint, prefix: GET_PREFIX, count: 10_000, concurrency: 50 });
    ctx.log(`raw etcd: seeded 10,000 keys in ${seeded.seconds.toFixed(1)} s`);
    if (ctx.wants(W.put)) {
      for (const c of ctx.quick ? [50] : [1, 10, 50]) {
        const runs = await worker.call<RateRun[]>({ kind: 'etcd-put', endpoint, prefix: '/bench/put/', concurrency: c, shape: ctx.shape });
        recordRates(ctx, S, W.put, c, 'ops/s', runs);
      }
    }
    if (ctx.wants(W.etcdGet)) {
      const runs = await worker.call<RateRun[]>({ kind: 'etcd-get', endpoint, prefix: GET_PREFIX, keys: 10_000, concurrency: 50, shape: ctx.shape });
      recordRates(ctx, S, W.etcdGet, 50, 'ops/s', runs);
    }
    if (ctx.wants(W.range10k)) {
      const r = await worker.call<EtcdRangeResult>({ kind: 'etcd-range', endpoint, prefix: GET_PREFIX, runs: ctx.quick ? 3 : 5, warmups: 2 });
      if (r.keys !== 10_000) throw new Error(`etcd range returned ${r.keys} keys, expected 10,000`);
      const f = ctx.figures.add(S, W.range10k, null, 'ms', r.ms, `${(r.bytes / 2 ** 20).toFixed(1)} MB of values, getAll().prefix().strings()`);
      ctx.log(`raw etcd | range 10,000 | ${f.median.toFixed(1)} ms (${f.min.toFixed(1)}-${f.max.toFixed(1)})`);
    }
    if (!ctx.quick && ctx.wants(W.etcdWatch)) await watchFigure(ctx, endpoint);
    // Last, as Capstan's: the same count of puts of the same values, 50 at a time.
    await cpuPerCreateFigures(ctx, S, [server.pid], worker.pid, async (run, amount) => {
      await worker.call({ kind: 'etcd-seed', endpoint, prefix: `/bench/cpu/${run}/`, count: amount, concurrency: 50 });
      return amount;
    });
    await worker.call({ kind: 'etcd-close' });
  } finally {
    await worker.close();
    await server.stop();
  }
}

/** One watcher in its own process, 50 writers in another putting as fast as they can. */
async function watchFigure(ctx: Context, endpoint: string): Promise<void> {
  const watcher = new WorkerClient(join(BENCH_DIR, 'loadgen', 'etcd-worker.ts'));
  const writer = new WorkerClient(join(BENCH_DIR, 'loadgen', 'etcd-worker.ts'));
  try {
    await watcher.call({ kind: 'etcd-watch-open', endpoint, prefix: WATCH_PREFIX });
    const received: number[] = [];
    const sent: number[] = [];
    for (let i = 0; i < ctx.shape.runs; i++) {
      const mark = await watcher.call<{ at: number }>({ kind: 'etcd-watch-mark' });
      const w = await writer.call<RateRun>({ kind: 'etcd-writers', endpoint, prefix: WATCH_PREFIX, concurrency: 50, durationS: ctx.shape.durationS });
      const snap = await watcher.call<{ events: number; at: number }>({ kind: 'etcd-watch-snapshot' });
      received.push(snap.events / ((snap.at - mark.at) / 1000));
      sent.push(w.rate);
      await sleep(500);
    }
    const f = ctx.figures.add(SYSTEMS.etcd, W.etcdWatch, 50, 'events/s', received, `1 watcher while 50 writers put ${Math.round(sent.sort((a, b) => a - b)[1])}/s (median)`);
    ctx.log(`raw etcd | watch | ${Math.round(f.median)} events/s; writers ${sent.map(Math.round).join(', ')} puts/s`);
    await watcher.call({ kind: 'etcd-close' });
    await writer.call({ kind: 'etcd-close' });
  } finally {
    await watcher.close();
    await writer.close();
  }
}
