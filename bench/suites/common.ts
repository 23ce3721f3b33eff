// Helpers the suites share: turning runs into figures, and the HTTP workloads that the floor and Capstan
// both get (the same requests, the same client, the same concurrency).
import type { Context } from '../lib/context.ts';
import { W } from '../lib/figures.ts';
import type { Target } from '../lib/tls.ts';
import type { RateRun, RequestSpec } from '../loadgen/jobs.ts';

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
