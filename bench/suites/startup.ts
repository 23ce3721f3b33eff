// Start-up and memory of Capstan: spawn to /readyz 200 (empty, and with many objects stored), RSS idle
// and with those objects, and startServer() in a fresh process to its first answered request.
import { join } from 'node:path';
import type { Context } from '../lib/context.ts';
import { BENCH_DIR, REPO_ROOT } from '../lib/context.ts';
import { SYSTEMS, W } from '../lib/figures.ts';
import { startCapstan } from '../lib/capstan-server.ts';
import { forkTracked, stopChild } from '../lib/children.ts';
import { ApiClient } from '../lib/api.ts';
import { rssMb, sleep } from '../lib/proc.ts';
import { seedObjects } from './capstan.ts';

const S = SYSTEMS.capstan;

export async function readyEmptySuite(ctx: Context): Promise<void> {
  const ready: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dataDir = ctx.freshDir('capstan-empty');
    const server = await startCapstan({ repoRoot: REPO_ROOT, dataDir, logDir: ctx.logDir, name: `capstan-empty-${i}` });
    ready.push(server.readyMs);
    await sleep(ctx.quick ? 500 : 2000);
    rss.push(rssMb(server.pid) ?? NaN);
    await server.stop();
    ctx.capstanPkiDir ??= dataDir;
  }
  if (ctx.wants(W.readyEmpty)) ctx.figures.add(S, W.readyEmpty, null, 'ms', ready);
  if (ctx.wants(W.idleRss)) ctx.figures.add(S, W.idleRss, null, 'MB', rss, `VmRSS ${ctx.quick ? 0.5 : 2} s after ready`);
  ctx.log(`Capstan | ready empty ${ready.map((r) => r.toFixed(0)).join(', ')} ms | idle RSS ${rss.map((r) => r.toFixed(1)).join(', ')} MB`);
}

interface ProbeResult { importMs: number; startMs: number; callMs: number; mode: string; error?: string }

export async function startServerSuite(ctx: Context): Promise<void> {
  if (!ctx.wants(W.startServer)) return;
  const starts: number[] = [];
  const imports: number[] = [];
  let mode = '';
  for (let i = 0; i < (ctx.quick ? 3 : 5); i++) {
    const child = forkTracked(join(BENCH_DIR, 'probe-start-server.ts'), [REPO_ROOT, ctx.freshDir('start-server')], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    try {
      const r = await new Promise<ProbeResult>((resolve, reject) => {
        child.once('message', (m: ProbeResult) => resolve(m));
        child.once('exit', (code) => reject(new Error(`the startServer() probe exited with ${code} before reporting`)));
      });
      if (r.error) throw new Error(`startServer() probe: ${r.error}`);
      starts.push(r.startMs);
      imports.push(r.importMs);
      mode = r.mode;
    } finally {
      await stopChild(child);
    }
  }
  ctx.figures.add(S, W.startServer, null, 'ms', starts, `startServer({ ${mode === 'inMemory' ? 'inMemory: true' : 'dataDir'}, port: 0 }), fresh process each run`);
  ctx.figures.add(S, W.importIndex, null, 'ms', imports);
  ctx.log(`Capstan | startServer() ${starts.map((s) => s.toFixed(1)).join(', ')} ms (import ${imports.map((s) => s.toFixed(0)).join(', ')} ms)`);
}

/** Seeds N objects through the API into a fresh data directory, then restarts it to time readiness and measure RSS. */
export async function storedSuite(ctx: Context): Promise<void> {
  if (!ctx.wants(W.readyStored, W.storedRss, W.rssPerJson)) return;
  const count = ctx.quick ? 10_000 : 100_000;
  const dataDir = ctx.freshDir('capstan-stored');
  let server = await startCapstan({ repoRoot: REPO_ROOT, dataDir, logDir: ctx.logDir, name: 'capstan-stored-seed' });
  let census: { count: number; jsonBytes: number } | null = null;
  try {
    const api = new ApiClient(server.target);
    await api.ensureNamespace('bench-seed');
    await seedObjects(ctx, server.target, 'bench-seed', 's-', count, 100);
    try {
      census = await api.configMapCensus();
    } catch (e) {
      ctx.note(`Capstan: could not list the stored ConfigMaps to size their JSON (${(e as Error).message.slice(0, 300)}); RSS per JSON size not computed`);
    }
    api.close();
  } finally {
    await server.stop();
  }
  const stored = census?.count ?? count;
  const label = `${stored.toLocaleString('en-US')} ConfigMaps stored${ctx.quick ? ' (--quick: 10,000 instead of 100,000)' : ''}`;
  const jsonMb = census ? census.jsonBytes / 2 ** 20 : null;
  const idle = ctx.figures.median(S, W.idleRss);
  const ready: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < 3; i++) {
    server = await startCapstan({ repoRoot: REPO_ROOT, dataDir, logDir: ctx.logDir, name: `capstan-stored-${i}` });
    ready.push(server.readyMs);
    await sleep(ctx.quick ? 500 : 3000);
    rss.push(rssMb(server.pid) ?? NaN);
    await server.stop();
  }
  ctx.figures.add(S, W.readyStored, null, 'ms', ready, label);
  ctx.figures.add(S, W.storedRss, null, 'MB', rss, label);
  if (jsonMb !== null) ctx.figures.add(S, W.storedJson, null, 'MB', [jsonMb], label);
  if (idle !== null && jsonMb !== null) ctx.figures.add(S, W.rssPerJson, null, 'x', rss.map((r) => (r - idle) / jsonMb), `${label}; idle RSS ${idle.toFixed(1)} MB subtracted`);
  ctx.log(`Capstan | ${label} | ready ${ready.map((r) => r.toFixed(0)).join(', ')} ms | RSS ${rss.map((r) => r.toFixed(1)).join(', ')} MB | JSON ${jsonMb?.toFixed(1) ?? '-'} MB`);
}
