// Helpers the suites share: turning runs into figures, and the HTTP workloads that the floor and Capstan
// both get (the same requests, the same client, the same concurrency).
import { join } from 'node:path';
import { BENCH_DIR, type Context } from '../lib/context.ts';
import { WorkerClient } from '../lib/worker-client.ts';
import { cpuSeconds } from '../lib/proc.ts';
import { W } from '../lib/figures.ts';
import type { Target } from '../lib/tls.ts';
import type { AmountResult, RateRun, RequestSpec } from '../loadgen/jobs.ts';

export function recordRates(ctx: Context, system: string, workload: string, concurrency: number, unit: string, runs: RateRun[]): void {
  const failed = runs.reduce((n, r) => n + r.failed, 0);
  const ok = runs.reduce((n, r) => n + r.ok, 0);
  let note: string | undefined;
  if (failed > 0) {
    const codes: Record<string, number> = {};
    for (const r of runs) for (const [c, n] of Object.entries(r.statuses)) if (!c.startsWith('2')) codes[c] = (codes[c] ?? 0) + n;
    note = `${failed} of ${ok + failed} requests failed (${JSON.stringify(codes)}); only 2xx answers count`;
    ctx.note(`${system} / ${workload} c=${concurrency}: ${note}`);
  }
  if (ok === 0 && failed === 0) {
    note = 'no request was answered during the runs (the server hung)';
    ctx.note(`${system} / ${workload} c=${concurrency}: ${note}`);
  }
  const f = ctx.figures.add(system, workload, concurrency, unit, runs.map((r) => r.rate), note);
  const p99 = runs.map((r) => r.p99Ms).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  ctx.log(`${system} | ${workload} | c=${concurrency} | ${Math.round(f.median)} ${unit} (${Math.round(f.min)}-${Math.round(f.max)}), p99 ${p99.toFixed(2)} ms`);
}

export async function autocannonFigure(ctx: Context, system: string, workload: string, target: Target, connections: number, request: RequestSpec): Promise<void> {
  if (!ctx.wants(workload)) return;
  const runs = await ctx.http().call<RateRun[]>({ kind: 'autocannon', target, connections, shape: ctx.shape, request });
  recordRates(ctx, system, workload, connections, 'req/s', runs);
}

/** HTTP/2: 50 concurrent streams as 5 connections of 10 streams each. */
export async function h2Figure(ctx: Context, system: string, workload: string, target: Target, request: RequestSpec): Promise<void> {
  if (!ctx.wants(workload)) return;
  const runs = await ctx.http().call<RateRun[]>({ kind: 'h2', target, sessions: 5, streamsPerSession: 10, shape: ctx.shape, request });
  recordRates(ctx, system, workload, 50, 'req/s', runs);
}

/** Creates per run of the CPU figures below (about 1.5 s of a core each at 80 µs). */
const CPU_RUN_CREATES = 20_000;

/**
 * The CPU time, per create at concurrency 50, of the server (every process that serves it: Capstan on etcd
 * counts its etcd too) and of the load generator, over fixed amounts of creates: the two share this
 * machine's cores, so a create rate is bounded by what both spend on each create.
 */
export async function cpuPerCreateFigures(ctx: Context, system: string, serverPids: number[], loadgenPid: number | undefined, createMany: (run: number, amount: number) => Promise<number>): Promise<void> {
  if (!ctx.wants(W.createServerCpu, W.createClientCpu) || loadgenPid === undefined) return;
  const amount = ctx.quick ? CPU_RUN_CREATES / 4 : CPU_RUN_CREATES;
  const cpu = (pids: number[]) => pids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? NaN), 0);
  const server: number[] = [];
  const client: number[] = [];
  for (let run = 0; run < ctx.shape.runs; run++) {
    const server0 = cpu(serverPids);
    const client0 = cpu([loadgenPid]);
    const done = await createMany(run, amount);
    if (done !== amount) throw new Error(`${system}: ${done} of ${amount} creates succeeded while measuring CPU`);
    server.push(((cpu(serverPids) - server0) / done) * 1e6);
    client.push(((cpu([loadgenPid]) - client0) / done) * 1e6);
  }
  const note = `CPU time (user + system) over ${amount.toLocaleString('en-US')} creates, per create`;
  const s = ctx.figures.add(system, W.createServerCpu, 50, 'µs/req', server, note);
  const c = ctx.figures.add(system, W.createClientCpu, 50, 'µs/req', client, note);
  ctx.log(`${system} | create c=50 CPU | server ${s.median.toFixed(1)} µs/req, load generator ${c.median.toFixed(1)} µs/req`);
}

/** cpuPerCreateFigures for an HTTP system: named ConfigMap creates from a load-generating process of their
 *  own, so that its CPU time is theirs alone (and the shared one keeps no state of theirs). */
export async function httpCpuPerCreateFigures(ctx: Context, system: string, serverPids: number[], target: Target): Promise<void> {
  const loadgen = new WorkerClient(join(BENCH_DIR, 'loadgen', 'http-worker.ts'));
  try {
    await cpuPerCreateFigures(ctx, system, serverPids, loadgen.pid, async (run, amount) => {
      const r = await loadgen.call<AmountResult>({
        kind: 'autocannon-amount', target, connections: 50, amount,
        request: { type: 'create-named', namespace: 'default', namePrefix: `cpu-${run}-`, start: 0 },
      });
      return r.ok;
    });
  } finally {
    await loadgen.close();
  }
}

export async function putChainFigure(ctx: Context, system: string, target: Target, namespace: string, namePrefix: string): Promise<void> {
  if (!ctx.wants(W.update)) return;
  const runs = await ctx.http().call<RateRun[]>({ kind: 'put-chain', target, connections: 50, shape: ctx.shape, namespace, namePrefix });
  recordRates(ctx, system, W.update, 50, 'req/s', runs);
}

export const GET_NAMESPACE = 'bench-get';
export const GET_PREFIX = 'get-';
export const GET_COUNT = 10_000;
export const LIST_NAMESPACE = 'bench-list';
export const LIST_PREFIX = 'l-';
export const UPDATE_PREFIX = 'upd-';
export const WATCH_NAMESPACE = 'bench-watch';
export const WATCH_PREFIX = 'w-';
