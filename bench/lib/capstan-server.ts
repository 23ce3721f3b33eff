// Capstan as its own process, exactly as a user starts it (the `capstan` command, as `npm start` runs it),
// and the wait until it answers /readyz 200.
import { existsSync, openSync, closeSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'node:https';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { nodeArgsFrom, spawnTracked, stopChild } from './children.ts';
import { freePort } from './ports.ts';
import { sleep } from './proc.ts';
import { readKubeconfigFile, type Target } from './tls.ts';

export interface CapstanServer {
  child: ChildProcess;
  pid: number;
  port: number;
  dataDir: string;
  target: Target;
  /** Process spawn to the first /readyz 200, in ms. */
  readyMs: number;
  logPath: string;
  stop(): Promise<void>;
}

export class CapstanStartError extends Error {
  readonly exitCode: number | null;
  constructor(message: string, exitCode: number | null) { super(message); this.exitCode = exitCode; }
}

/** The package's `capstan` command (what `npm start` runs), relative to the repository. */
const CAPSTAN_COMMAND = join('bin', 'capstan.js');

export function capstanAvailable(repoRoot: string): boolean {
  return existsSync(join(repoRoot, 'src', 'cli.ts')) && existsSync(join(repoRoot, CAPSTAN_COMMAND));
}

/**
 * Builds the bundle the command runs, if a source changed since the last build, so that no measured
 * start includes a build: a user's first start after a change pays it once.
 */
export function buildCapstanBundle(repoRoot: string): void {
  execFileSync(process.execPath, [join(repoRoot, 'bin', 'bundle.js')], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
}

function tail(path: string, lines = 15): string {
  try { return readFileSync(path, 'utf8').split('\n').slice(-lines).join('\n'); } catch { return ''; }
}

function probe(url: string, creds: Partial<Target>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'GET', agent: false, rejectUnauthorized: false, servername: 'localhost',
      ca: creds.ca, cert: creds.cert, key: creds.key, timeout: 2000,
    }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.on('error', () => resolve(0));
    req.on('timeout', () => { req.destroy(); resolve(0); });
    req.end();
  });
}

/** Polls GET /readyz until it answers 200, using the admin kubeconfig's client certificate once it exists. */
async function waitReady(child: ChildProcess, port: number, kubeconfigPath: string, timeoutMs: number, logPath: string): Promise<Target> {
  const url = `https://127.0.0.1:${port}`;
  const deadline = performance.now() + timeoutMs;
  let creds: Partial<Target> = {};
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new CapstanStartError(`Capstan exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail(logPath)}`, child.exitCode);
    }
    if (!creds.cert && existsSync(kubeconfigPath)) {
      try { creds = readKubeconfigFile(kubeconfigPath); } catch { /* still being written */ }
    }
    const status = await probe(`${url}/readyz`, creds);
    if (status === 200) return { url, ...creds };
    if (status === 401 || status === 403) creds = {}; // a kubeconfig from an earlier start: read it again
    if (performance.now() > deadline) throw new CapstanStartError(`Capstan was not ready within ${timeoutMs} ms:\n${tail(logPath)}`, null);
    await sleep(status === 0 ? 2 : 5);
  }
}

async function waitForKubeconfig(path: string, logPath: string): Promise<Omit<Target, 'url'>> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    try {
      const c = readKubeconfigFile(path);
      if (c.cert && c.key) return { ca: c.ca, cert: c.cert, key: c.key };
    } catch { /* not written yet */ }
    if (performance.now() > deadline) throw new CapstanStartError(`Capstan was ready but wrote no admin kubeconfig at ${path}:\n${tail(logPath)}`, null);
    await sleep(5);
  }
}

export interface StartCapstanOptions {
  repoRoot: string;
  dataDir: string;
  logDir: string;
  name: string;
  etcdServers?: string;
  timeoutMs?: number;
}

export async function startCapstan(o: StartCapstanOptions): Promise<CapstanServer> {
  const port = await freePort();
  const logPath = join(o.logDir, `${o.name}.log`);
  const logFd = openSync(logPath, 'a');
  // CAPSTAN_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") goes to the server's node, to profile it under a workload.
  const args = [...nodeArgsFrom('CAPSTAN_NODE_ARGS'), CAPSTAN_COMMAND, 'serve', '--data-dir', o.dataDir, '--secure-port', String(port), '--bind-address', '127.0.0.1'];
  if (o.etcdServers) args.push('--etcd-servers', o.etcdServers);
  const t0 = performance.now();
  const child = spawnTracked(process.execPath, args, { cwd: o.repoRoot, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  try {
    const kubeconfigPath = join(o.dataDir, 'admin.kubeconfig');
    let target = await waitReady(child, port, kubeconfigPath, o.timeoutMs ?? 60_000, logPath);
    const readyMs = performance.now() - t0;
    // /readyz may answer without credentials before the admin kubeconfig is written; the clients need it.
    if (!target.cert) target = { url: target.url, ...(await waitForKubeconfig(kubeconfigPath, logPath)) };
    return { child, pid: child.pid!, port, dataDir: o.dataDir, target, readyMs, logPath, stop: () => stopChild(child, 10_000) };
  } catch (e) {
    await stopChild(child);
    throw e;
  }
}
