// Raw etcd for the baseline: Debian's etcd-server on loopback with a fresh data directory. Installs the
// package with apt-get when the binary is missing, and says so.
import { execFileSync } from 'node:child_process';
import { openSync, closeSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { spawnTracked, stopChild } from './children.ts';
import { freePort } from './ports.ts';
import { sleep } from './proc.ts';

function hasEtcd(): boolean {
  try { execFileSync('etcd', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; }
}

/** Makes sure `etcd` is on the PATH; returns a note when it had to install it, throws when it cannot. */
export function ensureEtcdInstalled(log: (msg: string) => void): string | null {
  if (hasEtcd()) return null;
  log('etcd not found: installing the Debian package etcd-server with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => execFileSync('apt-get', ['install', '-y', '-q', 'etcd-server'], { stdio: 'inherit', env });
  try { install(); } catch {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
    install();
  }
  if (!hasEtcd()) throw new Error('etcd-server was installed but etcd is still not on the PATH');
  return 'etcd-server was not installed; the benchmark installed it with apt-get';
}

export interface EtcdServer { endpoint: string; child: ChildProcess; pid: number; readyMs: number; stop(): Promise<void> }

export async function startEtcd(dataDir: string, logDir: string, name = 'etcd'): Promise<EtcdServer> {
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  mkdirSync(dataDir, { recursive: true });
  const logFd = openSync(join(logDir, `${name}.log`), 'a');
  const t0 = performance.now();
  const child = spawnTracked('etcd', [
    '--name', 'bench', '--data-dir', dataDir,
    '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `bench=${peer}`,
    '--quota-backend-bytes', String(8 * 2 ** 30),
  ], { stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`etcd exited with code ${child.exitCode}; see ${join(logDir, `${name}.log`)}`);
    try {
      const r = await fetch(`${endpoint}/health`);
      if (r.ok && ((await r.json()) as { health?: string }).health === 'true') break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) { await stopChild(child); throw new Error('etcd did not become healthy in 20 s'); }
    await sleep(10);
  }
  return { endpoint, child, pid: child.pid!, readyMs: performance.now() - t0, stop: () => stopChild(child) };
}
