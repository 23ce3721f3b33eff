// Capstan on the embedded store and Capstan on etcd, each started fresh and given the same workloads.
import type { Context } from '../lib/context.ts';
import { REPO_ROOT } from '../lib/context.ts';
import { SYSTEMS } from '../lib/figures.ts';
import { startCapstan, CapstanStartError } from '../lib/capstan-server.ts';
import { ensureEtcdInstalled, startEtcd } from '../lib/etcd-server.ts';
import { capstanWorkloads, CAPSTAN_WORKLOADS } from './capstan.ts';

export async function capstanEmbeddedSuite(ctx: Context): Promise<void> {
  if (!ctx.wants(...CAPSTAN_WORKLOADS)) return;
  const server = await startCapstan({ repoRoot: REPO_ROOT, dataDir: ctx.freshDir('capstan'), logDir: ctx.logDir, name: 'capstan' });
  try {
    await capstanWorkloads(ctx, SYSTEMS.capstan, server.target, server.pid);
  } finally {
    await server.stop();
  }
}

export async function capstanEtcdSuite(ctx: Context): Promise<void> {
  if (!ctx.wants(...CAPSTAN_WORKLOADS)) return;
  if (ctx.quick) { ctx.note(`${SYSTEMS.capstanEtcd}: not run in --quick`); return; }
  try { ensureEtcdInstalled((m) => ctx.log(m)); } catch (e) {
    ctx.note(`${SYSTEMS.capstanEtcd} skipped: ${(e as Error).message}`);
    return;
  }
  const etcd = await startEtcd(ctx.freshDir('capstan-etcd-store'), ctx.logDir, 'etcd-for-capstan');
  try {
    let server;
    try {
      server = await startCapstan({ repoRoot: REPO_ROOT, dataDir: ctx.freshDir('capstan-on-etcd'), logDir: ctx.logDir, name: 'capstan-on-etcd', etcdServers: etcd.endpoint, timeoutMs: 30_000 });
    } catch (e) {
      if (!(e instanceof CapstanStartError)) throw e;
      const firstLines = e.message.split('\n').filter((l) => l.trim()).slice(0, 4).join(' | ');
      ctx.note(`${SYSTEMS.capstanEtcd} skipped: the server did not start with --etcd-servers (${firstLines.slice(0, 400)})`);
      return;
    }
    try {
      await capstanWorkloads(ctx, SYSTEMS.capstanEtcd, server.target, server.pid, etcd.pid);
    } finally {
      await server.stop();
    }
  } finally {
    await etcd.stop();
  }
}
