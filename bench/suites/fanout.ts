// The watch fan-out workload, run the same way against Capstan and the HTTP floor.
import { join } from 'node:path';
import type { Context } from '../lib/context.ts';
import { BENCH_DIR } from '../lib/context.ts';
import { W } from '../lib/figures.ts';
import { MsHistogram } from '../lib/stats.ts';
import { WorkerClient } from '../lib/worker-client.ts';
import { indexedName } from '../lib/configmap.ts';
import { cpuSeconds, sleep } from '../lib/proc.ts';
import type { Target } from '../lib/tls.ts';
import type { PacedWriterResult } from '../loadgen/jobs.ts';
import type { WatchCollect, WatchOpenResult, WatchSnapshot } from '../loadgen/watch-worker.ts';
import { WATCH_NAMESPACE, WATCH_PREFIX } from './common.ts';

export const FANOUT_WORKLOADS = [W.fanoutRate, W.fanoutP50, W.fanoutP99];

/** CPU seconds used so far by each of `pids` (NaN for a process that is gone or unknown). */
function cpuOf(pids: Array<number | undefined>): number[] {
  return pids.map((pid) => (pid === undefined ? NaN : cpuSeconds(pid) ?? NaN));
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

const WATCHERS = 1000;
const WRITES_PER_S = 1000;
/** One object per write in flight would do; 1,000 keeps two writes to one object apart in time. */
export const WATCHED_OBJECTS = 1000;
const GRACE_MS = (ctx: Context) => (ctx.quick ? 400 : 1500);

/**
 * 1,000 watchers on one namespace (`path`, a watch of its ConfigMaps), in two child processes over 10
 * HTTP/2 connections, while a writer in a third process merge-patches a send-time stamp into the
 * namespace's objects at 1,000 writes/s. Events delivered per second are counted across all watchers;
 * latency is receive time minus the stamp. The same for every system that serves the path. With the
 * server's pid, the CPU time the server and the watcher processes spend per event is recorded too: what a
 * delivered event costs, whatever share of the cores the run got.
 */
export async function fanOut(ctx: Context, system: string, target: Target, path: string, serverPid?: number): Promise<void> {
  const names = Array.from({ length: WATCHED_OBJECTS }, (_, i) => indexedName(WATCH_PREFIX, i));
  const watchers = [0, 1].map(() => new WorkerClient(join(BENCH_DIR, 'loadgen', 'watch-worker.ts')));
  try {
    const opened = await Promise.all(watchers.map((w) => w.call<WatchOpenResult>({ kind: 'watch-open', target, path, count: WATCHERS / 2, sessions: 5 })));
    const open = opened.reduce((n, o) => n + o.open, 0);
    if (open === 0) throw new Error(`no watch could be opened: ${JSON.stringify(opened.map((o) => o.statuses))}`);
    if (open < WATCHERS) ctx.note(`${system} watch fan-out: only ${open} of ${WATCHERS} watches opened (${JSON.stringify(opened.map((o) => o.statuses))})`);
    const rates: number[] = [];
    const p50: number[] = [];
    const p99: number[] = [];
    const writes: number[] = [];
    const delivered: number[] = [];
    const serverUs: number[] = [];
    const serverCores: number[] = [];
    const watcherUs: number[] = [];
    let closedAtEnd = 0;
    const durationS = ctx.quick ? 1 : 4;
    // Warm-up: the first writes through a fresh fan-out path run cold code.
    await ctx.http().call<PacedWriterResult>({ kind: 'paced-writer', target, namespace: WATCH_NAMESPACE, names, ratePerS: WRITES_PER_S, durationS: ctx.shape.warmupS, connections: 64 });
    await sleep(ctx.quick ? 300 : 1000);
    for (let run = 0; run < ctx.shape.runs; run++) {
      const marks = await Promise.all(watchers.map((w) => w.call<{ at: number }>({ kind: 'watch-mark' })));
      const [server0, ...watchers0] = cpuOf([serverPid, ...watchers.map((w) => w.pid)]);
      const wall0 = performance.now();
      const wr = await ctx.http().call<PacedWriterResult>({ kind: 'paced-writer', target, namespace: WATCH_NAMESPACE, names, ratePerS: WRITES_PER_S, durationS, connections: 64 });
      const snaps = await Promise.all(watchers.map((w) => w.call<WatchSnapshot>({ kind: 'watch-snapshot' })));
      await sleep(GRACE_MS(ctx)); // late events still count for latency and the delivered share
      const collected = await Promise.all(watchers.map((w) => w.call<WatchCollect>({ kind: 'watch-collect' })));
      const [server1, ...watchers1] = cpuOf([serverPid, ...watchers.map((w) => w.pid)]);
      const wallS = (performance.now() - wall0) / 1000;
      const received = collected.reduce((n, c) => n + c.events, 0);
      serverUs.push(((server1 - server0) * 1e6) / Math.max(1, received));
      serverCores.push(((server1 - server0) / wallS) * 100);
      watcherUs.push(((sum(watchers1) - sum(watchers0)) * 1e6) / Math.max(1, received));
      const seconds = (Math.max(...snaps.map((s) => s.at)) - Math.min(...marks.map((m) => m.at))) / 1000;
      rates.push(snaps.reduce((n, s) => n + s.events, 0) / seconds);
      const hist = new MsHistogram();
      for (const c of collected) hist.addSparse(c.latency);
      p50.push(hist.percentile(0.5) ?? NaN);
      p99.push(hist.percentile(0.99) ?? NaN);
      writes.push(wr.ok / ((wr.endedAt - wr.startedAt) / 1000));
      delivered.push(collected.reduce((n, c) => n + c.events, 0) / Math.max(1, wr.ok * open));
      closedAtEnd = collected.reduce((n, c) => n + c.closed, 0);
      if (wr.failed > 0) ctx.note(`${system} watch writer: ${wr.failed} of ${wr.sent} writes failed (${JSON.stringify(wr.statuses)})`);
    }
    const share = delivered.sort((a, b) => a - b)[Math.floor(delivered.length / 2)];
    const writeRate = [...writes].sort((a, b) => a - b)[Math.floor(writes.length / 2)];
    const note = `${open} watchers; the writer achieved ${Math.round(writeRate)} of ${WRITES_PER_S} writes/s; ${(share * 100).toFixed(1)}% of offered events arrived within ${GRACE_MS(ctx) / 1000} s after the writer stopped${closedAtEnd ? `; ${closedAtEnd} watches closed by the server` : ''}`;
    ctx.figures.add(system, W.fanoutRate, null, 'events/s', rates, note);
    ctx.figures.add(system, W.fanoutP50, null, 'ms', p50);
    ctx.figures.add(system, W.fanoutP99, null, 'ms', p99);
    ctx.figures.add(system, W.fanoutWrites, null, 'writes/s', writes);
    if (serverPid !== undefined) {
      const cpuNote = 'CPU time (user + system) over the run and its grace period, per event the watchers received';
      ctx.figures.add(system, W.fanoutServerCpu, null, 'µs/event', serverUs, `${cpuNote}; the writes' handling included`);
      ctx.figures.add(system, W.fanoutServerBusy, null, '% of a core', serverCores, 'server CPU time / wall time over the run and its grace period');
      ctx.figures.add(system, W.fanoutWatcherCpu, null, 'µs/event', watcherUs, `${cpuNote}; both watcher processes`);
    }
    ctx.log(`${system} | watch fan-out | ${rates.map(Math.round).join(', ')} events/s; p50 ${p50.join(', ')} ms; p99 ${p99.join(', ')} ms; writes ${writes.map(Math.round).join(', ')}/s; server ${serverUs.map((u) => u.toFixed(1)).join(', ')} µs/event at ${serverCores.map(Math.round).join(', ')}% of a core; watchers ${watcherUs.map((u) => u.toFixed(1)).join(', ')} µs/event; ${note}`);
    await Promise.all(watchers.map((w) => w.call({ kind: 'watch-close' })));
  } finally {
    await Promise.all(watchers.map((w) => w.close()));
  }
}
