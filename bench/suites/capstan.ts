// Capstan's request workloads, run the same way against the embedded store and against etcd.
import type { Context } from '../lib/context.ts';
import { W } from '../lib/figures.ts';
import { ApiClient } from '../lib/api.ts';
import { configMapPath } from '../lib/configmap.ts';
import type { Target } from '../lib/tls.ts';
import type { AmountResult, ListResult } from '../loadgen/jobs.ts';
import { fanOut, FANOUT_WORKLOADS, WATCHED_OBJECTS } from './fanout.ts';
import {
  autocannonFigure, h2Figure, httpCpuPerCreateFigures, putChainFigure, GET_NAMESPACE, GET_PREFIX, GET_COUNT, LIST_NAMESPACE, LIST_PREFIX, UPDATE_PREFIX,
  WATCH_NAMESPACE, WATCH_PREFIX,
} from './common.ts';

export const CAPSTAN_WORKLOADS = [W.create, W.createServerCpu, W.createClientCpu, W.get, W.update, W.patch, W.createH2, W.getH2, W.list1k, W.list10k, W.list10kPaged, ...FANOUT_WORKLOADS];

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

/** `serverPid` is Capstan's process; `storePid`, the etcd it runs on (their CPU is counted together). */
export async function capstanWorkloads(ctx: Context, system: string, target: Target, serverPid?: number, storePid?: number): Promise<void> {
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
    if (ctx.wants(...FANOUT_WORKLOADS)) await guard('watch fan-out', () => capstanFanOut(ctx, system, target, api, serverPid));
    // Last: its 60,000 objects would otherwise weigh on the workloads above.
    if (serverPid !== undefined) {
      const serverPids = storePid === undefined ? [serverPid] : [serverPid, storePid];
      await guard(W.createServerCpu, () => httpCpuPerCreateFigures(ctx, system, serverPids, target));
    }
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

/** Capstan's fan-out: 1,000 objects to write to, watched from the resourceVersion of a fresh list. */
async function capstanFanOut(ctx: Context, system: string, target: Target, api: ApiClient, serverPid?: number): Promise<void> {
  await seedObjects(ctx, target, WATCH_NAMESPACE, WATCH_PREFIX, WATCHED_OBJECTS);
  const rv = await api.collectionResourceVersion(WATCH_NAMESPACE);
  await fanOut(ctx, system, target, `${configMapPath(WATCH_NAMESPACE)}?watch=1&resourceVersion=${rv}`, serverPid);
}
