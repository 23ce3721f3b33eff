// Capstan's request workloads, run the same way against the embedded store and against etcd.
import { join } from 'node:path';
import type { Context } from '../lib/context.ts';
import { BENCH_DIR } from '../lib/context.ts';
import { W } from '../lib/figures.ts';
import { ApiClient } from '../lib/api.ts';
import { MsHistogram } from '../lib/stats.ts';
import { WorkerClient } from '../lib/worker-client.ts';
import { configMapPath, indexedName } from '../lib/configmap.ts';
import { sleep } from '../lib/proc.ts';
import type { Target } from '../lib/tls.ts';
import type { AmountResult, ListResult, PacedWriterResult } from '../loadgen/jobs.ts';
import type { WatchCollect, WatchOpenResult, WatchSnapshot } from '../loadgen/watch-worker.ts';
import {
  autocannonFigure, h2Figure, putChainFigure, GET_NAMESPACE, GET_PREFIX, GET_COUNT, LIST_NAMESPACE, LIST_PREFIX, UPDATE_PREFIX,
  WATCH_NAMESPACE, WATCH_PREFIX,
} from './common.ts';

export const CAPSTAN_WORKLOADS = [W.create, W.get, W.update, W.patch, W.createH2, W.getH2, W.list1k, W.list10k, W.list10kPaged, W.fanoutRate, W.fanoutP50, W.fanoutP99];

/** Creates `count` named objects through the API at high concurrency, and insists that all were created. */
export async function seedObjects(ctx: Context, target: Target, namespace: string, namePrefix: string, count: number, connections = 50): Promise<AmountResult> {
  const r = await ctx.http().call<AmountResult>({
    kind: 'autocannon-amount', target, connections: Math.min(connections, count), amount: count,
    request: { type: 'create-named', namespace, namePrefix, start: 0 },
  });
  if (r.ok !== count) throw new Error(`seeding ${namespace}: ${r.ok} of ${count} created (${JSON.stringify(r.statuses)})`);
  ctx.log(`seeded ${count.toLocaleString('en-US')} objects in ${namespace} in ${r.seconds.toFixed(1)} s (${Math.round(count / r.seconds)}/s)`);
  return r;
}

export async function capstanWorkloads(ctx: Context, system: string, target: Target): Promise<void> {
  const api = new ApiClient(target);
  // A workload that fails is noted and the next one still runs: one server bug must not hide the rest.
  const guard = async (workload: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (e) {
      ctx.note(`${system} / ${workload} failed: ${(e as Error).message.split('\n').slice(0, 2).join(' | ').slice(0, 500)}`);
    }
  };
  try {
    for (const ns of [GET_NAMESPACE, LIST_NAMESPACE, WATCH_NAMESPACE]) await api.ensureNamespace(ns);
    const needGetObjects = ctx.wants(W.get, W.patch, W.getH2, W.list10k, W.list10kPaged);
    if (needGetObjects) await seedObjects(ctx, target, GET_NAMESPACE, GET_PREFIX, GET_COUNT);
    const getSpec = { type: 'get-random', namespace: GET_NAMESPACE, namePrefix: GET_PREFIX, count: GET_COUNT } as const;

    for (const c of ctx.quick ? [50] : [1, 10, 50]) {
      await guard(W.create, () => autocannonFigure(ctx, system, W.create, target, c, { type: 'create-generated', namespace: 'default' }));
    }
    await guard(W.get, () => autocannonFigure(ctx, system, W.get, target, 50, getSpec));
    if (ctx.wants(W.update)) {
      await guard(W.update, async () => {
        for (let i = 0; i < 50; i++) await api.ensureConfigMap('default', `${UPDATE_PREFIX}${i}`);
        await putChainFigure(ctx, system, target, 'default', UPDATE_PREFIX);
      });
    }
    if (!ctx.quick) {
      await guard(W.patch, () => autocannonFigure(ctx, system, W.patch, target, 50, { type: 'patch-random', namespace: GET_NAMESPACE, namePrefix: GET_PREFIX, count: GET_COUNT }));
      await guard(W.createH2, () => h2Figure(ctx, system, W.createH2, target, { type: 'create-generated', namespace: 'default' }));
      await guard(W.getH2, () => h2Figure(ctx, system, W.getH2, target, getSpec));
    }
    if (!ctx.quick && ctx.wants(W.list1k)) {
      await guard(W.list1k, async () => {
        await seedObjects(ctx, target, LIST_NAMESPACE, LIST_PREFIX, 1000);
        await listFigure(ctx, system, W.list1k, target, configMapPath(LIST_NAMESPACE), 1000, LIST_PREFIX);
      });
    }
    if (ctx.wants(W.list10k)) await guard(W.list10k, () => listFigure(ctx, system, W.list10k, target, configMapPath(GET_NAMESPACE), GET_COUNT, GET_PREFIX));
    if (!ctx.quick && ctx.wants(W.list10kPaged)) await guard(W.list10kPaged, () => listFigure(ctx, system, W.list10kPaged, target, configMapPath(GET_NAMESPACE), GET_COUNT, GET_PREFIX, 500));
    if (ctx.wants(W.fanoutRate, W.fanoutP50, W.fanoutP99)) await guard('watch fan-out', () => fanOut(ctx, system, target, api));
  } finally {
    api.close();
  }
}

async function listFigure(ctx: Context, system: string, workload: string, target: Target, path: string, expected: number, namePrefix: string, pageLimit?: number): Promise<void> {
  const r = await ctx.http().call<ListResult>({ kind: 'list', target, path, runs: ctx.quick ? 3 : 5, warmups: 2, pageLimit, namePrefix });
  if (r.items !== expected) throw new Error(`${workload}: the list had ${r.items} items, expected ${expected}`);
  const note = `${(r.bytes / 2 ** 20).toFixed(1)} MB${pageLimit ? ` in ${r.pages} pages` : ''}, time to last byte`;
  const f = ctx.figures.add(system, workload, null, 'ms', r.ms, note);
  ctx.log(`${system} | ${workload} | ${f.median.toFixed(1)} ms (${f.min.toFixed(1)}-${f.max.toFixed(1)}), ${note}`);
}

const WATCHERS = 1000;
const WRITES_PER_S = 1000;
const WATCHED_OBJECTS = 1000;
const GRACE_MS = (ctx: Context) => (ctx.quick ? 400 : 1500);

/**
 * 1,000 watchers on one namespace, in two child processes over 10 HTTP/2 connections, while a writer
 * in a third process merge-patches a send-time stamp at 1,000 writes/s. Events delivered per second
 * are counted across all watchers; latency is receive time minus the stamp.
 */
async function fanOut(ctx: Context, system: string, target: Target, api: ApiClient): Promise<void> {
  // One object per write in flight would do; 1,000 keeps two writes to one object apart in time.
  const names = Array.from({ length: WATCHED_OBJECTS }, (_, i) => indexedName(WATCH_PREFIX, i));
  await seedObjects(ctx, target, WATCH_NAMESPACE, WATCH_PREFIX, WATCHED_OBJECTS);
  const rv = await api.collectionResourceVersion(WATCH_NAMESPACE);
  const path = `${configMapPath(WATCH_NAMESPACE)}?watch=1&resourceVersion=${rv}`;
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
    let closedAtEnd = 0;
    const durationS = ctx.quick ? 1 : 4;
    // Warm-up: the first writes through a fresh fan-out path run cold code.
    await ctx.http().call<PacedWriterResult>({ kind: 'paced-writer', target, namespace: WATCH_NAMESPACE, names, ratePerS: WRITES_PER_S, durationS: ctx.shape.warmupS, connections: 64 });
    await sleep(ctx.quick ? 300 : 1000);
    for (let run = 0; run < ctx.shape.runs; run++) {
      const marks = await Promise.all(watchers.map((w) => w.call<{ at: number }>({ kind: 'watch-mark' })));
      const wr = await ctx.http().call<PacedWriterResult>({ kind: 'paced-writer', target, namespace: WATCH_NAMESPACE, names, ratePerS: WRITES_PER_S, durationS, connections: 64 });
      const snaps = await Promise.all(watchers.map((w) => w.call<WatchSnapshot>({ kind: 'watch-snapshot' })));
      await sleep(GRACE_MS(ctx)); // late events still count for latency and the delivered share
      const collected = await Promise.all(watchers.map((w) => w.call<WatchCollect>({ kind: 'watch-collect' })));
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
    ctx.log(`${system} | watch fan-out | ${rates.map(Math.round).join(', ')} events/s; p50 ${p50.join(', ')} ms; p99 ${p99.join(', ')} ms; writes ${writes.map(Math.round).join(', ')}/s; ${note}`);
    await Promise.all(watchers.map((w) => w.call({ kind: 'watch-close' })));
  } finally {
    await Promise.all(watchers.map((w) => w.close()));
  }
}
